"""Find the embedders plugins provide and build the one the configuration names."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ctx.core.embed.protocol import Embedder
from ctx.core.errors import ConfigError, PluginError
from ctx.core.runtime import PluginHost, registered_factories

EmbedderFactory = Callable[[Mapping[str, Any]], Embedder]


def embedder_factories(host: PluginHost) -> dict[str, EmbedderFactory]:
    """Return every registered embedder factory by name.

    Malformed registrations and duplicate names raise one ``PluginError`` listing every problem.
    """
    return registered_factories(host, "register_embedders", "embedder")


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
