"""The block operations, each declared once: its REST route, MCP tool and commands derive from
the declaration (``ctx.core.operations``). Only models are imported here; the services are named."""

from __future__ import annotations

from ctx.core.blocks.schemas import (
    BlockHistory,
    BlockVersions,
    ExportRequest,
    HistoryRequest,
    ImportRequest,
    ManageRequest,
    ManageResponse,
    SearchRequest,
    SearchResponse,
    StoreRequest,
    StoreResponse,
    VersionsRequest,
)
from ctx.core.blocks.tool_inputs import (
    DeleteInput,
    GetInput,
    RecentInput,
    StatsInput,
    TimelineInput,
)
from ctx.core.blocks.tool_inputs import SearchInput as SearchArguments
from ctx.core.blocks.tool_inputs import StoreInput as StoreArguments
from ctx.core.blocks.type_schemas import TypeChanges, TypeEdit, TypeName
from ctx.core.operations import Operation, Rest, Tool

TOOLS = "ctx.core.blocks.tools"
BY_ID = {
    404: "No such block (or setting, type, key) in the key's scopes.",
    409: "Ambiguous id prefix, or the change collides with an existing block.",
}

STORE_BLOCK = Operation(
    name="blocks.store",
    summary="Create or update a block (upsert by scope + category + title) in the key's home "
    "scope.",
    service="ctx.core.blocks.write:store_block",
    input=StoreRequest,
    output=StoreResponse,
    kind="write",
    reach="home",
    rest=Rest("POST", "/api/store", errors=BY_ID),
    tool=Tool(
        "store",
        "Save knowledge worth keeping across sessions (a decision, a fact, a procedure, a "
        "lesson) in your home scope. Upserts by category + title: the same pair again updates "
        "the block. Answers with the block id and whether it was created or updated.",
        input=StoreArguments,
        run=f"{TOOLS}:run_store",
        idempotent=True,
    ),
    cli=True,
)

SEARCH_BLOCKS = Operation(
    name="blocks.search",
    summary="Full-text search (English and German) over the key's read scopes; no model needed.",
    service="ctx.core.blocks.search:search",
    input=SearchRequest,
    output=SearchResponse,
    rest=Rest("POST", "/api/search", errors=BY_ID),
    tool=Tool(
        "search",
        "Light full-text search (no model): blocks containing the words, with a highlighted "
        "snippet. Good for exact names, identifiers and error messages.",
        input=SearchArguments,
        run=f"{TOOLS}:run_search",
        idempotent=True,
    ),
    cli=True,
)

MANAGE_BLOCKS = Operation(
    name="blocks.manage",
    summary="By id (or a unique prefix): get, delete, update (with ``changes``), archive, "
    "unarchive; and list, stats and categories of the key's read scopes (or one of them).",
    service="ctx.core.blocks.manage_actions:manage",
    input=ManageRequest,
    output=ManageResponse,
    charges="ctx.core.blocks.manage_actions:manage_charges",
    rest=Rest("POST", "/api/manage", exclude_unset=True, errors=BY_ID),
    cli=True,
)

GET_BLOCK = Operation(
    name="blocks.get",
    summary="One block in full by id or unique id prefix; with version or at, that version.",
    service=f"{TOOLS}:run_get",
    input=GetInput,
    tool=Tool(
        "get",
        "One block in full (content, tags, dates) by id or unique id prefix; with version (a "
        "number from the versions tool) or at (a time), what it said then.",
        idempotent=True,
    ),
)

RECENT_BLOCKS = Operation(
    name="blocks.recent",
    summary="The most recently written or changed blocks, newest first.",
    service=f"{TOOLS}:run_recent",
    input=RecentInput,
    tool=Tool(
        "recent",
        "The most recently written or changed blocks, newest first (ids and titles).",
    ),
)

DELETE_BLOCK = Operation(
    name="blocks.delete",
    summary="Delete a block of the key's home scope for good.",
    service=f"{TOOLS}:run_delete",
    input=DeleteInput,
    kind="write",
    reach="home",
    tool=Tool(
        "delete",
        "Delete a block of your home scope for good (by id or unique prefix). Prefer storing a "
        "corrected version under the same category and title.",
        destructive=True,
        idempotent=True,
    ),
)

BLOCK_TIMELINE = Operation(
    name="blocks.timeline",
    summary="Blocks of a time window, newest first.",
    service=f"{TOOLS}:run_timeline",
    input=TimelineInput,
    tool=Tool(
        "timeline",
        "Blocks of a time window, newest first: their own date or a date they mention falls in "
        "the window. Give a time expression ('last week', 'im März') or start and end dates.",
        idempotent=True,
    ),
)

