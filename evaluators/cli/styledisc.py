"""``stylebench styledisc``: build triplet datasets (and the LLM setting), evaluate
metrics/judges/ensembles (``run``), report a run beside the paper, list datasets and
metrics, print the paper's reference tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from dataset_scripts.core.errors import StylebenchError
from evaluators.cli.datasets import (
    FamilyGroup,
    ListFilters,
    Listing,
    build_command,
    list_command,
    list_datasets,
)
from evaluators.cli.options import cache_options


@click.group(name="styledisc", cls=FamilyGroup)
def COMMAND() -> None:
    """Style discrimination benchmark (Jangra et al.): DD / AA / LLM triplets."""


_BUILD_OPTIONS = [
    click.option(
        "--llm-generator",
        default=None,
        help="Add LLM-setting rows: smollm2, hf:<model>, openai:<model>@<url>.",
    ),
    click.option(
        "--llm-n", type=int, default=2, show_default=True, help="LLM triplets per domain."
    ),
    click.option(
        "--llm-tokens",
        type=int,
        default=96,
        show_default=True,
        help="max new tokens per generated answer.",
    ),
    # the old spelling (`styledisc build --corpora C [--domain D] --out ROOT`), kept working
    click.option("--corpora", type=click.Path(path_type=Path), default=None, hidden=True),
    click.option("--domain", "domains", multiple=True, hidden=True),
]


def _prepare_build(values: dict[str, Any]) -> dict[str, Any]:
    """The style discrimination options -> :func:`build_datasets` keywords: the old
    spelling translated (and the new one printed), the LLM setting as the ``after`` step."""
    corpora, domains = values.pop("corpora"), values.pop("domains")
    generator, n, tokens = (
        values.pop("llm_generator"),
        values.pop("llm_n"),
        values.pop("llm_tokens"),
    )
    if domains:
        values["hub_ids"] = (*values["hub_ids"], *(f"styledisc/{d}" for d in domains))
    if corpora is not None:  # old: --out was the root the domain folders go under
        values["raw_root"] = corpora
        values["built_root"] = values.pop("out") or values["built_root"]
        values["out"] = None
        values["build_all"] = values["build_all"] or not values["hub_ids"]
    if corpora is not None or domains:
        what = " ".join(values["hub_ids"]) if values["hub_ids"] else "--all"
        click.echo(
            "note: --corpora/--domain are the old spelling; the same build is `stylebench "
            f"styledisc build {what}"
            + (f" --raw-root {values['raw_root']}" if values.get("raw_root") else "")
            + f" --built-root {values['built_root']}`",
            err=True,
        )
    if generator:
        values["after"] = _llm_setting(generator, n, tokens)
    return values


def _llm_setting(spec: str, n: int, tokens: int):
    """The step after a domain folder is built: add ``n`` LLM-setting triplets made by the
    generator ``spec`` and rewrite the folder (rows, card with the prompts, drop report)."""
    from evaluators.styledisc.generators import get_generator

    generator = get_generator(spec)

    def add_llm_rows(out_console, specs, folder: Path) -> None:
        import json
        from dataclasses import replace

        from dataset_scripts.core.hub_folder import BUILD_INFO, write_hub_folder
        from dataset_scripts.core.styledisc_schema import CONFIG, validate_triplets
        from dataset_scripts.styledisc.build import TOKEN_COUNTER
        from dataset_scripts.styledisc.tokens import get_token_counter
        from evaluators.styledisc.evaluation import load_triplets
        from evaluators.styledisc.llm_setting import llm_triplets

        (dataset,) = specs
        rows = load_triplets(folder)
        dropped = json.loads((folder / BUILD_INFO).read_text())["dropped"]
        llm_rows, llm_dropped = llm_triplets(
            rows, generator, get_token_counter(TOKEN_COUNTER), n=n, answer_tokens=tokens
        )
        rows += llm_rows
        dropped.update(llm_dropped)
        validate_triplets(rows, dataset.hub_id)
        with_prompts = replace(
            dataset, protocol=dataset.protocol + _prompt_section(generator.name, n)
        )
        write_hub_folder(with_prompts, {CONFIG: {"test": rows}}, folder, dropped)
        counts = {s: sum(r["setting"] == s for r in rows) for s in ("DD", "AA", "LLM")}
        out_console.print(f"added {len(llm_rows)} LLM-setting rows to {folder}  {counts}")

    return add_llm_rows


COMMAND.add_command(
    build_command(
        "styledisc",
        help="Build styledisc/<domain> folders (Parquet + card) from the raw corpora (a "
        "domain's DD negatives come from the other domains found beside it); "
        "`stylebench build styledisc/<domain>` is the same build. --llm-generator adds "
        "the LLM setting.",
        options=_BUILD_OPTIONS,
        prepare=_prepare_build,
    )
)


def _prompt_section(generator: str, n: int) -> str:
    from evaluators.styledisc.prompts import ALL_PROMPTS

    lines = [
        "",
        "",
        f"### LLM setting ({generator}, first {n} DD references per domain)",
        "",
        "The query is reconstructed from T_ref, then T+ is generated with the author's bag as "
        "style grounding and T- without it (greedy decoding). Prompts:",
        "",
    ]
    for name, prompt in ALL_PROMPTS.items():
        if name != "judge":
            lines += [f"**{name}**", "", "```", prompt, "```", ""]
    if generator.startswith("SmolLM2"):
        lines.append(
            "SmolLM2-135M rows are a pipeline check of the LLM setting, not benchmark data."
        )
    return "\n".join(lines)


@COMMAND.command()
@click.option(
    "--dataset",
    "datasets",
    multiple=True,
    required=True,
    help="Built styledisc folders (repeatable).",
)
@click.option("--metrics", default="BLEU,ROUGE1,ROUGE2,ROUGEL,METEOR", show_default=True)
@click.option(
    "--encoder",
    "encoders",
    multiple=True,
    default=("tfidf-ngrams", "minilm"),
    show_default=True,
    help="Style-embedding encoders (any stylebench encoder spec).",
)
@click.option(
    "--judge",
    "judges",
    multiple=True,
    help="LLM judges: smollm2, hf:<model>, openai:<model>@<url>.",
)
@click.option(
    "--judge-n", type=int, default=6, show_default=True, help="Triplets per setting the judges see."
)
@cache_options(
    "Embedding cache of the encoders (default: $STYLEBENCH_CACHE or "
    "~/.cache/stylebench/embeddings, shared with `stylebench run`)."
)
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=Path("stylebench_results/styledisc"),
    show_default=True,
)
def run(
    datasets: tuple[str, ...],
    metrics: str,
    encoders: tuple[str, ...],
    judges: tuple[str, ...],
    judge_n: int,
    cache_dir: Path | None,
    out: Path,
) -> None:
    """Evaluate metrics, judges and ensembles; write Tables 2-3, per-domain CSV and chart.
    Embedding metrics embed each unique text once per encoder through the Runner's cache."""
    import numpy as np

    from evaluators.console import cli_console
    from evaluators.styledisc.evaluation import MISSING, evaluate, load_triplets
    from evaluators.styledisc.metrics import EmbeddingMetric, get_metric, metric_votes
    from evaluators.styledisc.report import (
        PIPELINE_NOTE,
        render_rich,
        table2_rows,
        table3_rows,
        write_report,
    )

    console = cli_console()
    rows = [row for ref in datasets for row in load_triplets(ref)]
    votes: dict[str, np.ndarray] = {}
    families: dict[str, str] = {}
    open_source: dict[str, bool] = {}
    names = [m.strip() for m in metrics.split(",") if m.strip()] + [f"emb:{e}" for e in encoders]
    for name in names:
        metric = get_metric(name)
        if isinstance(metric, EmbeddingMetric):
            metric.cache_dir = cache_dir
        console.print(f"[dim]scoring {len(rows)} triplets with {metric.name}[/dim]")
        votes[metric.name], _, _ = metric_votes(metric, rows)
        families[metric.name], open_source[metric.name] = metric.family, metric.open_source
    judge_counts = {}
    if judges:
        from evaluators.styledisc.generators import get_generator
        from evaluators.styledisc.judge import judge_triplets

        sample = [
            i
            for s in ("DD", "AA", "LLM")
            for i in [j for j, r in enumerate(rows) if r["setting"] == s][:judge_n]
        ]
        for spec in judges:
            generator = get_generator(spec)
            console.print(f"[dim]judging {len(sample)} triplets with {generator.name}[/dim]")
            result = judge_triplets(generator, [rows[i] for i in sample])
            full = np.full(len(rows), MISSING, dtype=np.int8)
            full[sample] = result.votes
            votes[generator.name] = full
            families[generator.name], open_source[generator.name] = "llm", True
            judge_counts[generator.name] = result.counts
    ev = evaluate(rows, votes, families, open_source, judge_counts=judge_counts)
    console.print(
        render_rich(
            table2_rows(ev), "metric", "Table 2: accuracy (ours [95% CI]) vs paper", ("family",)
        )
    )
    console.print(
        render_rich(
            table3_rows(ev),
            "ensemble",
            "Table 3: best ensembles (held-out eval split)",
            ("members",),
        )
    )
    if judges:
        console.print(f"[yellow]{PIPELINE_NOTE}[/yellow]")
    chart = [*votes, *(n for n in ("PWV:ngram", "PWV:not_llm") if n in ev.votes)]
    paths = write_report(ev, out, chart)
    for kind, path in paths.items():
        console.print(f"{kind}: {path}")


