"""GitHub as a forge for the issue sync, through githubkit (GitHub Enterprise: a base URL).

The sync engine (``ctx.plugins.issues.sync``) loads ``FORGE`` by name (``github``) and speaks to
it in its own terms; this package is the only place that knows GitHub's paths, fields, headers
and error shapes. Requests carry the token from the vault; githubkit's own retrying and HTTP
cache are off, because the engine keeps ETags and cursors in the database and pauses the link on
a rate limit instead of sleeping in a worker.
"""

from __future__ import annotations

from ctx.plugins.forge_github.forge import FORGE, GitHubForge, GitHubKind

__all__ = ["FORGE", "GitHubForge", "GitHubKind"]
