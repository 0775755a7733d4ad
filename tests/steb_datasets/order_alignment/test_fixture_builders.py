"""Order-alignment builders on small self-written fixtures in each source's raw format:
hand-checked rows and drop counts, malformed records (file + line in the message) and
missing files (expected path + download URL in the message)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from dataset_scripts.build import build_dataset
from dataset_scripts.core.errors import DataError
from dataset_scripts.registry import get_dataset
from dataset_scripts.steb import (
    aave_sae,
    asset,
    graded_formality,
    onestop,
    shakespeare,
    styleptb,
    synthstel,
)
from evaluators.data import load_table

FIXTURES = Path(__file__).parent / "fixtures"


def _copy(name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copytree(FIXTURES / name, target)
    return target


# --- StylePTB ---------------------------------------------------------------------------


def test_styleptb_rows_and_drops() -> None:
    rows, dropped = styleptb.build_rows(FIXTURES / "styleptb")
    assert [r["id"] for r in rows] == ["TFU-train-1", "TFU-train-2", "TFU-test-1"]
    assert rows[0]["texts"] == [
        "the company will say it expects a profit",  # after the transfer first
        "the company says it expects a profit",
    ]
    assert rows[0]["group"] == "to_future"
    assert rows[0]["styles"] == ["future tense", "source tense"]
    assert rows[2]["texts"][1] == "the fund has n't paid a dividend"  # not detokenised
    assert dropped == {
        "TFU pair whose transfer left the sentence unchanged": 1,
        "NAR pairs: noun antonym replacement changes meaning (removed by STEB)": 2,
    }


def test_styleptb_kept_and_removed_transfers_partition_the_21() -> None:
    codes = set(styleptb.KEPT_TRANSFERS) | set(styleptb.REMOVED_TRANSFERS)
    assert len(styleptb.KEPT_TRANSFERS) == 15 and len(styleptb.REMOVED_TRANSFERS) == 6
    assert len(codes) == 21


def test_styleptb_malformed_line(tmp_path: Path) -> None:
    raw = _copy("styleptb", tmp_path)
    path = raw / "datasets" / "TFU" / "valid.jsonl"
    path.write_text('{"src": "a b c", "trg": "a b d"}\n{"src": "x y", "target": "x z"}\n')
    with pytest.raises(DataError, match=r"TFU/valid\.jsonl line 2: field 'trg'"):
        styleptb.build_rows(raw)
    path.write_text('{"src": "a b c", "trg": "a b d"\n')
    with pytest.raises(DataError, match=r"valid\.jsonl line 1: not valid JSON"):
        styleptb.build_rows(raw)


def test_styleptb_missing_files(tmp_path: Path) -> None:
    raw = _copy("styleptb", tmp_path)
    (raw / "datasets" / "TFU" / "test.jsonl").unlink()
    with pytest.raises(FileNotFoundError, match=r"TFU/test\.jsonl.*github\.com/lvyiwei1/StylePTB"):
        styleptb.build_rows(raw)
    with pytest.raises(FileNotFoundError, match=r"TFU/train\.jsonl.*github\.com/lvyiwei1"):
        styleptb.build_rows(tmp_path / "empty")


# --- Shakespeare ------------------------------------------------------------------------


def test_shakespeare_rows_and_drops() -> None:
    rows, dropped = shakespeare.build_rows(FIXTURES / "shakespeare")
    assert [(r["id"], r["texts"]) for r in rows] == [
        ("aplay-1", ["Wherefore art thou here?", "Why are you here?"]),
        ("zplay-1", ["Thou art a villain.", "You are a villain."]),
        ("zplay-2", ["Good morrow.", "Good morning."]),
    ]
    assert dropped == {
        "original and modern line identical (no style difference)": 1,
        "eNotes alignments (plays2/): STEB uses the 17 SparkNotes plays only": 2,
    }


def test_shakespeare_misaligned_and_missing(tmp_path: Path) -> None:
    raw = _copy("shakespeare", tmp_path)
    plays = raw / "data" / "align" / "plays" / "merged"
    (plays / "zplay_modern.snt.aligned").write_text("You are a villain.\n")
    with pytest.raises(DataError, match=r"zplay_original\.snt\.aligned has 3 lines.*has 1"):
        shakespeare.build_rows(raw)
    (plays / "zplay_modern.snt.aligned").unlink()
    with pytest.raises(FileNotFoundError, match=r"zplay_modern\.snt\.aligned.*cocoxu/Shakespeare"):
        shakespeare.build_rows(raw)
    (plays / "aplay_original.snt.aligned").write_bytes(b"ok\n\xff\xfe bad\n")
    with pytest.raises(DataError, match=r"aplay_original\.snt\.aligned line 2: not UTF-8"):
        shakespeare.read_lines(plays / "aplay_original.snt.aligned")
    with pytest.raises(FileNotFoundError, match=r"plays/merged.*cocoxu/Shakespeare"):
        shakespeare.build_rows(tmp_path / "nothing")


# --- OneStopEnglish ---------------------------------------------------------------------


def test_onestop_triples_and_drops() -> None:
    rows, dropped = onestop.build_rows(FIXTURES / "onestop")
    assert len(rows) == 1
    assert rows[0]["texts"] == [
        "The municipal council has unanimously endorsed an ambitious scheme to pedestrianise "
        "the historic centre.",
        "The city council has agreed to a big plan to close the old centre to cars.",
        "The city wants to stop cars in the old centre.",
    ]
    assert rows[0]["styles"] == ["advanced", "intermediate", "elementary"]
    assert rows[0]["id"] == "adv-int-line-1"
    assert dropped == {
        "ADV-INT pair whose intermediate sentence has no ELE-INT alignment": 1,
        "ADV-INT + ELE-INT triple not confirmed by ADV-ELE": 1,
        "duplicate triple": 1,
        "triple with the same sentence at two levels": 1,
    }


def test_onestop_malformed_block_and_missing_file(tmp_path: Path) -> None:
    raw = _copy("onestop", tmp_path)
    path = raw / "Sentence-Aligned" / "ELE-INT.txt"
    lines = path.read_text().splitlines()
    lines[5] = "------"  # second separator replaced
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError, match=r"ELE-INT\.txt line 6: expected the separator"):
        onestop.build_rows(raw)
    path.write_text("\n".join(lines[:4]) + "\n")
    with pytest.raises(DataError, match=r"ELE-INT\.txt line 4: file ends inside a block"):
        onestop.build_rows(raw)
    path.unlink()
    with pytest.raises(FileNotFoundError, match=r"ELE-INT\.txt.*OneStopEnglishCorpus"):
        onestop.build_rows(raw)


# --- ASSET ------------------------------------------------------------------------------


def test_asset_draws_one_simplification_per_sentence() -> None:
    rows, dropped = asset.build_rows(FIXTURES / "asset")
    draws = random.Random(42)
    expected = []
    for split, n in (("valid", 3), ("test", 1)):
        for line in range(1, n + 1):
            k = draws.randrange(10)
            if not (split == "valid" and line == 2):  # the Paris line equals its original
                expected.append(
                    (f"{split}-{line}-simp{k}", f"Simple version {k} of sentence {line}.")
                )
    assert [(r["id"], r["texts"][0]) for r in rows] == expected
    assert rows[0]["texts"][1].startswith("The committee, which convened in 1998")
    assert rows[-1]["texts"][1].startswith("Photosynthesis")
    assert dropped == {"drawn simplification identical to the original": 1}


def test_asset_misaligned_and_missing(tmp_path: Path) -> None:
    raw = _copy("asset", tmp_path)
    (raw / "dataset" / "asset.test.simp.7").write_text("one\ntwo\n")
    with pytest.raises(
        DataError, match=r"asset\.test\.simp\.7 has 2 lines but .*asset\.test\.orig has 1"
    ):
        asset.build_rows(raw)
    (raw / "dataset" / "asset.test.simp.7").unlink()
    with pytest.raises(FileNotFoundError, match=r"asset\.test\.simp\.7.*facebookresearch/asset"):
        asset.build_rows(raw)
    with pytest.raises(FileNotFoundError, match=r"asset\.valid\.orig.*facebookresearch/asset"):
        asset.build_rows(tmp_path / "none")


# --- AAVE/SAE ---------------------------------------------------------------------------


def test_aave_rows_and_drops() -> None:
    rows, dropped = aave_sae.build_rows(FIXTURES / "aave")
    assert [(r["id"], r["texts"]) for r in rows] == [
        ("line-1", ["he finna go to the store", "He is about to go to the store"]),
        ("line-2", ["she been knew that", "She has known that for a long time"]),
    ]
    assert dropped == {
        "aligned line with an empty side": 1,
        "AAVE and SAE line identical (no style difference)": 1,
    }


def test_aave_misaligned_and_missing(tmp_path: Path) -> None:
    raw = _copy("aave", tmp_path)
    (raw / "sae_samples.txt").write_text("only one line\n")
    with pytest.raises(
        DataError, match=r"aave_samples\.txt has 4 lines but .*sae_samples\.txt has 1"
    ):
        aave_sae.build_rows(raw)
    (raw / "aave_samples.txt").unlink()
    with pytest.raises(FileNotFoundError, match=r"aave_samples\.txt.*2020\.emnlp-main\.473"):
        aave_sae.build_rows(raw)


# --- graded formality -------------------------------------------------------------------


def test_graded_formality_rows_and_drops() -> None:
    rows, dropped = graded_formality.build_rows(FIXTURES / "graded_formality")
    assert [r["id"] for r in rows] == ["tweet_eval-t1", "sms_spam-s1"]
    assert rows[0]["texts"][0] == "You are consistently late to every engagement."  # level 5
    assert rows[0]["texts"][-1] == "lol ur always so late 2 everything"  # level 1
    assert rows[1]["group"] == "sms_spam"
    assert rows[1]["styles"] == [f"formality level {k}" for k in (5, 4, 3, 2, 1)]
    assert dropped == {"sms_spam utterance with the same text at two levels": 1}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("t9,reddit,a,b,c,d,e", r"line 3: column 'source' is 'reddit'"),
        ("t9,tweet_eval,a,b,c", r"line 3: expected 7 fields"),
        ("t1,tweet_eval,a,b,c,d,e", r"line 3: column 'id' is empty or repeats 't1'"),
    ],
)
def test_graded_formality_malformed(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "graded_formality.csv"
    header, first = (
        (FIXTURES / "graded_formality" / "graded_formality.csv").read_text().splitlines()[:2]
    )
    path.write_text(f"{header}\n{first}\n{line}\n")
    with pytest.raises(DataError, match=message):
        graded_formality.build_rows(tmp_path)


def test_graded_formality_missing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"graded_formality\.csv.*cardiffnlp/tweet_eval"):
        graded_formality.build_rows(tmp_path)


def _graded_csv(path: Path, per_source: dict[str, int]) -> None:
    lines = ["id,source,level_1,level_2,level_3,level_4,level_5"]
    for source, n in per_source.items():
        for i in range(n):
            levels = ",".join(f"{source} utterance {i} at level {k}" for k in range(1, 6))
            lines.append(f"{source[0]}{i},{source},{levels}")
    path.write_text("\n".join(lines) + "\n")


def test_graded_formality_full_build_caps_to_smallest_source(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    raw.mkdir()
    _graded_csv(raw / "graded_formality.csv", {"tweet_eval": 30, "sms_spam": 27})
    # a folder name no other test loads: datasets keys cached split sizes by folder name
    out = tmp_path / "graded_formality_fixture"
    folder, dropped = build_dataset(get_dataset("steb/graded_formality"), raw, out)
    table = load_table(str(folder), "style_sequences")
    groups = [r["group"] for r in table.rows]
    assert groups.count("tweet_eval") == 27 and groups.count("sms_spam") == 27
    assert all(len(r["texts"]) == 5 for r in table.rows)
    assert dropped == {"source 'tweet_eval' capped at 27 rows (STEB per-class cap)": 3}


# --- SynthSTEL --------------------------------------------------------------------------


def _synthstel_release(
    raw: Path, per_feature: int = 26, blank: tuple[str, int] | None = None
) -> list[str]:
    """Write a SynthSTEL snapshot (Hub layout, both Parquet files) with 40 features:
    the 8 register names and 32 others; 90% of each feature's rows in train."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    names = list(synthstel.REGISTER_FEATURES) + [f"Feature {i:02d}" for i in range(32)]
    split_rows: dict[str, list[dict[str, str]]] = {"train": [], "test": []}
    for name in names:
        for i in range(per_feature):
            split = "test" if i >= per_feature - 3 else "train"
            split_rows[split].append(
                {
                    "positive": f"{name} sentence {i} WITH the feature",
                    "negative": f"{name} sentence {i} without the feature",
                    "feature": f"Write the sentence using {name.lower()}.",
                    "feature_clean": name,
                }
            )
    if blank is not None:
        split_rows["train"][blank[1]][blank[0]] = "  "
    (raw / "data").mkdir(parents=True, exist_ok=True)
    for split, rows in split_rows.items():
        pq.write_table(pa.Table.from_pylist(rows), raw / "data" / f"{split}-00000-of-00001.parquet")
    return names