@COMMAND.command()
@click.option(
    "--results",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    default=None,
    help="A folder written by `stylebench styledisc run` (its results.json); default: the "
    "paper's tables only (= `styledisc reference`).",
)
def report(results: Path | None) -> None:
    """Tables 2 and 3 of a run beside the paper's values, from its results.json."""
    import json

    from evaluators.console import cli_console
    from evaluators.styledisc.evaluation import Score
    from evaluators.styledisc.report import render_rich

    if results is None:
        reference.callback()
        return
    path = results / "results.json"
    if not path.is_file():
        raise StylebenchError(
            f"{results}: no results.json (write it with `stylebench styledisc run`)"
        )
    data = json.loads(path.read_text())

    def scores(row: dict[str, Any]) -> dict[str, Any]:
        return {
            k: Score(v["accuracy"], v["ci_low"], v["ci_high"], v["n"])
            if isinstance(v, dict) and "accuracy" in v
            else v
            for k, v in row.items()
        }

    console = cli_console()
    console.print(
        render_rich(
            [scores(r) for r in data["table2"]],
            "metric",
            "Table 2: accuracy (ours [95% CI]) vs paper",
            ("family",),
        )
    )
    console.print(
        render_rich(
            [scores(r) for r in data["table3"]],
            "ensemble",
            "Table 3: best ensembles (held-out eval split)",
            ("members",),
        )
    )
    console.print(f"[dim]{path}[/dim]")


