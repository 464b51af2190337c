"""Settings for one query only: a candidate set of retrieval settings tried without writing it.

``checked_overrides`` turns ``{name: value}`` into values the settings' own declarations accept:
only retrieval settings (``query.*``), each coerced and bounded by its ``Setting``, then every rule
across settings checked with the candidate values in place. ``with_settings`` gives the query
path an app that reads those values first; everything else (the database, the embedders, the
stages) is the app's own, so a plugin's stage sees the candidate values too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from ctx.core.errors import CtxError, ValidationError

if TYPE_CHECKING:
    from ctx.core.app import App

#: the settings a candidate set may change: the query path's own
RETRIEVAL_PREFIX = "query."
#: what every refusal of a candidate set starts with
REFUSAL = "candidate settings"


def checked_overrides(app: App, values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` coerced by their declarations; a ``ValidationError`` naming the setting for an
    unknown name, a setting outside the query path, a secret, a bad value or a broken rule
    across settings. Nothing is written."""
    registry = app.settings.registry
    out: dict[str, Any] = {}
    for key, raw in values.items():
        setting = registry.settings.get(key)
        if setting is None:
            raise ValidationError(f"{REFUSAL}: unknown setting {key!r}", field=key)
        if not key.startswith(RETRIEVAL_PREFIX) or setting.secret:
            raise ValidationError(
                f"{REFUSAL}: {key} is no retrieval setting (only {RETRIEVAL_PREFIX}* can be tried)",
                field=key,
            )
        try:
            out[key] = setting.coerce(raw)
        except CtxError as exc:
            raise ValidationError(f"{REFUSAL}: {exc.message}", field=key) from None

    def lookup(key: str) -> Any:
        return out[key] if key in out else app.settings[key]

    for check in registry.cross_checks:
        problem = check(lookup)
        if problem:
            raise ValidationError(f"{REFUSAL}: {problem}")
    return out


class OverriddenSettings:
    """The app's settings with some values replaced (read-only; sources say ``candidate``)."""

    def __init__(self, base: Any, values: Mapping[str, Any]) -> None:
        self._base = base
        self._values = dict(values)

    def __getitem__(self, key: str) -> Any:
        return self.get(key)

    def get(self, key: str) -> Any:
        return self.resolve(key)[0]

    def resolve(self, key: str) -> tuple[Any, str]:
        if key in self._values:
            return self._values[key], "candidate"
        return cast("tuple[Any, str]", self._base.resolve(key))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)


class _AppWithSettings:
    """The app as one query sees it: itself in everything but its settings."""

    def __init__(self, app: App, values: Mapping[str, Any]) -> None:
        self._app = app
        self.settings = OverriddenSettings(app.settings, values)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._app, name)


def with_settings(app: App, values: Mapping[str, Any] | None) -> App:
    """``app`` reading ``values`` (already checked by ``checked_overrides``) before its own
    settings; ``app`` itself when there are none."""
    if not values:
        return app
    return cast("App", _AppWithSettings(app, values))
