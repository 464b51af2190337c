"""How an embedding backlog reads to a person: what waits, how fast it goes, about how long it
takes. ``ctx ingest``, ``ctx embed status`` and the workbench's dashboard say it in these words;
the numbers come from ``ctx.core.embed.generation_rows``. Nothing is imported: thin clients use
it."""

from __future__ import annotations


def duration_text(seconds: float) -> str:
    """An estimate's length, rounded as one: '40 s', '3 min 20 s', '2 h 5 min'."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 600:
        minutes, rest = divmod(s, 60)
        return f"{minutes} min {rest // 10 * 10} s" if rest >= 10 else f"{minutes} min"
    if s < 3600:
        return f"{round(s / 60)} min"
    hours, rest = divmod(round(s / 60), 60)
    return f"{hours} h {rest} min" if rest else f"{hours} h"


def backlog_line(waiting: int, per_s: float | None, eta_s: float | None) -> str:
    """'1,200 blocks waiting for embedding at 15.2/s, about 1 min 20 s left'; without a rate
    (nothing embedded in the last minute) it says that no worker is embedding."""
    if not waiting:
        return "nothing waiting for embedding"
    what = f"{waiting:,} block{'' if waiting == 1 else 's'} waiting for embedding"
    if not per_s or eta_s is None:
        return f"{what}; nothing was embedded in the last minute (is a worker running?)"
    return f"{what} at {per_s:g}/s, about {duration_text(eta_s)} left"
