"""Authorship / AI-detection builders on hand-made fixtures in the published raw formats
(``fixtures/``, or written into ``tmp_path`` where a format needs many records): the
pair-construction, labelling, subsampling and counting rules, checked by hand."""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import pytest

from dataset_scripts.core.errors import DataError
from dataset_scripts.registry import all_datasets, get_dataset
from dataset_scripts.steb import ai_detection, pan_av, pan_style_change, retrieval_sets
from dataset_scripts.steb.catalog import CLUSTERING, PREDEFINED, RETRIEVAL

# the authorship / AI-detection declarations: the 58 of the 96, and the multilingual sets
_MODULES = (pan_av, pan_style_change, retrieval_sets, ai_detection)
DATASETS = [s for m in _MODULES for s in m.DATASETS if s.steb and s.steb.in_steb_96]
MULTILINGUAL = [s for m in _MODULES for s in m.DATASETS if s.steb and not s.steb.in_steb_96]

FIXTURES = Path(__file__).parent / "fixtures"


def _build(hub_id: str, raw: Path) -> tuple[list[dict], dict[str, int]]:
    tables, dropped = get_dataset(hub_id).builder(raw)
    ((_config, splits),) = tables.items()
    return splits["test"], dropped


# ------------------------------------------------------------------ catalogue -------


def test_catalogue_matches_table15() -> None:
    names = [d.hub_id.removeprefix("steb/") for d in DATASETS]
    assert len(names) == len(set(names)) == 58
    by_task = Counter(t for d in DATASETS for t in d.task_types)
    assert by_task == {PREDEFINED: 25, RETRIEVAL: 4, CLUSTERING: 29}
    counts = {d.hub_id.removeprefix("steb/"): d.steb.table15 for d in DATASETS}
    assert counts["pan23_style_change_medium"][PREDEFINED].classes == 7013
    assert counts["pan26_style_change_easy"][PREDEFINED].total == 142_216
    assert counts["amazon"][RETRIEVAL].total == 97_787
    assert counts["machine_text_detection_MAGE_xsum"][CLUSTERING].per_class == 86
    assert counts["machine_text_detection_PAN25_26_news"][CLUSTERING].total == 826
    # Every counted total is classes x per-class where Table 15 says so (pairs, ATD).
    for entry in DATASETS:
        for task, count in entry.steb.table15.items():
            if task != RETRIEVAL:
                assert count.classes * count.per_class == count.total, entry.hub_id


def test_every_entry_has_a_builder_and_multilingual_sets_carry_language() -> None:
    datasets = all_datasets()
    for entry in (*DATASETS, *MULTILINGUAL):
        spec = datasets[entry.hub_id]
        assert spec.builder is not None and spec.protocol, entry.hub_id
    languages = Counter(datasets[e.hub_id].language[0] for e in MULTILINGUAL)
    assert languages == {"nl": 5, "el": 4, "es": 5, "fr": 1, "it": 1, "pl": 1}
    dutch = datasets["steb/pan15_authorship_verification_dutch_test"]
    assert dutch.task_types == (PREDEFINED,)
    assert dutch.steb.in_steb_96 is False and not dutch.steb.table15
    assert datasets["steb/pan18_cross_domain_authorship_attribution_polish"].task_types == (
        RETRIEVAL,
    )
    assert datasets["stylebench/ccat50_retrieval"].steb is None  # not a STEB dataset
    assert "NOT one of STEB's 96" in datasets["stylebench/ccat50_retrieval"].protocol


# --------------------------------------------------------------- style change -------


def test_consecutive_pairs_rule() -> None:
    problem = pan_style_change.Problem("problem-1", ("p1", "p2", "p3", "p4"), (0, 1, 0))
    pairs = pan_style_change.consecutive_pairs(problem)
    assert [(r["text1"], r["text2"], r["label"]) for r in pairs] == [
        ("p1", "p2", 1),
        ("p2", "p3", 0),
        ("p3", "p4", 1),
    ]
    assert [r["id"] for r in pairs] == ["problem-1-0", "problem-1-1", "problem-1-2"]


