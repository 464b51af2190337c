"""The typed settings registry: default < environment (``CTX_…``) < database.

Every key is declared once (by the core or a plugin through ``register_settings``) with its type,
default, help and whether it is hot: hot keys take effect at once when the database row changes
(LISTEN/NOTIFY), the others at the next start. Values are validated on every source; a bad value
is rejected with a message naming the key and the rule.
"""

from __future__ import annotations

import json
import math
import os
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ctx.core.errors import ConfigError, NotFound, ValidationError
from ctx.core.text import text_problem

SettingType = type[int] | type[float] | type[str] | type[bool] | type[list]


SECRET_REF = re.compile(r"^secret:([a-z0-9][a-z0-9_.-]{0,63})$")


def secret_reference(value: Any) -> str | None:
    """The sealed secret a secret setting's database value names (``secret:<name>``), or None."""
    match = SECRET_REF.match(value) if isinstance(value, str) else None
    return match.group(1) if match else None


@dataclass(frozen=True)
class Setting:
    key: str
    type: Any
    default: Any
    help: str
    hot: bool = True
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] | None = None
    #: A credential: its value comes from the environment only and is shown only as set or
    #: unset; the database may hold a reference to a sealed secret (``secret:<name>``), never a
    #: value (``App.secret_setting`` opens it).
    secret: bool = False

    @property
    def env(self) -> str:
        return "CTX_" + self.key.upper().replace(".", "_").replace("-", "_")

    def coerce(self, raw: Any) -> Any:
        """Turn a value from any source (JSON, env string, CLI string) into the declared type."""
        t = self.type
        try:
            if t is bool:
                if isinstance(raw, bool):
                    value: Any = raw
                elif isinstance(raw, str) and raw.strip().lower() in {"1", "true", "yes", "on"}:
                    value = True
                elif isinstance(raw, str) and raw.strip().lower() in {"0", "false", "no", "off"}:
                    value = False
                else:
                    raise ValueError("expected true or false")
            elif t is int:
                if isinstance(raw, bool) or (isinstance(raw, float) and not raw.is_integer()):
                    raise ValueError("expected an integer")
                try:
                    value = int(raw)
                except (TypeError, ValueError):
                    raise ValueError(f"expected an integer, got {raw!r}") from None
            elif t is float:
                if isinstance(raw, bool):
                    raise ValueError("expected a number")
                try:
                    value = float(raw)
                except (TypeError, ValueError):
                    raise ValueError(f"expected a number, got {raw!r}") from None
                if not math.isfinite(value):
                    raise ValueError(f"expected a finite number, got {raw!r}")
            elif t is list:
                if isinstance(raw, str):
                    raw = raw.strip()
                    value = (
                        json.loads(raw)
                        if raw.startswith("[")
                        else [p.strip() for p in raw.split(",") if p.strip()]
                    )
                else:
                    value = list(raw)
                value = [str(v) for v in value]
            else:
                if not isinstance(raw, str):
                    raise ValueError("expected a string")
                value = raw
            for text in value if isinstance(value, list) else [value]:
                if isinstance(text, str) and (problem := text_problem(text)):
                    raise ValueError(f"the value {problem}")
        except (TypeError, ValueError, json.JSONDecodeError) as exc:
            raise ValidationError(f"setting {self.key}: {exc}", field=self.key) from exc
        self.check(value)
        return value

    def check(self, value: Any) -> None:
        if self.minimum is not None and value < self.minimum:
            raise ValidationError(f"setting {self.key}: must be >= {self.minimum}", field=self.key)
        if self.maximum is not None and value > self.maximum:
            raise ValidationError(f"setting {self.key}: must be <= {self.maximum}", field=self.key)
        if self.choices is not None and value not in self.choices:
            raise ValidationError(
                f"setting {self.key}: must be one of {', '.join(self.choices)}", field=self.key
            )


# A rule across keys: given a lookup, returns a problem message or None.
CrossCheck = Callable[[Callable[[str], Any]], str | None]


@dataclass(frozen=True)
class SettingCheck:
    """A rule that spans settings (``query.score_threshold <= query.confident_threshold``)."""

    name: str
    check: CrossCheck


