"""PostgreSQL's memory settings, sized from the machine's RAM.

PostgreSQL's defaults (shared_buffers 128MB, work_mem 4MB, maintenance_work_mem 64MB,
effective_cache_size 4GB) fit any machine and use little of a large one: at a million blocks
fusion's p95 was 184 ms with them and 97 ms with 2GB of shared_buffers (docs/benchmarks.md).
``ctx init`` (and ``ctx serve --init``) writes what ``size_for`` picks into ``ctx-sizing.conf`` in
the embedded cluster's data directory, included at the end of postgresql.conf, so every later start
reads it; postgresql.auto.conf (``ALTER SYSTEM``) is read after it, so an operator's value wins.
The setting ``pg.memory`` (``CTX_PG_MEMORY``) names the RAM to size for: ``auto`` (this machine's,
or its container's limit), a figure such as ``4GB``, or ``off`` (PostgreSQL's defaults). ``ctx
doctor`` shows the values in effect, where each comes from, and ctx's pick; for an external server
it only advises.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ctx.core.errors import CtxError, ValidationError

if TYPE_CHECKING:
    from ctx.core.app import App

MB = 1024 * 1024
GB = 1024 * MB
SETTING = "pg.memory"
NAMES = ("shared_buffers", "effective_cache_size", "work_mem", "maintenance_work_mem")
CONF_NAME = "ctx-sizing.conf"
INCLUDE = f"include_if_exists = '{CONF_NAME}'"
# ctxd, a ctx worker and the embedder model they load run beside PostgreSQL: this much RAM (or a
# quarter of a small machine) is theirs before PostgreSQL's share is counted.
CTX_RESERVE = GB
DEFAULT_SHARED_BUFFERS_MB = 128  # PostgreSQL's own, and the floor
SIZE = re.compile(r"^(\d+(?:\.\d+)?)\s*(mb|gb|tb)$")
UNITS = {"mb": MB, "gb": GB, "tb": 1024 * GB}
SMALLEST = 256 * MB


@dataclass(frozen=True)
class Sizing:
    """The four values for ``memory`` bytes of RAM, in MB."""

    memory: int
    shared_buffers: int
    effective_cache_size: int
    work_mem: int
    maintenance_work_mem: int

    def values(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in NAMES}

    def summary(self) -> str:
        shown = ", ".join(f"{name} {size(mb)}" for name, mb in self.values().items())
        return f"{shown} (sized for {ram(self.memory)})"


def size_for(memory: int, connections: int = 100) -> Sizing:
    """The memory settings for a machine with ``memory`` bytes of RAM and ``connections``
    allowed connections (``max_connections``, 100 unless changed).

    PostgreSQL shares the machine with ctx's own processes, so first ``CTX_RESERVE`` (1GB, or a
    quarter of a machine under 4GB) is set aside; of the rest ("usable"):

    - shared_buffers: a quarter (the manual's starting point for a dedicated server), at least
      PostgreSQL's 128MB and at most 8GB: beyond that the page cache serves as well, and a
      million blocks (9GB on disk) met the latency target with 2GB.
    - effective_cache_size: half, never below shared_buffers. It reserves nothing; it tells the
      planner how much of the data the caches probably hold, and half leaves room for the
      machine's other users of the page cache.
    - work_mem: what shared_buffers leaves, over three times ``connections`` (a query can use it
      in several sorts and hashes at once, and every connection may run one), 4MB to 64MB.
      ctx's queries sort a few hundred candidates; more helps large bitmap scans stay exact.
    - maintenance_work_mem: a sixteenth, 64MB to 2GB. An HNSW index builds several times faster
      while its graph fits (1.4GB for a million halfvec(384) vectors), and only index builds,
      VACUUM and autovacuum workers use it.
    """
    usable = (memory - min(CTX_RESERVE, memory // 4)) // MB
    shared = _within(usable // 4, DEFAULT_SHARED_BUFFERS_MB, 8192)
    return Sizing(
        memory=memory,
        shared_buffers=shared,
        effective_cache_size=max(usable // 2, shared),
        work_mem=_within((usable - shared) // (3 * max(connections, 1)), 4, 64),
        maintenance_work_mem=_within(usable // 16, 64, 2048),
    )


def _within(value: int, low: int, high: int) -> int:
    return max(low, min(value, high))


def size(mb: int) -> str:
    """MB as PostgreSQL writes a size: ``8GB``, ``384MB``."""
    return f"{mb // 1024}GB" if mb % 1024 == 0 else f"{mb}MB"


def ram(memory: int) -> str:
    return f"{memory / GB:.1f} GB of RAM"


def machine_memory(cgroup: Path = Path("/sys/fs/cgroup")) -> int:
    """This machine's RAM in bytes, or its memory limit when this process's cgroup (a container,
    a systemd slice) has a lower one."""
    physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return min([physical, *cgroup_limits(cgroup)])


def cgroup_limits(root: Path) -> list[int]:
    """The memory limits set on this process's cgroup under ``root``: cgroup v2's memory.max
    (of its own group and of the root a container sees) and v1's memory.limit_in_bytes. An
    unlimited group (``max``, or v1's huge number) just never ends up the smallest."""
    try:
        own = Path(Path("/proc/self/cgroup").read_text().split("0::", 1)[1].split("\n", 1)[0])
    except (OSError, IndexError):
        own = Path("/")
    found = []
    for path in dict.fromkeys(  # in a container, or at the root, its own group is the root
        (
            root / own.relative_to("/") / "memory.max",
            root / "memory.max",
            root / "memory" / "memory.limit_in_bytes",
        )
    ):
        try:
            text = path.read_text().strip()
        except OSError:
            continue
        if text.isdigit() and int(text) > 0:
            found.append(int(text))
    return found


def memory_for(value: str) -> int | None:
    """The RAM in bytes the setting's ``value`` sizes for; None for ``off``."""
    text = value.strip().lower()
    if text == "off":
        return None
    if text == "auto":
        return machine_memory()
    match = SIZE.match(text)
    memory = int(float(match.group(1)) * UNITS[match.group(2)]) if match else 0
    if memory < SMALLEST:
        raise ValidationError(
            f"setting {SETTING}: expected auto, off or a size of at least 256MB such as 4GB, "
            f"got {value!r}",
            field=SETTING,
        )
    return memory


def memory_problem(get: Callable[[str], Any]) -> str | None:
    """The setting's rule, checked when it is stored (``ctx settings set pg.memory …``)."""
    try:
        memory_for(str(get(SETTING)))
    except ValidationError as exc:
        return exc.message
    return None


def conf_text(sizing: Sizing, setting: str) -> str:
    lines = [
        f"# Written by ctx init for {ram(sizing.memory)} ({SETTING} = {setting}), and again at",
        "# each ctx init. To size for another figure set CTX_PG_MEMORY (4GB, or off) and run",
        "# ctx init; to change one value use ALTER SYSTEM, which PostgreSQL reads after this file.",
    ]
    lines += [f"{name} = '{mb}MB'" for name, mb in sizing.values().items()]
    return "\n".join(lines) + "\n"


def write_conf(pgdata: Path, text: str | None) -> bool:
    """Put ``text`` in the cluster's ``ctx-sizing.conf`` (remove the file for None) and include
    it from postgresql.conf; True when the file changed. Owned like the data directory: as root
    the server runs as another user, and PostgreSQL refuses to start on a file it cannot read."""
    path = pgdata / CONF_NAME
    try:
        old: str | None = path.read_text()
    except FileNotFoundError:
        old = None
    if text == old:
        return False
    if text is None:
        path.unlink()
        return True
    main = pgdata / "postgresql.conf"
    if INCLUDE not in main.read_text():
        with main.open("a") as conf:
            conf.write(f"\n# memory sized by ctx init (ALTER SYSTEM overrides it)\n{INCLUDE}\n")
    temporary = path.with_suffix(".tmp")
    temporary.write_text(text)
    temporary.chmod(0o600)
    if os.geteuid() == 0:
        owner = pgdata.stat()
        os.chown(temporary, owner.st_uid, owner.st_gid)
    temporary.replace(path)
    return True


def size_embedded(app: App) -> str | None:
    """Size the embedded cluster of an opened ``app`` by its ``pg.memory`` setting: write the
    file, reload, and restart the cluster when a value only a start reads (shared_buffers)
    changed and no other ctx process holds it. A line saying what it did; None for an external
    database."""
    cluster = app.db.embedded
    if cluster is None:
        return None
    setting = str(app.settings[SETTING])
    memory = memory_for(setting)
    with app.db.connect_raw() as conn:
        row = conn.execute("SELECT current_setting('max_connections')::int AS n").fetchone()
        sizing = size_for(memory, row["n"] if row else 100) if memory else None
        if write_conf(cluster.pgdata, conf_text(sizing, setting) if sizing else None):
            conn.execute("SELECT pg_reload_conf()")
        # pg_file_settings reads the files as they are now; an error marks a value that differs
        # from the one in effect and that only a start applies
        pending = conn.execute(
            "SELECT 1 FROM pg_file_settings WHERE name = ANY(%s) AND error IS NOT NULL",
            (list(NAMES),),
        ).fetchone()
    done = "memory: " + (sizing.summary() if sizing else f"PostgreSQL's defaults ({SETTING} off)")
    if pending is None:
        return done
    try:
        restarted = cluster.restart_alone()
    except CtxError as exc:  # the server refused the new values: it runs again as before
        write_conf(cluster.pgdata, None)
        cluster.restart()
        return f"memory: PostgreSQL's defaults; it did not start with ctx's sizing ({exc.message})"
    if restarted:
        return f"{done}; restarted the embedded PostgreSQL to apply it"
    return f"{done}; shared_buffers applies at the cluster's next start (once ctxd stopped)"