BLOCK_STATS = Operation(
    name="blocks.stats",
    summary="Block counts by scope and type, and the categories in use.",
    service=f"{TOOLS}:run_stats",
    input=StatsInput,
    tool=Tool(
        "stats",
        "What the store holds for you: block counts by scope and type, the categories in use "
        "(reuse them when storing), and how many governed threads (recorded conversations, "
        "not categories) there are.",
        idempotent=True,
    ),
)

BLOCK_HISTORY = Operation(
    name="blocks.history",
    summary="A block's write log, newest first: created, changed, archived, and by which key.",
    service="ctx.core.blocks.history:block_history",
    input=HistoryRequest,
    output=BlockHistory,
    rest=Rest("GET", "/api/blocks/{id}/history", errors=BY_ID),
    tool=Tool(
        "history",
        "When a block was created, changed, archived or brought back, newest first, and what it "
        "was called then: check how current a block is before relying on it.",
        idempotent=True,
    ),
    cli=True,
)

BLOCK_VERSIONS = Operation(
    name="blocks.versions",
    summary="A block's versions, newest (the current one) first: what it said, from when to when, "
    "and by which key.",
    description="A block's versions, newest (the current one) first: each with its content, "
    "title, category, tags, type and own date, when it became current (valid_from) and when a "
    "write replaced it (valid_to), and the key whose write made it. A change of content, title, "
    "category, tags, type or own date keeps the state it replaces as a version.",
    service="ctx.core.blocks.versions:block_versions",
    input=VersionsRequest,
    output=BlockVersions,
    rest=Rest("GET", "/api/blocks/{id}/versions", errors=BY_ID),
    tool=Tool(
        "versions",
        "What a block said before: its versions, newest (the current one) first, each with its "
        "content and when it was current. Use get with version to read one.",
        idempotent=True,
    ),
    cli=True,
)

EXPORT_BLOCKS = Operation(
    name="blocks.export",
    summary="Everything of the key's read scopes (or of ``scope``) as JSON lines.",
    description="Everything of the key's read scopes (or of ``scope``) as JSON lines: a header, "
    "the blocks (metadata, temporal anchors), then each section's lines (blobs, with their bytes "
    "when ``blobs`` is true; Guard decisions and reviews; links with their review state; "
    "governed threads, their events and pins; issue numbers, history and sync state), and an end "
    "line counting every type of line.",
    service="ctx.core.blocks.transfer:export_lines",
    input=ExportRequest,
    rest=Rest("GET", "/api/export", answer="lines"),
    cli=True,
)

IMPORT_BLOCKS = Operation(
    name="blocks.import",
    summary="Import a batch of export lines in one transaction.",
    description="Import a batch of export lines in one transaction: the header first, the end "
    "line that counts the lines last (a batch without it is refused whole). Blocks keep their "
    "ids and times, every section's lines their state; what is already here unchanged stays as "
    "it is.",
    service="ctx.core.blocks.transfer:import_batch",
    input=ImportRequest,
    kind="write",
    reach="home",
    # a blob's bytes travel in its line: the body may be as large as a blob store's
    rest=Rest("POST", "/api/import", body_limit="server.blob_body_limit"),
    cli=True,
)


# -- block types: policy rows, an admin's -----------------------------------------------------------

TYPE_ADMIN = "ctx.core.blocks.type_admin"
NO_TYPE = {404: "No such block type."}

LIST_TYPES = Operation(
    name="blocks.list-types",
    summary="Every block type with its policy (retrieval, Guard, Dream, embedding, dates).",
    service=f"{TYPE_ADMIN}:list_types",
    access="admin",
    reach="none",
    rest=Rest("GET", "/api/types", tags=("admin",)),
)

SHOW_TYPE = Operation(
    name="blocks.show-type",
    summary="Every field of one block type.",
    service=f"{TYPE_ADMIN}:show_type",
    input=TypeName,
    access="admin",
    reach="none",
    rest=Rest("GET", "/api/types/{name}", errors=NO_TYPE, tags=("admin",)),
)

SET_TYPE = Operation(
    name="blocks.set-type",
    summary="Change fields of a block type; the row is validated as a whole and applies at once.",
    description="Change fields of a block type (any of its columns but the name). A value may "
    'be given as text (``"0.8"``, ``"true"``) as on the command line. The row is validated as '
    "a whole; a bad or unknown field is a 422 naming it.",
    service=f"{TYPE_ADMIN}:set_type",
    input=TypeEdit,
    kind="write",
    access="admin",
    reach="none",
    rest=Rest("PATCH", "/api/types/{name}", body=TypeChanges, errors=NO_TYPE, tags=("admin",)),
)
