"""The paper's result tables (Tyo, Dhingra & Lipton 2022, "On the State of the Art in
Authorship Attribution and Authorship Verification", Tables 3-8) as data.

Provenance: transcribed from ``../shared/papers/valla_authorship_attribution_verification.txt``
(the arXiv v2 text); macro-accuracy in percent, AUC in [0, 1], exactly as printed ("—"
entries are ``None``). The "Average" column of Table 3 counts "—" as 0, as the caption says.
"""

from __future__ import annotations

from dataclasses import dataclass

PAPER = (
    "Tyo, Dhingra & Lipton (2022), On the State of the Art in AA and AV (Valla), arXiv:2209.06869"
)


@dataclass(frozen=True)
class ReferenceTable:
    number: int
    caption: str
    metric: str  # "macro_accuracy" (percent) or "auc" (0-1); Table 8 mixes, see columns
    columns: tuple[str, ...]
    rows: dict[str, tuple[float | None, ...]]
    column_metrics: tuple[str, ...] = ()

    def metric_of(self, column: str) -> str:
        if self.column_metrics:
            return self.column_metrics[self.columns.index(column)]
        return self.metric

    @property
    def provenance(self) -> str:
        return f"{PAPER}, Table {self.number}"


TABLES: dict[int, ReferenceTable] = {
    3: ReferenceTable(
        3,
        "Macro-accuracy (%) of the authorship attribution models",
        "macro_accuracy",
        ("CCAT50", "CMCC", "Guardian", "IMDb62", "Blogs50", "PAN20", "Gutenberg AA", "Average"),
        {
            "Ngram_A": (76.68, 86.51, 100, 98.81, 72.28, 43.52, 57.69, 76.50),
            "PPM_A": (69.36, 62.30, 86.28, 95.90, 72.16, None, None, 55.14),
            "BERT_A": (65.72, 60.32, 84.23, 98.80, 74.95, 23.83, 59.11, 66.71),
            "pALM_A": (63.36, 54.76, 66.67, None, None, None, None, 26.40),
        },
    ),
    4: ReferenceTable(
        4,
        "Macro-accuracy (%) of the AA models on the cross-topic and cross-genre test sets",
        "macro_accuracy",
        ("CMCC ×t", "CMCC ×g", "Guard ×t", "Guard ×g"),
        {
            "Ngram_A": (82.54, 84.13, 86.92, 87.22),
            "PPM_A": (52.38, 57.14, 69.23, 72.08),
            "BERT_A": (49.21, 45.24, 75.64, 75.56),
            "pALM_A": (57.14, 46.03, 61.79, 47.22),
        },
    ),
    5: ReferenceTable(
        5,
        "AUC of the AV models on the selected AV datasets",
        "auc",
        ("PAN21", "AmaAV", "BlogAV", "GutAV"),
        {
            "Ngram_V": (0.9719, 0.7742, 0.5410, 0.8741),
            "PPM_V": (0.7917, 0.6492, 0.6230, 0.8508),
            "BERT_V": (0.9709, 0.8943, 0.9201, 0.9624),
            "HLSTM_V": (0.9693, 0.8734, 0.8580, 0.9147),
        },
    ),
    6: ReferenceTable(
        6,
        "Macro-accuracy (%) of the AV models on AA datasets ((P) = pretrained on PAN20)",
        "macro_accuracy",
        ("CCAT50", "CMCC", "Guardian", "IMDb62", "Blogs50"),
        {
            "HLSTM_V": (4.56, 8.33, 27.59, 37.82, 57.49),
            "(P)HLSTM_V": (13.36, 16.27, 38.97, 59.47, 11.34),
            "BERT_V": (48.64, 35.75, 27.82, 76.62, 60.72),
            "(P)BERT_V": (56.80, 40.87, 61.41, 73.17, 67.21),
            "BERT_A": (65.72, 60.32, 84.23, 98.80, 74.95),
        },
    ),
    7: ReferenceTable(
        7,
        "Macro-accuracy (%) of the AV models on the domain-shift AA test sets",
        "macro_accuracy",
        ("CMCC ×t", "CMCC ×g", "Guard ×t", "Guard ×g"),
        {
            "HLSTM_V": (7.94, 3.18, 19.23, 23.33),
            "(P)HLSTM_V": (9.52, 5.56, 40.00, 31.53),
            "BERT_V": (28.85, 13.49, 42.31, 46.53),
            "(P)BERT_V": (33.33, 19.05, 43.33, 54.72),
            "BERT_A": (49.21, 45.24, 75.64, 75.56),
        },
    ),
    8: ReferenceTable(
        8,
        "BERT_V on Blogs50 formulated as AV (AUC, accuracy %) and as AA (macro-accuracy %)",
        "mixed",
        ("AUC (AV)", "Acc (AV)", "Mac-Acc (AA)"),
        {
            "BERT_V": (0.9229, 82.33, 67.21),
            "BERT_V w/HNM": (0.9276, 82.72, 72.42),
        },
        column_metrics=("auc", "accuracy", "macro_accuracy"),
    ),
}

# (dataset table name, split, formulation) -> the paper's column name in each table
SPLIT_COLUMNS: dict[tuple[str, str, str], str] = {
    **{(name, "test", "aa"): name for name in ("CCAT50", "CMCC", "Guardian", "IMDb62", "Blogs50")},
    ("PAN20", "test", "aa"): "PAN20",
    ("Gutenberg", "test", "aa"): "Gutenberg AA",
    ("CMCC", "cross_topic_test", "aa"): "CMCC ×t",
    ("CMCC", "cross_genre_test", "aa"): "CMCC ×g",
    ("Guardian", "cross_topic_test", "aa"): "Guard ×t",
    ("Guardian", "cross_genre_test", "aa"): "Guard ×g",
    ("PAN21", "unseen_author_test", "av"): "PAN21",
    ("PAN21", "test", "av"): "PAN21",
    ("Amazon", "test", "av"): "AmaAV",
    ("BlogsAll", "test", "av"): "BlogAV",
    ("Gutenberg", "unseen_author_test", "av"): "GutAV",
}


def reference_value(table: int, model: str, column: str) -> float | None:
    """The paper's number, or ``None`` where it printed "—" or has no such cell."""
    ref = TABLES[table]
    if model not in ref.rows or column not in ref.columns:
        return None
    return ref.rows[model][ref.columns.index(column)]


def cells_for(table_name: str, split: str, formulation: str, model: str) -> list[tuple[int, str]]:
    """Every (table, column) of the paper a run of ``model`` on that data belongs in."""
    column = SPLIT_COLUMNS.get((table_name, split, formulation))
    out = []
    for number, ref in TABLES.items():
        if number == 8:
            if table_name == "Blogs50" and split == "test" and model in ref.rows:
                out.append((8, "Mac-Acc (AA)" if formulation == "aa" else "AUC (AV)"))
            continue
        if column in ref.columns and model in ref.rows:
            out.append((number, column))
    return out
