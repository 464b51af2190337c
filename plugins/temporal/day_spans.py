"""Rules for spans between two days of the calendar: "from the 4th to the 9th of May", "vom 2. bis
6. Juni", "May 4-9", "vom 28. Mai bis 3. Juni", "between May 4 and May 9", and since/until a day
("since May 7", "seit dem 7. Mai", "until the 9th of June")."""

from __future__ import annotations

import itertools
import re
from datetime import date

from ctx.core import temporal_kit as kit

W_DAY_RANGE = {"linear": 1.0}
W_SINCE_UNTIL = {"linear": 0.8, "month": 0.2}
#: What may stand between two written dates of a range (lower case, trimmed).
_BETWEEN_DATES = frozenset(
    {"to", "until", "till", "through", "thru", "-", "–", "—", "bis", "bis zum", "bis zur",
     "bis einschließlich", "to the", "and", "und", "und dem"}
)  # fmt: skip


def _span(inp: kit.RuleInput, first: date, last: date) -> kit.TemporalResult | None:
    return inp.span(first, last, W_DAY_RANGE) if first <= last else None


def _dated(
    inp: kit.RuleInput, m1: int, d1: int, m2: int, d2: int, year: int | None
) -> kit.TemporalResult | None:
    """The span d1.m1 - d2.m2: in ``year`` (the year written at the end; a span over New Year
    starts the year before), else in the year the tense picks."""

    def on(y: int) -> kit.Span:
        return date(y - (m2 < m1), m1, d1), date(y, m2, d2)

    if year is not None:
        try:
            first, last = on(year)
        except ValueError:
            return None
        return _span(inp, first, last)
    found = kit.annual_occurrence(on, inp.now, inp.tense)
    return _span(inp, *found) if found else None


_NUMERIC_RANGE = re.compile(
    r"(?<![\w.])(\d{1,2})\.(\d{1,2})\.?\s*(?:[-–]|bis)\s*(\d{1,2})\.(\d{1,2})\.(\d{4})?(?![\d.])"
)


_VERSION_WORD = re.compile(r"(?i)\b(?:version|v|release|rev|build)\s*$")


