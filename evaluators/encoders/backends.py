"""Inference backends and precisions of the sentence-transformers and ``hf:`` encoders.

* ``torch`` (the default and the reference): the model as loaded; ``fp16``/``bf16``
  run it under ``torch.autocast`` (an explicit opt-in, for GPUs; weights stay fp32).
* ``onnx``: the model *with its pooling* exported once to ONNX (torch's TorchScript
  exporter, opset :data:`OPSET`) into ``<stylebench cache>/exports/<key>/`` and run by
  onnxruntime; for BERT-family models (:data:`FUSED_TYPES`) the export traces eager
  attention and onnxruntime's transformer optimizer fuses it (Attention,
  SkipLayerNormalization, BiasGelu, EmbedLayerNormalization; :func:`fused_onnx`);
  ``int8`` is onnxruntime's dynamic quantisation of the plain file (explicit opt-in,
  exported once too). Every export file is written under a temporary name and renamed,
  with its size and SHA-256 beside it; a cached file that fails them (truncated,
  overwritten) is rebuilt, with an :class:`ExportDamageWarning` naming it.
* ``openvino``: the same ONNX file compiled by OpenVINO with an explicit inference
  precision (``fp32`` is ``INFERENCE_PRECISION_HINT=f32``: OpenVINO's CPU plugin
  otherwise runs bf16 on CPUs that have it).

Why not sentence-transformers' ``backend="onnx"``: it needs optimum-onnx / optimum-intel,
whose every release on PyPI pins transformers below the version this project locks
(optimum-onnx 0.1.0: transformers<4.58; optimum-intel 2.2.0: transformers<5.6), so the
export is done here with torch and the runtimes are used directly.

Every encoder built with a backend or precision other than ``torch``/``fp32`` measures
its drift on :data:`PROBE_TEXTS` at load time: the minimum cosine between its vectors
and the torch fp32 vectors of the same model. Under the ``steb`` protocol
(``strict=True``) a drift below :data:`TOLERANCE` is refused. The encoder identity then
carries ``backend``, ``precision`` and the runtime's version, so cached vectors and
result records of different backends never mix.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import StylebenchError

BACKENDS = ("torch", "onnx", "openvino")
PRECISIONS = ("fp32", "fp16", "bf16", "int8")
SUPPORTED: dict[str, tuple[str, ...]] = {
    "torch": ("fp32", "fp16", "bf16"),
    "onnx": ("fp32", "int8"),
    "openvino": ("fp32", "fp16", "bf16"),
}
TOLERANCE = 0.99999
"""Minimum cosine between a backend's vectors and the torch fp32 vectors on
:data:`PROBE_TEXTS` for the ``steb`` protocol (fp32 ONNX and OpenVINO measure
0.9999999 on MiniLM: float32 rounding; int8 (0.98), fp16 and bf16 (0.99997) fall below it)."""
OPSET = 17

PROBE_TEXTS: tuple[str, ...] = (
    "Hi.",
    "I can't believe it's already December, honestly!!",
    "The committee will reconvene on Thursday to review the revised budget proposal.",
    "lol ok whatever u say 😂",
    "Thou shalt not covet thy neighbour's house, nor his field, nor any thing that is his.",
    "In summary, the results suggest that the proposed method outperforms the baseline "
    "on every dataset, although the margin narrows considerably on the noisier corpora.",
    "Dear Sir or Madam, I am writing to complain about the delay in the delivery of my "
    "order, which was placed more than six weeks ago and has still not arrived. " * 4,
    " ".join(f"word{i} and then some more text, number {i}." for i in range(200)),
)
"""Texts of very different length and register (one longer than 512 tokens, so
truncation is probed too) on which every non-reference backend is compared to torch."""


def check_backend(backend: str | None, precision: str | None) -> tuple[str, str]:
    """``(backend, precision)`` normalised (None: torch, fp32); a one-line error for an
    unknown or unsupported combination."""
    backend = (backend or "torch").lower()
    precision = (precision or "fp32").lower()
    precision = {"float32": "fp32", "float16": "fp16", "bfloat16": "bf16"}.get(precision, precision)
    if backend not in BACKENDS:
        raise StylebenchError(f"unknown backend {backend!r}; use one of {', '.join(BACKENDS)}")
    if precision not in PRECISIONS:
        raise StylebenchError(
            f"unknown precision {precision!r}; use one of {', '.join(PRECISIONS)}"
        )
    if precision not in SUPPORTED[backend]:
        hint = {
            ("torch", "int8"): "int8 runs with --backend onnx",
            ("onnx", "fp16"): "fp16 runs with --backend openvino or torch (GPU)",
            ("onnx", "bf16"): "bf16 runs with --backend openvino or torch",
            ("openvino", "int8"): "int8 runs with --backend onnx (OpenVINO's needs nncf)",
        }[(backend, precision)]
        raise StylebenchError(f"backend {backend} does not run precision {precision}: {hint}")
    return backend, precision


def is_reference(backend: str, precision: str) -> bool:
    return backend == "torch" and precision == "fp32"


def autocast(device: str, precision: str) -> Any:
    """``torch.autocast`` for fp16/bf16 on ``device``; a no-op context for fp32."""
    import contextlib

    import torch

    if precision == "fp32":
        return contextlib.nullcontext()
    dtype = torch.float16 if precision == "fp16" else torch.bfloat16
    return torch.autocast(device_type=device.split(":")[0], dtype=dtype)


def min_cosine(reference: np.ndarray, other: np.ndarray) -> float:
    """The smallest cosine between matching rows (1.0 for two zero rows)."""
    reference = np.asarray(reference, dtype=np.float64)
    other = np.asarray(other, dtype=np.float64)
    norms = np.linalg.norm(reference, axis=1) * np.linalg.norm(other, axis=1)
    dots = (reference * other).sum(axis=1)
    cosines = np.where(norms > 0, dots / np.where(norms > 0, norms, 1.0), 1.0)
    return float(cosines.min()) if len(cosines) else 1.0


def check_drift(who: str, backend: str, precision: str, cosine: float, *, strict: bool) -> None:
    """Refuse (under ``strict``, the steb protocol) a backend below :data:`TOLERANCE`."""
    if strict and cosine < TOLERANCE:
        raise StylebenchError(
            f"{who}: backend {backend} at {precision} drifts from the torch fp32 vectors "
            f"(min cosine {cosine:.7f} on the probe texts < {TOLERANCE}); the steb protocol "
            "needs vectors within that tolerance: use --backend torch, or onnx/openvino at fp32"
        )


def token_budget_from_memory(
    free_bytes: int,
    *,
    hidden: int,
    intermediate: int,
    heads: int,
    max_tokens: int,
    bytes_per_value: int = 4,
    share: float = 0.5,
) -> int:
    """Padded tokens per batch that fit in ``share`` of ``free_bytes`` during inference.

    Per token, one layer's live activations: the hidden state a few times over (input,
    Q, K, V, attention output, residual: 6 x hidden), the feed-forward's intermediate
    state, and one row of attention scores per head (at most ``max_tokens`` wide), with
    a factor of 2 for the temporaries of the kernels.
    """
    per_token = 2 * bytes_per_value * (6 * hidden + intermediate + heads * max_tokens)
    return max(max_tokens, int(free_bytes * share) // per_token)


def cuda_token_budget(device: str, config: Any, max_tokens: int, precision: str) -> int:
    """:func:`token_budget_from_memory` of the free memory of CUDA ``device`` now."""
    import torch

    free, _total = torch.cuda.mem_get_info(torch.device(device))
    hidden = int(getattr(config, "hidden_size", None) or getattr(config, "d_model", 768))
    return token_budget_from_memory(
        int(free),
        hidden=hidden,
        intermediate=int(getattr(config, "intermediate_size", None) or 4 * hidden),
        heads=int(getattr(config, "num_attention_heads", None) or 12),
        max_tokens=max_tokens,
        bytes_per_value=2 if precision in {"fp16", "bf16"} else 4,
    )


# -- export and runtimes ---------------------------------------------------------------


def export_dir(identity: Mapping[str, Any]) -> Path:
    """Where the ONNX export of the model with ``identity`` (its torch identity) lives."""
    import torch

    from evaluators.encoders.base import identity_key
    from evaluators.paths import cache_root

    key = identity_key(
        {**identity, "exporter": "torchscript", "opset": OPSET, "torch": torch.__version__}
    )
    return cache_root() / "exports" / key


CHECKSUM_SUFFIX = ".sha256.json"
"""Beside every export file, its size and SHA-256 (``model.fused.onnx.sha256.json``)."""


class ExportDamageWarning(UserWarning):
    """A cached ONNX export failed its checksum (truncated, overwritten, or written
    before checksums were kept) and is rebuilt."""


def _sha256(path: Path) -> str:
    import hashlib

    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def export_intact(target: Path) -> bool:
    """True when the export ``target`` is there and matches the size and SHA-256
    recorded beside it; a file that is there but does not (truncated, overwritten, no
    checksum) gets an :class:`ExportDamageWarning` naming it, and False: the caller
    builds it again."""
    import json
    import warnings

    if not target.is_file():
        return False
    sidecar = target.with_name(target.name + CHECKSUM_SUFFIX)
    try:
        recorded = json.loads(sidecar.read_text(encoding="utf-8"))
        size, digest = int(recorded["bytes"]), str(recorded["sha256"])
    except (OSError, ValueError, KeyError, TypeError):
        why = "has no readable checksum (written by an older stylebench, or cut short)"
    else:
        actual = target.stat().st_size
        if actual != size:
            why = (
                f"is {actual} bytes, not the {size} it was written with (truncated or overwritten)"
            )
        elif _sha256(target) != digest:
            why = "does not match its SHA-256 (damaged)"
        else:
            return True
    warnings.warn(f"ONNX export {target} {why}: it is rebuilt", ExportDamageWarning, stacklevel=3)
    return False


def _publish(partial: Path, target: Path) -> None:
    """Move the finished ``partial`` file to ``target`` with its checksum beside it:
    the checksum is written first (to a temporary name, renamed), then the file is
    renamed into place, so a crash at any point leaves either no ``target`` or one that
    :func:`export_intact` checks (and rebuilds if it fails)."""
    import json

    sidecar = target.with_name(target.name + CHECKSUM_SUFFIX)
    staged = sidecar.with_name(f"{sidecar.name}.{os.getpid()}.partial")
    record = {"bytes": partial.stat().st_size, "sha256": _sha256(partial)}
    staged.write_text(json.dumps(record), encoding="utf-8")
    os.replace(staged, sidecar)
    os.replace(partial, target)


@contextlib.contextmanager
def _exclusive(folder: Path) -> Iterator[None]:
    """One process at a time checks and builds the exports of ``folder`` (an advisory
    ``flock`` on ``folder/.lock``), so two runs never interleave a file and another
    one's checksum; where no lock can be taken (no ``fcntl``, a read-only folder) the
    block runs without it."""
    try:
        import fcntl

        handle = (folder / ".lock").open("a")
    except (ImportError, OSError):
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


class _Exportable:
    """Builds the ``torch.nn.Module`` whose positional inputs are ``names`` and whose
    output is the pooled vector (``forward`` of the encoder's torch path)."""

    @staticmethod
    def module(owner: Any, names: Sequence[str], forward: Callable[[dict[str, Any]], Any]) -> Any:
        import torch

        class Wrapped(torch.nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.owner = owner

            def forward(self, *tensors: Any) -> Any:
                return forward(dict(zip(names, tensors, strict=True)))

        return Wrapped().eval()


@contextlib.contextmanager
def _attention(owner: Any, implementation: str | None) -> Iterator[None]:
    """Every transformers model inside ``owner`` with its attention set to
    ``implementation`` (None: as it is) for the block, restored after it."""
    if implementation is None:
        yield
        return
    models = [m for m in owner.modules() if hasattr(m, "set_attn_implementation")]
    models = [m for m in models if getattr(m.config, "_attn_implementation", None)]
    before = [m.config._attn_implementation for m in models]
    try:
        for model in models:
            model.set_attn_implementation(implementation)
        yield
    finally:
        for model, value in zip(models, before, strict=True):
            model.set_attn_implementation(value)


def export_onnx(
    owner: Any,
    forward: Callable[[dict[str, Any]], Any],
    example: Mapping[str, Any],
    folder: Path,
    *,
    attention: str | None = None,
) -> Path:
    """``folder/model.onnx`` (``model.<attention>.onnx`` when the model's attention is
    set to ``attention`` for the trace, e.g. ``"eager"``), exported now unless it is
    already there (written to a temporary name and renamed, so a crash never leaves half
    a file), with its checksum beside it; a cached file that fails it is rebuilt
    (:func:`export_intact`)."""
    target = folder / (f"model.{attention}.onnx" if attention else "model.onnx")
    folder.mkdir(parents=True, exist_ok=True)
    with _exclusive(folder):
        if not export_intact(target):
            _export(owner, forward, example, folder, target, attention)
    return target


def _export(
    owner: Any,
    forward: Callable[[dict[str, Any]], Any],
    example: Mapping[str, Any],
    folder: Path,
    target: Path,
    attention: str | None,
) -> None:
    import warnings

    import torch

    names = list(example)
    module = _Exportable.module(owner, names, forward)
    partial = folder / f"model.{os.getpid()}.partial.onnx"
    axes = {name: {0: "batch", 1: "sequence"} for name in names} | {"vector": {0: "batch"}}
    try:
        with warnings.catch_warnings(), torch.no_grad(), _attention(owner, attention):
            warnings.simplefilter("ignore")  # the tracer's notes on shape-dependent branches
            torch.onnx.export(
                module,
                tuple(example[name] for name in names),
                str(partial),
                dynamo=False,
                input_names=names,
                output_names=["vector"],
                dynamic_axes=axes,
                opset_version=OPSET,
            )
    except Exception as error:
        partial.unlink(missing_ok=True)
        raise StylebenchError(f"cannot export the model to ONNX: {error}") from None
    _publish(partial, target)


FUSED_TYPES: dict[str, str] = {
    name: "bert"
    for name in ("bert", "roberta", "xlm-roberta", "distilbert", "electra", "mpnet", "camembert")
}
"""``config.model_type`` -> the model type of onnxruntime's transformer optimizer whose
fusions apply (the BERT family); other models run the plain export."""


def fused_type(config: Any) -> str | None:
    """The optimizer's model type for a model with ``config`` (None: not fused)."""
    return FUSED_TYPES.get(str(getattr(config, "model_type", "") or ""))


def fused_onnx(source: Path, config: Any) -> Path:
    """``source`` (an eager-attention export) through onnxruntime's transformer optimizer
    (:data:`FUSED_TYPES`), made once next to it as ``model.fused.onnx``: attention,
    skip-connection + LayerNorm, bias + GELU and the embedding block each become one
    fused operator, which cuts the non-matrix-multiply time of long inputs. fp32
    throughout (no fp16 conversion); the drift check at load compares it with torch."""
    target = source.with_name("model.fused.onnx")
    with _exclusive(source.parent):
        if not export_intact(target):
            _fuse(source, target, config)
    return target


def _fuse(source: Path, target: Path, config: Any) -> None:
    import logging

    from onnxruntime.transformers.optimizer import optimize_model

    hidden = int(getattr(config, "hidden_size", 0) or getattr(config, "dim", 0) or 0)
    heads = int(getattr(config, "num_attention_heads", 0) or getattr(config, "n_heads", 0) or 0)
    partial = source.with_name(f"model.fused.{os.getpid()}.partial.onnx")
    quiet = logging.getLogger("onnxruntime.transformers")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # its per-fusion progress lines
    try:
        model = optimize_model(
            str(source), model_type=fused_type(config) or "bert", num_heads=heads,
            hidden_size=hidden, opt_level=0,
        )  # fmt: skip
        model.save_model_to_file(str(partial))
    except Exception as error:
        partial.unlink(missing_ok=True)
        raise StylebenchError(f"cannot fuse the ONNX export {source}: {error}") from None
    finally:
        quiet.setLevel(level)
    _publish(partial, target)


QUANTIZATION = "onnxruntime dynamic: int8 weights per channel, activations per batch"
"""The int8 scheme (in the identity). Per-channel weights: on MiniLM's probe texts the
minimum cosine to torch is 0.977, per-tensor weights 0.905."""


def quantized_onnx(source: Path) -> Path:
    """onnxruntime's dynamic int8 quantisation of ``source`` (:data:`QUANTIZATION`), made
    once next to it."""
    target = source.with_name("model.int8-per-channel.onnx")
    with _exclusive(source.parent):
        if not export_intact(target):
            _quantize(source, target)
    return target


def _quantize(source: Path, target: Path) -> None:
    import logging

    from onnxruntime.quantization import QuantType, quantize_dynamic

    partial = source.with_name(f"model.int8.{os.getpid()}.partial.onnx")
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # its advice to pre-process (for static quantisation)
    try:
        quantize_dynamic(str(source), str(partial), weight_type=QuantType.QInt8, per_channel=True)
    except Exception as error:
        partial.unlink(missing_ok=True)
        raise StylebenchError(f"cannot quantise the ONNX export {source}: {error}") from None
    finally:
        root.setLevel(level)
    _publish(partial, target)


def _need(module: str, backend: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise StylebenchError(
            f"backend {backend} needs the {module} package: `pip install 'stylebench[fast]'`"
        ) from None


class OnnxRuntime:
    """An onnxruntime session over the exported file: ``run(inputs) -> vectors``.
    Its threads sleep when idle instead of spinning (``session.intra_op.allow_spinning``
    0): on a shared or loaded machine spinning threads burn the cores the next batch
    needs."""

    def __init__(self, path: Path, device: str, *, graph: str = "plain") -> None:
        ort = _need("onnxruntime", "onnx")
        providers = ["CPUExecutionProvider"]
        if device.startswith("cuda"):
            if "CUDAExecutionProvider" not in ort.get_available_providers():
                raise StylebenchError(
                    f"backend onnx on {device} needs onnxruntime-gpu (this onnxruntime runs "
                    "on the CPU only)"
                )
            index = device.partition(":")[2] or "0"
            providers = [("CUDAExecutionProvider", {"device_id": int(index)}), *providers]
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(str(path), options, providers=providers)
        self.names = [entry.name for entry in self.session.get_inputs()]
        self.version = f"onnxruntime {ort.__version__}" + (
            f", {graph} graph" if graph != "plain" else ""
        )

    def run(self, inputs: Mapping[str, np.ndarray]) -> np.ndarray:
        feed = {name: np.ascontiguousarray(inputs[name], dtype=np.int64) for name in self.names}
        return np.asarray(self.session.run(None, feed)[0], dtype=np.float32)


_OV_HINTS = {"fp32": "f32", "fp16": "f16", "bf16": "bf16"}


class OpenVinoRuntime:
    """The exported ONNX file compiled by OpenVINO at an explicit inference precision."""

    def __init__(self, path: Path, device: str, precision: str) -> None:
        ov = _need("openvino", "openvino")
        if not device.startswith("cpu"):
            raise StylebenchError(
                f"backend openvino runs on the CPU here, not on {device}: use --device cpu"
            )
        core = ov.Core()
        core.set_property({"CACHE_DIR": str(path.parent / "openvino")})  # compiled once
        config = {"INFERENCE_PRECISION_HINT": _OV_HINTS[precision], "PERFORMANCE_HINT": "LATENCY"}
        self.compiled = core.compile_model(core.read_model(str(path)), "CPU", config)
        self.names = [port.get_any_name() for port in self.compiled.inputs]
        self.request = self.compiled.create_infer_request()
        self.version = f"openvino {ov.get_version()}"

    def run(self, inputs: Mapping[str, np.ndarray]) -> np.ndarray:
        feed = {name: np.ascontiguousarray(inputs[name], dtype=np.int64) for name in self.names}
        result = self.request.infer(feed)
        return np.array(result[self.compiled.outputs[0]], dtype=np.float32)


def build_runtime(
    backend: str,
    precision: str,
    *,
    owner: Any,
    forward: Callable[[dict[str, Any]], Any],
    example: Mapping[str, Any],
    identity: Mapping[str, Any],
    device: str,
    config: Any = None,
) -> OnnxRuntime | OpenVinoRuntime:
    """The runtime of a non-torch backend, exporting the model first if needed; onnx at
    fp32 runs the fused graph (:func:`fused_onnx`) of a model whose ``config`` is of
    :data:`FUSED_TYPES`."""
    _need("onnxruntime" if backend == "onnx" else "openvino", backend)
    _need("onnx", backend)  # torch's exporter writes the file with it
    folder = export_dir(identity)
    if backend == "onnx" and precision == "fp32" and fused_type(config) is not None:
        eager = export_onnx(owner, forward, example, folder, attention="eager")
        return OnnxRuntime(fused_onnx(eager, config), device, graph="fused")
    path = export_onnx(owner, forward, example, folder)
    if backend == "onnx":
        return OnnxRuntime(quantized_onnx(path) if precision == "int8" else path, device)
    return OpenVinoRuntime(path, device, precision)
