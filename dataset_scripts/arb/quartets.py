"""``arb/quartets``: a real ARB-style four-regime quartet set from published corpora.

ARB's own release (XSum / WritingPrompts / OpenWebText x four open generators) is not
reachable here, so this builder assembles matched quartets (Human, Free-LLM, H2L, LLM2L)
from corpora that contain all four regimes for the same source item. ``raw`` is the folder
holding the corpus folders (``../shared/corpora``):

``raidar/Arxiv`` (RAIDAR, Mao et al. 2024) - generator ``gpt-3.5-turbo``
    ``arXiv_human.json.gz`` (350 ``{"title", "abs"}``) = Human;
    ``arxiv_GPT_concise.json.gz`` (350, same ``title`` at the same index: the title is the
    topic) = Free-LLM; ``rewrite_arxiv_human_inv.json.gz`` = GPT-3.5 rewrites of the human
    abstracts (``input`` equals ``arXiv_human[i].abs``) = H2L;
    ``rewrite_arxiv_GPT_inv.json.gz`` = rewrites of the GPT abstracts (``input`` equals
    ``arxiv_GPT_concise[i].abs``) = LLM2L, i.e. the same generator family as ARB's
    same-generator second pass. Of RAIDAR's five rewrite prompts the one closest to ARB's
    template, ``"Rewrite this for me"``, is used. Alignment is checked row by row (titles
    equal, rewrite inputs equal); a mismatch is dropped and counted.
    RAIDAR's News / CWriting / Code / Yelp folders are not used: News and CWriting human and
    GPT files are not index-aligned (730 vs 479, 973 vs 728 rows), Code is not prose and
    Yelp has no rewrites in this copy.

``gede_prelim/datasets/{brat-project,ielts}`` (GEDE preliminary runs, Gehring et al.)
    ';'-separated CSVs ``['', question, human, llm]`` whose rows are aligned by the first
    column across runs (checked: same key, same question, same human essay). The block
    generator is the *rewriting* model M (gpt-4o-mini-2024-07-18 or Llama-3.3-70B-Instruct):
    H2L = M's ``rewrite-human`` run; LLM2L = M's ``rewrite-<job>`` run, which rewrites the
    ``task`` run ``<job>`` of the *other* model; Free-LLM = that ``task`` run (the text LLM2L
    rewrote, recorded in ``free_llm_model``). So GEDE's LLM2L is a cross-generator second
    pass (a documented deviation from ARB's same-generator design); its Free-LLM -> LLM2L
    pairs are real rewrites (mean word-Jaccard 0.41-0.48 vs 0.11 at a shifted index).
    The Human essay of a source item is stored once and shared by both generator blocks.

Every regime text of a quartet must be non-empty; a quartet with an empty text is dropped and
counted (``empty <regime> text``). Quality flags (Sec. 4.6) are kept, never dropped.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from dataset_scripts.arb.quality import (
    add_flags,
    flag_counts,
    flag_summary,
    length_stratum,
    text_sha256,
    word_count,
)
from dataset_scripts.core.arb_schema import CONTENT_ORIGIN, REGIMES, SURFACE
from dataset_scripts.core.errors import DataError
from dataset_scripts.core.source import Source, github
from dataset_scripts.core.spec import BuildResult, DatasetSpec
from dataset_scripts.raw_io import csv_records, read_text

HUB_ID = "arb/quartets"
RAIDAR_PROMPT = "Rewrite this for me"

# (dataset folder, rewriter model dir, rewrite-human run, rewrite-<task> run, task run dir)
GEDE_BLOCKS: tuple[tuple[str, str, str, str, str], ...] = (
    (
        "brat-project",
        "gpt-4o-mini-2024-07-18",
        "gpt-4o-mini-2024-07-18/20250206132946",
        "gpt-4o-mini-2024-07-18/20250206132923",
        "llama-3.3-70b-instruct/131538",
    ),
    (
        "brat-project",
        "Llama-3.3-70B-Instruct",
        "llama-3.3-70b-instruct/133857",
        "llama-3.3-70b-instruct/133529",
        "gpt-4o-mini-2024-07-18/20250130074608",
    ),
    (
        "ielts",
        "gpt-4o-mini-2024-07-18",
        "gpt-4o-mini-2024-07-18/20250220103511",
        "gpt-4o-mini-2024-07-18/20250221103134",
        "llama-3.3-70b-instruct/135672",
    ),
    (
        "ielts",
        "Llama-3.3-70B-Instruct",
        "llama-3.3-70b-instruct/135671",
        "llama-3.3-70b-instruct/136003",
        "gpt-4o-mini-2024-07-18/20250220103657",
    ),
)
_GEDE_MODEL = {
    "gpt-4o-mini-2024-07-18": "gpt-4o-mini-2024-07-18",
    "llama-3.3-70b-instruct": "Llama-3.3-70B-Instruct",
}
SOURCES = {
    "raidar_arxiv": ("RAIDAR arXiv abstracts", "arxiv"),
    "gede_brat": ("GEDE argumentative essays (brat-project)", "brat"),
    "gede_ielts": ("GEDE IELTS essays", "ielts"),
}


def make_row(
    *,
    regime: str,
    text: str,
    source_dataset: str,
    source_dataset_short: str,
    source_index: int,
    generator_model: str | None,
    human_words: int,
    free_llm_model: str | None = None,
) -> dict[str, Any]:
    """One schema row (flags are filled later by :func:`add_flags`)."""
    pair_id = f"{source_dataset_short}-{source_index:06d}"
    suffix = "human" if regime == "Human" else f"{regime.lower()}:{generator_model}"
    return {
        "id": f"{pair_id}:{suffix}",
        "text": text,
        "label": regime,
        "label_id": REGIMES.index(regime),
        "regime": regime,
        "source_dataset": source_dataset,
        "source_dataset_short": source_dataset_short,
        "generator_model": None if regime == "Human" else generator_model,
        "source_index": int(source_index),
        "pair_id": pair_id,
        "text_sha256": text_sha256(text),
        "word_count": word_count(text),
        "content_origin": CONTENT_ORIGIN[regime],
        "surface": SURFACE[regime],
        "length_stratum": length_stratum(human_words),
        "free_llm_model": (free_llm_model or generator_model) if regime != "Human" else None,
        "flag_short": False,
        "flag_refusal": False,
        "flag_non_english": False,
        "flag_duplicate": False,
    }


def _plain_or_gz(path: Path) -> Path:
    """``x.gz`` as named, or the plain ``x`` where only that is there (a fresh download
    from the source; ../shared/corpora gzip'ed its copies)."""
    plain = path.with_suffix("")
    return plain if not path.is_file() and plain.is_file() else path


def _read_json_gz(path: Path) -> Any:
    path = _plain_or_gz(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found (expected the RAIDAR layout)")
    try:
        return json.loads(read_text(path))  # gunzips *.gz
    except (OSError, json.JSONDecodeError) as error:
        raise DataError(f"{path}: cannot parse JSON ({error})") from error


def _raidar_arxiv(root: Path, dropped: Counter[str]) -> list[dict[str, Any]]:
    folder = root / "raidar" / "Arxiv"
    human = _read_json_gz(folder / "arXiv_human.json.gz")
    gpt = _read_json_gz(folder / "arxiv_GPT_concise.json.gz")
    rw_h = _read_json_gz(folder / "rewrite_arxiv_human_inv.json.gz")
    rw_g = _read_json_gz(folder / "rewrite_arxiv_GPT_inv.json.gz")
    n = len(human)
    for name, items in (("arxiv_GPT_concise", gpt), ("rewrite_human", rw_h), ("rewrite_GPT", rw_g)):
        if len(items) != n:
            raise DataError(f"{folder}: {name} has {len(items)} items, arXiv_human has {n}")
    rows: list[dict[str, Any]] = []
    src, short = "raidar/arxiv", "arxiv"
    for i in range(n):
        for name, item, keys in (
            ("arXiv_human", human[i], ("abs", "title")),
            ("arxiv_GPT_concise", gpt[i], ("abs", "title")),
            ("rewrite_arxiv_human_inv", rw_h[i], ("input", RAIDAR_PROMPT)),
            ("rewrite_arxiv_GPT_inv", rw_g[i], ("input", RAIDAR_PROMPT)),
        ):
            missing = [k for k in keys if k not in item]
            if missing:
                raise DataError(f"{folder / name}.json.gz: item {i}: missing key {missing[0]!r}")
        if human[i]["title"].strip() != gpt[i]["title"].strip():
            dropped["raidar arxiv: human/GPT titles differ at index"] += 1
            continue
        if rw_h[i]["input"].strip() != human[i]["abs"].strip():
            dropped["raidar arxiv: H2L input is not the human text"] += 1
            continue
        if rw_g[i]["input"].strip() != gpt[i]["abs"].strip():
            dropped["raidar arxiv: LLM2L input is not the GPT text"] += 1
            continue
        texts = {
            "Human": human[i]["abs"].strip(),
            "Free-LLM": gpt[i]["abs"].strip(),
            "H2L": rw_h[i][RAIDAR_PROMPT].strip(),
            "LLM2L": rw_g[i][RAIDAR_PROMPT].strip(),
        }
        empty = [r for r, t in texts.items() if not t]
        if empty:
            dropped[f"raidar arxiv: empty {empty[0]} text"] += 1
            continue
        hw = word_count(texts["Human"])
        for regime, text in texts.items():
            rows.append(
                make_row(
                    regime=regime,
                    text=text,
                    source_dataset=src,
                    source_dataset_short=short,
                    source_index=i,
                    generator_model="gpt-3.5-turbo",
                    human_words=hw,
                )
            )
    return rows


def _read_gede(path: Path) -> dict[str, tuple[str, str, str]]:
    """{row key: (question, human, llm)} of one GEDE ``data.csv.gz`` (or ``data.csv``)."""
    path = _plain_or_gz(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found (expected the GEDE layout)")
    records = csv_records(path, delimiter=";")  # the project's strict CSV reader
    first = next(records, None)
    header = first[1] if first is not None else None
    if header is None or header[1:] != ["question", "human", "llm"]:
        raise DataError(f"{path}: line 1: header {header!r}, expected ['', question, human, llm]")
    out: dict[str, tuple[str, str, str]] = {}
    for line, rec in records:
        if len(rec) != 4:
            raise DataError(f"{path}: record at line {line}: {len(rec)} fields, expected 4")
        if rec[0] in out:
            raise DataError(f"{path}: record at line {line}: duplicate key {rec[0]!r}")
        out[rec[0]] = (rec[1], rec[2], rec[3])
    return out


def _gede(root: Path, dropped: Counter[str]) -> list[dict[str, Any]]:
    base = root / "gede_prelim" / "datasets"
    rows: list[dict[str, Any]] = []
    humans_done: set[tuple[str, str]] = set()
    for ds, model, h2l_run, llm2l_run, task_run in GEDE_BLOCKS:
        short = "brat" if ds == "brat-project" else "ielts"
        src = f"gede/{ds}"
        task = _read_gede(base / ds / task_run / "data.csv.gz")
        h2l = _read_gede(base / ds / h2l_run / "data.csv.gz")
        llm2l = _read_gede(base / ds / llm2l_run / "data.csv.gz")
        info = json.loads((base / ds / llm2l_run / "info.json").read_text())["info"]
        expected_mode = "rewrite-" + task_run.rsplit("/", 1)[1]
        if info.get("prompt_mode") != expected_mode:
            raise DataError(
                f"{base / ds / llm2l_run / 'info.json'}: prompt_mode {info.get('prompt_mode')!r},"
                f" expected {expected_mode!r}"
            )
        free_model = _GEDE_MODEL[task_run.split("/", 1)[0]]
        keys = sorted(task, key=lambda k: int(k) if k.isdigit() else k)
        for key in keys:
            if key not in h2l or key not in llm2l:
                dropped[f"gede {ds}/{model}: source row missing from a rewrite run"] += 1
                continue
            _q, human, free = task[key]
            if h2l[key][1] != human or llm2l[key][1] != human:
                dropped[f"gede {ds}/{model}: human essay differs between runs"] += 1
                continue
            texts = {
                "Human": human.strip(),
                "Free-LLM": free.strip(),
                "H2L": h2l[key][2].strip(),
                "LLM2L": llm2l[key][2].strip(),
            }
            empty = [r for r, t in texts.items() if not t]
            if empty:
                dropped[f"gede {ds}/{model}: empty {empty[0]} text"] += 1
                continue
            hw = word_count(texts["Human"])
            index = int(key)
            for regime, text in texts.items():
                if regime == "Human":
                    if (short, key) in humans_done:
                        continue  # shared across generator blocks, stored once
                    humans_done.add((short, key))
                rows.append(
                    make_row(
                        regime=regime,
                        text=text,
                        source_dataset=src,
                        source_dataset_short=short,
                        source_index=index,
                        generator_model=model,
                        human_words=hw,
                        free_llm_model=free_model if regime in ("Free-LLM", "LLM2L") else None,
                    )
                )
    return rows


def build_rows(raw: Path) -> tuple[list[dict[str, Any]], dict[str, int], dict[str, int]]:
    """All quartet rows, the drop report and the quality-flag counts."""
    raw = Path(raw)
    if not (raw / "raidar").is_dir() or not (raw / "gede_prelim").is_dir():
        raise FileNotFoundError(
            f"{raw}: expected the corpora folder holding raidar/ and gede_prelim/"
        )
    dropped: Counter[str] = Counter()
    rows = _raidar_arxiv(raw, dropped) + _gede(raw, dropped)
    rows.sort(
        key=lambda r: (
            r["source_dataset_short"],
            r["source_index"],
            r["label_id"],
            r["generator_model"] or "",
        )
    )
    flags = add_flags(rows)
    return rows, dict(dropped), flags


def build(raw: Path | None) -> BuildResult:
    """Registry builder: ``{"quartets": {"train": rows}}`` and the drop report."""
    if raw is None:
        raise FileNotFoundError(f"{HUB_ID} is built from ../shared/corpora; pass --raw")
    rows, dropped, _ = build_rows(raw)
    return BuildResult({"quartets": {"train": rows}}, dropped)


def composition(rows: list[dict[str, Any]]) -> str:
    """Markdown table like the paper's Table 5 for these rows: n (mean +- sd words)."""
    import numpy as np

    datasets = sorted({r["source_dataset_short"] for r in rows})
    lines = ["| Dataset | " + " | ".join(REGIMES) + " |", "|---|" + "---|" * len(REGIMES)]
    for ds in [*datasets, None]:
        cells = []
        for regime in REGIMES:
            wc = [
                r["word_count"]
                for r in rows
                if r["regime"] == regime and (ds is None or r["source_dataset_short"] == ds)
            ]
            cells.append(f"{len(wc)} ({np.mean(wc):.0f} ± {np.std(wc, ddof=1):.0f})" if wc else "0")
        lines.append(f"| {ds or 'Total'} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


PAPER_TABLE5 = """| Dataset | Human | Free-LLM | H2L | LLM2L |
|---|---|---|---|---|
| XSum | 600 (295 ± 102) | 2400 (234 ± 105) | 2400 (232 ± 72) | 2400 (204 ± 96) |
| WritingPrompts | 600 (298 ± 104) | 2400 (254 ± 107) | 2400 (240 ± 76) | 2400 (229 ± 99) |
| OpenWebText | 600 (297 ± 103) | 2400 (224 ± 107) | 2400 (209 ± 72) | 2400 (196 ± 97) |
| Total | 1800 (297 ± 103) | 7200 (237 ± 107) | 7200 (227 ± 75) | 7200 (210 ± 99) |"""


def protocol_markdown(
    rows: list[dict[str, Any]] | None = None, flags: dict[str, int] | None = None
) -> str:
    """The card's build-protocol section: sources, alignment, prompts, decoding, Table 5."""
    from dataset_scripts.arb.prompts import DECODING, PROMPTS_MARKDOWN

    parts = [
        "Matched four-regime quartets (ARB, Perrone 2026, Sec. 4): **Human** (human content, "
        "human surface), **Free-LLM** (LLM content and surface), **H2L** (an LLM rewrite of the "
        "Human text) and **LLM2L** (an LLM rewrite of the Free-LLM text). A matched unit is "
        "`pair_id x generator_model`; the Human row of a source item is stored once "
        "(`generator_model` null) and shared by every generator block.",
        "",
        "### Sources and alignment",
        "",
        "- RAIDAR arXiv (`raidar/Arxiv`, Mao et al. ICLR 2024; generator gpt-3.5-turbo): human "
        "abstract, GPT-3.5 abstract for the same title, GPT-3.5 rewrites of each "
        f"(prompt `{RAIDAR_PROMPT}`). Alignment verified per index (equal titles, rewrite "
        "inputs equal to the rewritten texts).",
        "- GEDE preliminary runs (`gede_prelim`, brat-project and IELTS essays): block "
        "generator = rewriting model; H2L = its `rewrite-human` run; LLM2L = its rewrite of "
        "the other model's `task` run, which is the block's Free-LLM (`free_llm_model`). "
        "This LLM2L is a **cross-generator** second pass (ARB uses the same generator). "
        "Rows aligned by key, question and human essay across runs (all verified).",
        "- Not used: ARB's own XSum / WritingPrompts / OpenWebText generations (not "
        "available offline); `l2r_rewrite` (H2L only, no Free-LLM/LLM2L) and "
        "`fast_detectgpt_raw` (Human/Free-LLM continuations only) cannot form quartets. "
        "New quartets from any human source are produced by `stylebench arb generate`.",
        "",
        "### ARB generation protocol (for `stylebench arb generate`, App. A verbatim)",
        "",
        PROMPTS_MARKDOWN,
        "",
        "Decoding: " + ", ".join(f"`{k}={v}`" for k, v in DECODING.items()) + "; up to 3 "
        "retries; chat template with the system prompt merged into the user turn for Gemma.",
        "",
        "### Composition",
        "",
        "Paper Table 5 (ARB release):",
        "",
        PAPER_TABLE5,
        "",
    ]
    if rows:
        parts += ["This build (n texts, mean ± sd words):", "", composition(rows), ""]
    if flags:
        parts += [
            "### Quality flags (kept, not dropped; share of generated texts, cf. Sec. 4.6)",
            "",
            flag_summary(flags),
            "",
        ]
    parts += [
        "### Licences",
        "",
        "- ARB itself: Apache-2.0. Its sources: XSum (BBC articles, research use, no explicit "
        "licence), WritingPrompts (euclaise/writingprompts tagged MIT), OpenWebText (CC0 "
        "packaging of scraped web text).",
        "- This build: RAIDAR data has no LICENSE file (ICLR 2024 paper code; arXiv abstracts); "
        "GEDE preliminary data has no LICENSE file (essays from the Argument Annotated Essays "
        "corpus and IELTS essays). Research use only.",
    ]
    return "\n".join(parts)


def describe_build(
    tables: dict[str, dict[str, list[dict[str, Any]]]],
) -> tuple[str, dict[str, Any]]:
    """The card's protocol for the quartets written (this build's composition beside Table 5,
    its quality flags) and the flag counts for the build info; the writer calls it, so every
    command that writes quartets (``stylebench build arb/quartets``, ``stylebench arb build``,
    ``stylebench arb generate``) gives the same card for the same rows."""
    rows = [row for splits in tables.values() for part in splits.values() for row in part]
    flags = flag_counts(rows)
    return protocol_markdown(rows, flags), {"quality_flags": flags}


SPEC = DatasetSpec(
    hub_id=HUB_ID,
    pretty_name="ARB-style matched four-regime quartets (RAIDAR arXiv + GEDE essays)",
    summary=(
        "Human, Free-LLM, H2L and LLM2L texts for the same source items, built from the "
        "RAIDAR arXiv files and the GEDE preliminary essay runs, in the ARB release schema "
        "(Perrone 2026), for evaluating AI-text detectors under LLM-mediated rewriting."
    ),
    builder=build,
    license="research use only (RAIDAR and GEDE have no licence file)",
    source_url="https://github.com/cvlab-columbia/RaidarLLMDetect ; "
    "https://github.com/lukasgehring/Assessing-LLM-Text-Detection-in-Educational-Contexts",
    citation="""@article{perrone2026arb,
  title   = {{ARB}: A Matched Authorship-Rewriting Benchmark Dataset for {AI}-Text Detector Evaluation},
  author  = {Perrone, Gaetano},
  journal = {arXiv preprint arXiv:2607.29539},
  year    = {2026}
}
@inproceedings{mao2024raidar,
  title     = {Raidar: geneRative AI Detection viA Rewriting},
  author    = {Mao, Chengzhi and Vondrick, Carl and Wang, Hao and Yang, Junfeng},
  booktitle = {ICLR},
  year      = {2024}
}""",
    raw_format="RAIDAR Arxiv *.json.gz (lists of {title, abs} / {input, <prompt>: rewrite}); "
    "GEDE data.csv.gz (';'-separated ['', question, human, llm]) + info.json",
    protocol=protocol_markdown(),
    describe_build=describe_build,
    needs_raw=True,
    raw_hint="",
    run_command="stylebench arb run --data <this folder> --detector loglik "
    "--out scores.parquet && stylebench arb report --scores scores.parquet --out report/",
)


DATASETS = (SPEC,)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "arb_quartets",
        (
            github(
                "cvlab-columbia/RaidarLLMDetect",
                "6bd9752078d480ba4ed6b87d82c205942ec1e867",
                (("Arxiv/", "raidar/Arxiv/"),),
            ),
            github(
                "lukasgehring/Assessing-LLM-Text-Detection-in-Educational-Contexts",
                "0f73f6f6daa6847c699631560e1b7a9432cbb1d9",
                (("datasets/", "gede_prelim/datasets/"),),
            ),
        ),
        license="no licence files (RAIDAR, GEDE)",
        datasets=("arb/quartets",),
        note="joins RAIDAR's Arxiv/ and GEDE's datasets/ in one folder; no hashes recorded (the raidar and gede_prelim sources hold the same files, recorded)",
    ),
)
