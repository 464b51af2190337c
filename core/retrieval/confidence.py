"""Confidence classes and the thresholds behind them, carried across RRF constants."""

from __future__ import annotations

SEED_K = 60  # the confidence thresholds are stated for RRF with k = 60
CONFIDENT = "confident"
LOW_CONFIDENCE = "low_confidence"
NOTHING_FOUND = "no_relevant_blocks_found"


def threshold_scale(k: int) -> float:
    """Factor that carries the thresholds to another k: the best possible score is Σw / (k + 1)."""
    return (SEED_K + 1) / (k + 1)


def classify(best: float, confident: float, floor: float) -> str:
    if best >= confident:
        return CONFIDENT
    if best >= floor:
        return LOW_CONFIDENCE
    return NOTHING_FOUND
