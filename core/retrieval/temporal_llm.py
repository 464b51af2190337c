"""The temporal LLM fallback: when the rules find no time in a query that is about time.

The deterministic parser runs first; only when it matched nothing but the query carries temporal
intent ("notes from a while ago") is the translate chain asked. The prompt
(``policies/prompts/temporal.v1.md``) carries a calendar of the days around today (yesterday,
every weekday of last, this and next week, the first of the months around this one, this and
last year), so the model looks dates up instead of computing them. It answers one JSON object,
``{"start": "YYYY-MM-DD", "end": "YYYY-MM-DD"}`` or ``{"none": true}``; only a well-formed,
plausible span (strict ISO days, start <= end, within ten years of today, at most 366 days) is
used. Answers, refusals included, are cached per (query, today) in a small LRU on the App.

Fail-open: a failing model leaves the rules' result, its ``fallback`` saying why.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from ctx.core.errors import error_text
from ctx.core.llm import NoBackend, available, chat, first_json, render_prompt
from ctx.core.temporal import FALLBACK_SKIPPED, TemporalResult, direction_between

if TYPE_CHECKING:
    from ctx.core.app import App
    from ctx.core.retrieval.pipeline import QueryRun

PROMPT = ("temporal", "v1")
CACHE_SIZE = 512
#: the weights of a plain span, as the rules give a generic range: distance on the time line only
WEIGHTS = {"linear": 1.0}
MAX_SPAN_DAYS = 366
MAX_YEARS_AWAY = 10
MATCHER = "llm"
NO_BACKEND = FALLBACK_SKIPPED

_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass(frozen=True)
class Lookup:
    """What the model said about one query: a span, or None and why not."""

    result: TemporalResult | None
    reason: str


class _Cache:
    """A small thread-safe LRU of lookups, one per App."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, str], Lookup] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> Lookup | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple[str, str], value: Lookup) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


def _cache(app: App) -> _Cache:
    """The App's lookup cache (made on first use; lives and dies with the App)."""
    found: _Cache | None = app.__dict__.get("_temporal_llm_cache")
    if found is None:
        found = app.__dict__.setdefault("_temporal_llm_cache", _Cache(CACHE_SIZE))
    return found


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def calendar_table(today: date) -> str:
    """The days the prompt lists, as Markdown tables the model reads values from."""
    day = timedelta(days=1)
    rows = [
        "| day | date |",
        "|---|---|",
        f"| today | {today.isoformat()} ({_WEEKDAYS[today.weekday()]}) |",
        f"| yesterday | {(today - day).isoformat()} |",
        f"| the day before yesterday | {(today - 2 * day).isoformat()} |",
        f"| tomorrow | {(today + day).isoformat()} |",
        f"| the day after tomorrow | {(today + 2 * day).isoformat()} |",
        "",
        "| weekday | last week | this week | next week |",
        "|---|---|---|---|",
    ]
    monday = today - timedelta(days=today.weekday())
    for i, name in enumerate(_WEEKDAYS):
        this = monday + timedelta(days=i)
        rows.append(
            f"| {name} | {(this - 7 * day).isoformat()} | {this.isoformat()} | "
            f"{(this + 7 * day).isoformat()} |"
        )
    this_month = today.replace(day=1)
    rows += ["", "| period | first day | last day |", "|---|---|---|"]
    for label, first, last in (
        ("last week", monday - 7 * day, monday - day),
        ("this week", monday, monday + 6 * day),
        ("next week", monday + 7 * day, monday + 13 * day),
        ("last month", _add_months(this_month, -1), this_month - day),
        ("this month", this_month, _add_months(this_month, 1) - day),
        ("next month", _add_months(this_month, 1), _add_months(this_month, 2) - day),
        ("last year", date(today.year - 1, 1, 1), date(today.year - 1, 12, 31)),
        ("this year", date(today.year, 1, 1), date(today.year, 12, 31)),
    ):
        rows.append(f"| {label} | {first.isoformat()} | {last.isoformat()} |")
    return "\n".join(rows)


