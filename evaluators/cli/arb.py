"""``stylebench arb``: build the quartet set, score texts with detectors (``run``),
the block-bootstrap report, list datasets and detectors, generate quartets."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import click

from dataset_scripts.core.errors import StylebenchError
from evaluators.cli.datasets import (
    FamilyGroup,
    ListFilters,
    Listing,
    alias,
    build_command,
    corpora_root,
    list_command,
    list_datasets,
)
from evaluators.cli.options import cache_options, scoring_lm_options, seed_option


@click.group("arb", cls=FamilyGroup)
def COMMAND() -> None:
    """ARB: four-regime quartets, AI-text detectors, block-bootstrap report."""


def _raw_is_the_corpora_root(values: dict[str, Any]) -> dict[str, Any]:
    """arb/quartets reads two corpora side by side: without --raw, the folder holding
    them (--raw-root, default ../shared/corpora)."""
    if values["raw"] is None:
        values["raw"] = values["raw_root"] or corpora_root()
    return values


COMMAND.add_command(
    build_command(
        "arb",
        help="Build arb/quartets (Parquet + card) from the real corpora: --raw is the folder "
        "holding raidar/ and gede_prelim/ (default: --raw-root, else ../shared/corpora). "
        "`stylebench build arb/quartets --raw <that folder>` is the same build.",
        prepare=_raw_is_the_corpora_root,
    )
)


def list_detectors(_: ListFilters) -> Listing:
    """The detectors ``arb run`` and ``detect run`` take."""
    from evaluators.arb.detectors import ZERO_SHOT

    listing = Listing(["detector", "kind", "higher score means"])
    for name, sign in ZERO_SHOT.items():
        direction = "machine" if sign > 0 else "human (the score is negated)"
        listing.rows.append([name, "zero-shot, on a causal LM (--model)", direction])
    listing.rows.append(["tfidf", "supervised: TF-IDF + logistic regression", "machine"])
    listing.rows.append(["hf:<model>", "a sequence classifier (--machine-label)", "machine"])
    return listing


COMMAND.add_command(
    list_command(
        "arb",
        {"datasets": list_datasets, "detectors": list_detectors},
        help="List ARB datasets or the detectors.",
    )
)


def _load_rows(data: Path):  # -> pandas.DataFrame
    import pandas as pd

    files = sorted(Path(data).glob("data/quartets/*.parquet"))
    if not files:
        raise StylebenchError(
            f"{data}: no data/quartets/*.parquet (build it with `stylebench arb build`)"
        )
    return pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)


def _sample(df, per_block: int, seed: int):
    """Pick ``per_block`` pair_ids per dataset x generator block (seeded); returns the
    chosen pair ids (the rest are held out)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    gen = df[df["regime"] != "Human"]
    chosen: set[str] = set()
    for (_, _), bt in gen.groupby(["source_dataset_short", "generator_model"], sort=True):
        ids = np.array(sorted(bt["pair_id"].unique()))
        take = (
            ids
            if per_block <= 0 or per_block >= len(ids)
            else rng.choice(ids, per_block, replace=False)
        )
        chosen.update(take.tolist())
    return chosen


@COMMAND.command("run")
@click.option(
    "--data", type=click.Path(path_type=Path), required=True, help="Built arb/quartets folder."
)
@click.option(
    "--detector",
    "detectors",
    multiple=True,
    required=True,
    help="loglik, logrank, entropy, fastdetectgpt, binoculars, tfidf, hf:<model>.",
)
@scoring_lm_options(
    "Scoring / performer causal LM (folder, <dir>::<file.gguf> or smollm2).",
    "Sampling (Fast-DetectGPT) / observer (Binoculars) model; default: --model.",
)
@click.option("--machine-label", default=None, help="hf:<model>: the machine class.")
@click.option(
    "--per-block",
    type=int,
    default=0,
    show_default=True,
    help="Pairs sampled per dataset x generator block (0 = all).",
)
@click.option("--max-tokens", type=int, default=512, show_default=True)
@click.option("--batch-size", type=int, default=8, show_default=True)
@seed_option
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    required=True,
    help="Score table (.parquet); a .json with configs and timings is written next.",
)
def run_cmd(
    data, detectors, model, reference, machine_label, per_block, max_tokens, batch_size, seed, out
) -> None:
    """Score texts with detectors; raw and standardised scores are kept.

    The TF-IDF baseline is trained on the pairs NOT in the evaluation sample (Human = 0,
    Free-LLM = 1: the conventional direct-generation training set)."""
    import pandas as pd

    from evaluators.arb.detectors import get_detector, share_model_passes, standardise

    df = _load_rows(data)
    chosen = _sample(df, per_block, seed)
    ev = df[df["pair_id"].isin(chosen)].reset_index(drop=True)
    texts = ev["text"].tolist()
    built = [
        get_detector(
            d,
            model=model,
            reference=reference,
            max_tokens=max_tokens,
            batch_size=batch_size,
            machine_label=machine_label,
        )
        for d in detectors
    ]
    share_model_passes(built)
    frames, meta = [], {"n_texts": len(texts), "n_pairs": len(chosen), "detectors": {}}
    for name, det in zip(detectors, built, strict=True):
        t0 = time.perf_counter()
        if name == "tfidf":
            train = df[~df["pair_id"].isin(chosen) & df["regime"].isin(["Human", "Free-LLM"])]
            if train.empty:
                raise StylebenchError("no held-out pairs left to train the TF-IDF baseline")
            det.fit(train["text"].tolist(), (train["regime"] == "Free-LLM").astype(int).tolist())
        raw = det.raw_scores(texts)
        secs = time.perf_counter() - t0
        frames.append(
            pd.DataFrame(
                {
                    "id": ev["id"],
                    "pair_id": ev["pair_id"],
                    "regime": ev["regime"],
                    "dataset": ev["source_dataset_short"],
                    "generator": ev["generator_model"].fillna(""),
                    "detector": name,
                    "raw": raw,
                    "score": standardise(raw, det.orientation),
                }
            )
        )
        meta["detectors"][name] = det.config() | {"seconds": round(secs, 2)}
        click.echo(f"{name}: {len(texts)} texts in {secs:.1f} s")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    pd.concat(frames, ignore_index=True).to_parquet(out)
    out.with_suffix(".json").write_text(json.dumps(meta, indent=2, default=str))
    click.echo(f"wrote {out}")


