"""Tables 2-3 (with the paper's values beside ours), per-domain accuracy, Figure 2-like
chart, Markdown/CSV/JSON outputs."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.styledisc_schema import SETTINGS
from evaluators.styledisc.evaluation import Evaluation, Score
from evaluators.styledisc.prompts import ALL_PROMPTS
from evaluators.styledisc.reference import TABLE1, TABLE2, TABLE3, reference_row

PIPELINE_NOTE = (
    "The LLM judge and the LLM-setting generator here are SmolLM2-135M: a pipeline check "
    "that the setting and the judge run end to end offline, NOT a result about LLM judges "
    "or personalised generation (the paper used gpt-4o for generation and 3B-671B judges)."
)


def _cell(s: Score | None) -> str:
    if s is None:
        return "-"
    if math.isnan(s.low):
        return f"{s.accuracy:.3f}"
    return f"{s.accuracy:.3f} [{s.low:.2f}, {s.high:.2f}]"


def table2_rows(ev: Evaluation) -> list[dict[str, Any]]:
    names = [n for n in ev.votes if ev.families[n] != "ensemble"]
    names = ["Random", *[n for n in names if n != "Random"]]
    table = ev.table(names)
    rows = []
    for name in names:
        ref = reference_row(name)
        row: dict[str, Any] = {"metric": name, "family": ev.families[name]}
        for col in (*SETTINGS, "Mean"):
            row[col] = table[name].get(col)
        row["paper"] = ref
        rows.append(row)
    return rows


def table3_rows(ev: Evaluation) -> list[dict[str, Any]]:
    eval_mask = ~ev.fit
    singles = [n for n in ("Random", "BLEU") if n in ev.votes]
    rows = []
    for name in singles:
        cells = ev.table([name], eval_mask)[name]
        rows.append(
            {
                "ensemble": name,
                "members": "-",
                "paper_members": "-",
                **cells,
                "paper": reference_row(name),
            }
        )
    for comp in ev.compositions:
        name = f"{comp.strategy}:{comp.family}"
        cells = ev.table([name], eval_mask)[name]
        paper = TABLE3.get((comp.strategy, comp.family))
        rows.append(
            {
                "ensemble": f"rho^{comp.strategy}_{comp.family}",
                "members": " ".join(comp.members),
                "paper_members": " ".join(paper[0]) if paper else "-",
                **cells,
                "paper": paper[1] if paper else None,
            }
        )
    return rows


def _markdown(rows: list[dict[str, Any]], key: str, extra: tuple[str, ...] = ()) -> str:
    head = [key, *extra, *SETTINGS, "Mean", "paper DD / AA / LLM / Mean"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        paper = row.get("paper")
        ref = " / ".join(f"{v:.3f}" for v in paper) if paper else "-"
        cells = [str(row[key]), *(str(row[e]) for e in extra)]
        cells += [_cell(row.get(c)) for c in (*SETTINGS, "Mean")]
        lines.append("| " + " | ".join([*cells, ref]) + " |")
    return "\n".join(lines)


def render_rich(rows: list[dict[str, Any]], key: str, title: str, extra: tuple[str, ...] = ()):
    from rich.table import Table

    table = Table(title=title)
    for col in (key, *extra):
        table.add_column(col)
    for col in (*SETTINGS, "Mean"):
        table.add_column(f"{col}\n[95% CI]", justify="right")
    table.add_column("paper\nDD/AA/LLM/Mean", justify="right")
    for row in rows:
        paper = row.get("paper")
        table.add_row(
            str(row[key]),
            *(str(row[e]) for e in extra),
            *(_cell(row.get(c)) for c in (*SETTINGS, "Mean")),
            " / ".join(f"{v:.3f}" for v in paper) if paper else "-",
        )
    return table


def table1_markdown(ev: Evaluation) -> str:
    """Average words of T_ref / T+ / T- per domain and setting, the paper's Table 1 beside
    (columns T_ref / T+ / T- as in the paper)."""
    lines = [
        "| domain | #authors | setting | n | words T_ref / T+ / T- | paper T_ref / T+ / T- |",
        "|---|---|---|---|---|---|",
    ]
    domains = sorted({r["domain"] for r in ev.rows})
    for domain in domains:
        authors = {r["author"] for r in ev.rows if r["domain"] == domain and r["author"]}
        for setting in SETTINGS:
            sub = [r for r in ev.rows if r["domain"] == domain and r["setting"] == setting]
            if not sub:
                continue
            means = [
                np.mean([len(r[c].split()) for r in sub])
                for c in ("reference", "positive", "negative")
            ]
            paper = TABLE1.get(domain)
            ref = "-"
            if paper and setting in paper[1]:
                ref = " / ".join(str(v) for v in paper[1][setting])
            lines.append(
                f"| {domain} | {len(authors) or 'none'} | {setting} | {len(sub)} | "
                + " / ".join(f"{m:.0f}" for m in means)
                + f" | {ref} |"
            )
    return "\n".join(lines)


def domain_rows(ev: Evaluation, names: list[str]) -> list[dict[str, Any]]:
    """Accuracy per (metric, setting, domain), all triplets."""
    out = []
    for setting in SETTINGS:
        mask = ev.settings == setting
        if not mask.any():
            continue
        table = ev.table(names, mask, by="domain")
        for name in names:
            for domain, s in table[name].items():
                out.append({"metric": name, "setting": setting, "domain": domain, **s.as_dict()})
    return out


def plot_domains(rows: list[dict[str, Any]], path: Path) -> Path:
    """Figure 2-like chart: one panel per setting, domains on x, one bar per metric."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    settings = [s for s in SETTINGS if any(r["setting"] == s for r in rows)]
    metrics = list(dict.fromkeys(r["metric"] for r in rows))
    fig, axes = plt.subplots(1, len(settings), figsize=(6 * len(settings), 4.2), squeeze=False)
    for ax, setting in zip(axes[0], settings, strict=True):
        sub = [r for r in rows if r["setting"] == setting]
        domains = sorted({r["domain"] for r in sub})
        x = np.arange(len(domains))
        width = 0.8 / max(len(metrics), 1)
        for i, metric in enumerate(metrics):
            vals = {r["domain"]: r for r in sub if r["metric"] == metric}
            heights = [vals[d]["accuracy"] if d in vals else np.nan for d in domains]
            err = [
                [vals[d]["accuracy"] - vals[d]["ci_low"] if d in vals else 0 for d in domains],
                [vals[d]["ci_high"] - vals[d]["accuracy"] if d in vals else 0 for d in domains],
            ]
            ax.bar(
                x + (i - (len(metrics) - 1) / 2) * width,
                heights,
                width,
                yerr=err,
                capsize=1.5,
                label=metric,
                error_kw={"elinewidth": 0.6},
            )
        ax.axhline(0.5, color="grey", lw=0.8, ls="--")
        ax.set_xticks(x, domains, rotation=30, ha="right", fontsize=8)
        ax.set_ylim(0, 1.05)
        ax.set_title(f"{setting}: accuracy per domain (95% CI)")
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("accuracy")
    axes[0][-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path


def write_report(ev: Evaluation, out: Path, chart_metrics: list[str]) -> dict[str, Path]:
    """Write table2.md/.csv, table3.md, domains.csv, results.json and domains.png."""
    out.mkdir(parents=True, exist_ok=True)
    t2, t3 = table2_rows(ev), table3_rows(ev)
    doms = domain_rows(ev, [m for m in chart_metrics if m in ev.votes])
    counts = {s: int((ev.settings == s).sum()) for s in SETTINGS}
    md = [
        "# Style discrimination results",
        "",
        f"Triplets: {counts} (fit split for ensembles: {int(ev.fit.sum())}).",
        "",
        "## Table 1: triplet statistics (average words)",
        "",
        table1_markdown(ev),
        "",
        "## Table 2: accuracy of each metric (all triplets; 95% percentile-bootstrap CI)",
        "",
        "Mean = mean over the settings present in this run (the paper's Mean covers DD, AA "
        "and LLM). Accuracy: share of triplets where S(T_ref, T+) > S(T_ref, T-); ties and "
        "judge answers other than T+ are wrong.",
        "",
        _markdown(t2, "metric", ("family",)),
        "",
        "## Table 3: best ensemble per family (chosen and weighted on the fit split, "
        "scored on the held-out eval split)",
        "",
        _markdown(t3, "ensemble", ("members", "paper_members")),
        "",
    ]
    if ev.judge_counts:
        md += ["## LLM judge answers", ""]
        md += [f"- {name}: {counts}" for name, counts in ev.judge_counts.items()]
        md += ["", PIPELINE_NOTE, ""]
    md += ["## Prompts (LLM setting and judge)", ""]
    for name, prompt in ALL_PROMPTS.items():
        md += [f"### {name}", "", "```", prompt, "```", ""]
    paths = {
        "markdown": out / "report.md",
        "table2": out / "table2.csv",
        "domains": out / "domains.csv",
    }
    paths["markdown"].write_text("\n".join(md))
    with paths["table2"].open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["metric", "setting", "accuracy", "ci_low", "ci_high", "n", "paper"])
        for row in t2:
            for i, col in enumerate((*SETTINGS, "Mean")):
                s = row.get(col)
                if s is not None:
                    paper = row["paper"][i] if row["paper"] else ""
                    writer.writerow(
                        [
                            row["metric"],
                            col,
                            f"{s.accuracy:.4f}",
                            f"{s.low:.4f}",
                            f"{s.high:.4f}",
                            s.n,
                            paper,
                        ]
                    )
    with paths["domains"].open("w", newline="") as handle:
        writer = csv.DictWriter(
            handle, fieldnames=["metric", "setting", "domain", "accuracy", "ci_low", "ci_high", "n"]
        )
        writer.writeheader()
        writer.writerows(doms)
    paths["json"] = out / "results.json"
    paths["json"].write_text(
        json.dumps(
            {
                "table2": [
                    {**{k: (v.as_dict() if isinstance(v, Score) else v) for k, v in r.items()}}
                    for r in t2
                ],
                "table3": [
                    {**{k: (v.as_dict() if isinstance(v, Score) else v) for k, v in r.items()}}
                    for r in t3
                ],
                "pwv_weights": ev.weights,
                "judge_answers": ev.judge_counts,
                "reference_table2": TABLE2,
            },
            indent=2,
            default=str,
        )
    )
    if doms:
        paths["chart"] = plot_domains(doms, out / "domains.png")
    return paths