def _from_numbers(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """ "28.5.-3.6.", "3.5. bis 7.5.2027": German day.month pairs joined by a dash or "bis"."""
    m = _NUMERIC_RANGE.search(inp.text)
    if m is None or _VERSION_WORD.search(inp.text[: m.start()]):
        return None
    d1, m1, d2, m2 = (int(m[k]) for k in range(1, 5))
    if not (1 <= m1 <= 12 and 1 <= m2 <= 12):
        return None
    found = _dated(inp, m1, d1, m2, d2, int(m[5]) if m[5] else None)
    if found is None or found.start is None or found.end is None:
        return None
    # a stay or a trip, not "3.2.-4.1." of a changelog: at most a quarter long
    return found if (found.end - found.start).days <= 92 else None


def _from_mentions(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """Two written dates joined by "to"/"bis"/"-" (or "and" after "between"/"zwischen")."""
    text = inp.text
    mentions = kit.date_mentions(text)
    for a, b in itertools.pairwise(mentions):
        # a German day-month mention starts with its date word ("bis 7.5."): that is the link
        lead = re.match(r"(?i)(bis|zum)\s", text[b.start : b.end])
        link = (text[a.end : b.start] + (lead[1] if lead else "")).strip().lower()
        if link not in _BETWEEN_DATES:
            continue
        if link.startswith(("and", "und")):
            before = text[: a.start].lower().split()
            if not before or before[-1] not in ("between", "zwischen", "the", "dem"):
                continue
        year = b.year if b.year is not None else a.year
        if a.year is not None and b.year is not None:
            try:
                return _span(inp, date(a.year, a.month, a.day), date(b.year, b.month, b.day))
            except ValueError:
                return None
        return _dated(inp, a.month, a.day, b.month, b.day, year)
    return None


def _hyphenated(inp: kit.RuleInput, a: int, b: int) -> bool:
    return re.search(rf"(?<!\d){a}(?:\.|st|nd|rd|th)?\s*[-–]\s*{b}(?!\d)", inp.text) is not None


def _from_tokens(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """Day numbers sharing one month name: "4th to 9th of May", "vom 2. bis 6. Juni", "May 4 to
    9", "May 4-9", "4.-9. Juni"; "vom 31. bis 2. Februar" starts in January. Day numbers alone
    are this month's: "the 15th to the 20th", "from the 28th to the 3rd" (into the next)."""
    for c in range(len(inp.toks)):
        kind = inp.kind(c)
        linked = kind in ("to", "until") or (kind == "and" and "between" in _kinds(inp, c))
        if linked:
            left, right = c - 1, c + 1
        elif inp.day_number(c) is not None and inp.day_number(c + 1) is not None:
            left, right = c, c + 1
            if not _hyphenated(inp, inp.int_value(c), inp.int_value(c + 1)):
                continue
        else:
            continue
        d1, d2 = inp.day_number(left), inp.day_number(right)
        if d1 is None or d2 is None:
            continue
        if inp.month_at(right + 1):  # "4 to 9 May", "2. bis 6. Juni 2027"
            m2, year_at = inp.int_value(right + 1), right + 2
            m1 = m2 if d1 <= d2 else (m2 - 2) % 12 + 1  # "vom 31. bis 2. Februar"
        elif inp.month_at(left - 1):  # "May 4 to 9, 2027", "May 28 to 3"
            m1, year_at = inp.int_value(left - 1), right + 1
            m2 = m1 if d1 <= d2 else m1 % 12 + 1
        else:
            if linked and _is_bare(inp, left) and _is_bare(inp, right, end=True):
                return _bare_range(inp, d1, d2)
            continue
        year = inp.int_value(year_at) if inp.kind(year_at) == "year" else None
        return _dated(inp, m1, d1, m2, d2, year)
    return None


def _bare_range(inp: kit.RuleInput, d1: int, d2: int) -> kit.TemporalResult | None:
    """Two bare day numbers: this month's span, or the one the tense picks (see ``bare_day``)."""
    now = inp.now
    year, month = now.year, now.month
    if inp.tense == "past" and d1 > now.day:
        year, month = kit.shift_month(year, month, -1)
    elif inp.tense == "future" and (d2 if d1 <= d2 else 31) < now.day:
        year, month = kit.shift_month(year, month, 1)
    end_year, end_month = (year, month) if d1 <= d2 else kit.shift_month(year, month, 1)
    try:
        return _span(inp, date(year, month, d1), date(end_year, end_month, d2))
    except ValueError:
        return None  # "the 10th to the 31st" of April


#: How a language writes a day of the month alone: an English ordinal after "the" ("on the
#: 3rd"), a German number with a full stop after a date word ("am 3.", "bis zum 3.").
_ENGLISH_ORDINAL = re.compile(r"\d{1,2}(?:st|nd|rd|th)")
_GERMAN_DAY = r"(?i)\b(?:am|vom|zum|dem)\s+{}\.(?!\d)"
_FOLLOWERS = frozenset({"", "to", "until", "and", "or"})


def _is_bare(inp: kit.RuleInput, i: int, end: bool = False) -> bool:
    """Whether token ``i`` is a day of the month written alone, in this lexicon's language; with
    ``end`` nothing may follow it but a link ("the 20th century" counts centuries)."""
    if inp.kind(i) != "num" or not 1 <= inp.int_value(i) <= 31:
        return False
    tok = inp.toks[i]
    if inp.lex.language == "en":
        written = _ENGLISH_ORDINAL.fullmatch(tok.raw) is not None and tok.prev_raw == "the"
    elif inp.lex.language == "de":
        written = re.search(_GERMAN_DAY.format(tok.raw), inp.text) is not None
    else:
        written = False
    return written and (inp.kind(i + 1) in _FOLLOWERS if end else True)


def bare_day(inp: kit.RuleInput, i: int, *, back: bool | None = None) -> date | None:
    """A day of the month written alone ("the 3rd", "am 3."): this month's, or the previous
    month's in a past question (``back``: a since-phrase) about a day still ahead, the next
    month's in a future one about a day gone; a month without that day is skipped ("since the
    31st" in March is January's). None where the number counts something ("the 3rd attempt",
    "I finished 3rd")."""
    if not _is_bare(inp, i, end=True):
        return None
    now, day = inp.now, inp.int_value(i)
    backward = inp.tense == "past" if back is None else back
    forward = inp.tense == "future" if back is None else not back
    step = -1 if backward and day > now.day else 1 if forward and day < now.day else 0
    year, month = kit.shift_month(now.year, now.month, step)
    for _ in range(3):
        if day <= kit.month_bounds(year, month)[1].day:
            return date(year, month, day)
        if step == 0:
            return None
        year, month = kit.shift_month(year, month, step)
    return None


@kit.needs("num")
def bare_day_rule(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """ "anything from the 3rd?", "was war am 3.?": a day of this month (see ``bare_day``)."""
    for i in inp.find("num"):
        found = bare_day(inp, i) if i == len(inp.toks) - 1 else None  # the last word: no range
        if found is not None:
            return inp.span(found, found, W_DAY_RANGE)
    return None


def _kinds(inp: kit.RuleInput, c: int) -> set[str]:
    return {inp.kind(i) for i in range(max(c - 3, 0), c)}


def _since_until(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """ "since May 7", "seit dem 7. Mai" -> [that day, today]; "until the 9th of June" -> [today,
    that day]. Only days of a month: other anchors are the core's since/until rule."""
    now = inp.now
    for i in inp.find("since", "until"):
        j = i + 1
        day_first = inp.day_number(j) is not None and inp.month_at(j + 1)
        month_first = inp.month_at(j) and inp.day_number(j + 1) is not None
        since = inp.kind(i) == "since"
        if not since and (
            inp.day_number(i - 1) is not None
            or (inp.month_at(i - 1) and inp.day_number(i - 2) is not None)
        ):
            continue  # "vom 31. bis 2. Februar": the end of a range, not "until"
        alone = bare_day(inp, j, back=since) if not (day_first or month_first) else None
        if alone is not None:
            phrase: kit.Phrase | None = kit.Phrase(alone, alone, j + 1, "day")
        elif day_first or month_first:
            phrase = kit.resolve_phrase(inp, j, since)
        else:
            continue
        if phrase is None:
            continue
        if since and phrase.start <= now:
            return kit.TemporalResult.span(phrase.start, now, "past", W_SINCE_UNTIL)
        if not since and phrase.end >= now:
            return kit.TemporalResult.span(now, phrase.end, "future", W_SINCE_UNTIL)
    return None


@kit.needs("num", "ord", "year")
def day_span(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """Spans between days of the calendar and since/until a day (see the module)."""
    return _from_mentions(inp) or _from_numbers(inp) or _from_tokens(inp) or _since_until(inp)
