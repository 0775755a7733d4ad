"""ARB's quartet generation pipeline (paper Sec. 4.2-4.6, App. A).

Steps
-----
1. **Sources** (:class:`Source`): a Hub id read with ``datasets.load_dataset(id,
   split="train")`` (the three of Table 3 have their text/topic fields built in) or a local
   file: ``.jsonl`` (one object per line), ``.json`` (a list of objects or strings, or an
   object of parallel lists such as Fast-DetectGPT's ``{"original": [...]}``), optionally
   gzip'ed. Syntax ``NAME=HUB_ID`` or ``NAME=PATH[#TEXT_FIELD[,TOPIC_FIELD]]``.
2. **Preprocessing**: whitespace normalised; items rejected for structural artifacts (markup,
   URL-heavy, no sentence punctuation) or a length outside 150-500 whitespace words are
   *counted* under a reason, never silently dropped.
3. **Strata** 150-220 / 221-350 / 351-500 and a **seeded stratified sample**
   (``numpy.random.default_rng(seed)``, ``per_stratum`` rows per stratum per dataset, the
   paper: 200); a stratum with fewer eligible rows is taken whole and the shortfall counted.
   Matched-source ids ``<dataset>-<source index:06d>`` are stable.
4. **Topics**: the topic field when the source has one (XSum summary, WritingPrompts
   prompt); otherwise the first two cleaned sentences if they have at most 40 words, else
   the first sentence truncated to 40 words (the OpenWebText rule).
5. **Prompts**: the fixed system prompt and the three templates of App. A
   (:mod:`dataset_scripts.arb.prompts`), rendered through the generator's chat template;
   for Gemma-family models (or any template that rejects a system role) the system prompt
   is merged into the user turn.
6. **Decoding**: ``do_sample=True, temperature=0.7, top_p=0.9, top_k=40,
   max_new_tokens=512``; every call is seeded from (seed 42, pair id, regime, attempt), so
   results do not depend on the order or on interruptions. Up to 3 attempts per call; an
   empty output is retried. LLM2L rewrites the Free-LLM output with the same generator.
7. **Resumable**: each finished call is appended to ``<out>/generations.jsonl``; a rerun
   skips what is there. ``<out>/sample.jsonl`` fixes the sample and ``<out>/config.json``
   the settings (a rerun with different settings is refused).
8. **Output**: complete quartets become rows of the ARB schema with quality flags
   (:mod:`dataset_scripts.arb.quality`), written as a Hub-ready folder ``<out>/dataset``.

Backends: :class:`TransformersBackend` (local ``transformers`` model: a folder,
``<dir>::<file.gguf>`` or ``smollm2``) and :class:`OpenAIChatBackend` (any
OpenAI-compatible ``/v1/chat/completions`` server - vLLM, TGI, llama.cpp - over plain
``httpx``; ``top_k`` and ``seed`` are sent as the extra fields those servers accept).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from dataset_scripts.arb.prompts import DECODING, MAX_RETRIES, SYSTEM_PROMPT, TEMPLATES
from dataset_scripts.arb.quality import STRATA, add_flags, length_stratum, word_count
from dataset_scripts.core.errors import DataError, StylebenchError

MIN_WORDS, MAX_WORDS = 150, 500
TOPIC_MAX_WORDS = 40

# Table 3: Hub id -> (human-text field, topic field or None = first-two-sentences rule)
HUB_SOURCES: dict[str, tuple[str, str | None]] = {
    "EdinburghNLP/xsum": ("document", "summary"),
    "euclaise/writingprompts": ("story", "prompt"),
    "Skylion007/openwebtext": ("text", None),
}


@dataclass(frozen=True)
class Source:
    """One source dataset: ``name`` (short id), ``location`` (Hub id or path), fields."""

    name: str
    location: str
    text_field: str | None = None
    topic_field: str | None = None

    @classmethod
    def parse(cls, spec: str) -> Source:
        """``NAME=HUB_ID`` or ``NAME=PATH[#TEXT_FIELD[,TOPIC_FIELD]]``."""
        name, sep, rest = spec.partition("=")
        if not sep or not name or not rest:
            raise StylebenchError(f"source {spec!r}: expected NAME=HUB_ID or NAME=PATH[#FIELDS]")
        location, _, fields = rest.partition("#")
        text_field, _, topic_field = fields.partition(",")
        if location in HUB_SOURCES and not fields:
            text_field, topic = HUB_SOURCES[location]
            return cls(name, location, text_field, topic)
        return cls(name, location, text_field or None, topic_field or None)

    def records(self) -> list[dict[str, str | None]]:
        """``[{"text", "topic"}]`` in source order."""
        path = Path(self.location)
        if path.exists():
            items = _read_local(path)
        else:
            from datasets import load_dataset

            try:
                items = list(load_dataset(self.location, split="train"))
            except Exception as error:
                raise StylebenchError(
                    f"source {self.name}: {self.location} is neither a local file nor a "
                    f"loadable Hub dataset ({type(error).__name__}: {error})"
                ) from error
        out = []
        for i, item in enumerate(items):
            if isinstance(item, str):
                out.append({"text": item, "topic": None})
                continue
            field = self.text_field or ("text" if "text" in item else None)
            if field is None or field not in item:
                raise DataError(
                    f"{self.location}: record {i}: no text field {self.text_field or 'text'!r}"
                )
            topic = item.get(self.topic_field) if self.topic_field else None
            out.append({"text": item[field], "topic": topic})
        return out


def _read_local(path: Path) -> list[Any]:
    opener = gzip.open if path.suffix == ".gz" else open
    name = path.name.removesuffix(".gz")
    with opener(path, "rt", encoding="utf-8") as f:
        if name.endswith(".jsonl"):
            out = []
            for line_no, line in enumerate(f, start=1):
                if line.strip():
                    try:
                        out.append(json.loads(line))
                    except json.JSONDecodeError as error:
                        raise DataError(
                            f"{path}: line {line_no}: invalid JSON ({error})"
                        ) from error
            return out
        try:
            data = json.load(f)
        except json.JSONDecodeError as error:
            raise DataError(f"{path}: invalid JSON ({error})") from error
    if isinstance(data, list):
        return data
    if isinstance(data, dict) and data and all(isinstance(v, list) for v in data.values()):
        n = {len(v) for v in data.values()}
        if len(n) != 1:
            raise DataError(f"{path}: parallel lists of different lengths {sorted(n)}")
        keys = list(data)
        return [{k: data[k][i] for k in keys} for i in range(n.pop())]
    raise DataError(f"{path}: expected a list or an object of parallel lists")


# ---------------------------------------------------------------- preprocessing, sampling

_MARKUP = re.compile(r"<[a-zA-Z/][^>]{0,40}>|\{\{|\}\}|\[\[|```")
_URL = re.compile(r"https?://|www\.")
_SENT = re.compile(r"(?<=[.!?])[\"')\]]*\s+")


def clean(text: str) -> str:
    """Whitespace runs collapsed, stripped."""
    return " ".join(str(text).split())


def reject_reason(text: str) -> str | None:
    """Why an item is not eligible (structural artifact / length), or None."""
    n = word_count(text)
    if n < MIN_WORDS:
        return f"under {MIN_WORDS} words"
    if n > MAX_WORDS:
        return f"over {MAX_WORDS} words"
    if _MARKUP.search(text):
        return "markup artifact"
    if len(_URL.findall(text)) > 2:
        return "more than 2 URLs"
    if not re.search(r"[.!?]", text):
        return "no sentence punctuation"
    return None


def extract_topic(text: str, topic: str | None = None) -> str:
    """The dataset topic field, else the first two cleaned sentences (<= 40 words), else
    the first sentence truncated to 40 words."""
    if topic and clean(topic):
        return clean(topic)
    sentences = [s for s in _SENT.split(clean(text)) if s]
    two = " ".join(sentences[:2])
    if word_count(two) <= TOPIC_MAX_WORDS:
        return two
    return " ".join(sentences[0].split()[:TOPIC_MAX_WORDS]) if sentences else ""


def stratified_sample(
    sources: Sequence[Source], per_stratum: int, seed: int, dropped: Counter[str]
) -> list[dict[str, Any]]:
    """The seeded stratified sample of every source (items sorted by source index)."""
    rng = np.random.default_rng(seed)
    sample: list[dict[str, Any]] = []
    for src in sources:
        pools: dict[str, list[dict[str, Any]]] = {name: [] for name, _, _ in STRATA}
        for i, rec in enumerate(src.records()):
            text = clean(rec["text"] or "")
            why = reject_reason(text)
            if why:
                dropped[f"{src.name}: {why}"] += 1
                continue
            pools[length_stratum(word_count(text))].append(
                {
                    "dataset": src.name,
                    "source_index": i,
                    "pair_id": f"{src.name}-{i:06d}",
                    "text": text,
                    "stratum": length_stratum(word_count(text)),
                    "topic": extract_topic(text, rec["topic"]),
                }
            )
        for name, lo, hi in STRATA:
            pool = pools[name]
            if len(pool) < per_stratum:
                dropped[f"{src.name}: stratum {name} short by (not sampled)"] += per_stratum - len(
                    pool
                )
                chosen = pool
            else:
                pick = rng.choice(len(pool), per_stratum, replace=False)
                chosen = [pool[k] for k in sorted(pick)]
            for item in chosen:
                item["min_words"], item["max_words"] = lo, hi
            sample += chosen
    sample.sort(key=lambda r: (r["dataset"], r["source_index"]))
    return sample


# ---------------------------------------------------------------- prompts and backends


def user_prompt(regime: str, item: dict[str, Any], free_llm_text: str | None = None) -> str:
    """The App. A template of ``regime`` with its variables filled in."""
    if regime == "Free-LLM":
        return TEMPLATES[regime].format(
            min_words=item["min_words"], max_words=item["max_words"], topic=item["topic"]
        )
    if regime == "H2L":
        return TEMPLATES[regime].format(source_text=item["text"])
    if regime == "LLM2L":
        if free_llm_text is None:
            raise ValueError("LLM2L needs the Free-LLM text")
        return TEMPLATES[regime].format(free_llm_text=free_llm_text)
    raise ValueError(f"unknown regime {regime!r}")


def messages_for(user: str, merge_system: bool) -> list[dict[str, str]]:
    """Chat messages; Gemma rule: the system prompt merged into the user turn."""
    if merge_system:
        return [{"role": "user", "content": f"{SYSTEM_PROMPT}\n\n{user}"}]
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def call_seed(seed: int, pair_id: str, regime: str, attempt: int) -> int:
    """Deterministic per-call seed (order- and interruption-independent)."""
    digest = hashlib.sha256(f"{seed}|{pair_id}|{regime}|{attempt}".encode()).digest()
    return int.from_bytes(digest[:4], "little")


class Backend(Protocol):
    name: str
    merge_system: bool

    def generate(
        self, messages: list[dict[str, str]], decoding: dict[str, Any], seed: int
    ) -> str: ...


class TransformersBackend:
    """Local ``transformers`` generation (chat template, sampling as configured)."""

    def __init__(self, model: str, device: str = "cpu") -> None:
        from evaluators.arb.detectors import CausalLM

        self.lm = CausalLM.shared(model, device=device)
        self.name = model if model != "smollm2" else "SmolLM2-135M-Instruct"
        tok = self.lm.tokenizer
        self.merge_system = "gemma" in model.lower()
        if not self.merge_system:
            try:
                tok.apply_chat_template(
                    [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}],
                    tokenize=False,
                )
            except Exception:
                self.merge_system = True

    def generate(self, messages: list[dict[str, str]], decoding: dict[str, Any], seed: int) -> str:
        import torch

        tok, model = self.lm.tokenizer, self.lm.model
        enc = tok.apply_chat_template(
            messages, add_generation_prompt=True, return_tensors="pt", return_dict=True
        )
        torch.manual_seed(seed)
        with torch.no_grad():
            out = model.generate(
                **enc,
                do_sample=decoding["do_sample"],
                temperature=decoding["temperature"],
                top_p=decoding["top_p"],
                top_k=decoding["top_k"],
                max_new_tokens=decoding["max_new_tokens"],
                pad_token_id=tok.pad_token_id,
            )
        return tok.decode(out[0, enc["input_ids"].shape[1] :], skip_special_tokens=True).strip()