def _messages(text: str, today: date) -> list[dict[str, str]]:
    system = render_prompt(
        *PROMPT,
        today=today.isoformat(),
        weekday=_WEEKDAYS[today.weekday()],
        calendar=calendar_table(today),
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": text}]


def _iso_day(value: Any) -> date | None:
    if not isinstance(value, str) or not _ISO_DAY.fullmatch(value):
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def read_answer(answer: str, today: date) -> Lookup:
    """Check a model's answer; a span passes only when it is well-formed and plausible."""
    found = first_json(answer, dict)
    if found is None:
        return Lookup(None, "rejected: no JSON object in the answer")
    if found.get("none") is True and "start" not in found:
        return Lookup(None, "no dates")
    start, end = _iso_day(found.get("start")), _iso_day(found.get("end"))
    if start is None or end is None:
        return Lookup(None, "rejected: start and end must be YYYY-MM-DD days")
    if start > end:
        return Lookup(None, f"rejected: start {start} is after end {end}")
    far = timedelta(days=round(365.25 * MAX_YEARS_AWAY))
    if start < today - far or end > today + far:
        return Lookup(None, f"rejected: more than {MAX_YEARS_AWAY} years from today")
    if (end - start).days + 1 > MAX_SPAN_DAYS:
        return Lookup(None, f"rejected: a span of more than {MAX_SPAN_DAYS} days")
    result = TemporalResult.span(
        start, end, direction_between(start, end, today), WEIGHTS, matcher=MATCHER, intent=True
    )
    return Lookup(result, "resolved")


def _key(text: str, today: date, asker: str) -> tuple[str, str]:
    # per caller: a cached answer (faster, marked in explain) must not tell one key what
    # another asked today
    return f"{asker}\x1f{' '.join(text.lower().split())}", today.isoformat()


def lookup(app: App, text: str, today: date, asker: str = "") -> tuple[Lookup, bool]:
    """Ask the translate chain (or the cache) for the span ``text`` names; ``(lookup, cached)``.
    The cache is per ``asker`` (a key id). Model errors and ``NoBackend`` propagate (and are
    not cached)."""
    cache = _cache(app)
    key = _key(text, today, asker)
    hit = cache.get(key)
    if hit is not None:
        return hit, True
    reply = chat(app, "translate", lambda _pieces: _messages(text, today),
                 params={"temperature": 0})  # fmt: skip
    found = read_answer(reply.text, today)
    cache.put(key, found)
    return found, False


def resolve_with_llm(app: App, text: str, today: date) -> TemporalResult | None:
    """The span the model finds in ``text`` (matcher ``llm``), or None when it finds none or
    its answer is refused. Model errors propagate."""
    found, _ = lookup(app, text, today)
    return None if found.result is None else found.result.with_updates()


def apply_fallback(q: QueryRun, result: TemporalResult) -> TemporalResult:
    """The ``temporal`` stage's second try: ask the model when the rules found no time in a
    query about time. Returns ``result`` (its ``fallback`` saying why) or the model's span."""
    if result.matched or not result.intent or result.fallback != FALLBACK_SKIPPED:
        return result
    app = q.app
    if not app.settings["query.temporal_llm"]:
        q.note(temporal_llm="off")
        return result.with_updates(fallback="skipped: query.temporal_llm is off")
    why = available(app, "translate")
    if why is not None:
        q.note(temporal_llm=f"no translate backend: {why}")
        return result.with_updates(fallback=NO_BACKEND)
    today = q.request.now or date.today()
    try:
        found, cached = lookup(app, q.request.query, today, q.who.key_id)
    except NoBackend as exc:
        q.note(temporal_llm=f"no translate backend: {exc.reason}")
        return result.with_updates(fallback=NO_BACKEND)
    except Exception as exc:
        message = error_text(exc, str)
        q.note(temporal_llm=f"failed: {message}")
        q.warn(f"temporal fallback failed ({message}); the query ran without a time")
        return result.with_updates(fallback=f"llm failed: {message}")
    q.note(temporal_llm=found.reason, cached=cached)
    if found.result is None:
        return result.with_updates(fallback=f"llm: {found.reason}")
    return found.result.with_updates(fallback="llm: resolved")
