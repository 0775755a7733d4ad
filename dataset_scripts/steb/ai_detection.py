"""STEB AI-text-detection clustering sets (App. C.8): DetectRL, M4, MAGE, GEDE, PAN24
generative authorship, PAN25/26 task 1 by genre and PAN25 human-AI collaboration.

All are ``labelled_texts`` tables for clustering. Standard sets label each text by its
generator (``human`` or the LLM); adversarial sets (DetectRL attacks) use binary
``human``/``machine`` labels. Every set then gets STEB's per-class cap
(:func:`dataset_scripts.steb.sampling.cap_per_class`: the first n texts of each class in
source order, n = clamp(smallest class, 25, 200); smaller classes are dropped).
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, github, hub, manual
from dataset_scripts.core.spec import Builder, BuildResult, DatasetSpec
from dataset_scripts.raw_io import iter_jsonl, read_csv
from dataset_scripts.steb.catalog import CLUSTERING, SampleCount, steb_dataset
from dataset_scripts.steb.pan_sources import PAN_DATA_URL, PAN_LICENSE, PAN_SC_CITATIONS
from dataset_scripts.steb.sampling import cap_per_class

Rows = list[dict[str, Any]]


def _open_text(path: Path) -> str:
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise DataError(f"{path}: not UTF-8 at byte {error.start}") from None


class _Labelled:
    """Collects (text, label) rows, counting empty texts and duplicates."""

    def __init__(self, prefix: str, dropped: Counter[str]) -> None:
        self.rows: Rows = []
        self.prefix = prefix
        self.dropped = dropped
        self.seen: set[tuple[str, str]] = set()

    def add(self, text: Any, label: str, where: str) -> None:
        if not isinstance(text, str):
            raise DataError(f"{where}: text is {type(text).__name__}, expected a string")
        if not text.strip():
            self.dropped["empty texts"] += 1
            return
        if (text, label) in self.seen:
            self.dropped[f"duplicate {label} texts"] += 1
            return
        self.seen.add((text, label))
        self.rows.append({"id": f"{self.prefix}-{len(self.rows)}", "text": text, "label": label})

    def capped(self) -> Rows:
        rows = cap_per_class(self.rows, key=lambda r: r["label"], dropped=self.dropped)
        if len({r["label"] for r in rows}) < 2:
            raise DataError(
                f"{self.prefix}: fewer than two classes reach STEB's minimum of 25 texts "
                f"(class sizes {dict(Counter(r['label'] for r in self.rows))})"
            )
        return rows


def _result(rows: Rows, dropped: Counter[str]) -> BuildResult:
    return BuildResult({"labelled_texts": {"test": rows}}, dict(dropped))


# hub id -> (builder, {"protocol": ..., "raw_hint": ...}), read by the declarations below
_BUILDS: dict[str, tuple[Builder, dict[str, str]]] = {}


def _builds(hub_id: str, **how: str) -> Callable[[Builder], Builder]:
    """Record the builder of ``hub_id`` (and its protocol, raw hint) for :data:`DATASETS`."""

    def record(build: Builder) -> Builder:
        _BUILDS[hub_id] = (build, how)
        return build

    return record


# ------------------------------------------------------------------------ DetectRL ---

DETECTRL_FILES = {
    "arxiv": ("multi_domains_arxiv_test", False),
    "writing_prompt": ("multi_domains_writing_prompt_test", False),
    "xsum": ("multi_domains_xsum_test", False),
    "yelp_review": ("multi_domains_yelp_review_test", False),
    "direct_prompt": ("direct_prompt_test", False),
    "paraphrase_attacks": ("paraphrase_attacks_llm_test", True),
    "perturbation_attacks": ("perturbation_attacks_llm_test", True),
    "prompt_attacks": ("prompt_attacks_llm_test", True),
}


def find_detectrl_file(raw: Path, stem: str) -> Path:
    for name in (f"{stem}.json", f"{stem}.json.gz"):
        found = sorted(raw.rglob(name))
        if found:
            return found[0]
    raise DataError(f"{raw}: no {stem}.json(.gz) (expected DetectRL Benchmark/Tasks/)")


def detectrl_rows(path: Path, binary: bool, dropped: Counter[str]) -> Rows:
    """Rows of one DetectRL file: ``label`` ``human`` stays human; ``llm`` becomes the
    ``llm_type`` (standard) or ``machine`` (adversarial, binary)."""
    try:
        records = json.loads(_open_text(path))
    except json.JSONDecodeError as error:
        raise DataError(f"{path}: invalid JSON at line {error.lineno}: {error.msg}") from None
    if not isinstance(records, list):
        raise DataError(f"{path}: expected a JSON list of records")
    out = _Labelled(path.name.split(".")[0], dropped)
    for index, record in enumerate(records):
        where = f"{path} record {index}"
        kind = record.get("label")
        if kind == "human":
            label = "human"
        elif kind == "llm":
            label = "machine" if binary else str(record.get("llm_type") or "")
            if not label:
                raise DataError(f"{where}: llm record without 'llm_type'")
        else:
            raise DataError(f"{where}: column 'label' is {kind!r}, expected 'human' or 'llm'")
        out.add(record.get("text"), label, where)
    return out.capped()


DETECTRL_PROTOCOL = (
    "Rows come from DetectRL's test file `{stem}.json` (Benchmark/Tasks). {labels} "
    "Exact duplicate (text, label) rows and empty texts are removed; then STEB's per-class "
    "cap keeps the first n texts of each class in file order, n = clamp(smallest class, "
    "25, 200) (Table 15). The clustering task runs k-means (k = number of labels, seed 42) "
    "on the embeddings and reports the V-measure."
)


def _register_detectrl(name: str, stem: str, binary: bool) -> None:
    labels = (
        "Adversarial set: binary labels, `human` vs `machine` (attacked LLM text)."
        if binary
        else "Standard set: `human` or the generator (`llm_type`: ChatGPT, Claude-instant, "
        "Google-PaLM, Llama-2-70b)."
    )

    @_builds(
        f"steb/machine_text_detection_DetectRL_{name}",
        protocol=DETECTRL_PROTOCOL.format(stem=stem, labels=labels),
        raw_hint="detectrl",
    )
    def build(raw: Path | None) -> BuildResult:
        if raw is None:
            raise DataError("DetectRL needs --raw (the DetectRL repository)")
        dropped: Counter[str] = Counter()
        return _result(detectrl_rows(find_detectrl_file(Path(raw), stem), binary, dropped), dropped)

    build.__name__ = f"build_detectrl_{name}"


for _name, (_stem, _binary) in DETECTRL_FILES.items():
    _register_detectrl(_name, _stem, _binary)


# ------------------------------------------------------------------------------ M4 ---

M4_SKIPPED = ("bloomz",)


def m4_rows(raw: Path, domain: str, dropped: Counter[str]) -> Rows:
    """``data/<domain>_<generator>.jsonl`` files: each record's ``human_text`` (human,
    de-duplicated across generator files) and ``machine_text`` (labelled by the
    generator from the file name); BloomZ files are skipped and counted."""
    files = sorted(p for p in raw.rglob(f"{domain}_*.jsonl"))
    if not files:
        raise DataError(f"{raw}: no {domain}_<generator>.jsonl (expected M4 data/)")
    machines = _Labelled(f"m4-{domain}", dropped)
    human = _Labelled(f"m4-{domain}-human", dropped)
    for path in files:
        generator = path.stem[len(domain) + 1 :]
        if generator.lower() in M4_SKIPPED:
            dropped[f"{generator} records (skipped as in STEB)"] += sum(1 for _ in iter_jsonl(path))
            continue
        for line_no, record in iter_jsonl(path):
            where = f"{path} line {line_no}"
            if "human_text" not in record or "machine_text" not in record:
                raise DataError(f"{where}: needs 'human_text' and 'machine_text'")
            human.add(record["human_text"], "human", where)
            machines.add(record["machine_text"], generator, where)
    out = _Labelled(f"m4-{domain}", dropped)
    out.rows = [{**r, "id": f"m4-{domain}-{i}"} for i, r in enumerate(human.rows + machines.rows)]
    return out.capped()


for _domain in ("arxiv", "peerread", "reddit", "wikihow", "wikipedia"):

    def _make(domain: str) -> None:
        @_builds(
            f"steb/machine_text_detection_M4_{domain}",
            protocol=(
                f"All `{domain}_<generator>.jsonl` files of M4's data/ folder are read: "
                "`machine_text` is labelled by the generator named in the file name, "
                "`human_text` is labelled `human` (one copy of each distinct human text, "
                "since every generator file repeats them). BloomZ files are skipped as in "
                "STEB (its outputs contain parts of the prompt), counted below. STEB's "
                "per-class cap follows (first n texts per class, n = clamp(smallest class, "
                "25, 200)); k-means clustering, V-measure."
            ),
            # the llama-2 sample in ../shared/corpora has no peerread file
            raw_hint="" if domain == "peerread" else "m4_llama2",
        )
        def build(raw: Path | None) -> BuildResult:
            if raw is None:
                raise DataError("M4 needs --raw (the M4 repository's data/ folder)")
            dropped: Counter[str] = Counter()
            return _result(m4_rows(Path(raw), domain, dropped), dropped)

        build.__name__ = f"build_m4_{domain}"

    _make(_domain)


# ---------------------------------------------------------------------------- MAGE ---

MAGE_DOMAINS = ("cmv", "eli5", "hswag", "roct", "sci_gen", "squad", "tldr", "wp", "xsum", "yelp")
MAGE_METHODS = ("continuation", "specified", "topical")


def mage_label(src: str, domain: str) -> str | None:
    """``<domain>_human`` -> ``human``; ``<domain>_machine_<method>_<generator>`` ->
    the generator (methods collapsed); another domain -> None."""
    if not src.startswith(domain + "_"):
        return None
    rest = src[len(domain) + 1 :]
    if rest == "human":
        return "human"
    match = re.fullmatch(rf"machine_(?:{'|'.join(MAGE_METHODS)})_(.+)", rest)
    if match is None:
        raise DataError(f"MAGE src {src!r} is neither <domain>_human nor a machine source")
    return match.group(1)


def _mage_records(raw: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    files = sorted(p for p in raw.rglob("*") if p.suffix in (".csv", ".jsonl", ".parquet"))
    tests = [p for p in files if "test" in p.name.lower()]
    if not files:
        raise DataError(f"{raw}: no csv/jsonl/parquet file (expected a yaful/MAGE export)")
    for path in tests or files:
        if path.suffix == ".csv":  # the project's strict CSV reader (raw_io.read_csv)
            for line_no, row in read_csv(path):
                yield f"{path} line {line_no}", row
        elif path.suffix == ".jsonl":
            for line_no, row in iter_jsonl(path):
                yield f"{path} line {line_no}", row
        else:
            import pyarrow.parquet as pq

            for index, row in enumerate(pq.read_table(path).to_pylist()):
                yield f"{path} row {index}", row


def mage_rows(raw: Path, domain: str, dropped: Counter[str]) -> Rows:
    """Rows of one MAGE domain labelled by generator (generation methods collapsed)."""
    out = _Labelled(f"mage-{domain}", dropped)
    for where, row in _mage_records(raw):
        if "src" not in row or "text" not in row:
            raise DataError(f"{where}: needs columns 'text' and 'src'")
        label = mage_label(str(row["src"]), domain)
        if label is None:
            dropped["records of other MAGE domains"] += 1
            continue
        out.add(row["text"], label, where)
    return out.capped()


for _domain in MAGE_DOMAINS:

    def _make_mage(domain: str) -> None:
        @_builds(
            f"steb/machine_text_detection_MAGE_{domain}",
            protocol=(
                f"Records of yaful/MAGE (test split where the export has one) whose `src` "
                f"starts with `{domain}_`: `{domain}_human` is labelled `human`, "
                f"`{domain}_machine_<method>_<generator>` is labelled by the generator, "
                "collapsing the generation methods (continuation, specified, topical), "
                "giving 27 machine labels plus human (STEB App. C.8). Per-class cap, "
                "k-means, V-measure."
            ),
        )
        def build(raw: Path | None) -> BuildResult:
            if raw is None:
                raise DataError("MAGE needs --raw (an export of yaful/MAGE)")
            dropped: Counter[str] = Counter()
            return _result(mage_rows(Path(raw), domain, dropped), dropped)

        build.__name__ = f"build_mage_{domain}"

    _make_mage(_domain)


# ---------------------------------------------------------------------------- GEDE ---


def normalise_model(name: str) -> str:
    """``gpt-4o-mini-2024-07-18`` -> ``gpt-4o-mini``; ``meta-llama/Meta-Llama-3.1-70B-Instruct`` ->
    ``llama-3.1-70b-instruct`` (one label per generator)."""
    name = re.sub(r"-\d{4}-\d{2}-\d{2}$", "", name.strip().lower().rsplit("/", 1)[-1])
    return name.removeprefix("meta-")


def gede_rows(raw: Path, dropped: Counter[str]) -> Rows:
    """GEDE run folders (``info.json`` + ``data.csv[.gz]``, ';'-separated with columns
    question, human, llm): the human essays (de-duplicated) labelled ``human``, the
    generated essays labelled by ``info.model``."""
    infos = sorted(raw.rglob("info.json"))
    if not infos:
        raise DataError(f"{raw}: no info.json (expected GEDE datasets/<corpus>/<model>/<run>/)")
    human = _Labelled("gede-human", dropped)
    machine = _Labelled("gede", dropped)
    for info_path in infos:
        candidates = [info_path.with_name(n) for n in ("data.csv", "data.csv.gz")]
        data_path = next((p for p in candidates if p.exists()), None)
        if data_path is None:
            dropped["run folders without data.csv (not in this download)"] += 1
            continue
        info = json.loads(info_path.read_text(encoding="utf-8"))
        model = normalise_model(str(info.get("info", {}).get("model", "")))
        if not model:
            raise DataError(f"{info_path}: no info.model")
        for line_no, row in read_csv(data_path, ("human", "llm"), delimiter=";"):
            where = f"{data_path} line {line_no}"
            human.add(row["human"], "human", where)
            machine.add(row["llm"], model, where)
    out = _Labelled("gede", dropped)
    out.rows = [{**r, "id": f"gede-{i}"} for i, r in enumerate(human.rows + machine.rows)]
    return out.capped()


@_builds(
    "steb/gede_essay_detection",
    protocol=(
        "Every GEDE generation run (info.json + ';'-separated data.csv) contributes its "
        "human essays (labelled `human`, one copy of each distinct essay) and its generated "
        "essays, labelled by the generator in info.json (`gpt-4o-mini-2024-07-18` -> "
        "`gpt-4o-mini`; every contribution level and the DIPPER-paraphrased runs count "
        "towards their generator). STEB's per-class cap, k-means, V-measure. The builder "
        "reads the run-folder layout of the GEDE repository (also the preliminary release); "
        "the final SQLite release is not supported yet."
    ),
    raw_hint="gede_prelim",
)
def build_gede(raw: Path | None) -> BuildResult:
    """GEDE essays labelled human / generator."""
    if raw is None:
        raise DataError("GEDE needs --raw (the GEDE repository's datasets/ folder)")
    dropped: Counter[str] = Counter()
    return _result(gede_rows(Path(raw), dropped), dropped)


# -------------------------------------------------------------------- PAN24-26 ATD ---


def read_pan_jsonl_with_truth(raw: Path) -> list[tuple[str, dict[str, Any]]]:
    """Records of every ``*.jsonl`` under ``raw`` except truth files, each merged with
    the fields of its ``*truth*.jsonl`` record of the same ``id`` (PAN's TIRA layout)."""
    truth: dict[str, dict[str, Any]] = {}
    data: list[tuple[str, dict[str, Any]]] = []
    files = sorted(raw.rglob("*.jsonl"))
    if not files:
        raise DataError(f"{raw}: no .jsonl files")
    for path in files:
        for line_no, record in iter_jsonl(path):
            if "truth" in path.name:
                truth[str(record.get("id"))] = record
            else:
                data.append((f"{path} line {line_no}", record))
    return [(where, {**record, **truth.get(str(record.get("id")), {})}) for where, record in data]


def pan24_rows(raw: Path, dropped: Counter[str]) -> Rows:
    """PAN24 generative authorship (news): one ``<generator>.jsonl`` per source with
    ``{id, text}``; the label is the file stem (``human`` for human.jsonl)."""
    out = _Labelled("pan24", dropped)
    files = sorted(p for p in raw.rglob("*.jsonl") if "truth" not in p.name)
    if not files:
        raise DataError(f"{raw}: no <generator>.jsonl files (expected the PAN24 news data)")
    for path in files:
        for line_no, record in iter_jsonl(path):
            out.add(record.get("text"), path.stem, f"{path} line {line_no}")
    return out.capped()


def pan25_task1_rows(raw: Path, genre: str, dropped: Counter[str]) -> Rows:
    """PAN25/26 task 1 records of one ``genre``, labelled by ``model``."""
    out = _Labelled(f"pan25-{genre}", dropped)
    for where, record in read_pan_jsonl_with_truth(raw):
        if "genre" not in record or "model" not in record:
            dropped["records without 'genre' or 'model'"] += 1
            continue
        if str(record["genre"]).lower() not in (genre, genre.removesuffix("s")):
            dropped["records of other genres"] += 1
            continue
        out.add(record.get("text"), str(record["model"]), where)
    return out.capped()


def pan25_collab_rows(raw: Path, dropped: Counter[str]) -> Rows:
    """PAN25 task 2: texts labelled by collaboration category (``label_text`` where
    present, else the ``label`` value)."""
    out = _Labelled("pan25-collab", dropped)
    for where, record in read_pan_jsonl_with_truth(raw):
        label = record.get("label_text", record.get("label"))
        if label is None:
            raise DataError(f"{where}: record without 'label'")
        out.add(record.get("text"), str(label), where)
    return out.capped()


_PAN_CAP = (
    " STEB's per-class cap (first n per class, n = clamp(smallest, 25, 200)); k-means, V-measure."
)


@_builds(
    "steb/machine_text_detection_PAN24_news",
    protocol="Every `<generator>.jsonl` of the PAN24 generative-authorship news data "
    "(test partition) gives texts labelled by the file stem (`human` for human.jsonl)." + _PAN_CAP,
)
def build_pan24(raw: Path | None) -> BuildResult:
    """PAN24 generative authorship news, labelled by generator."""
    if raw is None:
        raise DataError("PAN24 needs --raw")
    dropped: Counter[str] = Counter()
    return _result(pan24_rows(Path(raw), dropped), dropped)


for _genre in ("essays", "fiction", "news"):

    def _make_pan25(genre: str) -> None:
        @_builds(
            f"steb/machine_text_detection_PAN25_26_{genre}",
            protocol="PAN25/26 task 1 validation records (jsonl, merged with `*truth*.jsonl` "
            f"by `id` where labels ship separately) whose `genre` is {genre}, labelled by "
            "their `model` field (human plus every participating LLM)." + _PAN_CAP,
        )
        def build(raw: Path | None) -> BuildResult:
            if raw is None:
                raise DataError("PAN25/26 task 1 needs --raw")
            dropped: Counter[str] = Counter()
            return _result(pan25_task1_rows(Path(raw), genre, dropped), dropped)

        build.__name__ = f"build_pan25_26_{genre}"

    _make_pan25(_genre)


@_builds(
    "steb/machine_text_detection_PAN25_collaborative",
    protocol="PAN25 task 2 development records labelled by their human-AI collaboration "
    "category (`label_text`, else `label`)." + _PAN_CAP,
)
def build_pan25_collab(raw: Path | None) -> BuildResult:
    """PAN25 human-AI collaborative text classification."""
    if raw is None:
        raise DataError("PAN25 task 2 needs --raw")
    dropped: Counter[str] = Counter()
    return _result(pan25_collab_rows(Path(raw), dropped), dropped)


DETECTRL_CITATION = """@inproceedings{wu2024detectrl,
  title     = {{DetectRL}: Benchmarking {LLM}-Generated Text Detection in Real-World
               Scenarios},
  author    = {Wu, Junchao and Zhan, Runzhe and Wong, Derek F. and Yang, Shu and
               Yang, Xinyi and Yuan, Yulin and Chao, Lidia S.},
  booktitle = {NeurIPS 2024 Datasets and Benchmarks Track},
  year      = {2024}
}"""
M4_CITATION = """@inproceedings{wang2024m4,
  title     = {M4: Multi-generator, Multi-domain, and Multi-lingual Black-Box
               Machine-Generated Text Detection},
  author    = {Wang, Yuxia and others},
  booktitle = {Proceedings of EACL 2024},
  year      = {2024}
}"""
MAGE_CITATION = """@inproceedings{li2024mage,
  title     = {{MAGE}: Machine-generated Text Detection in the Wild},
  author    = {Li, Yafu and others},
  booktitle = {Proceedings of ACL 2024},
  year      = {2024}
}"""
GEDE_CITATION = """@article{gehring2025gede,
  title   = {Assessing {LLM} Text Detection in Educational Contexts},
  author  = {Gehring, Lukas and Paa{\\ss}en, Benjamin},
  year    = {2025}
}"""


def _atd(
    name: str,
    classes: int,
    per: int,
    total: int,
    summary: str,
    *,
    adversarial: bool = False,
    **declared: Any,
) -> DatasetSpec:
    """An AI-text-detection clustering set; its builder, protocol and raw hint are the
    ones :func:`_builds` recorded for it above."""
    build, how = _BUILDS.pop(f"steb/{name}")
    return steb_dataset(
        name=name,
        summary=summary,
        bucket="authorship",
        definitional=(),
        counts={CLUSTERING: SampleCount(classes, per, total)},
        application="ATD (Adv.)" if adversarial else "ATD",
        builder=build,
        **how,
        **declared,
    )


DETECTRL_FORMAT = (
    'DetectRL Benchmark/Tasks/Task*/<name>_test.json: a JSON list of {text, label: "human"|'
    '"llm", data_type, llm_type}'
)
_DETECTRL = dict(
    source_url="https://github.com/NLP2CT/DetectRL",
    license="no licence file in the DetectRL repository (NeurIPS 2024 D&B benchmark; research use)",
    raw_format=DETECTRL_FORMAT,
    citation=DETECTRL_CITATION,
)
_M4 = dict(
    source_url="https://github.com/mbzuai-nlp/M4",
    license="research use (SemEval-2024 Task 8 data policy)",
    raw_format="M4 data/<domain>_<generator>.jsonl: {prompt, human_text, machine_text, model, "
    "source, source_ID}",
    citation=M4_CITATION,
)
_MAGE = dict(
    source_url="https://huggingface.co/datasets/yaful/MAGE",
    license="public use (yaful/MAGE on the Hugging Face Hub)",
    raw_format="yaful/MAGE export (csv, jsonl or parquet) with columns text, label, src "
    "(src = <domain>_human or <domain>_machine_<method>_<generator>)",
    citation=MAGE_CITATION,
)
_PAN_ATD = dict(source_url=PAN_DATA_URL, license=PAN_LICENSE)

DATASETS = (
    _atd(
        "gede_essay_detection",
        4,
        200,
        800,
        "GEDE: human student essays vs. essays generated by three LLMs at several levels of "
        "contribution, labelled by generator.",
        source_url="https://github.com/lukasgehring/Assessing-LLM-Text-Detection-in-"
        "Educational-Contexts",
        license="CC BY-NC-SA 4.0",
        raw_format="GEDE run folders datasets/<corpus>/[dipper/]<model>/<run>/{data.csv, "
        "info.json}: ';'-separated CSV (index, question, human, llm); info.json gives the model",
        citation=GEDE_CITATION,
    ),
    *(
        _atd(
            f"machine_text_detection_DetectRL_{domain}",
            5,
            200,
            1000,
            f"DetectRL {domain.replace('_', ' ')}: human text vs. four LLMs (ChatGPT, "
            "Claude-instant, Google-PaLM, Llama-2-70b), labelled by generator.",
            **_DETECTRL,  # type: ignore[arg-type]
        )
        for domain in ("arxiv", "direct_prompt", "writing_prompt", "xsum", "yelp_review")
    ),
    *(
        _atd(
            f"machine_text_detection_DetectRL_{attack}_attacks",
            2,
            200,
            400,
            f"DetectRL {attack} attacks: human vs. attacked LLM text (binary labels).",
            adversarial=True,
            **_DETECTRL,  # type: ignore[arg-type]
        )
        for attack in ("paraphrase", "perturbation", "prompt")
    ),
    *(
        _atd(
            f"machine_text_detection_M4_{domain}",
            classes,
            200,
            classes * 200,
            f"M4 {domain}: human text vs. the domain's generators (BloomZ skipped), "
            "labelled by generator.",
            **_M4,  # type: ignore[arg-type]
        )
        for domain, classes in (
            ("arxiv", 6),
            ("peerread", 6),
            ("reddit", 6),
            ("wikihow", 5),
            ("wikipedia", 5),
        )
    ),
    *(
        _atd(
            f"machine_text_detection_MAGE_{domain}",
            28,
            per,
            28 * per,
            f"MAGE {domain}: human text vs. 27 generators (generation methods collapsed).",
            **_MAGE,  # type: ignore[arg-type]
        )
        for domain, per in (
            ("cmv", 60),
            ("eli5", 73),
            ("hswag", 66),
            ("roct", 76),
            ("sci_gen", 36),
            ("squad", 55),
            ("tldr", 57),
            ("wp", 70),
            ("xsum", 86),
            ("yelp", 42),
        )
    ),
    _atd(
        "machine_text_detection_PAN24_news",
        14,
        200,
        2800,
        "PAN24 generative authorship detection (news): human articles vs. 13 LLMs, labelled "
        "by generator.",
        raw_format="PAN24 generative-authorship-news: one <generator>.jsonl per source "
        "(human.jsonl and machines/*.jsonl) with {id, text}",
        citation=PAN_SC_CITATIONS[24],
        **_PAN_ATD,  # type: ignore[arg-type]
    ),
    *(
        _atd(
            f"machine_text_detection_PAN25_26_{genre}",
            classes,
            per,
            classes * per,
            f"PAN25/26 generative AI detection (task 1) validation data, {genre}: human vs. "
            "participating LLMs, labelled by the model field.",
            raw_format="PAN25/26 task 1 dataset.jsonl: {id, text, model, genre, label}",
            citation=PAN_SC_CITATIONS[25],
            **_PAN_ATD,  # type: ignore[arg-type]
        )
        for genre, classes, per in (("essays", 13, 25), ("fiction", 12, 25), ("news", 14, 59))
    ),
    _atd(
        "machine_text_detection_PAN25_collaborative",
        6,
        200,
        1200,
        "PAN25 human-AI collaborative text classification (task 2 dev set): six collaboration "
        "categories.",
        raw_format="PAN25 task 2 jsonl: {id, text, label, label_text}",
        citation=PAN_SC_CITATIONS[25],
        **_PAN_ATD,  # type: ignore[arg-type]
    ),
)
if _BUILDS:  # a builder above without its declaration
    raise ValueError(f"ai_detection: builders without a declaration: {sorted(_BUILDS)}")

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
PAN_REQUEST = "PAN publishes this release on Zenodo with access on request: log in to Zenodo, request access on the record, download the release and put it, unpacked, into the folder named below."
RAW_SOURCES = (
    Source(
        "detectrl",
        (
            github(
                "NLP2CT/DetectRL",
                "3472f0ae3cc81133c821e901f6d5c8f79c60dd23",
                (
                    "Benchmark/Tasks/Task1/",
                    "Benchmark/Tasks/Task4/",
                ),
            ),
        ),
        license="no licence file (NeurIPS 2024 D&B benchmark)",
        note="the copy here is gzip'ed; the recorded hashes are its content's, i.e. the original files'",
    ),
    Source(
        "m4_llama2",
        (github("mbzuai-nlp/M4", "3045ae6ddedc6caefcb146a72d6936c1a3b0c237", ("data/",)),),
        license="SemEval-2024 Task 8 data policy (no licence stated)",
    ),
    Source(
        "gede_prelim",
        (
            github(
                "lukasgehring/Assessing-LLM-Text-Detection-in-Educational-Contexts",
                "0f73f6f6daa6847c699631560e1b7a9432cbb1d9",
                ("datasets/",),
            ),
        ),
        license="no licence file",
        note="the copy here takes files from several commits (its commits.txt; most at this one) and gzip'ed them; the recorded hashes are their content's",
    ),
    Source(
        "m4_peerread",
        (github("mbzuai-nlp/M4", "main", ("data/",)),),
        license="SemEval-2024 Task 8 data policy (no licence stated)",
        datasets=("steb/machine_text_detection_M4_peerread",),
        note="revision not pinned here (no GitHub access): the default branch, unverified; the large files may live outside git",
    ),
    Source(
        "mage",
        (hub("yaful/MAGE", "", (("", ""),)),),
        license="see the yaful/MAGE dataset card",
        datasets=tuple(
            f"steb/machine_text_detection_MAGE_{d}"
            for d in (
                "cmv",
                "eli5",
                "hswag",
                "roct",
                "sci_gen",
                "squad",
                "tldr",
                "wp",
                "xsum",
                "yelp",
            )
        ),
        note="revision and file list not pinned here (no Hub access): the whole repo at main, unverified",
    ),
    *(
        Source(
            name,
            (manual("https://pan.webis.de/data.html"),),
            license=PAN_LICENSE,
            homepage="https://pan.webis.de/data.html",
            instructions=PAN_REQUEST,
            terms="PAN shared-task data: research use; do not redistribute.",
            datasets=ids,
        )
        for name, ids in (
            ("pan24_generative_authorship_news", ("steb/machine_text_detection_PAN24_news",)),
            (
                "pan25_generative_ai_detection",
                (
                    *tuple(
                        f"steb/machine_text_detection_PAN25_26_{g}"
                        for g in ("essays", "fiction", "news")
                    ),
                    "steb/machine_text_detection_PAN25_collaborative",
                ),
            ),
        )
    ),
)
