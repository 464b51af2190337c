"""What ``ctx --help`` lists for the core and the built-in plugins: each top-level command's name,
the first paragraph of its help, and whether it is a group, in the order of the full tree.

``ctx --help`` (and ``ctx`` alone) is answered from this list, so it imports no command module
and no plugin; only plugins installed from other distributions add their commands for real.
tests/ui/cli/test_help_index.py compares the list with the full tree and prints the new one when
a command or its help changes.
"""

from __future__ import annotations

#: ``(name, first paragraph of help, is a group)``, as ``ctx.ui.cli.root.listing`` derives them
COMMANDS: tuple[tuple[str, str, bool], ...] = (
    (
        "init",
        "Create $CTX_HOME and the database, apply migrations and, the first time, an admin key.",
        False,
    ),
    ("migrate", "Apply pending database migrations.", False),
    (
        "doctor",
        "Check the database (server version, extensions, text search, migrations) and the server.",
        False,
    ),
    ("plugins", "Loaded plugins with version, source and the hooks they implement.", False),
    (
        "health",
        "Is the server up (at CTX_URL, or this machine's server.host/server.port), and which version.",
        False,
    ),
    (
        "llmlog",
        "The model calls: when, role, backend, model, outcome, tokens in/out, milliseconds, error (text of requests only while llm.log_content is on).",
        False,
    ),
    (
        "save",
        "Store a block (create, or update the block with the same category and title).",
        False,
    ),
    ("get", "Show one block.", False),
    ("delete", "Delete a block from your home scope.", False),
    ("search", "Full-text search (no model needed).", False),
    (
        "query",
        "Hybrid retrieval (dense + English/German full-text + title trigrams, fused with RRF), and an answer with cited sources when a synthesis backend exists, streamed as it is written.",
        False,
    ),
    ("stats", "Counts of blocks in your read scopes.", False),
    ("categories", "Categories in your read scopes with their block counts.", False),
    ("list-meta", "List blocks newest first, without their content.", False),
    ("edit", "Change fields of a block in your home scope; the others stay as they are.", False),
    ("archive", "Archive a block: kept, but out of every search until unarchived.", False),
    ("unarchive", "Bring an archived block back into search.", False),
    (
        "history",
        "When a block was created, changed, archived or brought back, and by which key.",
        False,
    ),
    ("versions", "What a block said before: its versions, newest (the current one) first.", False),
    (
        "digest",
        "The topic map of your read scopes (clusters of linked blocks, categories); with --daily, summarise one day's writes into the block 'Digest YYYY-MM-DD' (needs a digest backend).",
        False,
    ),
    (
        "mark",
        "Mark which source answered a question (or did not): the scope's gold set for `ctx eval`.",
        False,
    ),
    ("marks", "The marks of the scopes this key reads, newest first.", False),
    ("unmark", "Remove a mark.", False),
    ("eval", "Replay the marked questions: R@1, R@5, R@10 and MRR per stage and channel.", False),
    (
        "worker",
        "Run background jobs in the foreground (for extra worker processes beside ctxd).",
        False,
    ),
    ("brief", "The project's agent-briefing blocks (SessionStart and SubagentStart hook).", False),
    (
        "recall",
        "Memory relevant to a prompt, within hooks.recall_budget tokens (UserPromptSubmit hook).",
        False,
    ),
    (
        "persist",
        "Store the [PERSIST:category:title] blocks of the agent's last message (Stop and SubagentStop hook); without --hook, of the message on stdin.",
        False,
    ),
    (
        "statusline",
        "One short line for an agent's status bar: reachable, block count (JSON on stdin is read and ignored).",
        False,
    ),
    (
        "export",
        "Write everything you can read (or of --scope) as JSON lines: blocks, links, Guard decisions, governed threads, issue history, blobs (their bytes with --blobs); with --admin the server's own rows too, to move a whole server.",
        False,
    ),
    (
        "import",
        "Import an export: everything keeps its ids, times and state; running it again changes nothing.",
        False,
    ),
    (
        "serve",
        "Run ctxd in the foreground; stops cleanly (embedded database included) on SIGINT/SIGTERM.",
        False,
    ),
    (
        "ingest",
        "Ingest an Obsidian vault (a folder: notes become blocks, wikilinks become links; a second run sends only changed notes and archives the blocks of deleted ones), or documents (files: each becomes one block, or a block per chunk, with its page or heading).",
        False,
    ),
    ("keys", "Create, list and revoke API keys.", True),
    ("settings", "Show and change settings (default < env < database).", True),
    ("types", "Block types: policy rows that say how blocks are treated.", True),
    (
        "backends",
        "Model backends: the servers each LLM role (synthesis, rerank, embed, ...) calls.",
        True,
    ),
    ("blob", "Files kept in the store: put, get, list, delete.", True),
    ("dream", "Dream: links between blocks made in the background.", True),
    ("embed", "Embedding generations: status, rebuild, reblend.", True),
    ("governor", "The context governor: governed threads, their watermarks and index.", True),
    (
        "guard",
        "The Guard: near-duplicates caught on write, updates and translations recorded.",
        True,
    ),
    ("mcp", "MCP: the stdio server and OAuth clients for remote MCP clients.", True),
    (
        "secrets",
        "Sealed secrets (backend API keys, tokens): set, list, delete; never shown again.",
        True,
    ),
    ("temporal", "Deterministic temporal parsing.", True),
    ("tenants", "Tenants: list, create, show, delete; their scopes, keys and grants.", True),
    ("issues", "Track work as issues: file, list, comment, close.", True),
)
