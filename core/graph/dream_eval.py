"""Dream's model answers, checked: keywords, typed links, recurrent confirmations.

The model sees candidates under short labels (C1, C2, ...), never block ids, so it cannot invent an
id; an unknown label, an unknown type, a confidence that is not a number in [0, 1] or an answer
that is not the JSON asked for is ignored and logged. After parsing, the structural safety net for
supersedes (the seed's hardest lesson) runs: the newer block (by created time) must be the source,
else the link is written as topical; it also needs the same category and title trigram similarity
of at least ``dream.supersedes_title_similarity``, else topical. Then the confidence floors and the
per-cycle cap with its type-diversity tie-break.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from ctx.core.llm import first_json

log = logging.getLogger("ctx.dream")

MAX_KEYWORDS = 5
MAX_KEYWORD_CHARS = 80
EVALUATED = ("supersedes", "causal", "factual", "topical")
DIRECTED = ("supersedes", "causal", "factual")


@dataclass(frozen=True)
class Candidate:
    label: str
    id: str
    category: str
    title: str
    content: str
    sensitivity: str
    created_at: datetime
    title_similarity: float  # pg_trgm similarity to the source's title


@dataclass(frozen=True)
class Proposal:
    """A link as it will be written: source -> target."""

    source_id: str
    target_id: str
    type: str
    confidence: float
    note: str = ""


def parse_keywords(text: str) -> list[str] | None:
    """Up to five distinct, short phrases; None when the answer holds no JSON array."""
    value = first_json(text, list)
    if value is None:
        return None
    out: list[str] = []
    for item in value:
        if not isinstance(item, str):
            continue
        phrase = " ".join(item.split())[:MAX_KEYWORD_CHARS]
        if phrase and phrase.lower() not in (p.lower() for p in out):
            out.append(phrase)
        if len(out) == MAX_KEYWORDS:
            break
    return out


def _confidence(raw: Any) -> float | None:
    if isinstance(raw, bool):
        return None
    try:
        value = float(raw)
    except (TypeError, ValueError):
        return None
    return value if 0.0 <= value <= 1.0 else None


def parse_links(
    text: str, source_id: str, candidates: Mapping[str, Candidate]
) -> tuple[list[Proposal], list[str]] | None:
    """The links of an evaluation answer and what was ignored (why); None when the answer holds
    no JSON array."""
    value = first_json(text, list)
    if value is None:
        return None
    out: list[Proposal] = []
    ignored: list[str] = []
    for item in value:
        if not isinstance(item, dict):
            ignored.append("an entry that is not an object")
            continue
        label = str(item.get("target", "")).strip()
        kind = str(item.get("type", "")).strip().lower()
        conf = _confidence(item.get("confidence"))
        cand = candidates.get(label)
        if cand is None:
            ignored.append(f"unknown target {label[:20]!r}")
        elif kind == "none":
            continue
        elif kind not in EVALUATED:
            ignored.append(f"unknown type {kind[:20]!r}")
        elif conf is None:
            ignored.append(f"no usable confidence for {label}")
        elif kind in DIRECTED and str(item.get("from", "source")).lower() == "candidate":
            out.append(Proposal(cand.id, source_id, kind, conf))
        else:
            out.append(Proposal(source_id, cand.id, kind, conf))
    return out, ignored


def parse_recurrent(text: str, candidates: Mapping[str, Candidate]) -> dict[str, float] | None:
    """Candidate id -> confidence for each candidate confirmed recurrent; None when unreadable."""
    value = first_json(text, list)
    if value is None:
        return None
    out: dict[str, float] = {}
    for item in value:
        if not isinstance(item, dict) or item.get("recurrent") is not True:
            continue
        cand = candidates.get(str(item.get("target", "")).strip())
        conf = _confidence(item.get("confidence"))
        if cand is not None and conf is not None:
            out[cand.id] = conf
    return out


@dataclass(frozen=True)
class Net:
    """The settings the safety net applies."""

    min_confidence: float
    min_recurrent: float
    title_similarity: float
    max_links: int


def safety_net(
    proposals: Sequence[Proposal],
    source: Candidate,
    candidates: Mapping[str, Candidate],
    net: Net,
) -> list[Proposal]:
    """Supersedes direction and acceptance (downgrades to topical), then the floors."""
    by_id = {c.id: c for c in candidates.values()}
    by_id[source.id] = source
    out: list[Proposal] = []
    for p in proposals:
        if p.type == "supersedes":
            newer, older = by_id[p.source_id], by_id[p.target_id]
            if not newer.created_at > older.created_at:
                p = replace(p, type="topical", note="supersedes downgraded: the source is older")
            else:
                other = older if newer.id == source.id else newer
                if newer.category != older.category:
                    p = replace(p, type="topical", note="supersedes downgraded: other category")
                elif other.title_similarity < net.title_similarity:
                    p = replace(p, type="topical", note="supersedes downgraded: titles differ")
        floor = net.min_recurrent if p.type == "recurrent" else net.min_confidence
        if p.confidence >= floor:
            out.append(p)
    return out


def capped(proposals: Sequence[Proposal], limit: int) -> list[Proposal]:
    """At most ``limit`` links, one per pair (the most confident), by confidence; among equal
    confidences a type not yet taken goes first."""
    best: dict[frozenset[str], Proposal] = {}
    for p in proposals:
        key = frozenset((p.source_id, p.target_id))
        if key not in best or p.confidence > best[key].confidence:
            best[key] = p
    left = sorted(best.values(), key=lambda p: (-p.confidence, p.type, p.target_id))
    chosen: list[Proposal] = []
    taken: set[str] = set()
    while left and len(chosen) < limit:
        top = left[0].confidence
        tied = [p for p in left if p.confidence == top]
        pick = next((p for p in tied if p.type not in taken), tied[0])
        chosen.append(pick)
        taken.add(pick.type)
        left.remove(pick)
    return chosen


def with_recurrent(
    proposals: Sequence[Proposal], source_id: str, confirmed: Mapping[str, float]
) -> list[Proposal]:
    """Recurrent wins over topical for the same pair; other types stay."""
    out = [
        p
        for p in proposals
        if not (
            p.type == "topical" and ({p.source_id, p.target_id} - {source_id}) & confirmed.keys()
        )
    ]
    out += [Proposal(source_id, cid, "recurrent", conf) for cid, conf in confirmed.items()]
    return out


def source_block(label: str, title: str, content: str, chars: int) -> str:
    return f"<{label}>\n{title}\n\n{content[:chars]}\n</{label}>"


def candidate_block(c: Candidate, chars: int) -> str:
    return f'<candidate id="{c.label}">\n{c.title}\n\n{c.content[:chars]}\n</candidate>'