class OpenAIChatBackend:
    """An OpenAI-compatible chat-completions server through the shared client
    (:mod:`dataset_scripts.core.openai_client`: retries 429/5xx with backoff)."""

    def __init__(
        self,
        model: str,
        base_url: str,
        api_key: str | None = None,
        timeout: float = 120.0,
        merge_system: bool | None = None,
    ) -> None:
        from dataset_scripts.core.openai_client import OpenAIClient, endpoint

        self.name = model
        self.client = OpenAIClient(base_url, api_key=api_key, timeout=timeout, max_retries=3)
        self.url = endpoint(self.client.base_url, "chat/completions")
        self.merge_system = "gemma" in model.lower() if merge_system is None else merge_system

    def generate(self, messages: list[dict[str, str]], decoding: dict[str, Any], seed: int) -> str:
        from dataset_scripts.core.openai_client import OpenAIError

        try:
            return self.client.chat(
                self.name,
                messages,
                temperature=decoding["temperature"],
                top_p=decoding["top_p"],
                top_k=decoding["top_k"],
                max_tokens=decoding["max_new_tokens"],
                seed=seed,
            )
        except OpenAIError as error:
            raise GenerationError(str(error)) from error


class GenerationError(StylebenchError):
    """One failed generation attempt (retried)."""


