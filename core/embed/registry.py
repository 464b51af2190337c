"""Find the embedders plugins provide and build the one the configuration names."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ctx.core.embed.protocol import Embedder
from ctx.core.errors import ConfigError, PluginError
from ctx.core.runtime import PluginHost, Registration, unique_by_name

EmbedderFactory = Callable[[Mapping[str, Any]], Embedder]


def _registration_problem(reg: Registration) -> str | None:
    if reg.kwargs or len(reg.args) != 2:
        return f"plugin {reg.plugin} must call register(name, factory) for an embedder"
    name, factory = reg.args
    if not isinstance(name, str) or not name:
        return f"plugin {reg.plugin} registered an embedder with an invalid name {name!r}"
    if not callable(factory):
        return (
            f"plugin {reg.plugin} registered embedder {name!r} with a factory that is not callable"
        )
    return None


def embedder_factories(host: PluginHost) -> dict[str, EmbedderFactory]:
    """Return every registered embedder factory by name.

    Malformed registrations and duplicate names raise one ``PluginError`` listing every problem.
    """
    registrations = host.registrations("register_embedders")
    problems = [p for p in map(_registration_problem, registrations) if p]
    if problems:
        raise PluginError("; ".join(problems))
    by_name = unique_by_name(registrations, key=lambda reg: reg.args[0], what="embedder")
    return {name: reg.args[1] for name, reg in by_name.items()}


def create_embedder(
    factories: Mapping[str, EmbedderFactory], name: str, options: Mapping[str, Any] | None = None
) -> Embedder:
    """Build the embedder registered as ``name`` with ``options`` (a plain dict).

    An unknown name raises ``ConfigError`` listing the known ones; a factory that returns
    something that is not an embedder raises ``PluginError``.
    """
    factory = factories.get(name)
    if factory is None:
        known = ", ".join(sorted(factories)) or "none (no embedder plugin is loaded)"
        raise ConfigError(f"unknown embedder {name!r}; known embedders: {known}", field="provider")
    embedder = factory(dict(options or {}))
    if not isinstance(embedder, Embedder):
        raise PluginError(
            f"embedder {name!r} factory returned {type(embedder).__name__}, which lacks the "
            "Embedder attributes (name, model, dimensions, embed_documents, embed_query)"
        )
    return embedder
