"""Rules for spans that end or start today: rolling spans ("the last 5 days", "in den vergangenen
zwei Wochen", "over the past month", "the next 3 days") and the part of a period before or after
today ("earlier this week", "so far this year", "Rest der Woche", "im Laufe des Monats")."""

from __future__ import annotations

from ctx.core import temporal_kit as kit

W_ROLLING = {"linear": 1.0}
#: "a few days", "in den letzten Wochen": how many units a plural without a number spans.
FEW = 3
_PERIODS = ("week", "month", "quarter", "year")


def _count(inp: kit.RuleInput, j: int) -> tuple[int | None, int]:
    """The number at token ``j`` (the last of a run: "a few" is 1, 3) and the token after it."""
    amount = None
    while inp.kind(j) == "num":
        amount, j = inp.int_value(j), j + 1
    return amount, j


@kit.needs("rel", "in")
def rolling_span(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """ "the last 5 days" -> [today - 5 days, today]; "the next two weeks" -> [today, today + 2
    weeks]. Without a number a plural unit spans a few units ("in den letzten Wochen"), and a
    singular one only after a rolling word or opener ("the past month", "within the last week");
    "last week" stays the calendar week. "Within 3 days" spans from today too."""
    lex = inp.lex
    for i in inp.find("rel"):
        rel = inp.int_value(i)
        if rel not in (-1, 1):
            continue
        amount, j = _count(inp, i + 1)
        if inp.kind(j) != "unit":
            continue
        unit = str(inp.value(j))
        after = inp.toks[j + 1] if j + 1 < len(inp.toks) else None
        if after is not None and (
            after.prev_raw in lex.fillers or (after.kind == "from" and after.raw == "von")
        ):
            continue  # "the last days of June/of Rome", "die letzten Tage von Pompeji"
        if amount is None:
            if inp.toks[j].raw in lex.plurals:
                amount = FEW
            elif inp.toks[i].raw in lex.rolling_words or (
                i > 0 and inp.toks[i - 1].raw in lex.rolling_openers
            ):
                amount = 1
            else:
                continue
        found = _from_today(inp, unit, amount, rel)
        if found is not None:
            return found
    return _within(inp)


def _from_today(inp: kit.RuleInput, unit: str, amount: int, sign: int) -> kit.TemporalResult | None:
    """The span from today ``amount`` units back (``sign`` -1) or ahead; hours count every day
    they touch ("the last 24 hours" is yesterday and today)."""
    if amount <= 0:
        return None
    if unit == "hour":
        unit, amount = "day", -(-amount // 24)
    moved = kit.shift(inp.now, unit, sign * amount)
    if moved is None:
        return None
    if sign < 0:
        return kit.TemporalResult.span(moved, inp.now, "past", W_ROLLING)
    return kit.TemporalResult.span(inp.now, moved, "future", W_ROLLING)


def _within(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """ "within 3 days", "binnen zwei Wochen": from today on, or back from today in the past
    tense ("what broke within 2 days")."""
    for i in inp.find("in"):
        if inp.toks[i].raw not in inp.lex.within_words:
            continue
        amount, j = _count(inp, i + 1 + (inp.kind(i + 1) == "from"))  # "innerhalb von"
        if amount is None or inp.kind(j) != "unit":
            continue
        found = _from_today(inp, str(inp.value(j)), amount, -1 if inp.tense == "past" else 1)
        if found is not None:
            return found
    return None


def _period_at(inp: kit.RuleInput, j: int) -> str | None:
    """The unit of "this <unit>" or a bare "<unit>" at token ``j`` (the current period)."""
    if inp.kind(j) == "in":
        j += 1
    if inp.kind(j) == "rel":
        if inp.int_value(j) != 0:
            return None
        j += 1
    value = inp.value(j)
    if inp.kind(j) == "unit" and value in _PERIODS and inp.toks[j].raw not in inp.lex.plurals:
        return str(value)
    return None


@kit.needs("part")
def part_of_period(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """ "earlier this week" -> [Monday, today]; "later this month" -> [today, month end];
    "this year so far", "year to date", "bisher in diesem Monat", "Rest der Woche". A part word
    that names no side ("im Laufe der Woche") follows the tense. "A week later" is no part of
    this week: a counted unit before the part word is a duration."""
    now = inp.now
    for i in inp.find("part"):
        unit = _period_at(inp, i + 1)
        if unit is None and inp.kind(i - 1) == "unit" and inp.kind(i - 2) != "num":
            unit = _period_at(inp, i - 2 if inp.kind(i - 2) == "rel" else i - 1)
        if unit is None:
            continue
        side = inp.value(i) or ("before" if inp.tense == "past" else "after")
        span = kit.unit_span(now, unit, 0)
        if span is None:
            continue
        if side == "before":
            return kit.TemporalResult.span(span[0], now, "past", W_ROLLING)
        return kit.TemporalResult.span(now, span[1], "future", W_ROLLING)
    return None
