"""`stylebench build --from`: every input format -> a dataset folder that clustering,
all-to-all pairs and retrieval evaluate; the retrieval split never puts one document on
both sides; `stylebench run` on a raw path names the command that makes it a dataset."""

from __future__ import annotations

import json
import re
import shlex
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dataset_scripts.core.errors import DataError
from dataset_scripts.custom.build import BuildOptions, build_from_source
from dataset_scripts.custom.forming import Passage, chunk_words, retrieval_rows
from evaluators.cli import main
from evaluators.data import load_table
from evaluators.run.runner import Runner, plan_tasks
from tests.byod.conftest import AUTHORS, DOCS_PER_AUTHOR, WORDS_PER_DOC, corpus_rows

TABLE_FORMATS = ("csv", "tsv", "jsonl", "json", "parquet", "hf_disk", "hf_files")
CHUNK = 30  # 120-word documents -> 4 passages each


def _options(kind: str, schema: str, **extra) -> BuildOptions:
    if kind == "txt_folder":
        return BuildOptions(schema=schema, **extra)
    if kind == "txt_pattern":
        return BuildOptions(
            schema=schema,
            label_from="pattern",
            file_pattern=r"^(?P<label>[a-z]+)_(?P<document>doc\d+)\.txt$",
            **extra,
        )
    return BuildOptions(schema=schema, label_column="author", doc_column="document", **extra)


def _evaluate(folder: Path, tasks: list[str]) -> dict[str, float]:
    from evaluators.encoders import get_encoder

    runner = Runner(get_encoder("function-words"), "function-words", progress=False)
    records = runner.run(plan_tasks([str(folder)], tasks))
    return {r.task: r.main_score for r in records}


