"""Leak-proof detector splits (issue #30): duplicated rows cannot inflate a held-out AUROC,
texts under both labels are excluded, near-duplicates (shared 13-word sequences) are
reported, and the output says how many of each it found."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evaluators.cli import main
from evaluators.detect.data import load_detection_set
from evaluators.detect.leaks import near_duplicate_clusters, near_duplicate_report, normalise_text
from evaluators.detect.run import run_detection
from evaluators.detect.split import train_test_index
from tests.byod.conftest import detection_rows


def _auroc(path: Path, tmp_path: Path, capsys, *extra: str) -> tuple[float, str, dict]:
    out = tmp_path / f"run-{path.stem}-{'-'.join(extra) or 'default'}"
    main(
        ["detect", "run", "--data", str(path), "--detector", "tfidf", "--resamples", "20",
         "--out", str(out), "--no-progress", *extra]
    )  # fmt: skip
    printed = " ".join(capsys.readouterr().out.split())
    result = json.loads((out / "detection.json").read_text())
    return result["results"][0]["auroc"], printed, result


def _write(rows: list[dict], path: Path) -> Path:
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def test_doubled_rows_give_the_clean_auroc_and_are_stated(tmp_path: Path, capsys) -> None:
    rows = detection_rows(150, 150, seed=11)
    clean = _write(rows, tmp_path / "clean.csv")
    # every row twice, once more with other spacing (normalisation must see through it);
    # the first copy is kept, so the deduplicated set is the clean one in its order
    spaced = [{**r, "text": "  " + r["text"].replace(" ", "\u00a0 ")} for r in rows]
    doubled = _write(spaced + rows, tmp_path / "x2.csv")
    auc_clean, _, _ = _auroc(clean, tmp_path, capsys)
    auc_doubled, printed, result = _auroc(doubled, tmp_path, capsys)
    assert abs(auc_doubled - auc_clean) <= 0.01
    assert result["data"]["leaks"]["exact_duplicate_rows"] == 300
    assert "dropped 300: exact duplicates" in printed
    assert "leak check: 300 exact duplicate rows" in printed
    # kept on one side of the split instead of dropped: the same number within 0.01
    auc_together, printed, result = _auroc(doubled, tmp_path, capsys, "--duplicates", "together")
    assert abs(auc_together - auc_clean) <= 0.01
    assert result["split"]["n_test"] == 300  # 150 held-out texts, each with its copy


def test_random_labels_stay_near_chance_with_duplicates(tmp_path: Path, capsys) -> None:
    rows = detection_rows(150, 150, seed=5)
    rng = random.Random(1)
    labels = ["human"] * 150 + ["machine"] * 150
    rng.shuffle(labels)
    shuffled = [{**r, "label": y} for r, y in zip(rows, labels, strict=True)]
    doubled = _write(shuffled + shuffled, tmp_path / "random_x2.csv")
    for policy in ("drop", "together"):
        auc, _, _result = _auroc(doubled, tmp_path, capsys, "--duplicates", policy)
        # 150 held-out texts per class: chance AUROC has a standard deviation of about 0.033
        assert abs(auc - 0.5) < 0.12, (policy, auc)
        if policy == "together":  # no held-out text has a copy in training
            data = load_detection_set(doubled, duplicates="together")
            train, test = train_test_index(data, 0.5, 42)
            trained = {normalise_text(data.texts[i]) for i in train}
            assert not any(normalise_text(data.texts[i]) in trained for i in test)


def test_conflicting_labels_are_excluded_and_counted(tmp_path: Path) -> None:
    rows = detection_rows(20, 20)
    rows += [{**rows[0], "label": "machine"}, {**rows[25], "label": "human"}, rows[25]]
    path = _write(rows, tmp_path / "conflicts.csv")
    data = load_detection_set(path)
    assert len(data) == 38  # the two texts under both labels: every copy excluded
    assert data.leaks["conflicting_label_texts"] == 2
    assert data.leaks["conflicting_label_rows"] == 5
    assert data.dropped["rows whose text occurs under both labels (conflicting labels)"] == 5
    kept = load_detection_set(path, conflicts="keep", duplicates="together")
    assert len(kept) == 43
    train, test = train_test_index(kept, 0.5, 42)
    sides = {}
    for i in train + test:
        sides.setdefault(normalise_text(kept.texts[i]), set()).add(i in train)
    assert all(len(s) == 1 for s in sides.values())  # every copy on one side


def _brute_force_near_duplicates(texts: list[str], n: int) -> list[set[int]]:
    """Connected components of "shares an n-word sequence" by comparing every pair."""

    def grams(t: str) -> set[tuple[str, ...]]:
        words = " ".join(t.split()).lower().split()
        return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}

    g = [grams(t) for t in texts]
    parent = list(range(len(texts)))

    def find(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, j in itertools.combinations(range(len(texts)), 2):
        if g[i] & g[j]:
            parent[find(j)] = find(i)
    groups: dict[int, set[int]] = {}
    for i in range(len(texts)):
        groups.setdefault(find(i), set()).add(i)
    return sorted(groups.values(), key=min)


def test_near_duplicates_equal_a_pairwise_check() -> None:
    rng = random.Random(4)
    vocab = [f"w{i}" for i in range(40)]
    texts = [" ".join(rng.choice(vocab) for _ in range(rng.randint(8, 40))) for _ in range(60)]
    base = texts[0].split() + ["extra"] * 13
    texts[1] = " ".join(["lead", "in", *base[:13], "tail"])  # shares exactly 13 words
    texts[2] = " ".join(base[:12] + ["x"] * 20)  # 12 shared words: not a near-duplicate
    texts[3] = texts[1].upper()  # case is ignored for near-duplicates
    clusters = near_duplicate_clusters(texts, 13)
    ours: dict[int, set[int]] = {}
    for i, c in enumerate(clusters):
        ours.setdefault(c, set()).add(i)
    assert sorted(ours.values(), key=min) == _brute_force_near_duplicates(texts, 13)
    assert clusters[1] == clusters[3] and clusters[2] != clusters[1]
    report = near_duplicate_report(texts, train=[1], test=[3, 2])
    assert report["held_out_near_duplicates_of_training"] == 1


def test_run_reports_near_duplicates_across_the_split(tmp_path: Path) -> None:
    rows = detection_rows(40, 40)
    long_tail = " ".join(f"shared{i}" for i in range(13))
    for r in rows[:6]:
        r["text"] = r["text"] + " " + long_tail  # six human texts share a 13-word sequence
    data = load_detection_set(_write(rows, tmp_path / "near.csv"))
    run = run_detection(data, ["tfidf"], None, n_resamples=10, progress=False, log=str)
    leaks = run.meta["data"]["leaks"]
    assert leaks["near_duplicate_rows"] == 6 and leaks["near_duplicate_clusters"] == 1
    train, _test = train_test_index(data, 0.5, 42)
    in_train = sum(1 for i in train if i < 6)
    assert leaks["held_out_near_duplicates_of_training"] == (6 - in_train if in_train else 0)
    assert np.isfinite(run.records[0]["auroc"])


@pytest.mark.parametrize("bad", ["sometimes", "none"])
def test_unknown_policies_are_refused(tmp_path: Path, bad: str) -> None:
    from dataset_scripts.core.errors import StylebenchError

    path = _write(detection_rows(5, 5), tmp_path / "p.csv")
    with pytest.raises(StylebenchError, match="duplicates must be one of"):
        load_detection_set(path, duplicates=bad)


def test_split_by_and_kept_copies_join_one_group(tmp_path: Path) -> None:
    rows = detection_rows(30, 30)
    for i, r in enumerate(rows):
        r["pair"] = f"p{i % 20}"
    rows.append({**rows[3], "pair": "p-extra"})  # a copy of row 3 under another pair
    data = load_detection_set(_write(rows, tmp_path / "pairs.csv"), split_by="pair",
                              duplicates="together")  # fmt: skip
    train, test = train_test_index(data, 0.5, seed=1)
    side = {i: i in train for i in train + test}
    for i, j in itertools.combinations(range(len(data)), 2):
        same_text = normalise_text(data.texts[i]) == normalise_text(data.texts[j])
        if same_text or data.split_keys[i] == data.split_keys[j]:
            assert side[i] == side[j]


def test_large_sets_compare_a_fixed_sixteenth_of_the_ngrams(monkeypatch) -> None:
    from evaluators.detect import leaks

    rng = random.Random(9)
    vocab = [f"v{i}" for i in range(500)]
    texts = [" ".join(rng.choice(vocab) for _ in range(80)) for _ in range(30)]
    shared = " ".join(rng.choice(vocab) for _ in range(200))  # 188 shared 13-grams
    texts[5] += " " + shared
    texts[17] = shared + " " + texts[17]
    exact = near_duplicate_report(texts)
    monkeypatch.setattr(leaks, "EXACT_WORDS", 100)
    sampled = near_duplicate_report(texts)
    assert sampled["near_duplicate_ngrams_kept_one_in"] == 16
    assert exact["near_duplicate_ngrams_kept_one_in"] == 1
    assert exact["near_duplicate_rows"] == sampled["near_duplicate_rows"] == 2
    assert near_duplicate_clusters(texts) == near_duplicate_clusters(texts)  # fixed choice
