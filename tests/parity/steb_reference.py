"""Independent re-implementations of the STEB authors' evaluation algorithms.

Written from reading their repository (``rrivera1849/STEB``: ``steb/tasks/*.py``,
``steb/metrics.py``, ``steb/loaders/pan.py``, ``steb/models/function_word_*.py``), in
their shape: explicit loops over pairs and queries, scikit-learn and scipy calls as they
make them. Nothing here imports stylebench's evaluators or metric code, so the parity
tests compare two implementations, not one with itself.

Where the authors' arithmetic depends on the CPU (float32 BLAS cosines, ``np.argsort``'s
default sort on exact ties), the reference follows the ``steb`` protocol's stated rule
(``docs/concepts/protocol.md``, "Same numbers on every CPU"), written here from that
statement: unit vectors with an ``math.fsum`` norm rounded to integers on the ``2^-26``
grid, cosines as exact integer dot products (numpy's int64 matmul, no BLAS) times
``2^-52``, ranks by a stable sort; for order alignment (issue 33) the float64 unit
vectors themselves, each cosine their dot product correctly rounded. ``literal=True`` / ``literal_float32=True`` run the
authors' arithmetic as is.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
from pathlib import Path

import numpy as np
from scipy.optimize import linear_sum_assignment
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.metrics import pairwise_distances, roc_auc_score, v_measure_score
from sklearn.metrics.pairwise import cosine_similarity


def l2(x: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(x, axis=-1, keepdims=True)
    return x / np.where(norms == 0, 1.0, norms)


GRID = 2**26


def grid_units(x: np.ndarray) -> np.ndarray:
    """The protocol's gridded unit vectors as int64: ``rint(2^26 x / ||x||)`` with the
    norm ``sqrt(fsum(x_i^2))``; zero vectors stay zero. Any leading shape, last axis =
    the vector."""
    flat = np.asarray(x, dtype=np.float64).reshape(-1, np.shape(x)[-1])
    out = np.zeros(flat.shape, dtype=np.int64)
    for i, row in enumerate(flat):
        norm = math.sqrt(math.fsum(v * v for v in row.tolist()))
        if norm > 0:
            out[i] = np.rint(row / norm * GRID).astype(np.int64)
    return out.reshape(np.shape(x))


def grid_cos(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Exact cosines of gridded unit vectors (int64 ``grid_units``): integer dot
    products (numpy's integer matmul: exact, no BLAS) times ``2^-52``, float64."""
    return (a @ b.T).astype(np.float64) / float(GRID) ** 2


def units(x: np.ndarray) -> np.ndarray:
    """Their float64 unit vectors, the norm ``sqrt(fsum(x_i^2))`` correctly rounded;
    zero vectors stay zero. Any leading shape, last axis = the vector."""
    flat = np.asarray(x, dtype=np.float64).reshape(-1, np.shape(x)[-1])
    out = np.zeros(flat.shape)
    for i, row in enumerate(flat):
        norm = math.sqrt(math.fsum(v * v for v in row.tolist()))
        if norm > 0:
            out[i] = row / norm
    return out.reshape(np.shape(x))


def _pieces(x: np.ndarray) -> list[np.ndarray]:
    """``x`` as the sum of three floats of at most 18 significant bits each (mantissa
    cut at bits 18 and 36 by ``frexp``/``trunc``): every product of two pieces is exact."""
    mantissa, exponent = np.frexp(x)
    first = np.trunc(mantissa * 2.0**18) / 2.0**18
    rest = mantissa - first
    second = np.trunc(rest * 2.0**36) / 2.0**36
    return [np.ldexp(piece, exponent) for piece in (first, second, rest - second)]


def exact_cos(a: np.ndarray, b: np.ndarray) -> float:
    """The dot product of two unit vectors correctly rounded to float64: the exact
    products of their 18-bit pieces, summed by ``math.fsum`` (exact sum, one rounding)."""
    both = (a != 0) & (b != 0)
    pa, pb = _pieces(a[both]), _pieces(b[both])
    return math.fsum(np.concatenate([x * y for x in pa for y in pb]).tolist())