@COMMAND.command("report")
@click.option("--scores", type=click.Path(path_type=Path, exists=True), required=True)
@click.option(
    "--data",
    type=click.Path(path_type=Path),
    default=None,
    help="Quartet folder: adds Table 10 transformation diagnostics.",
)
@click.option(
    "--semantic-encoder",
    default=None,
    help="Encoder spec for semantic similarity in Table 10 (e.g. minilm).",
)
@cache_options(
    "Embedding cache of --semantic-encoder (default: $STYLEBENCH_CACHE or "
    "~/.cache/stylebench/embeddings, shared with `stylebench run`)."
)
@click.option("--resamples", type=int, default=5000, show_default=True)
@seed_option
@click.option("--out", type=click.Path(path_type=Path), required=True)
def report_cmd(scores, data, semantic_encoder, cache_dir, resamples, seed, out) -> None:
    """Tables 7-10 (paper's values beside) and figures as PNG."""
    import pandas as pd

    from evaluators.arb.report import diagnostics, evaluate_scores, write_report

    table = pd.read_parquet(scores)
    t0 = time.perf_counter()
    results = evaluate_scores(table, resamples, seed)
    t_boot = time.perf_counter() - t0
    diag = None
    if data is not None:
        df = _load_rows(data)
        ids = set(table["pair_id"])
        df = df[df["pair_id"].isin(ids)]
        text = {
            (r.pair_id, r.regime, None if r.regime == "Human" else r.generator_model): r.text
            for r in df.itertuples()
        }
        paths: dict[str, dict[str, list[tuple[str, str]]]] = {"H2L": {}, "LLM2L": {}}
        gen = df[df["regime"] != "Human"]
        for (ds, g), bt in gen.groupby(["source_dataset_short", "generator_model"], sort=True):
            for pid in sorted(bt["pair_id"].unique()):
                h = text.get((pid, "Human", None))
                f, h2, l2 = (text.get((pid, r, g)) for r in ("Free-LLM", "H2L", "LLM2L"))
                if None in (h, f, h2, l2):
                    continue
                paths["H2L"].setdefault(f"{ds}|{g}", []).append((h, h2))
                paths["LLM2L"].setdefault(f"{ds}|{g}", []).append((f, l2))
        if not paths["H2L"]:
            raise StylebenchError(f"{data}: no complete quartet matches the score table")
        enc = None
        if semantic_encoder:
            texts = [
                t for blocks in paths.values() for ps in blocks.values() for p in ps for t in p
            ]
            enc = _embedded(semantic_encoder, texts, cache_dir)
        diag = (
            diagnostics(paths["H2L"], enc, resamples, seed),
            diagnostics(paths["LLM2L"], enc, resamples, seed),
        )
    n_blocks = len(next(iter(results.values())).blocks)
    header = (
        f"{len(results)} detector(s), {n_blocks} dataset x generator blocks, "
        f"{resamples:,} block-bootstrap resamples (seed {seed}); bootstrap "
        f"{t_boot:.1f} s."
    )
    path = write_report(results, out, diag, header)
    click.echo(f"wrote {path}")


def _embedded(spec: str, texts: list[str], cache_dir: Path | None):
    """An object whose ``encode`` returns the vectors of ``texts``, each unique text
    embedded once through the Runner and the embedding cache at ``cache_dir`` (None: no
    cache)."""
    from types import SimpleNamespace

    from evaluators.encoders import get_encoder
    from evaluators.run.runner import Runner

    runner = Runner(get_encoder(spec), spec, cache_dir=cache_dir)
    lookup, _ = runner.embed(texts, "ARB texts")
    return SimpleNamespace(encode=lookup)


COMMAND.add_command(alias(run_cmd, "score", "Old spelling of `stylebench arb run`.", hidden=True))


@COMMAND.command("generate")
@click.option(
    "--source",
    "sources",
    multiple=True,
    required=True,
    help="NAME=HUB_ID or NAME=path.jsonl/.json/.txt-folder (see arb generate docs).",
)
@click.option(
    "--generator",
    required=True,
    help="Local model (folder, <dir>::<gguf>, smollm2) or openai:<model>@<base_url>.",
)
@click.option("--per-stratum", type=int, default=200, show_default=True)
@click.option("--max-new-tokens", type=int, default=512, show_default=True)
@seed_option
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    required=True,
    help="Work folder (resumable: generations.jsonl is appended).",
)
def generate_cmd(sources, generator, per_stratum, max_new_tokens, seed, out) -> None:
    """Generate Free-LLM / H2L / LLM2L quartets with ARB's prompts and decoding."""
    from evaluators.arb.generate import run_generation

    summary = run_generation(
        list(sources),
        generator,
        out,
        per_stratum=per_stratum,
        max_new_tokens=max_new_tokens,
        seed=seed,
    )
    click.echo(json.dumps(summary, indent=2))
