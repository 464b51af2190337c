"""LoCoMo data for the benchmarks: loading conversations and questions, and scoring rankings.

Shared by ``locomo.py`` (the benchmark) and ``locomo_variants.py`` (its local experiments).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
KS = (1, 5, 10)
EVIDENCE_RE = re.compile(r"D:?(\d+):(\d+)")

# -- data --------------------------------------------------------------------------------------


@dataclass
class Turn:
    dia_id: str
    speaker: str
    text: str
    session: int
    when: datetime | None
    caption: str | None = None  # the shared image's caption ("a photo of ..."), when there is one


@dataclass
class Question:
    text: str
    category: int
    evidence: set[str]


@dataclass
class Conversation:
    sample_id: str
    scope: str
    turns: list[Turn] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)
    skipped: int = 0  # questions of categories 1-4 without a usable evidence id


def parse_session_date(raw: str | None) -> datetime | None:
    """'1:56 pm on 8 May, 2023' -> 2023-05-08 13:56 UTC; None when absent or unparseable."""
    if not raw:
        return None
    text = " ".join(raw.replace(",", " ").split())
    for fmt in ("%I:%M %p on %d %B %Y", "%I:%M%p on %d %B %Y", "%d %B %Y", "%B %d %Y"):
        try:
            return datetime.strptime(text, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    return None


def parse_evidence(items: list[str]) -> set[str]:
    """Normalise evidence ids: 'D8:6; D9:17' -> {D8:6, D9:17}, 'D:11:26' -> D11:26, 'D' -> none."""
    out: set[str] = set()
    for item in items:
        out.update(f"D{a}:{b}" for a, b in EVIDENCE_RE.findall(str(item)))
    return out


def load(path: Path) -> list[Conversation]:
    data = json.loads(path.read_text(encoding="utf-8"))
    convs = []
    for i, sample in enumerate(data):
        sample_id = str(sample.get("sample_id") or f"conv-{i}")
        scope = "locomo-" + re.sub(r"[^a-z0-9_.-]", "-", sample_id.lower())[:40]
        conv = Conversation(sample_id=sample_id, scope=scope)
        c = sample["conversation"]
        sessions = sorted(
            (int(m.group(1)), v)
            for k, v in c.items()
            if (m := re.fullmatch(r"session_(\d+)", k)) and isinstance(v, list)
        )
        for n, turns in sessions:
            when = parse_session_date(c.get(f"session_{n}_date_time"))
            for t in turns:
                caption = t.get("blip_caption") or None
                conv.turns.append(Turn(t["dia_id"], t["speaker"], t["text"], n, when, caption))
        for q in sample.get("qa", []):
            cat = int(q.get("category", 0))
            evidence = parse_evidence(q.get("evidence", []))
            if cat in CATEGORIES and evidence:
                conv.questions.append(Question(q["question"], cat, evidence))
            elif cat in CATEGORIES:
                conv.skipped += 1
        convs.append(conv)
    return convs


#: how a block's title is written: ``user`` as a person or an agent storing a chat turn would
#: ("Caroline D1:3"), ``speaker-date`` with the session's date ("Caroline, 8 May 2023 (D1:3)"),
#: ``speaker`` ("Caroline (D1:3)"), ``dia`` (only the id)
TITLE_STYLES = ("user", "speaker-date", "speaker", "dia")


def title_for(turn: Turn, style: str) -> str:
    date = f"{turn.when.day} {turn.when:%B %Y}" if turn.when else f"session {turn.session}"
    if style == "user":
        return f"{turn.speaker} {turn.dia_id}"
    if style == "speaker-date":
        return f"{turn.speaker}, {date} ({turn.dia_id})"
    if style == "speaker":
        return f"{turn.speaker} ({turn.dia_id})"
    if style == "dia":
        return turn.dia_id
    raise ValueError(f"unknown title style {style!r}")


def content_for(turn: Turn, captions: bool) -> str:
    """``"Speaker: text"``, with the shared image's caption appended as a chat client shows it
    (``"[shares a photo of ...]"``) when ``captions``: the turn that shares the photo is often the
    evidence, and its words alone ("Look at this!") do not say what it shows."""
    text = f"{turn.speaker}: {turn.text}"
    if captions and turn.caption:
        text += f" [shares {turn.caption}]"
    return text


# -- scoring -----------------------------------------------------------------------------------


def first_hit(ranked_dia: list[str], evidence: set[str]) -> int | None:
    for rank, dia in enumerate(ranked_dia, start=1):
        if dia in evidence:
            return rank
    return None


def summarise(hits: list[tuple[int, int | None]]) -> dict[str, Any]:
    """hits: (category, rank of the first evidence turn or None) per question."""

    def figures(ranks: list[int | None]) -> dict[str, float | int]:
        n = len(ranks)
        out: dict[str, float | int] = {"n": n}
        for k in KS:
            out[f"r@{k}"] = round(sum(1 for r in ranks if r is not None and r <= k) / n, 3)
        out["mrr"] = round(sum(1.0 / r for r in ranks if r is not None) / n, 3)
        return out

    by_cat: dict[int, list[int | None]] = defaultdict(list)
    for cat, rank in hits:
        by_cat[cat].append(rank)
    return {
        "overall": figures([r for _, r in hits]),
        "by_category": {str(c): figures(by_cat[c]) for c in sorted(by_cat)},
    }