def _align(src: np.ndarray, tgt: np.ndarray, offset: int = 0) -> float:
    cos = np.array([[exact_cos(a, b) for b in tgt] for a in src])
    cost = 1.0 - np.maximum(cos, 0.0)
    rows, cols = linear_sum_assignment(cost)
    return float(np.mean(cols[np.argsort(rows)] == np.arange(src.shape[0]) + offset))


def order_alignment(sequences: list[np.ndarray], labels: list[str]) -> dict[str, float]:
    """``acc_mean`` and ``distractor_acc_mean``: every same-label pair i < j
    (itertools.combinations), Hungarian on ``1 - max(cos, 0)``, distractor variants
    replacing j's last/first item by i's and dropping it from i. Cosines: their float64
    arithmetic with the one CPU-dependent step made exact (the protocol's rule, issue
    33): float64 unit vectors (:func:`units`), each dot product correctly rounded
    (:func:`exact_cos`; their BLAS products differ from it in the last bit, which picks
    among near-tied optima differently on different CPUs)."""
    emb = units(np.array(sequences, dtype=float))
    by_label: dict[str, list[int]] = {}
    for idx, label in enumerate(labels):
        by_label.setdefault(label, []).append(idx)
    plain, distractor = [], []
    for idxs in by_label.values():
        for i, j in itertools.combinations(idxs, 2):
            ei, ej = emb[i], emb[j]
            plain.append(_align(ei, ej))
            last = ej.copy()
            last[-1] = ei[-1]
            distractor.append(_align(ei[:-1], last))
            first = ej.copy()
            first[0] = ei[0]
            distractor.append(_align(ei[1:], first, offset=1))
    return {"acc_mean": float(np.mean(plain)), "distractor_acc_mean": float(np.mean(distractor))}


def all_to_all_auc(vectors: np.ndarray, labels: list[str], literal_float32: bool = False) -> float:
    """Their all-to-all task: cosine of every pair i < j (upper triangle), same label =
    positive, ``roc_auc_score``. Their cosines are scikit-learn's on the float32 vectors,
    whose last bits depend on the CPU's BLAS; by default the reference takes the gridded
    cosines rounded once to float32 (the protocol's CPU-independent rule);
    ``literal_float32`` runs their arithmetic as is."""
    if literal_float32:
        scores = cosine_similarity(vectors.astype(np.float32), vectors.astype(np.float32))
    else:
        units = grid_units(vectors)
        scores = grid_cos(units, units).astype(np.float32)
    y = np.array(labels)
    same = y.reshape(-1, 1) == y.reshape(1, -1)
    upper = np.triu_indices(scores.shape[0], k=1)
    return float(roc_auc_score(same[upper], scores[upper]))


def predefined_auc(
    left: np.ndarray, right: np.ndarray, labels: list[int], literal_float32: bool = False
) -> float:
    """Their predefined-pairs task: the cosine of each pair, ``roc_auc_score`` (gridded
    cosines rounded to float32 unless ``literal_float32``, see all_to_all_auc)."""
    if literal_float32:
        scores = [
            np.float32(
                cosine_similarity(
                    a.reshape(1, -1).astype(np.float32), b.reshape(1, -1).astype(np.float32)
                )[0][0]
            )
            for a, b in zip(left, right, strict=True)
        ]
    else:
        lu, ru = grid_units(left), grid_units(right)
        scores = [np.float32(grid_cos(a[None], b[None])[0, 0]) for a, b in zip(lu, ru, strict=True)]
    return float(roc_auc_score(np.array(labels), np.array(scores)))


def clustering(vectors: np.ndarray, labels: list[str], seed: int = 42) -> float:
    """Their ``MiniBatchKMeans(k, random_state=seed, batch_size=32, n_init="auto")`` under
    their scikit-learn 1.7.1: that algorithm as :mod:`evaluators.metric_math.kmeans`
    reproduces it (checked against 1.7.1's own outputs, stored as fixtures, in
    ``test_parity_round2.py``; the locked version draws its batches differently)."""
    from evaluators.metric_math.kmeans import minibatch_kmeans_171

    fit = minibatch_kmeans_171(np.asarray(vectors), len(set(labels)), random_state=seed)
    return float(v_measure_score(labels, fit.labels))


