"""An embedder that speaks the OpenAI ``/v1/embeddings`` wire format.

Works with llama.cpp's server, Ollama, OpenAI, Text Embeddings Inference and anything else that
answers ``POST {base_url}/v1/embeddings`` with ``{"model", "input": [...]}`` by
``{"data": [{"index", "embedding"}]}``.

Options (a plain dict): ``base_url`` and ``model`` (required), ``dimensions`` (required: vectors
are truncated Matryoshka-style to it and re-normalised), ``query_prefix`` / ``document_prefix``
(instruction text put before queries / documents, default none), ``api_key`` (sent as a bearer
token), ``timeout`` (seconds per request, default 120; 0 waits for ever), ``batch_size`` (texts per
request, default 64). Every vector passes the quality gate or the call fails with
``EmbeddingError``.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Mapping
from typing import Any

import httpx
import numpy as np
from numpy.typing import NDArray

from ctx.core import (
    ConfigError,
    EmbeddingError,
    option_float,
    option_int,
    option_str,
    quality_gate,
    require_str,
    truncate_matryoshka,
)

NAME = "openai"
DEFAULT_TIMEOUT = 120.0
DEFAULT_BATCH_SIZE = 64


class OpenAIEmbedder:
    """Client for an OpenAI-compatible embeddings endpoint; thread-safe, keeps connections open."""

    name = NAME

    def __init__(
        self,
        base_url: str,
        model: str,
        dimensions: int,
        *,
        query_prefix: str = "",
        document_prefix: str = "",
        api_key: str | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        batch_size: int = DEFAULT_BATCH_SIZE,
    ) -> None:
        self.model = model
        self.dimensions = dimensions
        self.query_prefix = query_prefix
        self.document_prefix = document_prefix
        self.batch_size = batch_size
        self.url = _embeddings_url(base_url)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(headers=headers, timeout=timeout)

    def embed_documents(self, texts: list[str]) -> NDArray[np.float32]:
        return self._embed([self.document_prefix + text for text in texts])

    def embed_query(self, text: str) -> NDArray[np.float32]:
        return self._embed([self.query_prefix + text])[0]

    def close(self) -> None:
        self._client.close()

    def _embed(self, texts: list[str]) -> NDArray[np.float32]:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        parts = [
            self._request(texts[start : start + self.batch_size])
            for start in range(0, len(texts), self.batch_size)
        ]
        widths = {part.shape[1] for part in parts}
        if len(widths) > 1:
            raise EmbeddingError(
                f"{self.url} returned vectors of different lengths {sorted(widths)} for one call"
            )
        return quality_gate(truncate_matryoshka(np.concatenate(parts), self.dimensions))

    def _request(self, texts: list[str]) -> NDArray[np.float32]:
        payload = {"model": self.model, "input": texts, "encoding_format": "float"}
        try:
            response = self._client.post(self.url, json=payload)
        except httpx.TimeoutException as exc:
            raise EmbeddingError(
                f"embedding request to {self.url} timed out ({type(exc).__name__}); "
                "raise the embedder's timeout or check the server's load"
            ) from exc
        except httpx.HTTPError as exc:
            raise EmbeddingError(
                f"cannot reach the embedding server at {self.url}: {exc}; "
                "check base_url and that the server is running"
            ) from exc
        if response.status_code != 200:
            raise EmbeddingError(
                f"embedding server {self.url} answered HTTP {response.status_code}: "
                f"{_error_detail(response)}"
            )
        try:
            body = response.json()
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise EmbeddingError(
                f"embedding server {self.url} answered with invalid JSON: {response.text[:200]!r}"
            ) from exc
        return _vectors_from_body(body, len(texts), self.url)


def _embeddings_url(base_url: str) -> str:
    base = base_url.rstrip("/")
    # Accept both "http://host:8080" and the OpenAI SDK style "http://host:8080/v1".
    if base.endswith("/v1/embeddings"):
        return base
    if base.endswith("/v1"):
        return base + "/embeddings"
    return base + "/v1/embeddings"


def _error_detail(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return response.text[:200] or response.reason_phrase
    if isinstance(body, dict):
        error = body.get("error", body.get("detail", body))
        if isinstance(error, dict) and "message" in error:
            return str(error["message"])[:300]
        return str(error)[:300]
    return str(body)[:300]


def _vectors_from_body(body: Any, expected: int, url: str) -> NDArray[np.float32]:
    """Pull the vectors out of an embeddings response, ordered by their ``index``."""

    def malformed(why: str) -> EmbeddingError:
        return EmbeddingError(f"embedding server {url} sent a malformed response: {why}")

    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, list):
        raise malformed('no "data" list')
    if len(data) != expected:
        raise malformed(f"{len(data)} embeddings for {expected} inputs")
    rows: list[Any] = [None] * expected
    for position, item in enumerate(data):
        if not isinstance(item, dict) or "embedding" not in item:
            raise malformed(f'item {position} has no "embedding"')
        index = item.get("index", position)
        if not isinstance(index, int) or not 0 <= index < expected or rows[index] is not None:
            raise malformed(f"item {position} has a missing, repeated or out-of-range index")
        rows[index] = _decode_embedding(item["embedding"], index, malformed)
    widths = {len(row) for row in rows}
    if len(widths) != 1:
        raise malformed(f"vectors of different lengths {sorted(widths)}")
    return np.stack(rows)


def _decode_embedding(
    value: Any, index: int, malformed: Callable[[str], EmbeddingError]
) -> NDArray[np.float32]:
    if isinstance(value, str):  # encoding_format "base64": little-endian float32
        try:
            return np.frombuffer(base64.b64decode(value), dtype="<f4").astype(np.float32)
        except ValueError as exc:
            raise malformed(f"embedding {index} is not valid base64 float32") from exc
    if not isinstance(value, list) or not value:
        raise malformed(f"embedding {index} is not a list of numbers")
    try:
        return np.array(value, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise malformed(f"embedding {index} is not a list of numbers") from exc


def openai_factory(options: Mapping[str, Any]) -> OpenAIEmbedder:
    dimensions = option_int(options, "dimensions", None, embedder=NAME)
    if dimensions is None:
        raise ConfigError(
            f"embedder {NAME!r}: option 'dimensions' is required (the vector length to store; "
            "vectors are truncated to it)",
            field="dimensions",
        )
    timeout = option_float(options, "timeout", DEFAULT_TIMEOUT, embedder=NAME)
    batch_size = option_int(options, "batch_size", DEFAULT_BATCH_SIZE, embedder=NAME)
    assert batch_size is not None
    return OpenAIEmbedder(
        base_url=require_str(options, "base_url", embedder=NAME),
        model=require_str(options, "model", embedder=NAME),
        dimensions=dimensions,
        query_prefix=option_str(options, "query_prefix", "", embedder=NAME) or "",
        document_prefix=option_str(options, "document_prefix", "", embedder=NAME) or "",
        api_key=option_str(options, "api_key", None, embedder=NAME) or None,
        timeout=timeout or None,
        batch_size=batch_size,
    )