def list_metrics(_: ListFilters) -> Listing:
    """The similarity metrics ``styledisc run`` takes (--metrics, --encoder)."""
    from evaluators.styledisc.metrics import NGRAM_METRICS, STYLE_ENCODERS

    listing = Listing(["metric", "family", "what"])
    for name in NGRAM_METRICS:
        listing.rows.append([name, "ngram", "n-gram overlap of reference and candidate"])
    for name, spec in STYLE_ENCODERS.items():
        listing.rows.append([name, "embedding", f"the paper's style encoder ({spec})"])
    listing.rows.append(
        ["emb:<encoder>", "embedding", "cosine of any stylebench encoder (--encoder)"]
    )
    return listing


COMMAND.add_command(
    list_command(
        "styledisc",
        {"datasets": list_datasets, "metrics": list_metrics},
        help="List style discrimination datasets or metrics.",
    )
)


@COMMAND.command()
def reference() -> None:
    """Print the paper's Tables 2 and 3 (reference values shipped as data)."""
    from evaluators.styledisc.reference import SOURCE, TABLE2, TABLE3

    click.echo(f"source: {SOURCE}")
    click.echo("Table 2 (DD, AA, LLM, Mean):")
    for name, vals in TABLE2.items():
        click.echo(f"  {name:<14} " + "  ".join(f"{v:.3f}" for v in vals))
    click.echo("Table 3:")
    for (strategy, family), (members, vals) in TABLE3.items():
        click.echo(
            f"  {strategy:<3} {family:<8} {' '.join(members):<55} "
            + "  ".join(f"{v:.3f}" for v in vals)
        )