def make_backend(spec: str) -> Backend:
    """``openai:<model>@<base_url>`` (the spec syntax of :mod:`dataset_scripts.core.openai_client`)
    or a local model spec."""
    if spec.startswith("openai:"):
        from dataset_scripts.core.openai_client import parse_served_spec

        served = parse_served_spec(spec, "openai")
        return OpenAIChatBackend(served.model, served.base_url)
    return TransformersBackend(spec)


# ---------------------------------------------------------------- the pipeline


def _generate_one(
    backend: Backend,
    user: str,
    decoding: dict[str, Any],
    seed: int,
    pair_id: str,
    regime: str,
    failures: Counter[str],
) -> tuple[str | None, int]:
    messages = messages_for(user, backend.merge_system)
    for attempt in range(MAX_RETRIES):
        try:
            text = backend.generate(messages, decoding, call_seed(seed, pair_id, regime, attempt))
        except GenerationError:
            failures["attempt raised an error"] += 1
            continue
        if text.strip():
            return text.strip(), attempt + 1
        failures["attempt returned empty text"] += 1
    return None, MAX_RETRIES


def generate_quartets(
    sample: Iterable[dict[str, Any]],
    backend: Backend,
    out_dir: Path,
    decoding: dict[str, Any],
    seed: int = 42,
) -> tuple[dict[tuple[str, str], dict[str, Any]], Counter[str]]:
    """Generate (or resume) Free-LLM, H2L and LLM2L for every sampled item."""
    log = Path(out_dir) / "generations.jsonl"
    done: dict[tuple[str, str], dict[str, Any]] = {}
    if log.exists():
        for line_no, line in enumerate(log.read_text().splitlines(), start=1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                # an interrupted write leaves a partial last line: ignore it and redo it
                continue
            if "pair_id" not in rec or "regime" not in rec:
                raise DataError(f"{log}: line {line_no}: not a generation record")
            done[(rec["pair_id"], rec["regime"])] = rec
    failures: Counter[str] = Counter()
    with log.open("a", encoding="utf-8") as f:
        for item in sample:
            for regime in ("Free-LLM", "H2L", "LLM2L"):
                key = (item["pair_id"], regime)
                if key in done and done[key]["text"] is not None:
                    continue
                free = done.get((item["pair_id"], "Free-LLM"), {}).get("text")
                if regime == "LLM2L" and free is None:
                    failures["LLM2L skipped: no Free-LLM text"] += 1
                    continue
                user = user_prompt(regime, item, free)
                text, attempts = _generate_one(
                    backend, user, decoding, seed, item["pair_id"], regime, failures
                )
                rec = {
                    "pair_id": item["pair_id"],
                    "regime": regime,
                    "generator": backend.name,
                    "text": text,
                    "attempts": attempts,
                }
                done[key] = rec
                f.write(json.dumps(rec) + "\n")
                f.flush()
    return done, failures


def run_generation(
    sources: Sequence[str | Source],
    generator: str | Backend,
    out_dir: Path,
    *,
    per_stratum: int = 200,
    max_new_tokens: int = 512,
    seed: int = 42,
    write_folder: bool = True,
) -> dict[str, Any]:
    """The whole pipeline; returns a summary (counts, drops, failures, flags, folder)."""
    from dataset_scripts.arb.quartets import make_row

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    srcs = [s if isinstance(s, Source) else Source.parse(s) for s in sources]
    backend = make_backend(generator) if isinstance(generator, str) else generator
    decoding = dict(DECODING, max_new_tokens=max_new_tokens, seed=seed)
    config = {
        "sources": [vars(s) for s in srcs],
        "generator": backend.name,
        "per_stratum": per_stratum,
        "decoding": decoding,
        "merge_system": backend.merge_system,
    }
    cfg_path = out_dir / "config.json"
    if cfg_path.exists() and json.loads(cfg_path.read_text()) != config:
        raise StylebenchError(
            f"{out_dir} holds a run with other settings ({cfg_path}); use a new folder"
        )
    cfg_path.write_text(json.dumps(config, indent=2))
    dropped: Counter[str] = Counter()
    sample_path = out_dir / "sample.jsonl"
    if sample_path.exists():
        sample = [json.loads(x) for x in sample_path.read_text().splitlines() if x.strip()]
        drop_path = out_dir / "sample_dropped.json"
        dropped.update(json.loads(drop_path.read_text()) if drop_path.exists() else {})
    else:
        sample = stratified_sample(srcs, per_stratum, seed, dropped)
        sample_path.write_text("".join(json.dumps(s) + "\n" for s in sample))
        (out_dir / "sample_dropped.json").write_text(json.dumps(dict(dropped), indent=2))
    done, failures = generate_quartets(sample, backend, out_dir, decoding, seed)
    rows: list[dict[str, Any]] = []
    incomplete = 0
    for item in sample:
        texts = {r: done.get((item["pair_id"], r), {}).get("text") for r in TEMPLATES}
        if any(t is None for t in texts.values()):
            incomplete += 1
            continue
        hw = word_count(item["text"])
        common = {
            "source_dataset": item["dataset"],
            "source_dataset_short": item["dataset"],
            "source_index": item["source_index"],
            "generator_model": backend.name,
            "human_words": hw,
        }
        rows.append(make_row(regime="Human", text=item["text"], **common))
        for regime, text in texts.items():
            rows.append(make_row(regime=regime, text=text, **common))
    flags = add_flags(rows)
    summary: dict[str, Any] = {
        "sampled": len(sample),
        "complete_quartets": len(rows) // 4,
        "incomplete_quartets": incomplete,
        "dropped_sources": dict(dropped),
        "attempt_failures": dict(failures),
        "quality_flags": flags,
    }
    if write_folder and rows:
        from dataclasses import replace

        from dataset_scripts.arb.folder import write_arb_folder
        from dataset_scripts.arb.quartets import SPEC, protocol_markdown

        spec = replace(
            SPEC,
            hub_id=f"arb/generated-{backend.name.split('/')[-1]}",
            pretty_name=f"ARB quartets generated with {backend.name}",
            protocol=protocol_markdown(rows, flags),
        )
        folder = write_arb_folder(spec, rows, out_dir / "dataset", dict(dropped), summary)
        summary["folder"] = str(folder)
    return summary
