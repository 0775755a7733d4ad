"""Order-k PPM character models as Valla's ``methods/PPM.py`` executes them (its port of
PAN's ``teahan03`` baseline, Teahan & Harper 2003), vectorised over whole corpora.

The rules, read from that code:

- **Training.** Each training text of an author is read on its own (contexts never span two
  texts). At position ``i`` the context is the previous ``min(i, order)`` characters; the
  character is counted in that context *and in every shorter suffix of it* down to the empty
  context (no update exclusion). A context's total is the number of characters counted in it.
- **Probability.** ``P(c | context)`` is ``count(context, c) / total(context)`` in the
  longest suffix of the context (at most ``order`` characters) in which ``c`` has been seen;
  a character never seen by the author gets ``1 / alphabet_size``. No escape probability is
  charged on the way down (the port backs off without a penalty) and no symbols are
  excluded, so the values are not a normalised distribution: it is the executed rule, not
  textbook PPMC.
- **Cross-entropy** of a text under a model: the mean of ``-log2 P`` over its characters, the
  model left unchanged by the text. Characters are Unicode code points (Python ``str``).
- **Attribution**: the author of lowest cross-entropy; ties go to the first author in sorted
  order.

Here every n-gram of length 1..order+1 over all texts (training and unknown together) gets a
dense integer id, built order by order from the id of its prefix and its last character, so
counting is ``numpy.bincount`` and look-ups are array indexing: exact for any alphabet.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dataset_scripts.core.errors import StylebenchError


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, enabled: bool, desc: str):
    """A tqdm bar, or one that does nothing."""
    if not enabled:
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc)


def _dense(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(id of each value, the distinct values), ids numbered 0.. in order of first
    appearance (a hash table: linear time, where sorting would dominate the run)."""
    import pandas as pd

    ids, uniques = pd.factorize(values)
    return np.asarray(ids, dtype=np.int64), np.asarray(uniques)


def code_points(text: str) -> np.ndarray:
    """The Unicode code points of ``text`` as ``uint32``."""
    return np.frombuffer(text.encode("utf-32-le"), dtype="<u4")


class GramIndex:
    """Dense ids of every n-gram (n = 1..order+1) ending at each position of a corpus.

    ``ids[k][p]`` is the id of the (k+1)-gram ending at position ``p`` (the k characters
    before ``p`` and ``p`` itself), or -1 where position ``p`` has fewer than ``k``
    characters before it in its own text. ``sizes[k]`` is the number of distinct ids.
    """

    def __init__(self, texts: Sequence[str], order: int) -> None:
        if order < 0:
            raise StylebenchError(f"PPM order must be >= 0, not {order}")
        self.order = order
        lengths = np.array([len(t) for t in texts], dtype=np.int64)
        self.starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
        self.lengths = lengths
        total = int(lengths.sum())
        codes = np.concatenate([code_points(t) for t in texts]) if total else np.zeros(0, np.uint32)
        # offset of each position inside its own text
        self.offset = np.arange(total, dtype=np.int64) - np.repeat(self.starts, lengths)
        chars = _dense(codes)[0].astype(np.uint64)
        self.ids: list[np.ndarray] = [chars.astype(np.int32)]
        self.sizes: list[int] = [int(chars.max()) + 1 if total else 0]
        for k in range(1, order + 1):
            valid = np.flatnonzero(self.offset >= k)
            prefix = self.ids[k - 1][valid - 1].astype(np.uint64)
            keys = (prefix << np.uint64(32)) | chars[valid]
            inverse, uniq = _dense(keys)
            if len(uniq) >= 2**31:  # pragma: no cover - needs > 2 G positions
                raise StylebenchError("PPM: too many distinct n-grams for 32-bit ids")
            grams = np.full(total, -1, dtype=np.int32)
            grams[valid] = inverse
            self.ids.append(grams)
            self.sizes.append(len(uniq))

    def positions(self, text_indices: Sequence[int]) -> np.ndarray:
        """Corpus positions of the given texts, in order."""
        if not len(text_indices):
            return np.zeros(0, dtype=np.int64)
        idx = np.asarray(text_indices, dtype=np.int64)
        starts, lengths = self.starts[idx], self.lengths[idx]
        within = np.arange(int(lengths.sum()), dtype=np.int64) - np.repeat(
            np.cumsum(lengths) - lengths, lengths
        )
        return np.repeat(starts, lengths) + within