@pytest.mark.parametrize("kind", [*TABLE_FORMATS, "txt_folder", "txt_pattern"])
def test_every_format_builds_and_evaluates(formats, tmp_path: Path, kind: str) -> None:
    labelled = build_from_source(
        formats[kind], tmp_path / "labelled", _options(kind, "labelled_texts", chunk_words=CHUNK)
    )
    n_docs = len(AUTHORS) * DOCS_PER_AUTHOR
    assert labelled.counts == {"labelled_texts": n_docs * WORDS_PER_DOC // CHUNK}
    assert labelled.dropped == {}
    table = load_table(str(labelled.folder), "labelled_texts")
    assert Counter(r["label"] for r in table.rows) == {a: 16 for a in AUTHORS}
    assert all(len(r["text"].split()) == CHUNK for r in table.rows)
    scores = _evaluate(labelled.folder, ["clustering", "all_to_all_pairs"])
    # the authors' vocabularies differ in their function words: far above chance
    assert scores["all_to_all_pairs"] > 0.8
    assert scores["clustering"] > 0.5
    retrieval = build_from_source(
        formats[kind],
        tmp_path / "retrieval",
        _options(kind, "retrieval", chunk_words=CHUNK, texts_per_query=3),
    )
    assert retrieval.counts == {"retrieval": 2 * len(AUTHORS)}
    mrr = _evaluate(retrieval.folder, ["retrieval"])["retrieval"]
    assert 1 / 3 <= mrr <= 1.0
    card = (labelled.folder / "README.md").read_text()
    assert str(formats[kind]) in card and "stylebench build --from" in card


def test_table_formats_give_identical_rows(formats, tmp_path: Path) -> None:
    built = {
        kind: load_table(
            str(
                build_from_source(
                    formats[kind], tmp_path / kind, _options(kind, "labelled_texts")
                ).folder
            ),
            "labelled_texts",
        ).rows
        for kind in TABLE_FORMATS
    }
    first = built["csv"]
    assert [r["text"] for r in first] == [r["text"] for r in corpus_rows()]
    for kind, rows in built.items():
        assert rows == first, kind


def _doc_of(text: str) -> set[str]:
    return set(re.findall(r"zz[a-z]+\d", text))


def test_retrieval_split_by_document_on_built_folder(formats, tmp_path: Path) -> None:
    report = build_from_source(
        formats["csv"],
        tmp_path / "r",
        _options("csv", "retrieval", chunk_words=10, queries_per_author=2, texts_per_query=4),
    )
    rows = load_table(str(report.folder), "retrieval").rows
    for author in AUTHORS:
        sides = {
            role: {
                d
                for r in rows
                if r["author"] == author and r["role"] == role
                for t in r["texts"]
                for d in _doc_of(t)
            }
            for role in ("query", "target")
        }
        assert sides["query"] and sides["target"]
        assert not sides["query"] & sides["target"], author
    assert Counter(r["role"] for r in rows) == {"query": 6, "target": 6}


@settings(max_examples=60, deadline=None)
@given(
    docs=st.lists(st.tuples(st.integers(0, 4), st.integers(1, 6)), min_size=1, max_size=25),
    k=st.one_of(st.none(), st.integers(1, 4)),
    episodes=st.integers(1, 3),
    seed=st.integers(0, 10_000),
)
def test_retrieval_never_puts_a_document_on_both_sides(docs, k, episodes, seed) -> None:
    passages = []
    for d, (author, n) in enumerate(docs):
        for p in range(n):
            passages.append(
                Passage(f"{d}-{p}", f"doc{d} passage{p}", f"a{author}", f"doc{d}", "", {})
            )
    dropped: Counter[str] = Counter()
    rows = retrieval_rows(passages, dropped, texts_per_episode=k, episodes=episodes, seed=seed)
    owner = {p.text: p.document for p in passages}
    used: Counter[str] = Counter()
    for author in {r["author"] for r in rows}:
        side = {
            role: {
                owner[t]
                for r in rows
                if r["author"] == author and r["role"] == role
                for t in r["texts"]
            }
            for role in ("query", "target")
        }
        assert not side["query"] & side["target"]
        assert len([r for r in rows if r["author"] == author and r["role"] == "query"]) <= episodes
    for r in rows:
        used.update(r["texts"])
        if k is not None:
            assert len(r["texts"]) == k
    assert max(used.values(), default=1) == 1  # no passage used twice
    authors = {p.label for p in passages}
    kept = {r["author"] for r in rows}
    assert sum(dropped.values()) == len(authors - kept)  # every dropped author counted


def test_chunking_is_exact_and_seeded(tmp_path: Path) -> None:
    passages, rest = chunk_words("a b  c\nd e f g", 3)
    assert passages == ["a b c", "d e f"] and rest == 1
    path = tmp_path / "c.csv"
    import pandas as pd

    pd.DataFrame(corpus_rows()).to_csv(path, index=False)
    opts = BuildOptions(label_column="author", chunk_words=10, chunks_per_doc=3, seed=5)
    one = build_from_source(path, tmp_path / "one", opts)
    two = build_from_source(path, tmp_path / "two", opts)
    other = build_from_source(
        path,
        tmp_path / "other",
        BuildOptions(label_column="author", chunk_words=10, chunks_per_doc=3, seed=6),
    )
    rows = lambda r: load_table(str(r.folder), "labelled_texts").rows  # noqa: E731
    assert rows(one) == rows(two) != rows(other)
    assert one.dropped == {"passages beyond 3 per document (seeded sample)": 12 * (12 - 3)}


def test_bad_inputs_name_the_problem(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text("text,author\nhello there,a\n,b\nsecond text,\nthird one here,b\n")
    with pytest.raises(
        DataError, match=r"no column 'label' \(for --label-column\); columns found: text, author"
    ):
        build_from_source(path, tmp_path / "o", BuildOptions())
    report = build_from_source(path, tmp_path / "o", BuildOptions(label_column="author"))
    assert report.dropped == {
        "rows with an empty or missing 'text'": 1,
        "rows with an empty or missing 'author'": 1,
    }
    ragged = tmp_path / "r.csv"
    ragged.write_text("text,label\nfine,a\nbroken,b,extra\n")
    with pytest.raises(DataError, match=r"r\.csv line 3: expected 2 fields"):
        build_from_source(ragged, tmp_path / "o2", BuildOptions())
    bad = tmp_path / "b.jsonl"
    bad.write_text('{"text": "a", "label": "x"}\nnot json\n')
    with pytest.raises(DataError, match=r"b\.jsonl line 2: invalid JSON"):
        build_from_source(bad, tmp_path / "o3", BuildOptions())
    one_class = tmp_path / "one.csv"
    one_class.write_text("text,label\na b,x\nc d,x\n")
    with pytest.raises(DataError, match="one class"):
        build_from_source(one_class, tmp_path / "o4", BuildOptions())
    with pytest.raises(DataError, match="no such file"):
        build_from_source(tmp_path / "missing.csv", tmp_path / "o5", BuildOptions())
    assert not (tmp_path / "o4").exists() and not (tmp_path / "o4.partial").exists()


def test_pairs_and_sequences_from_columns(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text(
        "a\tb\tsame\nthe cat sat\tthe cat ran\ttrue\nprofit rose\tthe cat sat\tfalse\n"
        "the dog sat\tthe cat sat\tyes\nshares fell\tthe dog ran\tno\n"
    )
    report = build_from_source(
        pairs,
        tmp_path / "p",
        BuildOptions(schema="text_pairs", text1_column="a", text2_column="b", label_column="same"),
    )
    rows = load_table(str(report.folder), "text_pairs").rows
    assert [r["label"] for r in rows] == [1, 0, 1, 0]
    assert _evaluate(report.folder, ["predefined_pairs"])["predefined_pairs"] >= 0.0
    seq = tmp_path / "seq.csv"
    seq.write_text(
        "sequence,style,text,rank\ns1,formal,Good evening sir.,0\ns1,casual,hey dude,1\n"
        "s2,casual,yo whats up,1\ns2,formal,Good morning madam.,0\n"
    )
    report = build_from_source(
        seq, tmp_path / "s", BuildOptions(schema="style_sequences", order_column="rank")
    )
    rows = load_table(str(report.folder), "style_sequences").rows
    assert rows[1]["texts"] == ["Good morning madam.", "yo whats up"]
    assert _evaluate(report.folder, ["order_alignment"])["order_alignment"] >= 0.0


def test_cli_build_from_then_run(formats, tmp_path: Path, capsys) -> None:
    out = tmp_path / "built"
    main(
        [
            "build",
            "--from",
            str(formats["jsonl"]),
            "--schema",
            "retrieval",
            "--label-column",
            "author",
            "--doc-column",
            "document",
            "--chunk-words",
            "20",
            "--texts-per-query",
            "4",
            "--out",
            str(out),
        ]
    )
    assert "6 retrieval rows" in " ".join(capsys.readouterr().out.split())
    main(
        [
            "run",
            "--model",
            "function-words",
            "--dataset",
            str(out),
            "--no-cache",
            "--out",
            str(tmp_path / "res"),
            "--no-progress",
        ]
    )
    result = json.loads(
        (tmp_path / "res" / "function-words" / "built" / "retrieval.json").read_text()
    )
    assert result["counts"]["n_queries"] == 3 and result["main_score_name"] == "mrr"


def test_run_on_a_raw_path_gives_the_command_that_works(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    import pandas as pd

    monkeypatch.chdir(tmp_path)
    pd.DataFrame(corpus_rows()).to_csv("passages.csv", index=False)
    with pytest.raises(SystemExit):
        main(["run", "--model", "function-words", "--dataset", "passages.csv", "--no-cache"])
    message = capsys.readouterr().err
    command = re.search(r"make it one with `([^`]+)`", message).group(1)
    assert command == (
        "stylebench build --from passages.csv --schema labelled_texts --label-column author "
        "--out built/passages"
    )
    assert "then run with --dataset built/passages" in message
    main(shlex.split(command)[1:])
    main(
        [
            "run",
            "--model",
            "function-words",
            "--dataset",
            "built/passages",
            "--no-cache",
            "--out",
            "res",
            "--no-progress",
        ]
    )
    assert (tmp_path / "res" / "function-words" / "passages" / "clustering.json").is_file()
    # a folder of text files gets its command too
    Path("novels/austen").mkdir(parents=True)
    Path("novels/austen/emma.txt").write_text("x")
    with pytest.raises(SystemExit):
        main(["run", "--model", "function-words", "--dataset", "novels"])
    assert (
        "`stylebench build --from novels --schema labelled_texts --out built/novels`"
        in capsys.readouterr().err
    )


@pytest.mark.slow
@pytest.mark.corpora
def test_real_corpus_folder_of_documents_by_author(corpora: Path, tmp_path: Path) -> None:
    """CCAT50's training articles (50 authors x 50 files, label = sub-folder) cut into
    100-word passages: retrieval split by article, evaluated with function words."""
    source = corpora / "ccat50" / "data" / "C50train"
    if not source.is_dir():
        pytest.skip(f"{source} is not present")
    options = BuildOptions(schema="retrieval", chunk_words=100, chunks_per_doc=2, texts_per_query=8)
    report = build_from_source(source, tmp_path / "ccat", options)
    assert report.counts == {"retrieval": 100}
    assert report.dropped == {
        "documents shorter than 100 words (no full passage)": 21,
        "partial passages after the last full 100-word passage": 2454,
        # CCAT50 has near-duplicate articles sharing whole 100-word passages: the copies
        # are dropped and each pair of articles is kept on one side of the split
        "duplicate texts (identical to an earlier passage; first kept)": 350,
        "documents kept with a near-duplicate on one side of the split (not dropped)": 104,
        "passages beyond 2 per document (seeded sample)": 6080,
    }
    rows = load_table(str(report.folder), "retrieval").rows
    # trace every passage to every article holding it (near-duplicate articles share
    # passages): no article may feed both sides of any author
    articles_of: dict[str, set[str]] = {}
    for path in sorted(source.rglob("*.txt")):
        words = path.read_text(encoding="utf-8").split()
        for i in range(len(words) // 100):
            articles_of.setdefault(" ".join(words[i * 100 : (i + 1) * 100]), set()).add(
                str(path.relative_to(source))
            )
    for author in {r["author"] for r in rows}:
        q, t = (
            {
                a
                for r in rows
                if r["author"] == author and r["role"] == role
                for x in r["texts"]
                for a in articles_of[x]
            }
            for role in ("query", "target")
        )
        assert q and t and not q & t, author
    mrr = _evaluate(report.folder, ["retrieval"])["retrieval"]
    # 0.2788 while a row's 8 passages were mean-pooled vectors; function words now count
    # a row's passages joined by a space, as the STEB authors' embed_multiple (issue 33)
    assert mrr == pytest.approx(0.2800, abs=5e-4)


def test_suggested_commands_for_each_kind_of_path(formats, tmp_path: Path) -> None:
    from dataset_scripts.custom.suggest import build_command_for, not_a_dataset_message

    for kind in ("parquet", "jsonl", "tsv"):
        command = build_command_for(formats[kind])
        assert command == (
            f"stylebench build --from {formats[kind]} --schema labelled_texts "
            "--label-column author --out built/corpus"
        )
    odd = tmp_path / "odd.csv"
    odd.write_text("body_text,writer\nx,y\n")
    message = not_a_dataset_message(str(odd))
    assert "--text-column '<TEXT COLUMN>' --label-column '<LABEL COLUMN>'" in message
    assert "(columns found: body_text, writer)" in message
    assert build_command_for(formats["txt_pattern"]).startswith(
        f"stylebench build --from {formats['txt_pattern']} --schema probing"
    )  # a flat folder: no labels to read, probing needs none
    built = build_from_source(formats["csv"], tmp_path / "ok", _options("csv", "labelled_texts"))
    assert not_a_dataset_message(str(built.folder)) is None  # a dataset folder: no message
    (tmp_path / "notes.xyz").write_text("?")
    assert "cannot read it" in not_a_dataset_message(str(tmp_path / "notes.xyz"))


def test_from_files_in_memory_equals_the_built_folder(formats, tmp_path: Path) -> None:
    from evaluators.api import Dataset

    ds = Dataset.from_files(formats["txt_folder"], chunk_words=CHUNK)
    built = build_from_source(
        formats["txt_folder"],
        tmp_path / "b",
        _options("txt_folder", "labelled_texts", chunk_words=CHUNK),
    )
    assert ds.tables["labelled_texts"] == load_table(str(built.folder), "labelled_texts").rows