@dataclass
class Registry:
    settings: dict[str, Setting] = field(default_factory=dict)
    cross_checks: list[CrossCheck] = field(default_factory=list)
    owners: dict[str, str] = field(default_factory=dict)

    def add(self, setting: Setting, owner: str = "core") -> None:
        if setting.key in self.settings:
            raise ConfigError(
                f"setting {setting.key!r} declared twice (by {self.owners[setting.key]}, "
                f"second by {owner})"
            )
        setting.coerce(setting.default)  # a default that fails its own rule is a bug
        self.settings[setting.key] = setting
        self.owners[setting.key] = owner

    def add_registered(self, item: Any, owner: str) -> None:
        """Add what a ``register_settings`` implementation registered."""
        if isinstance(item, Setting):
            self.add(item, owner)
        elif isinstance(item, SettingCheck):
            self.cross_checks.append(item.check)
        else:
            raise ConfigError(
                f"plugin {owner} registered {type(item).__name__} as a setting; "
                "register a Setting or a SettingCheck"
            )

    def get(self, key: str) -> Setting:
        try:
            return self.settings[key]
        except KeyError:
            # no such setting is no such resource (a 404), as an unknown block is
            raise NotFound(f"unknown setting {key!r}; see `ctx settings list`") from None


class Settings:
    """Resolved values with their source; thread-safe reload of the database layer."""

    def __init__(self, registry: Registry, environ: dict[str, str] | None = None) -> None:
        self.registry = registry
        self._environ = dict(os.environ if environ is None else environ)
        self._db: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._env_values: dict[str, Any] = {}
        problems = []
        for s in registry.settings.values():
            if s.env in self._environ:
                try:
                    self._env_values[s.key] = s.coerce(self._environ[s.env])
                except ValidationError as exc:
                    problems.append(f"{s.env}: {exc.message}")
        if problems:
            raise ConfigError("; ".join(problems))
        self._frozen: dict[str, Any] = {}  # non-hot keys keep their start-up value

    def __getitem__(self, key: str) -> Any:
        return self.get(key)

    def get(self, key: str) -> Any:
        return self.resolve(key)[0]

    def resolve(self, key: str) -> tuple[Any, str]:
        s = self.registry.get(key)
        with self._lock:
            if not s.hot and key in self._frozen:
                return self._frozen[key]
            if key in self._db:
                return self._db[key], "database"
        if key in self._env_values:
            return self._env_values[key], "env"
        return s.default, "default"

    def load_db(self, rows: Iterable[tuple[str, Any]], *, startup: bool = False) -> list[str]:
        """Replace the database layer; unknown or invalid rows are skipped and reported."""
        values: dict[str, Any] = {}
        problems = []
        for key, raw in rows:
            s = self.registry.settings.get(key)
            if s is None:
                problems.append(f"unknown setting {key!r} in the database (ignored)")
                continue
            if s.secret and secret_reference(raw) is None:
                problems.append(
                    f"secret setting {key!r} holds a value in the database: ignored (remove it "
                    f"with `ctx settings unset {key}`; set {s.env} in the environment or "
                    f"reference a sealed secret: `ctx settings set {key} secret:<name>`)"
                )
                continue
            try:
                values[key] = s.coerce(raw)
            except ValidationError as exc:
                problems.append(exc.message + " (database value ignored)")
        with self._lock:
            self._db = values
            if startup:
                self._frozen = {}
        if startup:
            for s in self.registry.settings.values():
                if not s.hot:
                    self._frozen[s.key] = self.resolve(s.key)
        return problems

    def validate_change(self, key: str, value: Any | None) -> Any:
        """Coerce a new value and check every cross-key rule with it in place."""
        s = self.registry.get(key)
        if s.secret and value is None:
            return None  # removing a secret left in the database by an older version is fine
        if s.secret and secret_reference(value) is None:
            raise ValidationError(
                f"{key} is a secret: its value is never stored in the database; set {s.env} in "
                f"the environment, or seal it (`ctx secrets set NAME`) and reference it as "
                "secret:NAME",
                field=key,
            )
        coerced = None if value is None else s.coerce(value)

        def lookup(k: str) -> Any:
            if k == key:
                return coerced if coerced is not None else self._without_db(k)
            return self.get(k)

        for check in self.registry.cross_checks:
            problem = check(lookup)
            if problem:
                raise ValidationError(problem, field=key)
        return coerced

    def _without_db(self, key: str) -> Any:
        if key in self._env_values:
            return self._env_values[key]
        return self.registry.get(key).default

    def describe(self) -> list[dict[str, Any]]:
        out = []
        for key in sorted(self.registry.settings):
            s = self.registry.settings[key]
            value, source = self.resolve(key)
            row = {
                "key": key,
                "value": value,
                "source": source,
                "type": s.type.__name__,
                "default": s.default,
                "env": s.env,
                "hot": s.hot,
                "help": s.help,
                "secret": s.secret,
            }
            if s.secret:  # write-only: say whether it is set, never what it is
                ref = secret_reference(value) if source == "database" else None
                row.update(value=None, default=None, is_set=bool(value), reference=ref)
            out.append(row)
        return out
