"""The Redis cache tier, behind the governor's ``TieredCache``, against a real ``redis-server``.

Each test that needs a server starts its own on 127.0.0.1 (a free port, no persistence, a
temporary directory) and stops it after; they skip where ``redis-server`` is not installed
(Debian: ``apt-get install redis-server``). The settings and factory tests need no server.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import redis

from ctx.core import ConfigError, ExternalCache, ValidationError
from ctx.core.governor import TieredCache
from ctx.core.runtime import PluginHost, Registry, Settings, registered_factories
from ctx.plugins.cache_redis import RedisCache, open_redis

MAX_BYTES = 1 << 20
TIMEOUT_S = 0.5  # generous where a test is about correctness, not speed


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """One ``redis-server`` process on loopback; ``stop`` and ``start`` again keep the port."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2)

    def start(self) -> None:
        log = (self.directory / "redis.log").open("ab")
        options = {"bind": "127.0.0.1", "port": str(self.port), "save": "", "appendonly": "no",
                   "dir": str(self.directory)}  # fmt: skip
        self.process = subprocess.Popen(
            [
                "redis-server",
                *(arg for name, value in options.items() for arg in (f"--{name}", value)),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        deadline = time.monotonic() + 10
        while True:
            try:
                with self.client() as probe:
                    if probe.ping():
                        return
            except redis.ConnectionError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                output = (self.directory / "redis.log").read_text(errors="replace")
                pytest.fail(f"redis-server did not answer PING on port {self.port}:\n{output}")
            time.sleep(0.02)

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # a paused server cannot act on SIGTERM
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (Debian: apt-get install redis-server)")
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def tiered(redis_server: RedisServer) -> Iterator[Callable[..., TieredCache]]:
    """Builds ``TieredCache`` objects over the server's tier; closes them after."""
    made: list[TieredCache] = []

    def make(**kwargs: Any) -> TieredCache:
        cache = TieredCache(MAX_BYTES, external=open_redis(redis_server.url, TIMEOUT_S), **kwargs)
        made.append(cache)
        return cache

    yield make
    for cache in made:
        cache.close()


def _factory() -> Callable[[Any], ExternalCache | None]:
    host = PluginHost(("cache-redis",), load_entry_points=False)
    factory: Callable[[Any], ExternalCache | None] = registered_factories(
        host, "register_caches", "cache tier"
    )["redis"]
    return factory


def _settings(env: dict[str, str]) -> Settings:
    """The settings the plugin (and the core) declare, resolved from ``env``."""
    host = PluginHost(("cache-redis",), load_entry_points=False)
    registry = Registry()
    for reg in host.registrations("register_settings"):
        for item in reg.args:
            registry.add_registered(item, reg.plugin)
    return Settings(registry, env)


def _app(env: dict[str, str]) -> Any:
    """What a cache factory reads from an ``App``: its settings."""
    return SimpleNamespace(settings=_settings(env))


# -- through the tier ----------------------------------------------------------------------------


def test_values_round_trip_through_redis(tiered: Callable[..., TieredCache]) -> None:
    cache = tiered()
    cache.set("query:1", b"first")
    cache.set("query:2", b"\x00second\xff")
    cache.local.clear()  # the process LRU forgets: only Redis still has them
    assert cache.get("query:1") == b"first"
    assert cache.get("query:2") == b"\x00second\xff"
    assert cache.get("query:3") is None
    assert cache.external_hits == 2 and cache.external_errors == 0
    cache.delete("query:1")
    cache.local.clear()
    assert cache.get("query:1") is None


def test_every_key_gets_the_time_to_live(
    tiered: Callable[..., TieredCache], redis_server: RedisServer
) -> None:
    cache = tiered(ttl_s=120)
    cache.set("query:1", b"value")
    with redis_server.client() as raw:
        assert 0 < raw.ttl(f"ctx:{cache.space}:query:1") <= 120


def test_two_runtimes_do_not_read_each_others_keys(
    tiered: Callable[..., TieredCache], redis_server: RedisServer
) -> None:
    first, second = tiered(), tiered()
    first.set("query:1", b"from the first")
    assert second.get("query:1") is None
    second.set("query:1", b"from the second")
    first.local.clear()
    assert first.get("query:1") == b"from the first"
    with redis_server.client() as raw:
        assert sorted(raw.keys("ctx:*")) == sorted(
            f"ctx:{c.space}:query:1".encode() for c in (first, second)
        )


def test_a_dead_redis_is_a_miss_and_the_tier_comes_back(
    tiered: Callable[..., TieredCache], redis_server: RedisServer
) -> None:
    cache = tiered(backoff_s=0.2)
    cache.set("query:1", b"value")
    redis_server.stop()
    cache.local.clear()

    started = time.monotonic()
    assert cache.get("query:1") is None  # refused at once: no hang, no exception
    assert time.monotonic() - started < 5
    assert cache.external_errors == 1
    time.sleep(0.25)  # past the back-off: the tier is tried (and fails) again
    cache.set("query:2", b"value")
    assert cache.external_errors == 2

    redis_server.start()  # a new, empty server on the same port
    time.sleep(0.25)
    cache.set("query:3", b"back")
    cache.local.clear()
    assert cache.get("query:3") == b"back"
    assert cache.external_hits == 1 and cache.external_errors == 2


def test_a_hung_redis_costs_no_more_than_the_timeout(redis_server: RedisServer) -> None:
    tier = _factory()(_app({"CTX_CACHE_REDIS_URL": redis_server.url}))  # 0.05 s by default
    assert tier is not None
    cache = TieredCache(MAX_BYTES, external=tier)
    cache.set("query:1", b"value")
    assert redis_server.process is not None
    os.kill(redis_server.process.pid, signal.SIGSTOP)  # accepts connections, never answers
    try:
        cache.local.clear()
        started = time.monotonic()
        assert cache.get("query:1") is None
        assert time.monotonic() - started < 1  # the socket timeout, not redis-py retrying
        assert cache.external_errors == 1
    finally:
        os.kill(redis_server.process.pid, signal.SIGCONT)
        cache.close()


def test_the_tier_is_opaque_bytes(
    tiered: Callable[..., TieredCache], redis_server: RedisServer
) -> None:
    # Whatever is under a key comes back as it is: the caller validates what it reads.
    cache = tiered()
    with redis_server.client() as raw:
        raw.set(f"ctx:{cache.space}:query:1", b"\xfenot what was written")
    assert cache.get("query:1") == b"\xfenot what was written"


# -- settings and the factory --------------------------------------------------------------------


def test_the_tier_is_off_without_a_url() -> None:
    assert _factory()(_app({})) is None


def test_the_factory_builds_a_redis_tier(redis_server: RedisServer) -> None:
    tier = _factory()(_app({"CTX_CACHE_REDIS_URL": redis_server.url}))
    assert isinstance(tier, RedisCache) and tier.name == "redis"
    try:
        tier.set("ctx:test:k", b"v", 60)
        assert tier.get("ctx:test:k") == b"v"
    finally:
        tier.close()


@pytest.mark.parametrize("url", ["http://127.0.0.1:6379", "127.0.0.1:6379", "redis://"])
def test_a_url_that_is_not_redis_is_refused(url: str) -> None:
    settings = _settings({})
    with pytest.raises(ValidationError, match=r"cache\.redis_url"):
        settings.validate_change("cache.redis_url", url)  # `ctx settings set`
    with pytest.raises(ConfigError, match=r"cache\.redis_url"):
        _factory()(_app({"CTX_CACHE_REDIS_URL": url}))  # from the environment: at start-up


def test_a_password_is_not_repeated_in_messages() -> None:
    with pytest.raises(ConfigError) as caught:
        open_redis("rediss://user:hunter2@127.0.0.1:6379", TIMEOUT_S)
    assert "hunter2" not in str(caught.value)
    assert "hunter2" not in repr(open_redis("redis://:hunter2@127.0.0.1:6379", TIMEOUT_S))


def test_the_timeout_is_bounded() -> None:
    with pytest.raises(ConfigError, match=r"cache\.redis_timeout_s"):
        _settings({"CTX_CACHE_REDIS_TIMEOUT_S": "30"})


def test_a_missing_redis_package_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "redis", None)  # import redis now raises ImportError
    with pytest.raises(ConfigError, match=r"pip install 'ctx-brain\[redis\]'"):
        open_redis("redis://127.0.0.1:6379", TIMEOUT_S)


def test_the_governor_uses_the_tier_and_answers_the_same_without_it(
    redis_server: RedisServer, database_url: str, tmp_path: Path
) -> None:
    """Invariant 6 through the governor: query vectors go to Redis; with Redis dead, or with
    garbage under every key, the envelopes are the same (the database is authoritative)."""
    from ctx.core import App, Principal
    from ctx.core.governor import CommitRequest, PrepareRequest
    from ctx.core.runtime import drain

    who = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
    env = {"CTX_CACHE_REDIS_URL": redis_server.url, "CTX_GOVERNOR_RING_EVENTS": "0"}
    with App(database_url=database_url, home=tmp_path / "h", load_entry_points=False,
             environ=env) as app:  # fmt: skip
        for text in ("The ferry to Hiddensee leaves at 9.", "Our tent is the green one.",
                     "The bakery closes at noon on Sundays."):  # fmt: skip
            app.governor.commit(who, CommitRequest.model_validate(
                {"thread": {"session_id": "t"}, "event": {"content": text}}))  # fmt: skip
        drain(app, "governor.index")

        def desk() -> list[str]:
            out = app.governor.prepare(who, PrepareRequest.model_validate(
                {"thread": {"session_id": "t"}, "event": {"content": "When does the ferry go?"}}
            ))  # fmt: skip
            return [i["id"] for i in out["desk"]["items"]]

        cache = app.governor.cache
        assert cache.external is not None and cache.external.name == "redis"
        first = desk()
        with redis_server.client() as raw:
            keys = raw.keys(f"ctx:{cache.space}:qv:*")
            assert keys, "the query vector went to Redis"
            for key in keys:
                raw.set(key, b"garbage")
        cache.local.clear()
        assert desk() == first  # garbage from the tier is checked and thrown away
        redis_server.stop()
        cache.local.clear()
        assert desk() == first  # a dead tier is a miss
        assert cache.external_errors >= 1