class Queries:
    """The n-grams at the positions of the unknown texts, renumbered densely per order so
    that an author's model needs counts only for the n-grams it will be asked about.

    For order ``k``: ``at[k]`` are the query positions with at least ``k`` characters
    before them, ``local[k]`` the local id of their (k+1)-gram, ``gram_map[k]`` maps a
    global (k+1)-gram id to its local id (-1: never asked), ``context_of[k]`` gives each
    local (k+1)-gram the local id of its k-character context and ``context_map[k]`` maps a
    global k-gram id to that context id (-1: never a context of a query).
    """

    def __init__(self, index: GramIndex, positions: np.ndarray) -> None:
        self.n = len(positions)
        self.at, self.local, self.gram_map = [], [], []
        self.context_of, self.context_map = [], []
        offset = index.offset[positions]
        for k in range(index.order + 1):
            at = np.flatnonzero(offset >= k)
            where = positions[at]
            local, grams = _dense(index.ids[k][where])
            gram_map = np.full(index.sizes[k], -1, dtype=np.int64)
            gram_map[grams] = np.arange(len(grams))
            self.at.append(at)
            self.local.append(local.astype(np.int64))
            self.gram_map.append(gram_map)
            if k == 0:
                self.context_of.append(np.zeros(len(grams), dtype=np.int64))
                self.context_map.append(np.zeros(0, dtype=np.int64))
                continue
            # the context of a (k+1)-gram is its k-character prefix, the k-gram before it
            first = np.zeros(len(grams), dtype=np.int64)
            first[local] = where  # any position of each gram will do
            context_of, contexts = _dense(index.ids[k - 1][first - 1])
            context_map = np.full(index.sizes[k - 1], -1, dtype=np.int64)
            context_map[contexts] = np.arange(len(contexts))
            self.context_of.append(context_of.astype(np.int64))
            self.context_map.append(context_map)


def author_probabilities(
    index: GramIndex, queries: Queries, train_positions: np.ndarray, alph_size: int
) -> np.ndarray:
    """``P(character | context)`` at each query position under the model trained on
    ``train_positions`` (the rule of the module notes)."""
    prob = np.full(queries.n, 1.0 / alph_size)
    offset = index.offset[train_positions]
    for k in range(index.order + 1):
        at = train_positions[offset >= k]
        grams = queries.gram_map[k][index.ids[k][at]]
        n_local = len(queries.context_of[k])
        counts = np.bincount(grams[grams >= 0], minlength=n_local).astype(np.float64)
        if k == 0:
            totals = np.full(n_local, float(len(at)))  # the empty context saw every character
        else:
            contexts = queries.context_map[k][index.ids[k - 1][at - 1]]
            n_contexts = int(queries.context_of[k].max()) + 1 if n_local else 0
            totals = np.bincount(contexts[contexts >= 0], minlength=n_contexts)
            totals = totals[queries.context_of[k]].astype(np.float64)
        ratio = np.divide(counts, totals, out=np.zeros(n_local), where=counts > 0)
        value = ratio[queries.local[k]]
        seen = value > 0
        # a longer context in which the character was seen overrides a shorter one
        prob[queries.at[k][seen]] = value[seen]
    return prob


def cross_entropies(
    train_texts: Sequence[str],
    train_authors: Sequence[str],
    texts: Sequence[str],
    order: int = 5,
    alph_size: int = 256,
    progress: bool = False,
) -> tuple[list[str], np.ndarray]:
    """(sorted authors, bits per character of each text (rows) under each author's model)."""
    empty = [i for i, t in enumerate(texts) if not t]
    if empty:
        raise StylebenchError(
            f"PPM: unknown text {empty[0]} is empty (cross-entropy is per character)"
        )
    if alph_size < 1:
        raise StylebenchError(f"PPM alph_size must be >= 1, not {alph_size}")
    authors = sorted({str(a) for a in train_authors})
    index = GramIndex(list(train_texts) + list(texts), order)
    n_train = len(train_texts)
    by_author: dict[str, list[int]] = {a: [] for a in authors}
    for i, author in enumerate(train_authors):
        by_author[str(author)].append(i)
    queries = Queries(index, index.positions(range(n_train, n_train + len(texts))))
    text_of = np.repeat(np.arange(len(texts)), index.lengths[n_train:])
    lengths = index.lengths[n_train:].astype(np.float64)
    result = np.zeros((len(texts), len(authors)))
    bar = progress_bar(len(authors), progress, "PPM authors")
    try:
        for column, author in enumerate(authors):
            train = index.positions(by_author[author])
            bits = -np.log2(author_probabilities(index, queries, train, alph_size))
            result[:, column] = np.bincount(text_of, weights=bits, minlength=len(texts)) / lengths
            bar.update(1)
    finally:
        bar.close()
    return authors, result


def pair_cross_entropy(model_text: str, text: str, order: int = 5, alph_size: int = 256) -> float:
    """Cross-entropy (bits per character) of ``text`` under the model of ``model_text``
    alone (Valla's ``PPM_AV.distance``, one direction)."""
    _, entropy = cross_entropies([model_text], ["model"], [text], order, alph_size)
    return float(entropy[0, 0])