def test_pan23_easy_from_published_layout() -> None:
    rows, dropped = _build("steb/pan23_style_change_easy", FIXTURES / "pan23")
    assert [(r["id"], r["label"]) for r in rows] == [
        ("problem-1-0", 1),
        ("problem-1-1", 0),
        ("problem-1-2", 1),
        ("problem-2-0", 0),
        ("problem-2-1", 0),
    ]
    assert rows[1]["text1"] == "Alpha paragraph two, still the first author here."
    assert rows[1]["text2"].startswith("Beta paragraph three")
    assert dropped == {
        "documents of split folder 'pan23-multi-author-analysis-dataset1/"
        "pan23-multi-author-analysis-dataset1-train' (not used)": 1,
        pan_style_change.MISMATCH: 1,
    }
    medium, _ = _build("steb/pan23_style_change_medium", FIXTURES / "pan23")
    assert [(r["text1"], r["label"]) for r in medium] == [("Medium one.", 1), ("Medium two.", 0)]
    with pytest.raises(DataError, match="no folder for level 'hard'"):
        _build("steb/pan23_style_change_hard", FIXTURES / "pan23")


def test_pan18_one_trial_per_document_as_steb(tmp_path: Path) -> None:
    """STEB's PAN18 rule: a changed document is (text before the first position, the
    segment up to the next position or the end), label 0; an unchanged one is split
    just after the whitespace nearest its midpoint, label 1; sides are not stripped."""
    import shutil

    for n in (1, 2):
        for suffix in ("txt", "truth"):
            shutil.copy(FIXTURES / "pan18" / f"problem-{n}.{suffix}", tmp_path)
    rows, dropped = _build("steb/pan18_style_change", tmp_path)
    first = (FIXTURES / "pan18" / "problem-1.txt").read_text(encoding="utf-8")
    second = (FIXTURES / "pan18" / "problem-2.txt").read_text(encoding="utf-8")
    assert [(r["id"], r["label"]) for r in rows] == [("problem-1", 0), ("problem-2", 1)]
    assert (rows[0]["text1"], rows[0]["text2"]) == (first[:53], first[53:])
    assert rows[1]["text1"] + rows[1]["text2"] == second
    split = len(rows[1]["text1"])
    assert second[split - 1].isspace() and abs(split - 1 - len(second) // 2) == min(
        abs(i - len(second) // 2) for i, c in enumerate(second) if c.isspace()
    )
    assert dropped == {}
    assert pan_style_change.midpoint_split("abcdef") == 3  # no whitespace: the midpoint
    assert pan_style_change.midpoint_split("ab cd ef") == 6  # nearest space: index 5
    assert pan_style_change.midpoint_split("ab c de") == 3  # spaces at 2 and 4 tie: left
    # a truth with changes but no positions (the fixture's problem-3) is an error
    with pytest.raises(DataError, match=r"problem-3\.truth: 'changes' is true but 'positions'"):
        _build("steb/pan18_style_change", FIXTURES / "pan18")
    (tmp_path / "problem-1.truth").write_text('{"changes": true, "positions": [9999]}')
    with pytest.raises(DataError, match="'positions' must be character offsets inside"):
        _build("steb/pan18_style_change", tmp_path)


def _write_problem(folder: Path, n: int, units: list[str], changes: list[int]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"problem-{n}.txt").write_text("\n".join(units), encoding="utf-8")
    (folder / f"truth-problem-{n}.json").write_text(
        json.dumps({"authors": 1 + sum(changes), "changes": changes}), encoding="utf-8"
    )


def test_pan26_downsampling_keeps_every_change(tmp_path: Path) -> None:
    """STEB's loader rule (issue 19): every change kept; each document keeps
    min(n_same, round(rate * n_same)) same-author pairs, rate = #different / #same of the
    split, drawn by ONE random.Random(42) walking the documents in file-name order."""
    import random

    folder = tmp_path / "easy" / "train"
    changes = [0, 0, 1, 0, 0, 0, 1, 0, 0, 0]
    _write_problem(folder, 1, [f"sentence {i}." for i in range(11)], changes)
    _write_problem(folder, 2, [f"other {i}." for i in range(4)], [0, 0, 0])  # no change
    rows, dropped = _build("steb/pan26_style_change_easy", tmp_path)
    assert {r["id"] for r in rows if r["label"] == 0} == {"problem-1-2", "problem-1-6"}
    rate = 2 / 11  # 2 different-author pairs, 8 + 3 same-author pairs
    keep = [round(rate * 8), round(rate * 3)]  # 1 and 1
    assert Counter(r["label"] for r in rows) == {0: 2, 1: sum(keep)}
    assert dropped == {"same-author pairs removed by PAN26 down-sampling (global rate)": 11 - 2}
    rng = random.Random(42)
    first = rng.sample([i for i, c in enumerate(changes) if c == 0], keep[0])
    second = rng.sample([0, 1, 2], keep[1])
    assert [r["id"] for r in rows if r["label"] == 1] == [
        *(f"problem-1-{i}" for i in sorted(first)),
        *(f"problem-2-{i}" for i in sorted(second)),
    ]
    again, _ = _build("steb/pan26_style_change_easy", tmp_path)
    assert again == rows


def test_bad_truth_is_a_one_line_error(tmp_path: Path) -> None:
    _write_problem(tmp_path, 1, ["a", "b"], [0])
    (tmp_path / "truth-problem-1.json").write_text('{"changes": [0, 2]}', encoding="utf-8")
    with pytest.raises(DataError, match=r"truth-problem-1.json: field 'changes' must be"):
        _build("steb/pan24_style_change_easy", tmp_path)


# ----------------------------------------------------------- verification (AV) ------


def test_pan15_problem_folders() -> None:
    rows, dropped = _build("steb/pan15_authorship_verification_english_test", FIXTURES / "pan15")
    assert [(r["id"], r["label"]) for r in rows] == [("EN001", 1), ("EN002", 0)]
    assert rows[0]["text1"] == "The known essay number one.\n\nThe known essay number two."
    assert rows[0]["text2"] == "The questioned essay."
    assert dropped == {
        "problem of another language/genre (prefix not in ['EN'])": 1,
        "problem without a truth.txt entry": 1,
    }
    greek, _ = _build("steb/pan15_authorship_verification_greek_test", FIXTURES / "pan15")
    assert [(r["id"], r["label"], r["text2"]) for r in greek] == [
        ("GR001", 1, "Ένα άγνωστο κείμενο.")
    ]


def _write_pan20(folder: Path, n_same: int, n_diff: int) -> None:
    folder.mkdir(parents=True)
    with (
        (folder / "pairs.jsonl").open("w", encoding="utf-8") as pairs,
        (folder / "truth.jsonl").open("w", encoding="utf-8") as truth,
    ):
        for i in range(n_same + n_diff):
            same = i % 2 == 0 if i < 2 * min(n_same, n_diff) else n_same > n_diff
            pairs.write(
                json.dumps({"id": f"id{i}", "fandoms": ["A", "B"], "pair": [f"t{i}a", f"t{i}b"]})
                + "\n"
            )
            truth.write(json.dumps({"id": f"id{i}", "same": same, "authors": ["x", "y"]}) + "\n")


def test_pan20_balanced_subsample(tmp_path: Path) -> None:
    _write_pan20(tmp_path / "pan20-authorship-verification-test", 300, 400)
    rows, dropped = _build("steb/pan20_authorship_verification_test", tmp_path)
    assert Counter(r["label"] for r in rows) == {1: 250, 0: 250}
    assert dropped == {"pairs outside the seeded balanced 500-pair subsample": 200}
    order = [int(r["id"][2:]) for r in rows]
    assert order == sorted(order)  # file order
    assert all(r["text1"] == f"t{r['id'][2:]}a" for r in rows)
    again, _ = _build("steb/pan20_authorship_verification_test", tmp_path)
    assert again == rows
    with pytest.raises(DataError, match="need 250"):
        pan_av.balanced_subsample({"a": 1, "b": 0}, 250, 42, Counter())


# ------------------------------------------------------------------ retrieval -------


def test_pan18_aa_queries_and_targets() -> None:
    rows, dropped = _build(
        "steb/pan18_cross_domain_authorship_attribution_english", FIXTURES / "pan18_aa"
    )
    targets = [r for r in rows if r["role"] == "target"]
    queries = [r for r in rows if r["role"] == "query"]
    assert [r["author"] for r in targets] == [
        "problem00001/candidate00001",
        "problem00001/candidate00002",
    ]
    assert targets[0]["texts"] == [
        "en candidate00001 first known fanfic.\n\nen candidate00001 second known fanfic."
    ]
    assert [(r["id"], r["author"]) for r in queries] == [
        ("problem00001/unknown00001", "problem00001/candidate00002"),
        ("problem00001/unknown00002", "problem00001/candidate00001"),
    ]
    assert dropped == {
        "problems in other languages than english": 1,
        "unknown texts by none of the candidates (<UNK>)": 1,
    }
    french, _ = _build(
        "steb/pan18_cross_domain_authorship_attribution_french", FIXTURES / "pan18_aa"
    )
    assert all(r["author"].startswith("problem00002/") for r in french) and len(french) == 4


def test_luar_split(tmp_path: Path) -> None:
    rows, dropped = _build("steb/amazon", FIXTURES / "luar")
    assert [(r["role"], r["author"], r["texts"]) for r in rows] == [
        ("query", "a1", ["a1 query one", "a1 query two"]),
        ("query", "a2", ["a2 query"]),
        ("target", "a1", ["a1 target"]),
        ("target", "a2", ["a2 target one", "a2 target two"]),
    ]
    assert dropped == {
        "authors with a query but no target (or the reverse)": 1,
        "empty documents": 1,
    }
    # seeded 500-author subsample of a larger split, identical on rebuild
    for name in ("queries", "targets"):
        with (tmp_path / f"test_{name}.jsonl").open("w", encoding="utf-8") as handle:
            for a in range(520):
                handle.write(json.dumps({"author_id": a, "syms": [f"{name} {a}"]}) + "\n")
    dropped2: Counter[str] = Counter()
    big = retrieval_sets.luar_rows(tmp_path, dropped2)
    assert len({r["author"] for r in big}) == 500 and len(big) == 1000
    assert dropped2["authors outside the seeded 500-author subsample"] == 20
    assert retrieval_sets.luar_rows(tmp_path, Counter()) == big


# -------------------------------------------------------------- AI detection --------


def test_m4_skips_bloomz_and_dedups_humans(tmp_path: Path) -> None:
    for generator in ("chatGPT", "bloomz", "cohere"):
        with (tmp_path / f"arxiv_{generator}.jsonl").open("w", encoding="utf-8") as handle:
            for i in range(30):
                record = {
                    "prompt": "p",
                    "human_text": f"human abstract {i}",
                    "machine_text": f"{generator} abstract {i}",
                    "model": generator,
                    "source": "arxiv",
                    "source_ID": i,
                }
                handle.write(json.dumps(record) + "\n")
    (tmp_path / "germanwikipedia_chatGPT.jsonl").write_text("", encoding="utf-8")
    rows, dropped = _build("steb/machine_text_detection_M4_arxiv", tmp_path)
    assert Counter(r["label"] for r in rows) == {"human": 30, "chatGPT": 30, "cohere": 30}
    assert dropped == {"bloomz records (skipped as in STEB)": 30, "duplicate human texts": 30}


def test_mage_collapses_generation_methods(tmp_path: Path) -> None:
    assert ai_detection.mage_label("sci_gen_machine_topical_gpt-j", "sci_gen") == "gpt-j"
    assert ai_detection.mage_label("sci_gen_human", "sci_gen") == "human"
    assert ai_detection.mage_label("cmv_human", "sci_gen") is None
    with (tmp_path / "test.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["text", "label", "src"])
        for i in range(26):
            writer.writerow([f"human {i}", 1, "cmv_human"])
            writer.writerow([f"cont {i}", 0, "cmv_machine_continuation_opt_1.3b"])
            writer.writerow([f"spec {i}", 0, "cmv_machine_specified_opt_1.3b"])
            writer.writerow([f"few {i}", 0, "cmv_machine_topical_t0_3b"])  # 26 < 52: capped
            writer.writerow([f"other {i}", 1, "eli5_human"])
    rows, dropped = _build("steb/machine_text_detection_MAGE_cmv", tmp_path)
    assert Counter(r["label"] for r in rows) == {"human": 26, "opt_1.3b": 26, "t0_3b": 26}
    assert dropped == {
        "records of other MAGE domains": 26,
        "class 'opt_1.3b' capped at 26 rows (STEB per-class cap)": 26,
    }


def test_pan24_and_pan25_jsonl(tmp_path: Path) -> None:
    pan24 = tmp_path / "pan24" / "machines"
    pan24.mkdir(parents=True)
    for stem in ("../human", "gpt-4", "llama-2"):
        with (pan24 / f"{stem}.jsonl").open("w", encoding="utf-8") as handle:
            for i in range(25 if stem != "llama-2" else 10):
                handle.write(json.dumps({"id": f"{stem}/{i}", "text": f"{stem} news {i}"}) + "\n")
    rows, dropped = _build("steb/machine_text_detection_PAN24_news", tmp_path / "pan24")
    assert Counter(r["label"] for r in rows) == {"human": 25, "gpt-4": 25}
    assert dropped == {"class 'llama-2' has 10 < 25 rows (class dropped)": 10}

    pan25 = tmp_path / "pan25"
    pan25.mkdir()
    with (
        (pan25 / "val.jsonl").open("w", encoding="utf-8") as data,
        (pan25 / "val-truth.jsonl").open("w", encoding="utf-8") as truth,
    ):
        for i, (genre, model) in enumerate(
            [("essays", "human"), ("essays", "gpt-4o"), ("news", "human")] * 25
        ):
            data.write(json.dumps({"id": str(i), "text": f"{genre} {model} {i}"}) + "\n")
            truth.write(json.dumps({"id": str(i), "model": model, "genre": genre}) + "\n")
    rows, dropped = _build("steb/machine_text_detection_PAN25_26_essays", pan25)
    assert Counter(r["label"] for r in rows) == {"human": 25, "gpt-4o": 25}
    assert dropped == {"records of other genres": 25}


def test_detectrl_labels(tmp_path: Path) -> None:
    records = [{"text": f"h{i}", "label": "human", "llm_type": "ChatGPT"} for i in range(25)]
    records += [{"text": f"m{i}", "label": "llm", "llm_type": "Claude-instant"} for i in range(25)]
    records += [{"text": "m0", "label": "llm", "llm_type": "Claude-instant"}]
    folder = tmp_path / "Benchmark" / "Tasks" / "Task1"
    folder.mkdir(parents=True)
    for stem in ("multi_domains_arxiv_test", "paraphrase_attacks_llm_test"):
        (folder / f"{stem}.json").write_text(json.dumps(records), encoding="utf-8")
    rows, dropped = _build("steb/machine_text_detection_DetectRL_arxiv", tmp_path)
    assert Counter(r["label"] for r in rows) == {"human": 25, "Claude-instant": 25}
    assert dropped == {"duplicate Claude-instant texts": 1}
    rows, _ = _build("steb/machine_text_detection_DetectRL_paraphrase_attacks", tmp_path)
    assert Counter(r["label"] for r in rows) == {"human": 25, "machine": 25}
    records[0]["label"] = "robot"
    (folder / "multi_domains_arxiv_test.json").write_text(json.dumps(records), encoding="utf-8")
    with pytest.raises(DataError, match=r"record 0: column 'label' is 'robot'"):
        _build("steb/machine_text_detection_DetectRL_arxiv", tmp_path)


def test_pan23_headline_folder_loads_with_datasets(tmp_path: Path) -> None:
    """The product's headline dataset: build the Hub folder, load it with
    ``datasets.load_dataset`` and read the protocol in its card."""
    from datasets import load_dataset

    from dataset_scripts.build import build_dataset

    spec = get_dataset("steb/pan23_style_change_easy")
    folder, _ = build_dataset(spec, FIXTURES / "pan23", tmp_path / "pan23_style_change_easy")
    # a config of steb/pan23_style_change. datasets caches a local folder's split sizes by
    # the folder's name, and the real-corpora tests build a folder of the same name: read
    # afresh and skip that stale size check (as evaluators.data.load_table does)
    ds = load_dataset(
        str(folder),
        "easy",
        split="test",
        download_mode="force_redownload",
        verification_mode="no_checks",
    )
    assert ds.column_names == ["id", "text1", "text2", "label"]
    assert ds["label"] == [1, 0, 1, 0, 0]
    card = (folder / "README.md").read_text(encoding="utf-8")
    assert "changes `[0, 1, 0]` gives (p1, p2) same, (p2, p3) different" in card
    assert "`pan23-multi-author-analysis-dataset1` (easy)" in card
    assert "| `easy` predefined_pairs | 2,826 | 2 | 5,652 | 10 |" in card


def test_pan25_collaborative_labels(tmp_path: Path) -> None:
    categories = ["fully human-written", "human-initiated, machine-continued"]
    with (tmp_path / "dev.jsonl").open("w", encoding="utf-8") as handle:
        for i in range(52):
            record = {"id": str(i), "text": f"text {i}", "label": i % 2}
            if i < 50:  # label_text wins where present, else the raw label value
                record["label_text"] = categories[i % 2]
            handle.write(json.dumps(record) + "\n")
    rows, dropped = _build("steb/machine_text_detection_PAN25_collaborative", tmp_path)
    assert Counter(r["label"] for r in rows) == {categories[0]: 25, categories[1]: 25}
    assert dropped == {
        "class '0' has 1 < 25 rows (class dropped)": 1,
        "class '1' has 1 < 25 rows (class dropped)": 1,
    }


# ------------------------------------------- strict reading of PAN problem files ---


def _pan_folder(tmp_path: Path, truth: dict, text: bytes) -> Path:
    folder = tmp_path / "pan23-multi-author-analysis-dataset1-validation"
    folder.mkdir()
    (folder / "problem-7.txt").write_bytes(text)
    (folder / "truth-problem-7.json").write_text(json.dumps(truth), encoding="utf-8")
    return folder


def test_pan_invalid_utf8_names_file_and_line(tmp_path: Path) -> None:
    _pan_folder(tmp_path, {"authors": 2, "changes": [1, 0]}, b"one\ntw\xffo\nthree")
    with pytest.raises(
        DataError, match=r"problem-7\.txt line 2, column 3: not UTF-8 text \(byte 0xff"
    ):
        _build("steb/pan23_style_change_easy", tmp_path)


@pytest.mark.parametrize(
    ("truth", "message"),
    [
        (
            {"authors": 2, "changes": [1, 0], "paragraph-authors": [1, 2, 1]},
            r"'changes'\[1\] = 0 contradicts 'paragraph-authors' \(2 -> 1\)",
        ),
        (
            {"authors": 2, "changes": [1, 0], "paragraph-authors": [1, 2]},
            "'paragraph-authors' names 2 units but 'changes' has 2 flags",
        ),
        (
            {"authors": 1, "changes": [0, 1]},
            "'authors' is 1 but 'changes' flags a change at boundary 1",
        ),
        (
            {"authors": 1, "changes": [1, 0], "paragraph-authors": [1, 2, 2]},
            "'authors' is 1 but",
        ),
        (
            {"authors": 2, "changes": [1, 1], "paragraph-authors": [1, 2, 3]},
            "'authors' = 2 but 'paragraph-authors' has 3 distinct authors",
        ),
    ],
)
def test_pan_truth_that_contradicts_itself_is_an_error(
    tmp_path: Path, truth: dict, message: str
) -> None:
    _pan_folder(tmp_path, truth, b"one\ntwo\nthree")
    with pytest.raises(DataError, match=r"truth-problem-7\.json: " + message):
        _build("steb/pan23_style_change_easy", tmp_path)


def test_pan_consistent_paragraph_authors_build(tmp_path: Path) -> None:
    truth = {"authors": 2, "changes": [1, 0], "paragraph-authors": [1, 2, 2]}
    _pan_folder(tmp_path, truth, b"one\r\ntwo\r\nthree")  # CRLF line ends are line ends
    rows, dropped = _build("steb/pan23_style_change_easy", tmp_path)
    assert [(r["text1"], r["text2"], r["label"]) for r in rows] == [
        ("one", "two", 0),
        ("two", "three", 1),
    ]
    assert dropped == {}


def test_pan_carriage_return_inside_a_paragraph_is_skipped_as_steb_does(tmp_path: Path) -> None:
    """STEB's loader reads with universal newlines: a lone CR splits a paragraph, so the
    document no longer fits its truth and is skipped (PAN24 hard problem-475)."""
    _pan_folder(tmp_path, {"authors": 2, "changes": [1, 0]}, b"one\ntwo\rstill two\nthree")
    with pytest.raises(DataError, match="no pairs could be built"):
        _build("steb/pan23_style_change_easy", tmp_path)
    assert pan_style_change.split_units("one\ntwo\rstill two\nthree") == (
        "one",
        "two",
        "still two",
        "three",
    )
    dropped: Counter[str] = Counter()
    folder = tmp_path / "pan23-multi-author-analysis-dataset1-validation"
    assert pan_style_change.read_problems(folder, dropped) == []
    assert dropped == {pan_style_change.LONE_CR: 1}
