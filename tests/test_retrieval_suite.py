"""The retrieval suite (bench/retrieval_suite.py) in a bounded form: two of its sets, a few
questions each, through the product path; its report carries every channel, the checks and the
cross-validation."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_suite_reports_every_set_channel_and_check() -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "retrieval_suite.py"),
            "--sets",
            "technotes,crosslang",
            "--max-questions",
            "6",
            "--candidates",
            "before 37",
            "--cv",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert set(report["sets"]) == {"technotes", "crosslang"}
    for res in report["sets"].values():
        assert set(res["modes"]) == {"hybrid", "dense", "fts", "trigram"}
        assert res["modes"]["hybrid"]["all"]["n"] == 6
        assert any(label.startswith("hybrid r@1 >= best channel") for label in res["checks"])
        assert "before 37" in res["candidates"]
    cross = report["sets"]["crosslang"]
    assert {"de->en", "en->en", "en->de", "de->de"} & set(cross["modes"]["hybrid"])
    assert set(report["cv"]["leave_one_set_out"]) == {"technotes", "crosslang"}
    # the text printed before the JSON names each set and the verdicts
    assert "technotes (" in out.stdout and ("met" in out.stdout or "MISSED" in out.stdout)
