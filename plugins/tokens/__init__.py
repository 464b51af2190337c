"""Built-in token counters for the context governor's budgets.

``o200k``, ``cl100k``, ``llama3``, ``qwen``: exact counts with the tokenizer tables that ship
with ctx, each for the models of its family (``families``). ``estimate``: never fewer tokens
than the tokenizers of GPT-4o, GPT-4, Llama 3, Qwen or BERT count, in pure Python, always
available (``ctx.plugins.tokens.estimate`` says why it is safe). ``tokenizer``: exact counts from
the HuggingFace ``tokenizer.json`` named by ``tokens.tokenizer_file``. ``tiktoken``: exact counts
with an OpenAI encoding (``tokens.tiktoken_encoding``) when tiktoken is installed and has the
encoding in its cache. ``governor.token_counter = auto`` counts each model with its own:
``tokenizer`` when it is set, else its family's table, else (a model of no known family) the
estimate.

Importing this package loads nothing: the word list, tables, tokenizer files and encodings load
on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ctx.core import Setting, TokenCounter, hookimpl
from ctx.plugins.tokens import estimate
from ctx.plugins.tokens.bundled import bundled_counter
from ctx.plugins.tokens.exact import PER_MESSAGE, PER_REPLY, tiktoken_counter, tokenizer_counter
from ctx.plugins.tokens.families import FAMILIES, family_of
from ctx.plugins.tokens.settings import SETTINGS, TIKTOKEN_ENCODING, TOKENIZER_FILE

__all__ = [
    "FAMILIES",
    "bundled_counter",
    "estimate_counter",
    "family_of",
    "tiktoken_counter",
    "tokenizer_counter",
]


def estimate_counter() -> TokenCounter:
    return TokenCounter(
        name="estimate",
        count=estimate.count,
        exact=False,
        per_message=PER_MESSAGE,
        per_reply=PER_REPLY,
        description=(
            "A conservative estimate: never fewer tokens than GPT-4o, GPT-4, Llama 3, Qwen or "
            "BERT count; no files needed."
        ),
    )


@hookimpl
def register_settings(register: Callable[[Setting], None]) -> None:
    for setting in SETTINGS:
        register(setting)


@hookimpl
def register_token_counters(register: Callable[[TokenCounter], None], settings: Any) -> None:
    """The counters read their settings when they count, so a changed value applies."""
    register(estimate_counter())
    for family in FAMILIES:
        register(bundled_counter(family))
    register(tokenizer_counter(lambda: str(settings[TOKENIZER_FILE.key])))
    register(tiktoken_counter(lambda: str(settings[TIKTOKEN_ENCODING.key])))
