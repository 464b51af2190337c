"""``ctx embed``: embedding generations, their progress and blue-green rebuilds; ``ctx worker``."""

from __future__ import annotations

import signal
import time
from typing import Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ctx.core import embed, runtime
from ctx.ui.cli.common import JsonOpt, RateColumn, console, dump_json, table
from ctx.ui.cli.operator.app import opened_app
from ctx.ui.cli.present import local

app = typer.Typer(help="Embedding generations: status, rebuild, reblend.", no_args_is_help=True)


@app.command("status")
@local
def embed_status(as_json: JsonOpt = False) -> None:
    """Generations (active, building), how many blocks each holds, pending embed jobs."""
    with opened_app() as ctx_app:
        report = embed.status(ctx_app)
    if as_json:
        dump_json(report)
        return
    table(
        report["generations"],
        ["id", "status", "provider", "model", "dimensions", "embedded", "left", "per_s", "eta_s"],
    )
    console.print(f"embeddable blocks: {report['embeddable_blocks']}")
    console.print(f"embed jobs: {report['embed_jobs'] or 'none pending'}")
    for gen in report["generations"]:
        if gen["status"] == "active":
            console.print(embed.backlog_line(gen["left"], gen["per_s"], gen["eta_s"]))


@app.command("rebuild")
@local
def embed_rebuild(
    provider: Annotated[
        str | None, typer.Option("--provider", help="Embedder (default: embed.provider).")
    ] = None,
    wait: Annotated[bool, typer.Option(help="Stay and show progress until it switches.")] = True,
) -> None:
    """Build a new generation in the background; queries use the old one until it is complete.

    While waiting this process also does the work (a running ctxd's worker helps; jobs are
    claimed with SKIP LOCKED, so nothing is done twice).
    """
    with opened_app() as ctx_app:
        options = None
        if provider is not None:
            _, options = embed.configured_options(ctx_app)
        gen = embed.start_rebuild(ctx_app, provider, options)
        console.print(f"generation {gen['id']} ({gen['provider']}/{gen['model']}) is building")
        if not wait:
            return
        started, first = time.monotonic(), None
        with Progress(
            TextColumn("embedding"),
            BarColumn(),
            MofNCompleteColumn(),
            RateColumn("blocks"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
        ) as progress:
            task = progress.add_task("rebuild", total=None)
            while True:
                report = embed.status(ctx_app)
                this = next((g for g in report["generations"] if g["id"] == gen["id"]), None)
                if this is None:
                    console.print("the generation was removed")
                    raise typer.Exit(1)
                progress.update(task, total=report["embeddable_blocks"], completed=this["embedded"])
                first = this["embedded"] if first is None else first
                if this["status"] == "active":
                    break
                if embed.rebuild_step(ctx_app) == 0:
                    time.sleep(0.5)
        took = time.monotonic() - started
        done = report["embeddable_blocks"] - (first or 0)
        console.print(
            f"generation {gen['id']} is active: {done} blocks embedded in {took:.1f} s "
            f"({done / max(took, 1e-9):.1f} blocks/s)"
        )


@app.command("reblend")
@local
def embed_reblend(
    scope: Annotated[str | None, typer.Option("--scope", help="Only this scope.")] = None,
) -> None:
    """Recompute the context vectors of every sequence (after changing embed.context_weight,
    embed.context_window or embed.context_gap_s); the worker does the work."""
    with opened_app() as ctx_app:
        queued = embed.queue_reblend(ctx_app, scope)
    console.print(f"queued {queued} sequence recount(s); `ctx embed status` shows the jobs")


@local
def worker() -> None:
    """Run background jobs in the foreground (for extra worker processes beside ctxd)."""
    from ctx.core.graph import DreamWorker

    with opened_app() as ctx_app:
        w = runtime.Worker(ctx_app)
        dreamer = DreamWorker(ctx_app)
        listener = runtime.Listener(
            ctx_app, {"ctx_jobs": w.notify, "ctx_settings": lambda _: ctx_app.reload()}
        )
        listener.start()
        dreamer.start()
        ctx_app.governor.start()
        console.print("worker running (jobs, Dream, the governor's indexer); Ctrl-C to stop")
        # systemd and container runtimes stop services with SIGTERM: the worker finishes the batch
        # in hand and returns (Worker.stop from a handler only sets its events).
        signal.signal(signal.SIGTERM, lambda signum, frame: w.stop(wait=False))
        try:
            w.run_forever()
        except KeyboardInterrupt:
            pass
        finally:
            ctx_app.governor.stop()
            dreamer.stop()
            listener.stop()


def register(cli: typer.Typer) -> None:
    cli.add_typer(app, name="embed")
    cli.command()(worker)
