"""Vectors on the wire: pgvector's binary ``halfvec`` format instead of text literals.

A 384-dimensional vector is about 3 KB as a text literal (formatted in Python, parsed by the
server) and 772 bytes in binary (``HalfVector.to_binary``: a header and IEEE half floats), which
is also what the columns store, so nothing is rounded twice. ``binary_vectors(conn)`` registers
the ``halfvec`` adapters on a connection once (one catalogue lookup per pooled connection).
Whether a pooled connection has them depends on its history, so code that reads a ``halfvec``
column passes the value through ``as_array`` (which takes both forms) or casts it to text.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
import psycopg
from numpy.typing import NDArray
from pgvector import HalfVector
from psycopg.types import TypeInfo

_ready: weakref.WeakSet[psycopg.Connection[Any]] = weakref.WeakSet()


def binary_vectors(conn: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    """Register pgvector's ``halfvec`` dumpers and loaders on ``conn`` (once); return it."""
    if conn not in _ready:
        from pgvector.psycopg.halfvec import register_halfvec_info

        info = TypeInfo.fetch(conn, "halfvec")
        if info is None:
            raise psycopg.ProgrammingError("the pgvector extension (halfvec) is not installed")
        register_halfvec_info(conn, info)
        _ready.add(conn)
    return conn


def halfvec(vec: NDArray[Any]) -> HalfVector:
    """A query parameter sent as binary ``halfvec``."""
    return HalfVector(np.asarray(vec, dtype=np.float16))


def as_array(value: HalfVector | str) -> NDArray[np.float32]:
    """A ``halfvec`` column value (binary via the adapters, or a text literal) as float32."""
    if isinstance(value, HalfVector):
        return value.to_numpy().astype(np.float32)
    return np.array(value.strip("[]").split(","), dtype=np.float32)
