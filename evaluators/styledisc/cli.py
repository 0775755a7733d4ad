"""``stylebench styledisc``: build triplet datasets, evaluate metrics/judges/ensembles,
print the paper's reference tables."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click
import numpy as np

from evaluators.errors import StylebenchError


@click.group(name="styledisc")
def COMMAND() -> None:
    """Style discrimination benchmark (Jangra et al.): DD / AA / LLM triplets."""


@COMMAND.command()
@click.option(
    "--corpora",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    required=True,
    help="Folder holding reuters21578/, ccat50/, enron_emails_drndr/, raidar/, detectrl/, m4_llama2/.",
)
@click.option("--out", type=click.Path(path_type=Path), default=Path("built"), show_default=True)
@click.option("--domain", "domains", multiple=True, help="Domains to build (default: all found).")
@click.option(
    "--llm-generator",
    default=None,
    help="Add LLM-setting rows: smollm2, hf:<model>, openai:<model>@<url>.",
)
@click.option("--llm-n", type=int, default=2, show_default=True, help="LLM triplets per domain.")
@click.option(
    "--llm-tokens",
    type=int,
    default=96,
    show_default=True,
    help="max new tokens per generated answer.",
)
def build(
    corpora: Path,
    out: Path,
    domains: tuple[str, ...],
    llm_generator: str | None,
    llm_n: int,
    llm_tokens: int,
) -> None:
    """Build styledisc/<domain> folders (Parquet + card) from the raw corpora."""
    from dataset_scripts.hub_folder import write_hub_folder
    from dataset_scripts.styledisc.build import DOMAINS, SPECS, TOKEN_COUNTER, build_domain
    from dataset_scripts.styledisc.schema import CONFIG, validate_triplets
    from dataset_scripts.styledisc.tokens import get_token_counter

    chosen = list(domains) or [
        d for d, spec in DOMAINS.items() if (corpora / spec.raw_hint).is_dir()
    ]
    unknown = [d for d in chosen if d not in DOMAINS]
    if unknown:
        raise StylebenchError(f"unknown domain {unknown[0]!r}; known: {', '.join(DOMAINS)}")
    generator = None
    if llm_generator:
        from evaluators.styledisc.generators import get_generator

        generator = get_generator(llm_generator)
    for domain in chosen:
        rows, dropped = build_domain(corpora, domain)
        if generator is not None:
            from evaluators.styledisc.llm_setting import llm_triplets

            llm_rows, llm_dropped = llm_triplets(
                rows, generator, get_token_counter(TOKEN_COUNTER), n=llm_n, answer_tokens=llm_tokens
            )
            rows += llm_rows
            dropped.update(llm_dropped)
        validate_triplets(rows, f"styledisc/{domain}")
        spec = SPECS[domain]
        if generator is not None:
            spec = replace(spec, protocol=spec.protocol + _prompt_section(generator.name, llm_n))
        folder = write_hub_folder(spec, {CONFIG: {"test": rows}}, out / spec.slug, dropped)
        counts = {s: sum(r["setting"] == s for r in rows) for s in ("DD", "AA", "LLM")}
        click.echo(f"built styledisc/{domain} -> {folder}  {counts}")


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
    out: Path,
) -> None:
    """Evaluate metrics, judges and ensembles; write Tables 2-3, per-domain CSV and chart."""
    from rich.console import Console

    from evaluators.styledisc.evaluation import MISSING, evaluate, load_triplets
    from evaluators.styledisc.metrics import get_metric, metric_votes
    from evaluators.styledisc.report import (
        PIPELINE_NOTE,
        render_rich,
        table2_rows,
        table3_rows,
        write_report,
    )

    console = Console()
    rows = [row for ref in datasets for row in load_triplets(ref)]
    votes: dict[str, np.ndarray] = {}
    families: dict[str, str] = {}
    open_source: dict[str, bool] = {}
    names = [m.strip() for m in metrics.split(",") if m.strip()] + [f"emb:{e}" for e in encoders]
    for name in names:
        metric = get_metric(name)
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
