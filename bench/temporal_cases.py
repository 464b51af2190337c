"""The temporal parser's accuracy on its extended case set (``temporal_cases_data.py``).

Run: ``.venv/bin/python bench/temporal_cases.py [--set own|holdout] [--show] [--json]``. ``own``
is the set the rules were written against (``temporal_cases_data.py``); ``holdout`` was written by
someone who had not read the parser (``temporal_cases_holdout.py``), by the same conventions, to
confirm the rules on phrasings they were not tuned on. A case is right when the parse resolves to
exactly the expected first and last day, as one span where the case is a span (or stays unmatched
where the phrase names no time); ``--show`` lists the misses.
"""

from __future__ import annotations

import argparse
import importlib
import json
from datetime import date

from ctx.core.runtime import PluginHost
from ctx.core.temporal import parser_from_host


def _length(start: str | None, end: str | None) -> int:
    if start is None or end is None:
        return 0
    return (date.fromisoformat(end) - date.fromisoformat(start)).days + 1


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__)
    args.add_argument("--set", choices=("own", "holdout"), default="own")
    args.add_argument("--show", action="store_true", help="list the cases the parser gets wrong")
    args.add_argument("--json", action="store_true", help="print the figures as JSON too")
    opts = args.parse_args()
    module = "temporal_cases_data" if opts.set == "own" else "temporal_cases_holdout"
    groups: dict[str, list[tuple[str, str, str | None, str | None]]] = importlib.import_module(
        module
    ).GROUPS
    parser = parser_from_host(PluginHost(load_entry_points=False))
    figures: dict[str, dict[str, int]] = {}
    misses: list[str] = []
    for group, cases in groups.items():
        right = 0
        for text, now, start, end in cases:
            result = parser.parse(text, now=date.fromisoformat(now))
            got = result.to_json()
            # a span must be one: two days from a multi-day list are not the days between
            whole = start == end or not result.dates or len(result.days()) == _length(start, end)
            if (got["start"], got["end"]) == (start, end) and whole:
                right += 1
            else:
                misses.append(
                    f"  [{group}] {text!r} (now {now}): want {start}..{end}, "
                    f"got {got['start']}..{got['end']} ({result.matcher})"
                )
        figures[group] = {"right": right, "cases": len(cases)}
    total = sum(f["right"] for f in figures.values())
    count = sum(f["cases"] for f in figures.values())
    print(f"{'group':<34} {'right':>5} / {'cases':<5} accuracy")
    for group, f in figures.items():
        print(f"{group:<34} {f['right']:>5} / {f['cases']:<5} {f['right'] / f['cases']:.3f}")
    print(f"{'all':<34} {total:>5} / {count:<5} {total / count:.3f}")
    if opts.show and misses:
        print("misses:")
        print("\n".join(misses))
    if opts.json:
        print(json.dumps({"set": opts.set, "groups": figures, "right": total, "cases": count}))


if __name__ == "__main__":
    main()
