"""Vector hygiene shared by every embedder: L2 normalisation, Matryoshka truncation, quality gate.

The gate catches what a misbehaving server or a broken model produces: a vector that is not unit
length after normalisation (zero, NaN, infinite) or one whose values barely vary (a constant
vector, which makes every cosine similarity the same and silently ruins retrieval).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ctx.core.errors import ConfigError, EmbeddingError

MIN_NORM = 0.99
MAX_NORM = 1.01
MIN_VARIANCE = 1e-4


def l2_normalize(vecs: ArrayLike) -> NDArray[np.float32]:
    """Return float32 copies of ``vecs`` (one vector or a 2-D batch) scaled to unit length.

    A zero (or non-finite) vector cannot be normalised; it is returned as it is, so the quality
    gate reports it instead of it turning into NaN here.
    """
    out = np.array(vecs, dtype=np.float32)
    norms = np.linalg.norm(out, axis=-1, keepdims=True)
    usable = np.isfinite(norms) & (norms > 0)
    np.divide(out, norms, out=out, where=usable)
    return out


def truncate_matryoshka(vecs: ArrayLike, dim: int) -> NDArray[np.float32]:
    """Keep the first ``dim`` values of each vector, then re-normalise.

    Models trained with Matryoshka representation learning put most of the meaning in the leading
    dimensions, so a prefix is a smaller embedding of the same text.
    """
    arr = np.asarray(vecs, dtype=np.float32)
    if dim < 1:
        raise ConfigError(f"embedding dimensions must be at least 1, got {dim}")
    width = arr.shape[-1]
    if dim > width:
        raise EmbeddingError(
            f"the model returned {width}-dimensional vectors but {dim} dimensions are configured; "
            f"set the embedder's dimensions to {width} or less"
        )
    return l2_normalize(arr[..., :dim])


def quality_gate(
    vecs: ArrayLike,
    *,
    min_norm: float = MIN_NORM,
    max_norm: float = MAX_NORM,
    min_variance: float = MIN_VARIANCE,
) -> NDArray[np.float32]:
    """Check normalised vectors and return them as float32; raise ``EmbeddingError`` otherwise.

    Each row must be finite, have a norm in ``[min_norm, max_norm]`` and a variance above
    ``min_variance``. The error names the first failing row and why. Note that a unit vector of
    ``d`` values has a variance of at most ``1 / d``, so the default threshold suits ``d`` up to a
    few thousand.
    """
    arr = np.asarray(vecs, dtype=np.float32)
    rows = arr.reshape(1, -1) if arr.ndim == 1 else arr
    if rows.ndim != 2 or rows.shape[1] == 0:
        raise EmbeddingError(f"expected a batch of vectors, got an array of shape {arr.shape}")
    finite = np.asarray(np.isfinite(rows).all(axis=1))
    safe = np.where(np.isfinite(rows), rows, 0.0)  # the finite check reports the others
    norms = np.linalg.norm(safe, axis=1)
    variances = safe.var(axis=1, dtype=np.float64)
    for row in range(rows.shape[0]):
        problem = None
        if not finite[row]:
            problem = "it contains NaN or infinite values"
        elif not min_norm <= norms[row] <= max_norm:
            problem = f"its norm is {norms[row]:.4g}, outside [{min_norm}, {max_norm}]"
            if norms[row] == 0:
                problem += " (a zero vector)"
        elif variances[row] <= min_variance:
            problem = (
                f"its variance is {variances[row]:.3g}, not above {min_variance} "
                "(a constant or degenerate vector)"
            )
        if problem:
            raise EmbeddingError(
                f"embedding {row} of {rows.shape[0]} failed the quality gate: {problem}; "
                "the embedding model or server is misbehaving"
            )
    return arr


def vector_literal(vec: np.ndarray) -> str:
    """A pgvector literal: ``[0.5,-1,1e-07]``."""
    return "[" + ",".join(f"{float(x):.6g}" for x in vec) + "]"