def retrieval(
    queries: np.ndarray,
    targets: np.ndarray,
    query_labels: list[str],
    target_labels: list[str],
    literal: bool = False,
) -> dict[str, float]:
    """Their retrieval task: keep labels on both sides, cosine distances, argsort, the
    mean of 1/rank (and rank) over every match, recall@K = share of matches within K.
    Distances: float32 ``1 - cos`` of the gridded cosines, ranked by a stable argsort
    (exact ties in target order); ``literal``: their ``pairwise_distances`` on the
    vectors as given and ``np.argsort``'s default sort, both CPU-dependent."""
    q_lab, t_lab = np.array(query_labels), np.array(target_labels)
    common = np.intersect1d(q_lab, t_lab)
    keep_q, keep_t = np.isin(q_lab, common), np.isin(t_lab, common)
    q_lab, t_lab = q_lab[keep_q], t_lab[keep_t]
    if literal:
        dist = pairwise_distances(l2(queries)[keep_q], l2(targets)[keep_t], metric="cosine")
    else:
        cos = grid_cos(grid_units(queries[keep_q]), grid_units(targets[keep_t]))
        dist = (1.0 - cos).astype(np.float32)
    ks = [1, 8, 16, 32, 64, 128]
    mrr = rank = 0.0
    recall = dict.fromkeys(ks, 0.0)
    for i in range(len(q_lab)):
        order = np.argsort(dist[i]) if literal else np.argsort(dist[i], kind="stable")
        ranks = np.where(q_lab[i] == t_lab[order])[0] + 1
        mrr += math.fsum((1.0 / ranks).tolist()) / ranks.size  # fsum: no SIMD-order bits
        rank += math.fsum(ranks.tolist()) / ranks.size
        for k in ks:
            within = np.where(ranks <= k)[0]
            if within.size:
                recall[k] += within.size / ranks.size
    n = len(q_lab)
    return {"mrr": mrr / n, "mean_rank": rank / n} | {f"recall@{k}": recall[k] / n for k in ks}


def function_word_vectors(texts: list[str], vocabulary_json: Path) -> np.ndarray:
    """Their function-word baseline: CountVectorizer over the lower-cased list (words,
    then phrases, duplicates dropped), token pattern ``\\b\\w+\\b``, n-grams up to the
    longest phrase, counts divided by the token count."""
    data = json.loads(vocabulary_json.read_text(encoding="utf-8"))
    items: list[str] = []
    for entry in [*data["words"], *data["phrases"]]:
        if entry.lower() not in items:
            items.append(entry.lower())
    longest = max(len(p.split()) for p in data["phrases"])
    vectorizer = CountVectorizer(
        analyzer="word",
        lowercase=True,
        token_pattern=r"(?u)\b\w+\b",
        ngram_range=(1, longest),
        vocabulary={t: i for i, t in enumerate(items)},
    )
    counts = vectorizer.transform(texts).toarray().astype(np.float32)
    lengths = np.array(
        [max(1, len(re.findall(r"(?u)\b\w+\b", t.lower()))) for t in texts], dtype=np.float32
    )
    return counts / lengths[:, None]


def style_change_pairs(folder: Path, balance: bool, seed: int = 42) -> list[tuple[str, int, int]]:
    """(document, boundary index, 1 = same author) of every trial their PAN style-change
    loader emits: non-blank lines, documents with a mismatched truth skipped, and with
    ``balance`` (PAN26) same-author pairs sampled at the global rate by one seeded RNG
    over the documents in sorted-glob order."""
    docs = []
    for path in sorted(folder.glob("problem-*.txt"), key=str):
        doc = path.name[len("problem-") : -len(".txt")]
        truth = json.loads((folder / f"truth-problem-{doc}.json").read_text())
        lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        changes = truth.get("changes", [])
        if len(lines) < 2 or len(changes) != len(lines) - 1:
            continue
        docs.append(
            (
                doc,
                [i for i, c in enumerate(changes) if c == 0],
                [i for i, c in enumerate(changes) if c == 1],
            )
        )
    n_same = sum(len(s) for _, s, _ in docs)
    n_diff = sum(len(d) for _, _, d in docs)
    rng = random.Random(seed)
    rate = n_diff / n_same if balance else 1.0
    out = []
    for doc, same, diff in docs:
        if balance:
            keep = min(len(same), round(rate * len(same)))
            same = rng.sample(same, keep) if keep > 0 else []
        out += [(doc, i, 1) for i in same] + [(doc, i, 0) for i in diff]
    return out
