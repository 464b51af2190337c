"""What a GitHub issue sync costs: a first pull, a run with nothing changed, a small change.

    .venv/bin/python bench/issue_sync.py --issues 1000 --comments 1000 --changed 20

Starts a private embedded PostgreSQL and the loopback GitHub server (tests/support/github_server.py,
which answers from memory at once, so what is measured is ctx's side: githubkit, the merge, the
block writes with their Guard/embedding jobs queued, the bases). Seeds ``--issues`` issues with
``--comments`` comments spread over them, then times, in one run:

- the first pull (every issue and comment created here): records/s and requests;
- a second run with nothing changed (the baseline the ETags should make nearly free): requests
  and how many of them cost rate limit;
- a run after ``--changed`` issues were edited on GitHub and as many here (merged both ways).
Embedding is not part of it (the jobs are queued, not run).
"""

from __future__ import annotations

import argparse
import sys
import time

from _common import REPO_ROOT, bench_app, bench_environ, principal, table

sys.path.insert(0, str(REPO_ROOT / "tests" / "support"))
from github_server import GitHubServer

from ctx.core import access
from ctx.plugins.issues import service
from ctx.plugins.issues.schemas import IssueEdit, IssueFilter
from ctx.plugins.issues.sync import state
from ctx.plugins.issues.sync.engine import sync_link

TOKEN = "ghp_bench"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--issues", type=int, default=1000)
    ap.add_argument("--comments", type=int, default=1000)
    ap.add_argument("--changed", type=int, default=20)
    args = ap.parse_args()
    with GitHubServer(token=TOKEN) as gh, bench_app(None, bench_environ()) as app:
        repo = gh.add_repo("bench", "repo")
        for i in range(args.issues):
            gh.add_issue(
                repo,
                f"Issue {i}: the {i % 7} widget fails",
                f"Steps {i}\n\nExpected.",
                labels=[f"area-{i % 5}"],
            )
        for i in range(args.comments):
            gh.add_comment(repo, 1 + i % args.issues, f"Comment {i} on it.")
        with app.connection() as conn:
            access.set_secret(conn, app.seal_key, "bench-token", TOKEN)
        link = state.create_link(
            app,
            {
                "scope": "bench",
                "forge": "github",
                "repo": "bench/repo",
                "base_url": gh.base_url,
                "token_secret": "bench-token",
                "webhook_secret": None,
                "interval_s": 300,
            },
        )
        rows = []

        def timed(name: str, records: int) -> None:
            before_requests, before_rate = len(gh.requests), gh.remaining
            t = time.perf_counter()
            report = sync_link(app, int(link["id"]))
            took = time.perf_counter() - t
            assert report.error is None and report.rate_limited_until is None, report
            sent = len(gh.requests) - before_requests
            rows.append(
                [
                    name,
                    records,
                    round(took, 2),
                    round(records / took, 1) if records else "-",
                    sent,
                    before_rate - gh.remaining,
                    report.not_modified,
                    report.conflicts,
                ]
            )

        timed("first pull", args.issues + args.comments)
        timed("nothing changed", 0)
        who = principal("bench")
        for i in range(args.changed):
            gh.edit_issue(repo, 1 + i, title=f"Issue {i}: retitled on GitHub")
            local = service.list_issues(app, who, _filter(f"Issue {args.changed + i}:"))[0]
            service.edit(app, who, local["number"], IssueEdit(labels=["triaged"]))
        timed(f"{args.changed} + {args.changed} changed", 2 * args.changed)
        timed("nothing changed again", 0)
    print(
        table(
            [
                "run",
                "records",
                "seconds",
                "records/s",
                "requests",
                "rate cost",
                "304s",
                "conflicts",
            ],
            rows,
        )
    )
    return 0


def _filter(text: str) -> IssueFilter:
    return IssueFilter(text=text, limit=1)


if __name__ == "__main__":
    raise SystemExit(main())
