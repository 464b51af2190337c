"""Time the deterministic temporal parser over a mixed set of queries.

Run: ``.venv/bin/python bench/temporal_parse.py [--rounds N]``. Prints mean and p95 microseconds per
query for the parser and, as a baseline from the same run, for one precompiled regex scan over the
same strings (roughly the floor of any keyword pre-filter). Caches are cleared before each round so
the parser's token cache does not hide the tokenizing cost. No timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections.abc import Callable
from datetime import date

from ctx.core.runtime import PluginHost
from ctx.core.temporal import parser_from_host
from ctx.core.temporal.extract import date_mentions
from ctx.core.temporal.lexicon import _analyse, _kinds, _tense, raw_tokens

QUERIES = [
    "was war am 2026-03-27", "2026-03-01 bis 2026-03-05", "am 7. Mai 2023",
    "meeting on May 7, 2023", "von Montag bis Mittwoch", "from March to May",
    "seit letzter Woche", "since last month", "bis Freitag", "Anfang der Woche",
    "end of next week", "Dienstag nächster Woche", "Tuesday next week", "letzte Woche",
    "the week before last", "KW 12", "Weihnachten letztes Jahr", "last Christmas",
    "Ende letzten Monats", "early March", "im März", "in May 2024", "letzten Monat",
    "Q1 Reviews", "last quarter", "letztes Jahr", "vor 3 Tagen", "3 days ago",
    "in zwei Wochen", "heute Abend", "yesterday evening", "am Wochenende", "last weekend",
    "heute und morgen", "Monday or Wednesday", "was haben wir am Dienstag besprochen",
    "what did we decide last Tuesday", "immer dienstags", "every Monday", "gestern",
    "yesterdy", "tomorow", "how do I configure the embedder", "Sunday Times editorial",
    "I may go to the store", "guten Morgen zusammen", "die Leute vom Vertrieb",
    "what happened recently", "Vorteil bevor Seite", "deploy the service to production",
    # the second round: spans, ordinals, offsets, ISO weeks, idioms, movable holidays
    "the last 5 days", "in den vergangenen zwei Wochen", "over the past month",
    "the second Friday in June", "am letzten Donnerstag im Monat", "the first half of February",
    "in der zweiten Novemberhälfte", "the last weekend of April", "three days after Christmas",
    "a week from Monday", "zwei Tage vor Silvester", "from the 4th to the 9th of May",
    "vom 2. bis 6. Juni", "Memorial Day", "Buß- und Bettag", "um Ostern herum", "KW 12/2027",
    "week 12", "earlier this week", "what did we ship so far this year",
]  # fmt: skip

BASELINE = re.compile(
    r"\b(?:\d{4}-\d{2}-\d{2}|today|yesterday|tomorrow|heute|gestern|morgen|week|woche|month|"
    r"monat|monday|tuesday|montag|dienstag|last|next|letzte\w*|nächste\w*)\b",
    re.IGNORECASE,
)


def _clear_caches() -> None:
    raw_tokens.cache_clear()
    _analyse.cache_clear()
    _tense.cache_clear()
    _kinds.cache_clear()
    date_mentions.cache_clear()


def _time(run: Callable[[str], object], rounds: int) -> list[float]:
    samples: list[float] = []
    for _ in range(rounds):
        _clear_caches()
        for query in QUERIES:
            start = time.perf_counter_ns()
            run(query)
            samples.append((time.perf_counter_ns() - start) / 1000)
    return samples


def _report(label: str, samples: list[float]) -> None:
    p95 = statistics.quantiles(samples, n=100)[94]
    print(f"{label:<22} mean {statistics.fmean(samples):8.1f} µs   p95 {p95:8.1f} µs")


def main() -> None:
    parser_args = argparse.ArgumentParser(description=__doc__)
    parser_args.add_argument("--rounds", type=int, default=200)
    args = parser_args.parse_args()
    parser = parser_from_host(PluginHost(load_entry_points=False))
    now = date(2026, 3, 25)
    matched = sum(parser.parse(q, now=now).matched for q in QUERIES)
    print(
        f"{len(QUERIES)} queries ({matched} match), {args.rounds} rounds, caches cleared per round"
    )
    _report("temporal parser", _time(lambda q: parser.parse(q, now=now), args.rounds))
    _report("baseline regex scan", _time(BASELINE.search, args.rounds))


if __name__ == "__main__":
    main()
