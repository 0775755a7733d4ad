"""Fixtures for the bring-your-own-data tests: a small corpus we write ourselves (three
"authors" with their own vocabularies, several documents each) in every input format."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

AUTHORS = {
    "ann": [
        "the",
        "of",
        "and",
        "in",
        "she",
        "her",
        "quietly",
        "garden",
        "morning",
        "letter",
        "tea",
        "walked",
        "softly",
    ],
    "bob": [
        "a",
        "to",
        "it",
        "is",
        "was",
        "he",
        "his",
        "engine",
        "road",
        "loud",
        "fast",
        "truck",
        "drove",
        "hard",
    ],
    "cyd": [
        "we",
        "our",
        "us",
        "they",
        "them",
        "market",
        "price",
        "shares",
        "rose",
        "fell",
        "quarter",
        "profit",
    ],
}
DOCS_PER_AUTHOR = 4
WORDS_PER_DOC = 120


def corpus_rows(seed: int = 7) -> list[dict[str, str]]:
    """One row per document: text, author, document id (sorted by document id)."""
    rng = random.Random(seed)
    rows = []
    for author, words in AUTHORS.items():
        for d in range(DOCS_PER_AUTHOR):
            doc = f"{author}/doc{d}"
            # a word unique to the document lets tests trace every passage to it
            marker = f"zz{author}{d}"
            text = " ".join(
                marker if i % 10 == 0 else rng.choice(words) for i in range(WORDS_PER_DOC)
            )
            rows.append({"text": text, "author": author, "document": doc})
    return sorted(rows, key=lambda r: r["document"])


def write_all_formats(folder: Path) -> dict[str, Path]:
    """The corpus as CSV, TSV, JSONL, JSON, Parquet, text folders and HF folders."""
    import pandas as pd
    from datasets import Dataset

    rows = corpus_rows()
    frame = pd.DataFrame(rows)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    paths["csv"] = folder / "corpus.csv"
    frame.to_csv(paths["csv"], index=False)
    paths["tsv"] = folder / "corpus.tsv"
    frame.to_csv(paths["tsv"], index=False, sep="\t")
    paths["jsonl"] = folder / "corpus.jsonl"
    paths["jsonl"].write_text("".join(json.dumps(r) + "\n" for r in rows))
    paths["json"] = folder / "corpus.json"
    paths["json"].write_text(json.dumps(rows))
    paths["parquet"] = folder / "corpus.parquet"
    frame.to_parquet(paths["parquet"])
    paths["txt_folder"] = folder / "by_author"
    paths["txt_pattern"] = folder / "flat"
    for r in rows:
        author, doc = r["document"].split("/")
        target = paths["txt_folder"] / author / f"{doc}.txt"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(r["text"], encoding="utf-8")
        flat = paths["txt_pattern"] / f"{author}_{doc}.txt"
        flat.parent.mkdir(parents=True, exist_ok=True)
        flat.write_text(r["text"], encoding="utf-8")
    paths["hf_disk"] = folder / "hf_disk"
    Dataset.from_list(rows).save_to_disk(str(paths["hf_disk"]))
    paths["hf_files"] = folder / "hf_files"
    (paths["hf_files"] / "data").mkdir(parents=True)
    frame.to_parquet(paths["hf_files"] / "data" / "train-00000-of-00001.parquet")
    return paths


@pytest.fixture(scope="module")
def formats(tmp_path_factory) -> dict[str, Path]:
    return write_all_formats(tmp_path_factory.mktemp("byod_formats"))


@pytest.fixture(scope="module")
def tiny_lm(tmp_path_factory) -> str:
    """A one-layer random Llama with a word-level tokenizer (a causal LM for zero-shot
    detectors that loads in well under a second)."""
    from tests.tiny_models import write_tiny_llama

    words = sorted({w for ws in AUTHORS.values() for w in ws} | set(HUMAN_WORDS + MACHINE_WORDS))
    return write_tiny_llama(tmp_path_factory.mktemp("byod_tiny_lm"), words, max_positions=128)


HUMAN_WORDS = [
    "honestly",
    "weird",
    "rain",
    "bus",
    "late",
    "coffee",
    "friend",
    "laughed",
    "spilled",
    "tiny",
]
MACHINE_WORDS = [
    "furthermore",
    "crucial",
    "landscape",
    "delve",
    "ensure",
    "robust",
    "overall",
    "notably",
]


def detection_rows(n_human: int = 60, n_machine: int = 60, seed: int = 3) -> list[dict]:
    """A human/machine set: humans draw mostly from HUMAN_WORDS, machines from
    MACHINE_WORDS, with overlap so that scores are not perfectly separable; a generator
    column for machine rows and a domain column for every row."""
    rng = random.Random(seed)
    rows = []
    for i in range(n_human + n_machine):
        machine = i >= n_human
        own, other = (MACHINE_WORDS, HUMAN_WORDS) if machine else (HUMAN_WORDS, MACHINE_WORDS)
        mix = rng.uniform(0.15, 0.6)
        words = [
            rng.choice(other if rng.random() < mix else own) for _ in range(rng.randint(12, 30))
        ]
        rows.append(
            {
                "text": " ".join(words),
                "label": "machine" if machine else "human",
                "generator": ("gen-a" if i % 2 else "gen-b") if machine else "",
                "domain": "news" if i % 3 else "blogs",
            }
        )
    return rows
