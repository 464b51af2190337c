"""Settings of the agent hooks (``ctx brief/recall/persist --hook``, ``ctx statusline``).

The hooks run inside an agent and never open the database, so only the default and the
environment apply (``CTX_HOOKS_TIMEOUT``, ``CTX_HOOKS_RECALL_BUDGET``); a database value set with
``ctx settings set`` is listed there but does not reach them.
"""

from __future__ import annotations

from ctx.core.runtime import Setting

SETTINGS = [
    Setting(
        "hooks.timeout",
        float,
        5.0,
        "Seconds an agent hook may take, HTTP included; then it gives up silently. "
        "Environment only (CTX_HOOKS_TIMEOUT): the hooks never read the database.",
        minimum=0.1,
        maximum=120.0,
    ),
    Setting(
        "hooks.brief_budget",
        int,
        4000,
        "Tokens (about 4 characters each) `ctx brief --hook` may add at session start. "
        "Environment only (CTX_HOOKS_BRIEF_BUDGET): the hooks never read the database.",
        minimum=200,
        maximum=100_000,
    ),
    Setting(
        "hooks.recall_budget",
        int,
        1500,
        "Tokens (about 4 characters each) `ctx recall --hook` may add to a prompt. "
        "Environment only (CTX_HOOKS_RECALL_BUDGET): the hooks never read the database.",
        minimum=50,
        maximum=50_000,
    ),
]