def test_synthstel_register_and_feature_configs(tmp_path: Path) -> None:
    names = _synthstel_release(tmp_path)
    register_rows, register_dropped = synthstel.build_register(tmp_path)
    feature_rows, feature_dropped = synthstel.build_feature(tmp_path)
    registers = register_rows["style_sequences"]["test"]
    features = feature_rows["style_sequences"]["test"]
    # 26 pairs per feature -> STEB's cap clamp(26, 25, 200) = 26: all kept
    assert len(registers) == 8 * 26 and len(features) == 32 * 26
    assert {r["group"] for r in registers} == set(names[:8])
    assert {r["group"] for r in features} == set(names[8:])
    first = registers[0]
    assert first["id"] == "train-0"
    assert first["texts"] == [
        "Formal Tone sentence 0 WITH the feature",
        "Formal Tone sentence 0 without the feature",
    ]
    assert first["styles"] == ["Formal Tone", "without Formal Tone"]
    # train rows come before test rows of the same feature
    formal = [r["id"] for r in registers if r["group"] == "Formal Tone"]
    assert formal[:23] == [f"train-{i}" for i in range(23)] and formal[23:] == [
        "test-0",
        "test-1",
        "test-2",
    ]
    assert register_dropped == {
        "linguistic-feature pairs (belong to the other SynthSTEL config)": 32 * 26
    }
    assert feature_dropped == {"register pairs (belong to the other SynthSTEL config)": 8 * 26}


