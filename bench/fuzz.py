"""Long schema-driven fuzzing of a live ctxd (by hand; ``make test`` runs a bounded version).

    nice .venv/bin/python bench/fuzz.py --examples 60 --stateful-seconds 300 --seed 1

Starts a private embedded PostgreSQL and ctxd's HTTP app on a loopback port, seeds a few blocks,
then sends schemathesis-generated requests (valid and schema-breaking) for every operation with
an admin key and a non-admin key over one keep-alive connection, and then sequences of calls
(the stateful phase) with the non-admin key. Prints the status counts, the findings by kind and
every finding (a 5xx, a 4xx without a JSON error body, a dropped connection, an answer the schema
does not document, a request the schema allows that the server refuses); exits 1 if any.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from _common import REPO_ROOT, bench_app, bench_environ, principal

sys.path.insert(0, str(REPO_ROOT / "tests" / "support"))
from fuzzing import fuzz, fuzz_stateful
from live import live_server

from ctx.core import StoreRequest, access, store_block


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--examples", type=int, default=500, help="per operation, key and mode")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stateful-seconds", type=float, default=300, help="the stateful phase")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    # backends the fuzzer creates may only point at this machine: no request leaves it
    env = {"CTX_QUERY_WEIGHT_DENSE": "0", "CTX_LLM_ALLOWED_HOSTS": "127.0.0.0/8,::1,localhost"}
    # as in the bounded run: the per-key rate limits would answer most requests with 429
    env |= {f"CTX_LIMITS_{kind}_PER_MINUTE": "0" for kind in ("WRITES", "QUERIES", "MODEL_CALLS")}
    with bench_app(None, bench_environ(env)) as app:
        with app.connection() as conn:
            _, admin = access.create_key(
                conn, name="fuzz admin", home_scope="default", is_admin=True
            )
            _, user = access.create_key(
                conn, name="fuzz user", home_scope="alpha", allowed_scopes=["default"]
            )
        who = principal("alpha")
        ids = tuple(
            str(store_block(app, who, StoreRequest(title=f"Note {i}", content=f"plan {i}"))["id"])
            for i in range(20)
        )
        started = time.perf_counter()
        with live_server(app) as url:
            report = fuzz(
                url,
                {"admin": admin, "user": user},
                examples=args.examples,
                seed=args.seed,
                block_ids=ids,
            )
            fuzz_stateful(
                url, ("user", user), seconds=args.stateful_seconds, seed=args.seed, report=report
            )
        took = time.perf_counter() - started
    print(
        f"{report.requests} requests ({report.stateful} in sequences) in {took:.0f} s; "
        f"statuses {dict(sorted(report.statuses.items()))}"
    )
    print(f"findings by kind: {dict(report.kinds())}")
    for finding in report.findings:
        print(finding)
    print(f"{len(report.findings)} findings")
    if args.json:
        print(
            json.dumps(
                {
                    "requests": report.requests,
                    "stateful": report.stateful,
                    "kinds": report.kinds(),
                    "seconds": round(took, 1),
                    "statuses": report.statuses,
                    "findings": [str(f) for f in report.findings],
                }
            )
        )
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
