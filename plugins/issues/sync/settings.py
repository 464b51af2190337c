"""The sync's settings: a switch for all of it and the default pull interval of new links."""

from __future__ import annotations

from ctx.core import App, Conflict, Setting

ENABLED = "issues.sync_enabled"
INTERVAL = "issues.sync_interval_s"

SETTINGS = [
    Setting(
        ENABLED,
        bool,
        True,
        "Sync linked scopes with their forge repositories. Off stops the periodic pulls, the "
        "fetches webhooks queue and `ctx issues sync` (deliveries are still verified and "
        "recorded); links, cursors and conflicts are kept for when it is on again.",
    ),
    Setting(
        INTERVAL,
        int,
        300,
        "Seconds between pulls for a link created without its own interval.",
        minimum=10,
        maximum=86400,
    ),
]


def require_enabled(app: App) -> None:
    if not app.settings[ENABLED]:
        raise Conflict(f"issue sync is turned off: set {ENABLED} to true to turn it on")
