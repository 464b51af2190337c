"""Embeddings: the ``Embedder`` protocol, vector hygiene, the plugin registry, generations, the
embed jobs that fill them, blue-green rebuilds and ctxd's warm-up.

Embedders are plugins: a plugin implements ``register_embedders(register)`` and calls
``register(name, factory)``; ``factory(options)`` takes a plain dict (``base_url``, ``model``,
``dimensions``, ...) and returns an ``Embedder``. Every embedder returns float32, L2-normalised
vectors that passed ``quality_gate``.
"""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.core.embed.cache import EmbedderCache
    from ctx.core.embed.context import queue_reblend
    from ctx.core.embed.generation_rows import (
        active_generation,
        backlog_for_scopes,
        building_generation,
        create_generation,
        embedding_overview,
        ensure_active_generation,
        generations,
        status,
        switch_generation,
    )
    from ctx.core.embed.jobs import (
        MAX_TEXT_CHARS,
        block_text,
        embed_block_ids,
        embed_blocks,
        embed_pending,
        waiting_for_scopes,
    )
    from ctx.core.embed.options import option_float, option_int, option_str, require_str
    from ctx.core.embed.progress import backlog_line, duration_text
    from ctx.core.embed.protocol import Embedder
    from ctx.core.embed.rebuild import rebuild_step, start_rebuild
    from ctx.core.embed.registry import EmbedderFactory, create_embedder, embedder_factories
    from ctx.core.embed.settings import configured_options
    from ctx.core.embed.vectors import (
        MAX_NORM,
        MIN_NORM,
        MIN_VARIANCE,
        l2_normalize,
        quality_gate,
        truncate_matryoshka,
        vector_literal,
    )
    from ctx.core.embed.warmup import WarmUp

__all__ = [
    "MAX_NORM",
    "MAX_TEXT_CHARS",
    "MIN_NORM",
    "MIN_VARIANCE",
    "Embedder",
    "EmbedderCache",
    "EmbedderFactory",
    "WarmUp",
    "active_generation",
    "backlog_for_scopes",
    "backlog_line",
    "block_text",
    "building_generation",
    "configured_options",
    "create_embedder",
    "create_generation",
    "duration_text",
    "embed_block_ids",
    "embed_blocks",
    "embed_pending",
    "embedder_factories",
    "embedding_overview",
    "ensure_active_generation",
    "generations",
    "l2_normalize",
    "option_float",
    "option_int",
    "option_str",
    "quality_gate",
    "queue_reblend",
    "rebuild_step",
    "require_str",
    "start_rebuild",
    "status",
    "switch_generation",
    "truncate_matryoshka",
    "vector_literal",
    "waiting_for_scopes",
]

# Imported on first use (see ctx.core.lazy): a thin client loads only what it touches.
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
