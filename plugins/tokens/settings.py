"""The plugin's settings; ``register_token_counters`` hands the counters the App's settings,
which they read when they count."""

from __future__ import annotations

from ctx.core import Setting

TOKENIZER_FILE = Setting(
    "tokens.tokenizer_file",
    str,
    "",
    "A HuggingFace tokenizer.json for exact token counts (the 'tokenizer' token counter); "
    "empty: that counter is unavailable.",
    hot=False,
)
TIKTOKEN_ENCODING = Setting(
    "tokens.tiktoken_encoding",
    str,
    "o200k_base",
    "The tiktoken encoding of the 'tiktoken' token counter (o200k_base: GPT-4o; cl100k_base: "
    "GPT-4). Used only when tiktoken is installed and the encoding is in its local cache.",
    hot=False,
)
SETTINGS = (TOKENIZER_FILE, TIKTOKEN_ENCODING)
