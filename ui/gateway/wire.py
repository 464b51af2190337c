"""The objects the gateway answers with, in OpenAI's exact shapes: ``chat.completion``,
``chat.completion.chunk`` as server-sent events, the model list."""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

DONE = "data: [DONE]\n\n"


def completion_id() -> str:
    return "chatcmpl-" + uuid.uuid4().hex[:24]


def usage(prompt: int, completion: int) -> dict[str, int]:
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


def completion(model: str, text: str, prompt: int, produced: int) -> dict[str, Any]:
    return {
        "id": completion_id(),
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "logprobs": None,
                "finish_reason": "stop",
            }
        ],
        "usage": usage(prompt, produced),
    }


def event(data: dict[str, Any]) -> str:
    return "data: " + json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n\n"


@dataclass
class Chunks:
    """The chunks of one streamed answer: one id and ``created`` for all; with ``include_usage``
    every chunk carries ``"usage": null`` and a last chunk without choices carries the usage."""

    model: str
    include_usage: bool
    id: str = field(default_factory=completion_id)
    created: int = field(default_factory=lambda: int(time.time()))

    def _chunk(self, choices: list[dict[str, Any]]) -> dict[str, Any]:
        out = {
            "id": self.id,
            "object": "chat.completion.chunk",
            "created": self.created,
            "model": self.model,
            "choices": choices,
        }
        if self.include_usage:
            out["usage"] = None
        return out

    def delta(self, delta: dict[str, Any], finish: str | None = None) -> str:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
        return event(self._chunk([choice]))

    def usage(self, prompt: int, completion: int) -> str:
        return event({**self._chunk([]), "usage": usage(prompt, completion)})


def error_event(error: dict[str, Any]) -> str:
    return event(error)


def models(served: list[tuple[str, str]]) -> dict[str, Any]:
    return {
        "object": "list",
        "data": [
            {"id": model, "object": "model", "created": 0, "owned_by": backend}
            for model, backend in served
        ],
    }
