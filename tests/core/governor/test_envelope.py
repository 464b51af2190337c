"""The envelope builder, property-tested: whatever goes in, the list fits its budget (as the
counter counts it, framing included), keeps its order and never shows a record twice."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ctx.core import ValidationError
from ctx.core.governor import DeskItem, Event, Pin, TokenCounter, build, count_messages

WORDS = TokenCounter("words", lambda text: len(text.split()) + text.count("\n"), exact=True)
TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=300)


def _event(seq: int, content: str, role: str = "user") -> Event:
    return Event(
        seq,
        role,
        None,
        content,
        datetime(2024, 1, 1, tzinfo=UTC),
        "internal",
        f"00000000-0000-0000-0000-{seq:012d}",
    )


@settings(max_examples=300, deadline=None)
@given(
    budget=st.integers(min_value=20, max_value=3000),
    system=st.one_of(st.none(), TEXT),
    pins=st.lists(TEXT, max_size=3),
    current=TEXT.filter(str.strip),
    ring=st.lists(TEXT, max_size=15),
    desk=st.lists(TEXT, max_size=30),
    ring_share=st.floats(min_value=0, max_value=1),
)
def test_every_built_envelope_fits_its_budget(
    budget, system, pins, current, ring, desk, ring_share
) -> None:
    n = len(ring)
    ring_events = [
        _event(n - i, t or "x", "assistant" if i % 2 else "user") for i, t in enumerate(ring)
    ]  # newest first
    event = _event(n + 1, current)
    items = [
        DeskItem(f"d{i}", t or "y", 1.0 / (i + 1), "thread", "internal") for i, t in enumerate(desk)
    ]
    items += [DeskItem(e.record_id, e.content, 0.5, "thread", "internal") for e in ring_events]
    try:
        built = build(
            WORDS,
            budget,
            system=system,
            pins=[Pin(i, t or "p") for i, t in enumerate(pins)],
            event=event,
            ring=ring_events,
            desk=items,
            ring_events=10,
            ring_share=ring_share,
            desk_items=60,
            desk_header="Desk:",
            pins_header="Pins:",
        )
    except ValidationError as exc:
        assert "too small" in exc.message
        return
    assert built.tokens == count_messages(WORDS, built.messages) <= budget
    assert built.kinds[-1] == "event"
    ring_seqs = [e.seq for e in built.ring]
    assert ring_seqs == sorted(ring_seqs, reverse=True)  # newest first, contiguous from the top
    assert ring_seqs == [e.seq for e in ring_events[: len(ring_seqs)]]
    shown = [i.id for i in built.desk]
    assert len(shown) == len(set(shown))
    assert not set(shown) & {e.record_id for e in built.ring}


def test_the_current_event_is_shortened_only_when_nothing_else_fits() -> None:
    event = _event(1, "word " * 500)
    built = build(
        WORDS,
        100,
        system="Be brief.",
        pins=[],
        event=event,
        ring=[],
        desk=[],
        ring_events=10,
        ring_share=0.25,
        desk_items=10,
        desk_header="D",
        pins_header="P",
    )
    assert built.truncated and built.tokens <= 100
    assert built.messages[-1]["content"].endswith("shortened to fit the budget]")


def test_fixed_parts_over_the_budget_are_refused() -> None:
    with pytest.raises(ValidationError, match="too small"):
        build(
            WORDS,
            30,
            system="rule " * 40,
            pins=[],
            event=_event(1, "hi"),
            ring=[],
            desk=[],
            ring_events=10,
            ring_share=0.25,
            desk_items=10,
            desk_header="D",
            pins_header="P",
        )
