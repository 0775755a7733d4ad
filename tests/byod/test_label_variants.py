"""`build --from`: author labels that differ only in case or whitespace (issue #30) are
reported, kept apart by default, and merged into the most frequent spelling with
`--normalise-labels`; the rebuild command carries the flag."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from dataset_scripts.custom.build import BuildOptions, build_from_source
from evaluators.cli import main
from tests.byod.conftest import corpus_rows


def _labels(folder: Path) -> list[str]:
    return pd.read_parquet(next((folder / "data").glob("*/*.parquet")))["label"].tolist()


def _variant_rows() -> list[dict]:
    rows = corpus_rows()
    spellings = {
        "ann": ["Barclay", "barclay", "Barclay", "BARCLAY"],
        "bob": ["Ann  Lee", "Ann Lee"],
    }
    seen: dict[str, int] = {}
    for r in rows:
        if r["author"] in spellings:
            i = seen.get(r["author"], 0)
            seen[r["author"]] = i + 1
            names = spellings[r["author"]]
            r["author"] = names[i % len(names)]
    return rows


def test_variants_reported_then_merged(tmp_path: Path, capsys) -> None:
    path = tmp_path / "variants.csv"
    pd.DataFrame(_variant_rows()).to_csv(path, index=False)
    report = build_from_source(path, tmp_path / "apart", BuildOptions(label_column="author"))
    notes = [k for k in report.dropped if "only in case or whitespace" in k]
    assert len(notes) == 1 and report.dropped[notes[0]] == 8  # 4 + 4 rows carry a variant
    assert "2 group(s): 'Barclay' / 'barclay' / 'BARCLAY'; 'Ann  Lee' / 'Ann Lee'" in notes[0]
    assert set(_labels(tmp_path / "apart")) == {
        "Barclay", "barclay", "BARCLAY", "Ann  Lee", "Ann Lee", "cyd"
    }  # fmt: skip
    main(
        ["build", "--from", str(path), "--label-column", "author", "--normalise-labels",
         "--out", str(tmp_path / "merged")]
    )  # fmt: skip
    printed = " ".join(capsys.readouterr().out.split())
    assert "rows relabelled to the most frequent case/whitespace variant" in printed
    assert "'barclay' / 'BARCLAY' -> 'Barclay'" in printed
    assert set(_labels(tmp_path / "merged")) == {"Barclay", "Ann  Lee", "cyd"}
    merged = build_from_source(
        path, tmp_path / "m2", BuildOptions(label_column="author", normalise_labels=True)
    )
    assert "--normalise-labels" in merged.command.split()
    assert (
        sum(v for k, v in merged.dropped.items() if "relabelled" in k) == 4
    )  # 1 + 1 + 2 (a tie keeps the first)
