"""``ctx mark``, ``ctx marks``, ``ctx unmark`` and ``ctx eval``: the gold set of marked questions
and the figures of the query path on it, current settings beside a candidate set; through the
running server (docs/evaluation.md)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ctx.core.client import Client
from ctx.core.evaluation import EVAL_RUN, MARK, MARKS_LIST, UNMARK, setting_pairs
from ctx.ui.cli.common import JsonOpt, console, dump_json, table
from ctx.ui.cli.present import presents

METRICS = ("r@1", "r@5", "r@10", "mrr")


@presents(MARK)
def mark(
    question: Annotated[str, typer.Argument(help="The question, as it was asked.")],
    block: Annotated[str, typer.Argument(help="The source (block id or prefix).")],
    answered: Annotated[
        bool,
        typer.Option(
            "--yes/--no", help="--yes: the source answers the question; --no: it does not."
        ),
    ] = True,
    now: Annotated[
        str | None,
        typer.Option("--now", help="The day the question was asked (YYYY-MM-DD; default today)."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Mark which source answered a question (or did not): the scope's gold set for `ctx eval`."""
    body = {"question": question, "id": block, "verdict": "answered" if answered else "not_answered",
            "now": now}  # fmt: skip
    result = Client().call(MARK, {k: v for k, v in body.items() if v is not None})
    if as_json:
        dump_json(result)
        return
    verdict = result["verdict"].replace("_", " ")
    console.print(f"mark {result['id']} ({result['action']}): {result['block_id'][:8]} "
                  f"{result['title']} {verdict} the question in {result['scope']}")  # fmt: skip


@presents(MARKS_LIST)
def marks(
    scope: Annotated[str | None, typer.Option("--scope", help="Only this scope's marks.")] = None,
    question: Annotated[
        str | None, typer.Option("--question", help="Only this question's.")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=1000)] = 100,
    as_json: JsonOpt = False,
) -> None:
    """The marks of the scopes this key reads, newest first."""
    params = {"scope": scope, "question": question, "limit": limit}
    result = Client().call(MARKS_LIST, params)
    if as_json:
        dump_json(result)
        return
    rows = [{**m, "block": f"{m['block_id'][:8]} {m['title']}"} for m in result["marks"]]
    table(rows, ("id", "scope", "question", "verdict", "block", "asked_on"))
    console.print(f"{result['total']} marks, {result['questions']} questions")


@presents(UNMARK)
def unmark(
    mark_id: Annotated[int, typer.Argument(help="The mark's id (see `ctx marks`).", min=1)],
    as_json: JsonOpt = False,
) -> None:
    """Remove a mark."""
    result = Client().call(UNMARK, {"id": mark_id})
    if as_json:
        dump_json(result)
        return
    console.print(f"mark {mark_id} removed")


def _cell(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _delta(value: float | None) -> str:
    return "" if value is None else f"{value:+.3f}"


def _lines(result: dict[str, Any]) -> list[str]:
    """A line per ranking and channel: each figure, then the candidate's and the difference."""
    lines = []
    for label, part in (("stage", "stages"), ("channel", "channels")):
        for name, current in result["current"][part].items():
            cells = []
            for metric in METRICS:
                cell = f"{metric.upper() if metric != 'mrr' else 'MRR'} {_cell(current[metric])}"
                if result["candidate"] is not None:
                    cand = result["candidate"][part][name][metric]
                    diff = result["difference"][part][name][metric]
                    cell += f" → {_cell(cand)} {_delta(diff)}".rstrip()
                cells.append(cell)
            lines.append(f"{label} {name:<9} " + "  ".join(cells))
    return lines


@presents(EVAL_RUN)
def evaluate(
    scope: Annotated[
        str | None, typer.Option("--scope", help="Only this scope's marks, searching it alone.")
    ] = None,
    settings: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="A candidate retrieval setting, name=value (repeatable): measured beside the "
            "current settings, never written.",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Replay the marked questions: R@1, R@5, R@10 and MRR per stage and channel."""
    body: dict[str, Any] = {"settings": setting_pairs(settings or [])}
    if scope is not None:
        body["scope"] = scope
    result = Client(timeout=600).call(EVAL_RUN, body)
    if as_json:
        dump_json(result)
        return
    said = (
        f"{result['questions']} questions replayed ({result['answerable']} with an answer marked)"
    )
    if result["left_out"]:
        said += f"; {result['left_out']} older ones left out (at most {result['most']} a run)"
    console.print(said)
    if result["candidate"] is not None:
        shown = ", ".join(f"{k}={v}" for k, v in result["settings"].items())
        console.print(f"current → candidate ({shown})")
    for line in _lines(result):
        console.print(line)
    wrong = result["current"]["not_answered@1"]
    if wrong is not None:
        line = f"first source marked as not answering: {_cell(wrong)}"
        if result["candidate"] is not None:
            line += f" → {_cell(result['candidate']['not_answered@1'])}"
        console.print(line)
    for warning in result["warnings"]:
        console.print(f"warning: {warning}")


def register(cli: typer.Typer) -> None:
    cli.command()(mark)
    cli.command()(marks)
    cli.command()(unmark)
    cli.command("eval")(evaluate)
