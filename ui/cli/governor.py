"""``ctx governor``: a thread's watermarks and queue (status), waiting for its index (flush), and
the threads a key can see (threads); through the running server."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ctx.core.client import Client
from ctx.core.governor import GOVERNOR_FLUSH, GOVERNOR_STATUS, GOVERNOR_THREADS
from ctx.ui.cli.common import JsonOpt, console, dump_json, table
from ctx.ui.cli.present import presents

governor_app = typer.Typer(
    help="The context governor: governed threads, their watermarks and index.",
    no_args_is_help=True,
)
ThreadArg = Annotated[str, typer.Argument(help="The thread's session id.")]
CollectionOpt = Annotated[
    str | None, typer.Option("--collection", "-c", help="The thread's scope (default: home).")
]


def _thread(session: str, collection: str | None) -> dict[str, Any]:
    return {"session_id": session, **({"collection": collection} if collection else {})}


def _marks(result: dict[str, Any]) -> str:
    m = result["watermarks"]
    return f"recorded {m['recorded']}, indexed {m['indexed']}, embedded {m['embedded']}"


@governor_app.command("status")
@presents(GOVERNOR_STATUS)
def governor_status(
    session: ThreadArg, collection: CollectionOpt = None, as_json: JsonOpt = False
) -> None:
    """Watermarks, the index queue, pins and what filled the last envelope."""
    result = Client().call(GOVERNOR_STATUS, {"thread": _thread(session, collection)})
    if as_json:
        dump_json(result)
        return
    thread = result["thread"]
    console.print(f"thread {thread['collection']}/{thread['session_id']}: {_marks(result)}")
    queue = result["queue"]
    mine = ", ".join(f"{k} {v}" for k, v in sorted(queue["thread"].items())) or "none"
    console.print(f"index jobs: this thread {mine}; oldest waiting {queue['oldest_s'] or 0} s")
    ring = result["work_ring"]
    console.print(f"work ring: {ring['queued']}/{ring['capacity']} queued, {ring['dropped']} "
                  "hints dropped (the outbox kept their work)")  # fmt: skip
    last = result.get("last_envelope")
    if last:
        parts = ", ".join(f"{k} {v}" for k, v in last["parts"].items())
        console.print(f"last envelope: {last['tokens']}/{last['budget']} tokens ({parts}); "
                      f"{last['desk_items']} desk items, {last['ring_events']} recent events")  # fmt: skip
    console.print(f"pins: {len(result['pins'])}")


@governor_app.command("flush")
@presents(GOVERNOR_FLUSH)
def governor_flush(
    session: ThreadArg,
    collection: CollectionOpt = None,
    timeout: Annotated[float, typer.Option("--timeout", min=0, max=3600, help="Seconds.")] = 30.0,
    as_json: JsonOpt = False,
) -> None:
    """Wait until everything recorded in the thread is indexed (exit 1 on timeout)."""
    body = {"thread": _thread(session, collection), "timeout_s": timeout}
    result = Client(timeout=timeout + 30).call(GOVERNOR_FLUSH, body)
    if as_json:
        dump_json(result)
    else:
        state = "timed out" if result["timed_out"] else "indexed"
        console.print(f"{state} after {result['waited_ms']:.0f} ms: {_marks(result)}")
    if result["timed_out"]:
        raise typer.Exit(1)


@governor_app.command("threads")
@presents(GOVERNOR_THREADS)
def governor_threads(
    collection: CollectionOpt = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=500)] = 50,
    as_json: JsonOpt = False,
) -> None:
    """Governed threads in the key's scopes, most recently active first."""
    params: dict[str, Any] = {"limit": limit}
    if collection:
        params["collection"] = collection
    result = Client().call(GOVERNOR_THREADS, params)
    if as_json:
        dump_json(result)
    elif result["threads"]:
        table(result["threads"], ["collection", "session_id", "recorded", "indexed", "updated_at"])
    else:
        console.print("no threads")


def register(cli: typer.Typer) -> None:
    cli.add_typer(governor_app, name="governor")