def test_synthstel_register_build_loads(tmp_path: Path) -> None:
    _synthstel_release(tmp_path / "raw")
    spec = get_dataset("steb/SynthSTEL_register")
    out = tmp_path / "synthstel_register_fixture"  # unique name (see above)
    folder, _ = build_dataset(spec, tmp_path / "raw", out)
    table = load_table(str(folder), "style_sequences")
    groups = {r["group"] for r in table.rows}
    assert groups == set(synthstel.REGISTER_FEATURES) and len(table.rows) == 8 * 26


def test_synthstel_errors(tmp_path: Path) -> None:
    _synthstel_release(tmp_path, blank=("negative", 5))
    with pytest.raises(DataError, match=r"train-00000-of-00001\.parquet row 5: column 'negative'"):
        synthstel.build_feature(tmp_path)
    _synthstel_release(tmp_path)
    (tmp_path / "data" / "test-00000-of-00001.parquet").unlink()
    with pytest.raises(
        FileNotFoundError, match=r"test-00000-of-00001\.parquet.*StyleDistance/synthstel"
    ):
        synthstel.build_feature(tmp_path)


def test_synthstel_unknown_register_name_lists_release_features(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [{"positive": "A!", "negative": "A.", "feature": "f", "feature_clean": "Exclamation"}]
    (tmp_path / "data").mkdir()
    for split in ("train", "test"):
        pq.write_table(
            pa.Table.from_pylist(rows), tmp_path / "data" / f"{split}-00000-of-00001.parquet"
        )
    with pytest.raises(
        DataError, match=r"no feature named 'Formal Tone'.*features are: Exclamation"
    ):
        synthstel.build_register(tmp_path)
