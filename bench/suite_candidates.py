"""Candidate retrieval settings the suite compares with the defaults (``retrieval_suite.py
--candidates``): each a set of ``query.*`` values applied per request, nothing written.

``before 37`` is the state before issue 37 (plain rank fusion of the text channels, rescore
without the words' coverage, every writing-order neighbour); the others change one thing of
the current defaults."""

from __future__ import annotations

from typing import Any

CANDIDATES: dict[str, dict[str, Any]] = {
    "before 37": {
        "query.text_support": 0.0,
        "query.rescore_text_coverage": 0.0,
        "query.neighbour_gate": "none",
    },
    "no text support": {"query.text_support": 0.0},
    "text support 0.5": {"query.text_support": 0.5},
    "no text coverage": {"query.rescore_text_coverage": 0.0},
    "gate none": {"query.neighbour_gate": "none"},
    "gate confident": {"query.neighbour_gate": "confident"},
    "neighbours off": {"query.neighbour_weight": 0.0},
    "rescore dense 1.0": {"query.rescore_weight_dense": 1.0},
    "rescore off": {"query.rescore_depth": 0},
    "rrf_k 60": {"query.rrf_k": 60},
}
