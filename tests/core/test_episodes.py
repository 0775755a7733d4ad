"""Episodes, the per-class count and per-label sub-metrics, against computations by hand
(numpy means, scikit-learn, scipy loops) and as properties (hypothesis)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment
from sklearn.metrics import roc_auc_score, v_measure_score

from dataset_scripts.core.errors import DataError
from evaluators.metric_math.kmeans import minibatch_kmeans_171
from evaluators.run.runner import Runner, TaskSpec
from evaluators.tasks import Sampling, get_evaluator
from evaluators.tasks.episodes import form_episodes, parse_per_class, pool_mean
from tests.core.helpers import write_folder

from .helpers import lookup, random_lookup, table


def _labelled(sizes: dict[str, int], dim: int = 6, seed: int = 0, interleave: bool = True):
    """A labelled_texts table with ``sizes[label]`` texts per label (rows interleaved
    across labels when ``interleave``) and a lookup of random, label-shifted vectors."""
    rng = np.random.default_rng(seed)
    items = [(label, i) for label, n in sizes.items() for i in range(n)]
    if interleave:
        items.sort(key=lambda item: (item[1], item[0]))
    rows, vectors = [], {}
    centres = {label: rng.normal(scale=2.0, size=dim) for label in sizes}
    for label, i in items:
        text = f"{label} text {i}"
        rows.append({"id": text, "text": text, "label": label})
        vectors[text] = centres[label] + rng.normal(size=dim)
    return table("labelled_texts", rows), lookup(vectors)


def _by_hand(rows, vectors_of, size: int, n_per_class: int | None):
    """The authors' rule written out: per label (first-appearance order) its texts in row
    order, the first size x n kept (labels with fewer dropped), chunks of ``size``
    averaged with numpy."""
    per_label: dict[str, list[str]] = {}
    for row in rows:
        per_label.setdefault(row["label"], []).append(row["text"])
    labels, pooled = [], []
    for label, texts in per_label.items():
        n = n_per_class if n_per_class is not None else len(texts) // size
        if len(texts) < size * n or n == 0:
            continue
        for k in range(n):
            chunk = texts[k * size : (k + 1) * size]
            labels.append(label)
            pooled.append(np.mean(vectors_of(chunk), axis=0))
    return labels, np.array(pooled)


# ------------------------------------------------------------------ formation rules


@settings(max_examples=150, deadline=None)
@given(
    labels=st.lists(st.sampled_from("abcde"), min_size=1, max_size=80),
    size=st.integers(1, 5),
    per_class=st.one_of(st.none(), st.integers(1, 6)),
)
def test_form_episodes_follows_the_loader_rule(labels, size, per_class) -> None:
    sampling = Sampling(size, per_class)
    need = size * (per_class or 1)
    if all(labels.count(label) < need for label in set(labels)):
        with pytest.raises(DataError, match="no class has"):
            form_episodes(labels, sampling)
        return
    episodes = form_episodes(labels, sampling)
    seen: dict[str, list[int]] = {}
    for label, members in zip(episodes.labels, episodes.members, strict=True):
        assert len(members) == size
        assert {labels[i] for i in members} == {label}
        seen.setdefault(label, []).extend(members.tolist())
    for label in dict.fromkeys(labels):
        idx = [i for i, x in enumerate(labels) if x == label]
        if len(idx) < need:
            assert label not in seen
            assert episodes.record["dropped_classes"][label] == len(idx)
        else:
            n = per_class if per_class is not None else len(idx) // size
            assert seen[label] == idx[: n * size]  # the first units, in row order
    # classes appear in first-appearance order, each class's episodes together
    order = list(dict.fromkeys(episodes.labels))
    assert order == [x for x in dict.fromkeys(labels) if x in seen]
    assert episodes.labels == sorted(episodes.labels, key=order.index)
    assert episodes.record["n_units_unused"] == len(labels) - episodes.used.size


@settings(max_examples=100, deadline=None)
@given(counts=st.lists(st.integers(1, 600), min_size=1, max_size=6), size=st.integers(1, 8))
def test_auto_per_class_is_the_authors_clamp(counts, size) -> None:
    labels = [f"c{i}" for i, n in enumerate(counts) for _ in range(n)]
    expected = max(25, min(min(counts) // size, 200))  # DatasetLoader._resolve_auto_episodes
    if all(n < size * expected for n in counts):
        with pytest.raises(DataError):
            form_episodes(labels, Sampling(size, "auto"))
        return
    episodes = form_episodes(labels, Sampling(size, "auto"))
    assert episodes.record["episodes_per_class"] == expected
    kept = [f"c{i}" for i, n in enumerate(counts) if n >= size * expected]
    assert sorted(set(episodes.labels)) == sorted(kept)
    assert len(episodes) == expected * len(kept)


def test_episode_size_all_pools_every_unit_of_a_class() -> None:
    episodes = form_episodes(list("abab" + "c"), Sampling(-1))
    assert episodes.labels == ["a", "b", "c"]
    assert [m.tolist() for m in episodes.members] == [[0, 2], [1, 3], [4]]
    assert episodes.record["dropped_classes"] == {}


@pytest.mark.parametrize(
    ("size", "per_class", "message"),
    [
        (0, None, "episode size must be >= 1 or -1"),
        (-2, None, "episode size must be >= 1 or -1"),
        (2.5, None, "episode size must be an integer"),
        (2, "lots", "per-class count must be a positive integer or 'auto'"),
        (2, 0, "per-class count must be >= 1"),
        (2, True, "per-class count must be a positive integer"),
        (-1, 5, "episode size -1 pools every text"),
    ],
)
def test_bad_sampling_is_a_clear_error(size, per_class, message) -> None:
    with pytest.raises(DataError, match=message):
        Sampling(size, per_class)


def test_per_class_from_cli_text() -> None:
    assert parse_per_class("25") == 25
    assert parse_per_class("auto") == "auto"
    assert parse_per_class(None) is None


def test_pool_mean_is_numpy_mean_in_the_vectors_dtype() -> None:
    rng = np.random.default_rng(1)
    vectors = rng.normal(size=(9, 5)).astype(np.float32)
    members = [np.array([0, 3, 4]), np.array([1, 2, 8])]
    pooled = pool_mean(vectors, members)
    assert pooled.dtype == np.float32
    for row, m in zip(pooled, members, strict=True):
        np.testing.assert_array_equal(row, vectors[m].mean(axis=0))
    uneven = pool_mean(vectors, [np.array([0]), np.array([1, 2])], dtype=np.float64)
    np.testing.assert_allclose(uneven[1], vectors[[1, 2]].astype(np.float64).mean(axis=0))


# ------------------------------------------------------------------ tasks with episodes


def test_defaults_leave_every_task_unchanged() -> None:
    data, embed = _labelled({"a": 12, "b": 9, "c": 15})
    for task in ("clustering", "all_to_all_pairs"):
        plain = get_evaluator(task).evaluate(data, embed)
        same = get_evaluator(task, sampling=Sampling(1, None)).evaluate(data, embed)
        assert same.metrics == plain.metrics
        assert same.counts == plain.counts
        assert plain.details["sampling"] == {"episode_size": None, "per_class": None}


def test_clustering_on_episodes_matches_sklearn_by_hand() -> None:
    data, embed = _labelled({"a": 30, "b": 26, "c": 41})
    result = get_evaluator("clustering", sampling=Sampling(4, 6)).evaluate(data, embed)
    labels, pooled = _by_hand(data.rows, embed, 4, 6)
    assert len(labels) == 18 == result.counts["n_episodes"]
    assigned = minibatch_kmeans_171(pooled.astype(np.float32), 3)  # STEB's k-means (1.7.1)
    expected = v_measure_score(labels, assigned.labels)
    assert result.metrics["v_measure"] == pytest.approx(expected, abs=1e-12)
    record = result.details["sampling"]
    assert record["episodes_per_class"] == 6 and record["units_per_class"] == 24
    assert record["n_units_unused"] == 97 - 72
    assert result.counts["n_texts"] == 72


def test_all_to_all_on_episodes_and_per_label_match_sklearn() -> None:
    data, embed = _labelled({"a": 20, "b": 14, "c": 25}, seed=3)
    result = get_evaluator("all_to_all_pairs", sampling=Sampling(3, None)).evaluate(data, embed)
    labels, pooled = _by_hand(data.rows, embed, 3, None)
    unit = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
    pairs = list(itertools.combinations(range(len(labels)), 2))
    scores = np.array([float(np.float32(unit[i] @ unit[j])) for i, j in pairs])
    same = np.array([labels[i] == labels[j] for i, j in pairs])
    assert result.metrics["auc"] == pytest.approx(roc_auc_score(same, scores), abs=1e-6)
    assert result.counts["n_pairs"] == len(pairs)
    # per label: pairs touching L, positive = both L, negative = exactly one L
    for label in ("a", "b", "c"):
        touch = [k for k, (i, j) in enumerate(pairs) if label in (labels[i], labels[j])]
        positive = [labels[pairs[k][0]] == labels[pairs[k][1]] == label for k in touch]
        expected = roc_auc_score(positive, scores[touch])
        got = result.details["per_label"][label]
        assert got["auc"] == pytest.approx(expected, abs=1e-6)
        assert got["n_pairs"] == len(touch) and got["n_positive_pairs"] == sum(positive)


def test_per_label_skips_a_label_without_positive_pairs() -> None:
    data, embed = _labelled({"a": 6, "b": 1, "c": 5})
    per_label = get_evaluator("all_to_all_pairs").evaluate(data, embed).details["per_label"]
    assert set(per_label) == {"a", "c"}


def test_per_class_without_episodes_equals_the_capped_table() -> None:
    data, embed = _labelled({"a": 30, "b": 12, "c": 40}, seed=5)
    result = get_evaluator("all_to_all_pairs", sampling=Sampling(None, 25)).evaluate(data, embed)
    kept: dict[str, int] = {}
    rows = []
    for row in data.rows:
        if row["label"] != "b" and kept.get(row["label"], 0) < 25:
            kept[row["label"]] = kept.get(row["label"], 0) + 1
            rows.append(row)
    capped = get_evaluator("all_to_all_pairs").evaluate(table("labelled_texts", rows), embed)
    assert result.metrics["auc"] == pytest.approx(capped.metrics["auc"], abs=1e-12)
    assert result.details["sampling"]["dropped_classes"] == {"b": 12}


def _sequences(n_groups: int = 2, per_group: int = 7, positions: int = 4, seed: int = 0):
    rng = np.random.default_rng(seed)
    rows, vectors = [], {}
    for g in range(n_groups):
        for s in range(per_group):
            texts = [f"g{g} s{s} p{p}" for p in range(positions)]
            rows.append(
                {
                    "id": f"g{g}-{s}",
                    "group": f"g{g}",
                    "texts": texts,
                    "styles": [str(p) for p in range(positions)],
                }
            )
            for p, text in enumerate(texts):
                vectors[text] = np.eye(8)[p] * 2 + rng.normal(scale=1.2, size=8)
    return table("style_sequences", rows), lookup(vectors)


def _align(src: np.ndarray, tgt: np.ndarray, offset: int = 0) -> float:
    src = src / np.linalg.norm(src, axis=1, keepdims=True)
    tgt = tgt / np.linalg.norm(tgt, axis=1, keepdims=True)
    rows, cols = linear_sum_assignment(1.0 - np.maximum(src @ tgt.T, 0.0))
    return float(np.mean(cols[np.argsort(rows)] == np.arange(len(src)) + offset))


def test_order_alignment_on_episodes_matches_a_loop_by_hand() -> None:
    data, embed = _sequences()
    result = get_evaluator("order_alignment", sampling=Sampling(2, 3)).evaluate(data, embed)
    plain, distractor = [], []
    for g in ("g0", "g1"):
        seqs = [r["texts"] for r in data.rows if r["group"] == g][:6]
        episodes = [
            np.stack([np.mean(embed([s[p] for s in seqs[k : k + 2]]), axis=0) for p in range(4)])
            for k in (0, 2, 4)
        ]
        for a, b in itertools.combinations(episodes, 2):
            plain.append(_align(a, b))
            last, first = b.copy(), b.copy()
            last[-1], first[0] = a[-1], a[0]
            distractor.append((_align(a[:-1], last) + _align(a[1:], first, 1)) / 2)
    assert result.counts["n_pairs"] == 6 and result.counts["n_episodes"] == 6
    assert result.metrics["accuracy"] == pytest.approx(np.mean(plain), abs=1e-12)
    assert result.metrics["distractor_accuracy"] == pytest.approx(np.mean(distractor), abs=1e-12)
    assert set(result.details["per_group"]) == {"g0", "g1"}


def _retrieval(seed: int = 0):
    rng = np.random.default_rng(seed)
    rows, vectors = [], {}
    for a in range(6):
        centre = rng.normal(size=5)
        for role in ("query", "target"):
            for r in range(2 if role == "query" else 1):
                texts = [f"a{a} {role}{r} d{d}" for d in range(1 + (a + r) % 3)]
                rows.append(
                    {"id": f"{a}-{role}-{r}", "author": f"a{a}", "role": role, "texts": texts}
                )
                for t in texts:
                    vectors[t] = centre + rng.normal(scale=1.5, size=5)
    rows.append({"id": "lonely", "author": "z", "role": "target", "texts": ["z doc"]})
    vectors["z doc"] = rng.normal(size=5)
    return table("retrieval", rows), lookup(vectors)


def test_retrieval_episode_size_all_pools_each_author_side() -> None:
    data, embed = _retrieval()
    result = get_evaluator("retrieval", sampling=Sampling(-1)).evaluate(data, embed)
    sides: dict[tuple[str, str], list[str]] = {}
    for row in data.rows:
        sides.setdefault((row["role"], row["author"]), []).extend(row["texts"])
    authors = [f"a{a}" for a in range(6)]
    q = np.stack([embed(sides[("query", a)]).astype(np.float64).mean(axis=0) for a in authors])
    t = np.stack([embed(sides[("target", a)]).astype(np.float64).mean(axis=0) for a in authors])
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    t /= np.linalg.norm(t, axis=1, keepdims=True)
    dist = (1 - q @ t.T).astype(np.float32)
    ranks = [int(np.where(np.argsort(dist[i]) == i)[0][0]) + 1 for i in range(6)]
    assert result.counts["n_queries"] == 6 and result.counts["n_targets"] == 6
    assert result.counts["n_targets_without_query"] == 1  # author z
    assert result.metrics["mrr"] == pytest.approx(np.mean([1 / r for r in ranks]), abs=1e-12)
    # the default is the authors' -1 (issue 33); episode size 1 keeps each row (12 queries)
    default = get_evaluator("retrieval").evaluate(data, embed)
    assert default.counts["n_queries"] == 6 and default.metrics == result.metrics
    assert default.details["sampling"]["episode_size"] == -1
    assert "episode_size_default" in default.details["sampling"]
    as_built = get_evaluator("retrieval", sampling=Sampling(1)).evaluate(data, embed)
    assert as_built.counts["n_queries"] == 12


def test_unsupported_sampling_names_the_task() -> None:
    with pytest.raises(DataError, match="only supported for retrieval"):
        get_evaluator("clustering", sampling=Sampling(-1))
    with pytest.raises(DataError, match="predefined_pairs: episodes and per-class counts"):
        get_evaluator("predefined_pairs", sampling=Sampling(2))


def test_label_subset_submetrics_equal_the_subset_table() -> None:
    data, embed = _labelled({"a": 10, "b": 10, "c": 10, "d": 10}, seed=2)
    subsets = {"ab": ["a", "b"], "cdx": ["c", "d", "x"], "one": ["a"]}
    result = get_evaluator("all_to_all_pairs", submetrics=subsets).evaluate(data, embed)
    subs = result.details["submetrics"]
    rows = [r for r in data.rows if r["label"] in ("a", "b")]
    direct = get_evaluator("all_to_all_pairs").evaluate(table("labelled_texts", rows), embed)
    assert subs["ab"]["metrics"]["auc"] == direct.metrics["auc"]
    assert subs["cdx"]["missing_classes"] == ["x"]
    assert "error" in subs["one"]  # one class: no negative pair


class _Counting:
    """A deterministic encoder that counts what it is asked to encode."""

    name = "counting"

    def __init__(self) -> None:
        self.seen: list[str] = []

    def encode(self, texts: list[str]) -> np.ndarray:
        self.seen.extend(texts)
        return np.stack(
            [np.frombuffer(t.encode().ljust(16, b"_")[:16], np.uint8) for t in texts]
        ).astype(np.float32)


def test_runner_embeds_each_unique_text_once_with_episodes(tmp_path) -> None:

    data, _ = _labelled({"a": 30, "b": 30}, interleave=False)
    folder = write_folder(
        {"labelled_texts": {"test": data.rows}}, tmp_path / "ds", "local/episodes"
    )
    encoder = _Counting()
    runner = Runner(
        encoder, "counting", out_dir=tmp_path / "out", progress=False, sampling=Sampling(5, 4)
    )
    specs = [TaskSpec(str(folder), t, "labelled_texts") for t in ("clustering", "all_to_all_pairs")]
    records = runner.run(specs)
    assert len(encoder.seen) == len(set(encoder.seen)) == 40  # 2 labels x 4 episodes x 5
    for record in records:
        assert record.details["sampling"]["episodes_per_class"] == 4
    # resume reuses results of the same sampling only
    again = Runner(
        encoder, "counting", out_dir=tmp_path / "out", progress=False, sampling=Sampling(5, 4)
    )
    resumed = again.run(specs, resume=True)
    assert len(resumed) == len(specs) and all(r.resumed for r in resumed)
    other = Runner(
        encoder, "counting", out_dir=tmp_path / "out", progress=False, sampling=Sampling(5, 2)
    )
    assert not any(r.resumed for r in other.run(specs, resume=True))
    with pytest.raises(DataError, match="apply to none of the tasks"):
        Runner(encoder, "c", progress=False, sampling=Sampling(-1)).run(specs)


def test_runner_withholds_sampling_from_tasks_without_it() -> None:
    runner = Runner(_Counting(), "c", progress=False, sampling=Sampling(2))
    assert runner.evaluator("predefined_pairs").sampling.is_default
    assert "do not apply" in runner.evaluator("predefined_pairs").not_applied
    assert runner.evaluator("clustering").sampling.episode_size == 2


def test_episode_counts_on_random_vectors() -> None:
    data, _ = _labelled({"a": 8, "b": 8})
    embed = random_lookup([r["text"] for r in data.rows])
    result = get_evaluator("clustering", sampling=Sampling(2, 3)).evaluate(data, embed)
    assert result.counts == {"n_texts": 12, "n_episodes": 6, "n_labels": 2}


class _EpisodeReader:
    """An encoder that reads episodes itself (as LUAR): one vector per episode from the
    episode's texts jointly (here: a seeded vector per sorted text tuple, scaled by its
    size), recording every episode it is asked for."""

    name = "episode-reader"
    episode_pooling = "model"

    def __init__(self) -> None:
        self.episodes: list[tuple[str, ...]] = []
        self.texts: list[str] = []

    def _vector(self, episode: tuple[str, ...]) -> np.ndarray:
        seed = sum(ord(c) for t in episode for c in t) + 7 * len(episode)
        return np.random.default_rng(seed).normal(size=6).astype(np.float32)

    def encode(self, texts: list[str]) -> np.ndarray:
        self.texts.extend(texts)
        return np.stack([self._vector((t,)) for t in texts])

    def encode_episodes(self, episodes):
        self.episodes.extend(tuple(e) for e in episodes)
        return np.stack([self._vector(tuple(e)) for e in episodes])


def test_an_encoder_that_reads_episodes_gets_each_episode_once(tmp_path) -> None:
    from evaluators.tasks import EmbeddingLookup

    data, _ = _labelled({"a": 12, "b": 12, "c": 9})
    folder = write_folder(
        {"labelled_texts": {"test": data.rows}}, tmp_path / "d", "local/episodes2"
    )
    encoder = _EpisodeReader()
    runner = Runner(
        encoder, "reader", cache_dir=tmp_path / "cache", progress=False, sampling=Sampling(3, 3)
    )
    specs = [TaskSpec(str(folder), t, "labelled_texts") for t in ("clustering", "all_to_all_pairs")]
    records = {r.task: r for r in runner.run(specs)}
    assert encoder.texts == []  # no per-text vectors: the episodes are the inputs
    assert len(encoder.episodes) == len(set(encoder.episodes)) == 9  # 3 labels x 3, once
    # by hand: the episodes the authors' rule forms, each encoded as a whole
    groups = get_evaluator("clustering", sampling=Sampling(3, 3)).episode_groups(data)
    direct = EmbeddingLookup([], np.zeros((0, 6), np.float32))
    direct.add_episodes(groups, np.stack([encoder._vector(g) for g in groups]))
    for task, result in records.items():
        expected = get_evaluator(task, sampling=Sampling(3, 3)).evaluate(data, direct)
        assert result.metrics == expected.metrics
    # a second run reads every episode from the cache
    again = _EpisodeReader()
    Runner(
        again, "reader", cache_dir=tmp_path / "cache", progress=False, sampling=Sampling(3, 3)
    ).run(specs)
    assert again.episodes == [] and again.texts == []


def test_stylebench_run_takes_episodes_and_submetrics(tmp_path) -> None:
    import json

    from click.testing import CliRunner

    from evaluators.cli import cli

    data, _ = _labelled({"a": 12, "b": 12, "c": 7})
    folder = write_folder(
        {"labelled_texts": {"test": data.rows}}, tmp_path / "d", "local/episodes3"
    )
    args = ["run", "--model", "function-words", "--dataset", str(folder), "--no-cache"]
    args += ["--out", str(tmp_path / "out"), "--no-progress", "--tasks", "all_to_all_pairs"]
    result = CliRunner().invoke(
        cli, [*args, "--episode-size", "2", "--per-class", "5", "--submetric", "ab=a,b"]
    )
    assert result.exit_code == 0, result.output
    (path,) = (tmp_path / "out").rglob("all_to_all_pairs.json")
    details = json.loads(path.read_text())["details"]
    assert details["sampling"]["episodes_per_class"] == 5
    assert details["sampling"]["dropped_classes"] == {"c": 7}
    assert details["submetrics"]["ab"]["classes"] == ["a", "b"]
    assert set(details["per_label"]) == {"a", "b"}
    bad = CliRunner().invoke(cli, [*args, "--per-class", "many"])
    assert bad.exit_code != 0 and "per-class count must be" in str(bad.exception)
