"""PostgreSQL's memory settings sized from the RAM (``ctx.core.runtime.pg_sizing``), applied to
the embedded cluster by ``ctx init`` and shown by ``ctx doctor``.

The rules on several machine sizes, their floors and caps; the ``pg.memory`` setting; the cgroup
limit; the configuration file. One embedded cluster (sized for 2GB, so it stays small) checks the
values in effect after the restart, a cluster another process holds, the next start, and
``ALTER SYSTEM`` over ctx's value; the session's cluster is the external server doctor warns
about.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import psycopg
import pytest

from ctx.core import App
from ctx.core.errors import ValidationError
from ctx.core.runtime import diagnose, size_embedded
from ctx.core.runtime.pg_sizing import (
    CONF_NAME,
    GB,
    INCLUDE,
    MB,
    cgroup_limits,
    machine_memory,
    memory_for,
    size_for,
    write_conf,
)
from ctx.ui.cli import run


@pytest.mark.parametrize(
    ("ram_gb", "expected"),
    [
        (2, (384, 768, 4, 96)),
        (8, (1792, 3584, 17, 448)),
        (24, (5888, 11776, 58, 1472)),
        (64, (8192, 32256, 64, 2048)),
    ],
)
def test_sizes_for_common_machines(ram_gb: int, expected: tuple[int, ...]) -> None:
    assert tuple(size_for(ram_gb * GB).values().values()) == expected


def test_floors_caps_and_connections() -> None:
    tiny = size_for(256 * MB)  # PostgreSQL's own defaults are the floors
    assert tiny.values() == {
        "shared_buffers": 128,
        "effective_cache_size": 128,
        "work_mem": 4,
        "maintenance_work_mem": 64,
    }
    huge = size_for(1024 * GB)
    assert (huge.shared_buffers, huge.work_mem, huge.maintenance_work_mem) == (8192, 64, 2048)
    assert huge.effective_cache_size == (1024 * GB - GB) // MB // 2  # a hint: not capped
    # more connections share what shared_buffers leaves
    assert size_for(24 * GB, connections=1000).work_mem == 5
    assert size_for(24 * GB).summary().startswith("shared_buffers 5888MB, effective_cache_size")


def test_the_setting_names_a_size_auto_or_off(tmp_path: Path) -> None:
    assert memory_for("4GB") == 4 * GB
    assert memory_for(" 1.5 gb ") == 1536 * MB
    assert memory_for("512MB") == 512 * MB
    assert memory_for("off") is None
    assert memory_for("auto") == machine_memory() > 0
    for bad in ("lots", "100MB", "4G", "-4GB", ""):
        with pytest.raises(ValidationError, match="expected auto, off or a size"):
            memory_for(bad)
    app = App(home=tmp_path, load_entry_points=False, environ={})
    assert app.settings.resolve("pg.memory") == ("auto", "default")
    with pytest.raises(ValidationError, match="expected auto, off"):
        app.settings.validate_change("pg.memory", "lots")
    assert app.settings.validate_change("pg.memory", "8GB") == "8GB"


def test_a_cgroup_limit_lowers_the_ram(tmp_path: Path) -> None:
    v2, v1, unlimited = tmp_path / "v2", tmp_path / "v1", tmp_path / "none"
    v2.mkdir()
    (v2 / "memory.max").write_text("1073741824\n")
    (v1 / "memory").mkdir(parents=True)
    (v1 / "memory" / "memory.limit_in_bytes").write_text("2147483648\n")
    unlimited.mkdir()
    (unlimited / "memory.max").write_text("max\n")
    assert cgroup_limits(v2) == [GB]
    assert cgroup_limits(v1) == [2 * GB]
    assert cgroup_limits(unlimited) == []
    assert machine_memory(v2) == GB
    assert machine_memory(unlimited) == os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def test_the_file_is_written_once_and_included_once(tmp_path: Path) -> None:
    (tmp_path / "postgresql.conf").write_text("shared_buffers = 128MB\n")
    assert write_conf(tmp_path, "work_mem = '8MB'\n")
    assert not write_conf(tmp_path, "work_mem = '8MB'\n")
    assert write_conf(tmp_path, "work_mem = '9MB'\n")
    assert (tmp_path / CONF_NAME).read_text() == "work_mem = '9MB'\n"
    assert (tmp_path / CONF_NAME).stat().st_mode & 0o777 == 0o600
    main = (tmp_path / "postgresql.conf").read_text()
    assert main.count(INCLUDE) == 1 and main.index("128MB") < main.index(INCLUDE)
    assert write_conf(tmp_path, None)  # off: PostgreSQL's defaults again
    assert not (tmp_path / CONF_NAME).exists()
    assert not write_conf(tmp_path, None)


def _shown(app: App, *names: str) -> list[str]:
    with app.db.connect_raw() as conn:
        return [conn.execute(f"SHOW {name}").fetchone()[name] for name in names]  # type: ignore[index]


def _holders(pgdata: Path, pids: list[int]) -> None:
    (pgdata / ".handle_pids.json").write_text(json.dumps(pids))


def test_init_sizes_the_embedded_cluster_and_doctor_shows_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the embedded cluster sets a missing XDG_RUNTIME_DIR for pgserver: not for later tests
    monkeypatch.setenv("XDG_RUNTIME_DIR", os.environ.get("XDG_RUNTIME_DIR", str(tmp_path)))
    home = tmp_path / "home"
    names = ("shared_buffers", "effective_cache_size", "work_mem", "maintenance_work_mem")
    small = App(home=home, load_entry_points=False, environ={"CTX_PG_MEMORY": "2GB"})
    small.db.start()
    try:
        assert small.db.embedded is not None
        first = small.db.embedded.postmaster()
        said = size_embedded(small)
        assert said is not None and "restarted the embedded PostgreSQL" in said
        assert small.db.embedded.postmaster() != first
        assert _shown(small, *names) == ["384MB", "768MB", "4MB", "96MB"]
        assert "shared_buffers = '384MB'" in (home / "pg" / CONF_NAME).read_text()

        again = size_embedded(small)  # nothing changed: no restart
        assert again == "memory: " + size_for(2 * GB).summary()

        # another ctx process holds the cluster: written and reloaded, started later
        larger = App(home=home, load_entry_points=False, environ={"CTX_PG_MEMORY": "4GB"})
        larger.db.start()
        _holders(home / "pg", [os.getpid(), os.getppid()])
        try:
            said = size_embedded(larger)
            assert said is not None and "applies at the cluster's next start" in said
            assert _shown(larger, "shared_buffers", "work_mem") == ["384MB", "7MB"]
        finally:
            _holders(home / "pg", [os.getpid()])
        with larger.db.connect_raw() as conn:  # the operator's own value wins over ctx's
            conn.execute("ALTER SYSTEM SET work_mem = '12MB'")
        larger.db.stop()  # the last holder: the cluster stops
    finally:
        small.db.stop()

    doctor = App(home=home, load_entry_points=False, environ={"CTX_PG_MEMORY": "4GB"})
    report = diagnose(doctor)  # starts the cluster again, as any later process does
    details = {c["name"]: c["detail"] for c in report["checks"]}
    assert details["shared_buffers"] == "768MB from ctx's sizing; ctx picks 768MB (4.0 GB of RAM)"
    assert details["work_mem"].startswith("12MB from ALTER SYSTEM; ctx picks 7MB")
    assert details["maintenance_work_mem"].startswith("192MB from ctx's sizing")
    assert not any(c.get("warning") for c in report["checks"])


def test_doctor_warns_about_an_external_server_below_the_advice(
    database_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CTX_URL", "http://127.0.0.1:9")  # no ctxd: doctor's last line only

    def doctor(memory: str, *args: str) -> str:
        environ = {"CTX_PG_MEMORY": memory}
        app = App(
            database_url=database_url, home=tmp_path, load_entry_points=False, environ=environ
        )
        run(["doctor", *args], app=app)
        return capsys.readouterr().out

    with psycopg.connect(database_url) as conn:
        shared = conn.execute("SHOW shared_buffers").fetchone()[0]  # type: ignore[index]
    report: dict[str, Any] = json.loads(doctor("1TB", "--json"))
    checks = {c["name"]: c for c in report["checks"]}
    assert checks["shared_buffers"]["detail"].startswith(f"{shared} from ")
    assert "ctx advises 8GB (1024.0 GB of RAM)" in checks["shared_buffers"]["detail"]
    warning = checks["memory"]
    assert warning["ok"] and warning["warning"]
    assert warning["detail"].startswith("below half of ctx's advice (1024.0 GB of RAM): ")
    assert "effective_cache_size" in warning["detail"]

    shown = doctor("1TB")
    assert any(line.startswith("warning  memory: below half") for line in shown.splitlines())
    assert "warning" not in doctor("off")
