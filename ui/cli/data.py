"""Data commands: they talk to the running server with ``CTX_URL`` and ``CTX_API_KEY``."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.text import Text

from ctx.core.blocks import (
    BLOCK_HISTORY,
    BLOCK_VERSIONS,
    MANAGE_BLOCKS,
    SEARCH_BLOCKS,
    STORE_BLOCK,
)
from ctx.core.client import Client
from ctx.core.errors import ValidationError
from ctx.core.retrieval import QUERY, QUERY_STREAM
from ctx.core.temporal import resolved_window
from ctx.ui.cli.common import (
    JsonOpt,
    comma_list,
    console,
    dump_json,
    headline,
    read_stdin_text,
    snippet,
    table,
)
from ctx.ui.cli.present import presents

CategoryFilter = Annotated[str | None, typer.Option("--category", "-c", help="Only this category.")]
TagsFilter = Annotated[
    str, typer.Option("--tags", help="Comma-separated; a block must have all of them.")
]


@presents(STORE_BLOCK)
def save(
    title: Annotated[str, typer.Argument(help="Block title (unique within scope + category).")],
    content: Annotated[
        str | None, typer.Argument(help="Content; omit or '-' to read standard input.")
    ] = None,
    category: Annotated[
        str, typer.Option("--category", "-c", help="Category (with the title, the block's key).")
    ] = "general",
    block_type: Annotated[str, typer.Option("--type", "-t", help="Block type.")] = "knowledge",
    tags: Annotated[str, typer.Option("--tags", help="Comma-separated tags.")] = "",
    metadata: Annotated[str, typer.Option("--metadata", help="JSON object.")] = "{}",
    sensitivity: Annotated[
        str | None,
        typer.Option(
            "--sensitivity", help="public, internal, personal or credentials (default: the type's)."
        ),
    ] = None,
    occurred_at: Annotated[
        str | None,
        typer.Option(
            "--occurred-at", help="When the block's event happened: ISO date or time (UTC if bare)."
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Store a block (create, or update the block with the same category and title)."""
    if content is None or content == "-":
        content = read_stdin_text()
        if not content.strip():
            raise ValidationError(
                "no content: standard input was empty (pass the content as an argument, or pipe it)"
            )
    meta = _metadata(metadata)
    body: dict[str, Any] = {
        "title": title,
        "content": content,
        "category": category,
        "block_type": block_type,
        "tags": comma_list(tags),
        "metadata": meta,
    }
    if sensitivity:
        body["sensitivity"] = sensitivity
    if occurred_at:
        body["occurred_at"] = occurred_at
    result = Client().call(STORE_BLOCK, body)
    if as_json:
        dump_json(result)
    else:
        _changed(result, as_json=False)


@presents(MANAGE_BLOCKS)
def get(
    block_id: Annotated[str, typer.Argument(help="Block id or a unique prefix.")],
    as_json: JsonOpt = False,
) -> None:
    """Show one block."""
    block = Client().call(MANAGE_BLOCKS, {"action": "get", "id": block_id})["block"]
    if as_json:
        dump_json(block)
        return
    console.print(Text(block["title"], style="bold"), f" ({block['id']})", markup=False)
    console.print(
        f"scope {block['scope']} · category {block['category']} · type {block['block_type']}"
        f" · {block['sensitivity']} · updated {block['updated_at']}"
        + (" · archived" if block.get("is_archived") else ""),
        markup=False,
    )
    if block.get("occurred_at"):
        console.print(f"occurred {block['occurred_at']}", markup=False)
    if block["tags"]:
        console.print("tags: " + ", ".join(block["tags"]), markup=False)
    console.print()
    console.print(block["content"], markup=False)


@presents(MANAGE_BLOCKS)
def delete(
    block_id: Annotated[str, typer.Argument(help="Block id or a unique prefix.")],
    as_json: JsonOpt = False,
) -> None:
    """Delete a block from your home scope."""
    result = Client().call(MANAGE_BLOCKS, {"action": "delete", "id": block_id})
    if as_json:
        dump_json(result)
    else:
        console.print(f"deleted {result['id']}", markup=False)


