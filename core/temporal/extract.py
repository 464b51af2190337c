"""Find explicit calendar dates in block content: "2023-05-07", "7 May 2023", "May 7, 2023",
"7. Mai 2023", "07.05.2023". Pure functions; the extraction job stores what ``find_dates`` returns.

Numeric forms are read day-first (European) except ISO and ``YYYY/MM/DD``; the US ``05/07/2023`` is
left alone because it cannot be told apart from ``07/05/2023``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

#: Month names and abbreviations, English and German, lower case.
MONTH_NAMES: dict[str, int] = {
    "january": 1, "jan": 1, "januar": 1, "jänner": 1, "jän": 1,
    "february": 2, "feb": 2, "februar": 2, "febr": 2,
    "march": 3, "mar": 3, "märz": 3, "maerz": 3, "mär": 3, "mrz": 3,
    "april": 4, "apr": 4,
    "may": 5, "mai": 5,
    "june": 6, "jun": 6, "juni": 6,
    "july": 7, "jul": 7, "juli": 7,
    "august": 8, "aug": 8,
    "september": 9, "sep": 9, "sept": 9,
    "october": 10, "oct": 10, "oktober": 10, "okt": 10,
    "november": 11, "nov": 11,
    "december": 12, "dec": 12, "dezember": 12, "dez": 12,
}  # fmt: skip

#: Month words that are also ordinary words; without a year they only count when capitalised.
_AMBIGUOUS = frozenset({"may", "march", "mar", "jan", "aug"})


@dataclass(frozen=True)
class DateMention:
    """One date written in a text; ``year`` is None for "7 May" without a year."""

    start: int
    end: int
    year: int | None
    month: int
    day: int

    def on(self, year: int) -> date | None:
        """This mention as a date in ``year``; None when it does not exist then (Feb 29)."""
        try:
            return date(year, self.month, self.day)
        except ValueError:
            return None

    @property
    def date(self) -> date | None:
        return self.on(self.year) if self.year is not None else None


def _month_pattern(names: Mapping[str, int]) -> str:
    return "|".join(sorted((re.escape(n) for n in names), key=len, reverse=True))


def _compile(names: Mapping[str, int]) -> tuple[re.Pattern[str], ...]:
    month = _month_pattern(names)
    return (
        re.compile(r"(?<![\d-])(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?!\d)"),
        re.compile(r"(?<![\d/])(?P<y>\d{4})/(?P<m>\d{1,2})/(?P<d>\d{1,2})(?![\d/])"),
        re.compile(r"(?<![\w.])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})(?!\d)"),
        # German day and month without a year ("am 24.11.", "vom 3.5. bis 7.5."): after a date
        # word, or with two digits each, so "Version 3.2." is no date.
        re.compile(
            r"\b(?:am|vom|bis|zum|ab|seit|den|dem|der)\s+(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?![\d.])",
            re.IGNORECASE,
        ),
        re.compile(r"(?<![\w.])(?P<d>\d{2})\.(?P<m>\d{2})\.(?![\d.])"),
        re.compile(
            rf"(?<![\w.])(?P<d>\d{{1,2}})(?:\.|st|nd|rd|th)?\s+(?:of\s+)?(?P<name>{month})\b\.?"
            r"(?:,?\s+(?P<y>\d{4})(?!\d))?",
            re.IGNORECASE,
        ),
        re.compile(
            rf"\b(?P<name>{month})\b\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?![\d:.]\d)(?!\d)"
            r"(?:,?\s+(?P<y>\d{4})(?!\d))?",
            re.IGNORECASE,
        ),
    )


_DEFAULT_PATTERNS = _compile(MONTH_NAMES)


def iter_date_mentions(text: str, months: Mapping[str, int] | None = None) -> Iterator[DateMention]:
    """Every date written in ``text``, in reading order, overlapping matches resolved to the first.

    Impossible dates ("2023-02-30", "31. April") are skipped. ``months`` replaces the built-in
    English and German month names.
    """
    patterns = _DEFAULT_PATTERNS if months is None else _compile(months)
    table = MONTH_NAMES if months is None else {k.lower(): v for k, v in months.items()}
    found: list[DateMention] = []
    for pattern in patterns:
        for m in pattern.finditer(text):
            groups = m.groupdict()
            name = groups.get("name")
            if name is not None:
                month = table.get(name.lower())
                if month is None:
                    continue
                if groups.get("y") is None and name.lower() in _AMBIGUOUS and name.islower():
                    continue
            else:
                month = int(groups["m"])
            year = int(groups["y"]) if groups.get("y") else None
            mention = DateMention(m.start(), m.end(), year, month, int(groups["d"]))
            if _valid(mention):
                found.append(mention)
    found.sort(key=lambda x: (x.start, -x.end))
    taken_until = -1
    for mention in found:
        if mention.start >= taken_until:
            taken_until = mention.end
            yield mention


@lru_cache(maxsize=1024)
def date_mentions(text: str) -> tuple[DateMention, ...]:
    """``iter_date_mentions(text)`` with the built-in month names, kept for repeated questions
    (several rules of both languages read the same query)."""
    return tuple(iter_date_mentions(text))


def _valid(mention: DateMention) -> bool:
    if not 1 <= mention.month <= 12:
        return False
    # Without a year, Feb 29 is still a real date (of a leap year).
    return mention.on(mention.year if mention.year is not None else 2000) is not None


def find_dates(
    text: str, *, default_year: int | None = None, months: Mapping[str, int] | None = None
) -> list[date]:
    """The explicit dates in ``text``, in order of first appearance, without repeats.

    Dates written without a year ("7 May") are included only when ``default_year`` is given.
    """
    out: list[date] = []
    for mention in iter_date_mentions(text, months):
        year = mention.year if mention.year is not None else default_year
        if year is None:
            continue
        day = mention.on(year)
        if day is not None and day not in out:
            out.append(day)
    return out