@presents(SEARCH_BLOCKS)
def search(
    query: Annotated[str, typer.Argument(help="Words to look for (web-search syntax).")],
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=100, help="Most results.")] = 10,
    category: CategoryFilter = None,
    tags: TagsFilter = "",
    as_json: JsonOpt = False,
) -> None:
    """Full-text search (no model needed)."""
    body: dict[str, Any] = {
        "query": query,
        "limit": limit,
        "category": category,
        "tags": comma_list(tags),
    }
    result = Client().call(SEARCH_BLOCKS, body)
    if as_json:
        dump_json(result)
        return
    for hit in result["results"]:
        console.print(
            headline(hit["title"], hit["id"], hit["scope"], hit["category"], hit["score"])
        )
        shown = snippet(hit["snippet"])
        if shown:
            console.print(shown)
    if not result["results"]:
        console.print("no matches")


@presents(QUERY, QUERY_STREAM)
def query(
    text: Annotated[str, typer.Argument(help="A question or keywords, in English or German.")],
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=20, help="Most sources.")] = 5,
    category: CategoryFilter = None,
    tags: TagsFilter = "",
    explain: Annotated[bool, typer.Option("--explain", help="Rank and score per channel.")] = False,
    answer: Annotated[
        bool | None,
        typer.Option(
            "--answer/--no-answer",
            help="Answer from the sources (default: when a synthesis backend exists).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Hybrid retrieval (dense + English/German full-text + title trigrams, fused with RRF), and
    an answer with cited sources when a synthesis backend exists, streamed as it is written."""
    body: dict[str, Any] = {
        "query": text,
        "limit": limit,
        "category": category,
        "tags": comma_list(tags),
        "explain": explain,
        "synthesize": "auto" if answer is None else answer,
    }
    client = Client(timeout=600)
    if as_json:
        dump_json(client.call(QUERY, body))
        return
    if answer is False:
        _print_sources(client.call(QUERY, body), explain)
        return
    result: dict[str, Any] = {}
    streamed: list[str] = []
    for event, data in client.events(QUERY_STREAM, body):
        if event == "sources":
            result = data
        elif event == "token":
            console.out(data.get("text", ""), end="", highlight=False)
            streamed.append(data.get("text", ""))
        elif event == "reset":  # what was printed was the model's reasoning, not its answer
            console.out("")
            console.print("(that was the model's reasoning; the answer follows)", markup=False)
            streamed.clear()
        elif event == "answer":
            _print_answer(data, "".join(streamed))
            result["warnings"] = data.get("warnings", result.get("warnings", []))
            result["confidence"] = data.get("confidence", result.get("confidence"))
        elif event == "error":
            if streamed:
                console.out("")
            console.print(f"warning: {data.get('message', 'the answer failed')}", markup=False)
    _print_sources(result, explain)


def _print_answer(data: dict[str, Any], streamed: str) -> None:
    """The end of a streamed answer: the checked text where it differs from what was streamed
    (a citation that cited nothing was removed), then what the answer cites."""
    if "answer" not in data:
        return
    if not streamed:
        console.print(data["answer"], markup=False, highlight=False)
    else:
        console.out("")
        if data["answer"] != streamed.strip():
            console.print(f"(checked) {data['answer']}", markup=False, highlight=False)
    cited = ", ".join(f"[{c['n']}] {c['title']}" for c in data.get("citations", []))
    if cited:
        console.print(f"cited: {cited}", markup=False, highlight=False)
    console.print()


def _print_sources(result: dict[str, Any], explain: bool) -> None:
    if not result:
        return
    console.print(
        f"{result['confidence']} · {result['language']['language']} · {result['took_ms']} ms",
        markup=False,
    )
    said = _time_said(result.get("temporal") or {})
    if said:
        console.print(said, markup=False)
    for warning in result["warnings"]:
        console.print(f"warning: {warning}", markup=False)
    for i, src in enumerate(result["sources"], 1):
        line = Text(f"{i}. ")
        line.append(headline(src["title"], src["id"], src["scope"], src["category"], src["score"]))
        console.print(line)
        shown = snippet(src["snippet"])
        if shown:
            console.print(shown)
        if explain:
            console.print("   " + _explained(src["channels"]), markup=False)
    if explain:
        stages = ", ".join(f"{s['name']} {s['ms']:g}" for s in result.get("stages", []))
        console.print(f"stages (ms): {stages}", markup=False)


def _time_said(temporal: dict[str, Any]) -> str | None:
    """'time: 2026-11-23 – 2026-11-29 (en.relative_week, past)': the time the question named, as
    the query used it; or why a question about time resolved to none."""
    window = resolved_window(temporal)
    if window:
        how = ", ".join(str(temporal[k]) for k in ("matcher", "direction") if temporal.get(k))
        return f"time: {window}" + (f" ({how})" if how else "")
    if temporal.get("fallback"):
        return f"time: not resolved ({temporal['fallback']})"
    return None


def _explained(channels: dict[str, Any]) -> str:
    """'channels: dense #1, fts_en #3; gravity 1.12': ranks of the channels that found the block,
    then the factors later stages applied (only those that changed the score)."""
    ranks = [
        f"{name} #{entry['rank']}"
        for name, entry in channels.items()
        if isinstance(entry, dict) and entry.get("rank") is not None
    ]
    factors = [
        f"{name} {value:.3g}"
        for name, value in channels.items()
        if isinstance(value, int | float) and value != 1.0
    ]
    text = "channels: " + (", ".join(ranks) or "none")
    return text + ("; " + ", ".join(factors) if factors else "")


@presents(MANAGE_BLOCKS)
def stats(as_json: JsonOpt = False) -> None:
    """Counts of blocks in your read scopes."""
    result = Client().call(MANAGE_BLOCKS, {"action": "stats"})["stats"]
    if as_json:
        dump_json(result)
        return
    console.print(
        f"{result['blocks']} blocks ({result['archived']} archived) in "
        f"{result['categories']} categories; last write {result['last_write']}"
    )
    for scope, n in result["by_scope"].items():
        console.print(f"  scope {scope}: {n}", markup=False)
    for name, n in result["by_type"].items():
        console.print(f"  type {name}: {n}", markup=False)
    if result.get("governed_threads"):
        console.print(
            f"  governed threads: {result['governed_threads']} "
            f"({result['governed_records']} records, not counted above)",
            markup=False,
        )


@presents(MANAGE_BLOCKS)
def categories(as_json: JsonOpt = False) -> None:
    """Categories in your read scopes with their block counts."""
    result = Client().call(MANAGE_BLOCKS, {"action": "categories"})["categories"]
    if as_json:
        dump_json(result)
    else:
        table(result, ["category", "blocks", "last_write"])


@presents(MANAGE_BLOCKS)
def list_meta(
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=200, help="Most blocks.")] = 20,
    offset: Annotated[int, typer.Option("--offset", min=0, help="Skip this many first.")] = 0,
    category: CategoryFilter = None,
    as_json: JsonOpt = False,
) -> None:
    """List blocks newest first, without their content."""
    body = {"action": "list", "limit": limit, "offset": offset, "category": category}
    result = Client().call(MANAGE_BLOCKS, body)["blocks"]
    if as_json:
        dump_json(result)
        return
    for b in result:
        b["id"] = b["id"][:8]
    table(result, ["id", "scope", "category", "title", "block_type", "updated_at"])


@presents(MANAGE_BLOCKS)
def edit(
    block_id: Annotated[str, typer.Argument(help="Block id or a unique prefix.")],
    title: Annotated[str | None, typer.Option("--title", help="New title.")] = None,
    content: Annotated[
        str | None, typer.Option("--content", help="New content; '-' reads standard input.")
    ] = None,
    category: Annotated[str | None, typer.Option("--category", "-c", help="New category.")] = None,
    block_type: Annotated[str | None, typer.Option("--type", "-t", help="New block type.")] = None,
    tags: Annotated[
        str | None, typer.Option("--tags", help="New tags, comma-separated ('' for none).")
    ] = None,
    metadata: Annotated[
        str | None, typer.Option("--metadata", help="New metadata (a JSON object).")
    ] = None,
    sensitivity: Annotated[
        str | None, typer.Option("--sensitivity", help="New sensitivity.")
    ] = None,
    occurred_at: Annotated[
        str | None, typer.Option("--occurred-at", help="New event time (ISO), 'none' to clear.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Change fields of a block in your home scope; the others stay as they are."""
    changes: dict[str, Any] = {}
    if title is not None:
        changes["title"] = title
    if content is not None:
        changes["content"] = read_stdin_text() if content == "-" else content
    if category is not None:
        changes["category"] = category
    if block_type is not None:
        changes["block_type"] = block_type
    if tags is not None:
        changes["tags"] = comma_list(tags)
    if metadata is not None:
        changes["metadata"] = _metadata(metadata)
    if sensitivity is not None:
        changes["sensitivity"] = sensitivity
    if occurred_at is not None:
        changes["occurred_at"] = None if occurred_at.lower() == "none" else occurred_at
    result = Client().call(MANAGE_BLOCKS, {"action": "update", "id": block_id, "changes": changes})
    _changed(result, as_json)


@presents(MANAGE_BLOCKS)
def archive(
    block_id: Annotated[str, typer.Argument(help="Block id or a unique prefix.")],
    as_json: JsonOpt = False,
) -> None:
    """Archive a block: kept, but out of every search until unarchived."""
    _changed(Client().call(MANAGE_BLOCKS, {"action": "archive", "id": block_id}), as_json)


@presents(MANAGE_BLOCKS)
def unarchive(
    block_id: Annotated[str, typer.Argument(help="Block id or a unique prefix.")],
    as_json: JsonOpt = False,
) -> None:
    """Bring an archived block back into search."""
    _changed(Client().call(MANAGE_BLOCKS, {"action": "unarchive", "id": block_id}), as_json)


@presents(BLOCK_HISTORY)
def history(
    block_id: Annotated[str, typer.Argument(help="Block id or a unique prefix.")],
    limit: Annotated[
        int, typer.Option("--limit", "-n", min=1, max=500, help="Most entries, newest first.")
    ] = 20,
    as_json: JsonOpt = False,
) -> None:
    """When a block was created, changed, archived or brought back, and by which key."""
    result = Client().call(BLOCK_HISTORY, {"id": block_id, "limit": limit})
    if as_json:
        dump_json(result)
        return
    console.print(
        Text(result["title"], style="bold"), f" ({result['id']}, {result['scope']})", markup=False
    )
    rows = [{**entry, "at": entry["at"][:19].replace("T", " ")} for entry in result["history"]]
    table(rows, ["at", "action", "key", "title", "category"])


@presents(BLOCK_VERSIONS)
def versions(
    block_id: Annotated[str, typer.Argument(help="Block id or a unique prefix.")],
    limit: Annotated[
        int, typer.Option("--limit", "-n", min=1, max=500, help="Most versions, newest first.")
    ] = 20,
    content: Annotated[
        bool, typer.Option("--content", help="Print each version's content too.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """What a block said before: its versions, newest (the current one) first."""
    result = Client().call(BLOCK_VERSIONS, {"id": block_id, "limit": limit})
    if as_json:
        dump_json(result)
        return
    console.print(
        Text(result["title"], style="bold"), f" ({result['id']}, {result['scope']})", markup=False
    )
    rows = [
        {**v, "from": v["valid_from"][:19].replace("T", " "),
         "to": "now" if v["current"] else v["valid_to"][:19].replace("T", " "),
         "chars": len(v["content"])}
        for v in result["versions"]
    ]  # fmt: skip
    table(rows, ["version", "from", "to", "key", "title", "chars"])
    if content:
        for v in result["versions"]:
            console.print()
            console.print(Text(f"version {v['version']}", style="bold"), markup=False)
            console.print(v["content"], markup=False)


def _changed(result: dict[str, Any], as_json: bool) -> None:
    if as_json:
        dump_json(result)
    else:
        console.print(
            f"{result['action']} {result['id']}  {result['scope']}/{result['category']}  "
            f"{result['title']}"
        )


def _metadata(raw: str) -> dict[str, Any]:
    try:
        meta = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValidationError(f"--metadata is not valid JSON: {exc.msg}") from None
    if not isinstance(meta, dict):
        raise ValidationError("--metadata must be a JSON object")
    return meta


def register(cli: typer.Typer) -> None:
    cli.command()(save)
    cli.command()(get)
    cli.command()(delete)
    cli.command()(search)
    cli.command()(query)
    cli.command()(stats)
    cli.command()(categories)
    cli.command("list-meta")(list_meta)
    cli.command()(edit)
    cli.command()(archive)
    cli.command()(unarchive)
    cli.command()(history)
    cli.command()(versions)
