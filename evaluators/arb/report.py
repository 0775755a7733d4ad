"""ARB report: blocks from a long score table, Tables 7-10 in the paper's layout with the
paper's values beside, transformation diagnostics and the figures (PNG).

Score table (written by ``stylebench arb run``): one row per (text, detector) with columns
``pair_id, regime, dataset, generator, detector, raw, score`` where ``score`` is the oriented
standardised score (higher = machine). The Human row of a pair is joined to every
generator block of its dataset.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import DataError
from evaluators.arb import reference as ref
from evaluators.arb.stats import REGIMES, DetectorSummary, bootstrap
from evaluators.metric_math.resampling import block_mean_interval

BLOCK_SEP = "|"


def blocks_from_scores(table: Any) -> dict[str, dict[str, np.ndarray]]:
    """{detector: {"dataset|generator": (n, 4) scores}} from a long score DataFrame.

    Only complete quartets enter (a pair lacking a regime in a block is left out of that
    block, as in ARB where only complete validated quartets are scored)."""
    required = {"pair_id", "regime", "dataset", "generator", "detector", "score"}
    missing = required - set(table.columns)
    if missing:
        raise DataError(f"score table: missing columns {sorted(missing)}")
    out: dict[str, dict[str, np.ndarray]] = {}
    for det, dt in table.groupby("detector", sort=True):
        human = dt[dt["regime"] == "Human"].set_index("pair_id")["score"]
        gen = dt[dt["regime"] != "Human"]
        blocks: dict[str, np.ndarray] = {}
        for (ds, g), bt in gen.groupby(["dataset", "generator"], sort=True):
            wide = bt.pivot_table(index="pair_id", columns="regime", values="score")
            wide = wide.reindex(columns=list(REGIMES[1:])).dropna()
            wide = wide[wide.index.isin(human.index)].sort_index()
            if len(wide) < 2:
                continue
            arr = np.column_stack([human.loc[wide.index].to_numpy(), wide.to_numpy()])
            blocks[f"{ds}{BLOCK_SEP}{g}"] = arr
        out[str(det)] = blocks
    return out


# ---------------------------------------------------------------- diagnostics (Table 10)


def token_ned(a: str, b: str) -> float:
    """Levenshtein distance between whitespace-token sequences / the longer length."""
    x, y = a.split(), b.split()
    if not x and not y:
        return 0.0
    if not x or not y:
        return 1.0
    vocab: dict[str, int] = {}
    xi = np.array([vocab.setdefault(t, len(vocab)) for t in x])
    yi = np.array([vocab.setdefault(t, len(vocab)) for t in y])
    prev = np.arange(len(yi) + 1)
    for i in range(1, len(xi) + 1):
        sub = prev[:-1] + (yi != xi[i - 1])
        cur = np.empty_like(prev)
        cur[0] = i
        # cur[j] = min(prev[j] + 1, cur[j-1] + 1, sub[j-1]): the left term is a running min
        best = np.minimum(prev[1:] + 1, sub)
        # resolve the insertion chain: cur[j] = min_k<=j (best[k] + (j - k)), cur[0] = i
        tmp = np.concatenate(([i], best)) - np.arange(len(yi) + 1)
        cur = np.minimum.accumulate(tmp) + np.arange(len(yi) + 1)
        prev = cur
    return float(prev[-1] / max(len(x), len(y)))


def jaccard(a: str, b: str) -> float:
    """Jaccard overlap of lower-cased word-type sets."""
    x, y = set(a.lower().split()), set(b.lower().split())
    return len(x & y) / len(x | y) if x | y else 1.0


def diagnostics(
    pairs: Mapping[str, Sequence[tuple[str, str]]],
    encoder: Any | None = None,
    n_resamples: int = 5000,
    seed: int = 42,
) -> dict[str, tuple[float, tuple[float, float]]]:
    """Table 10 aspects for one rewriting path: {aspect: (macro mean, CI)}.

    ``pairs`` maps block -> [(source, target)]; ``encoder`` (anything with ``encode``)
    gives the cosine semantic similarity, omitted when None.
    """
    per: dict[str, dict[str, np.ndarray]] = {
        "word_ratio": {},
        "token_ned": {},
        "jaccard": {},
    }
    if encoder is not None:
        per["semantic_similarity"] = {}
    for block, items in pairs.items():
        per["word_ratio"][block] = np.array(
            [len(t.split()) / max(1, len(s.split())) for s, t in items]
        )
        per["token_ned"][block] = np.array([token_ned(s, t) for s, t in items])
        per["jaccard"][block] = np.array([jaccard(s, t) for s, t in items])
        if encoder is not None:
            src = np.asarray(encoder.encode([s for s, _ in items]), dtype=np.float64)
            tgt = np.asarray(encoder.encode([t for _, t in items]), dtype=np.float64)
            num = (src * tgt).sum(1)
            den = np.linalg.norm(src, axis=1) * np.linalg.norm(tgt, axis=1)
            per["semantic_similarity"][block] = num / np.where(den > 0, den, 1.0)
    return {k: block_mean_interval(v, n_resamples, seed) for k, v in per.items()}


# ---------------------------------------------------------------- tables


def _fmt(v: float, lo: float, hi: float) -> str:
    return f"{v:.3f} [{lo:.3f}, {hi:.3f}]"


def _fv(v: ref.Value) -> str:
    return _fmt(*v)


def table7(results: Mapping[str, DetectorSummary]) -> str:
    lines = [
        "| Detector | Comparison | TPR@1%FPR | AUROC |",
        "|---|---|---|---|",
    ]
    for det, s in results.items():
        for comp in REGIMES[1:]:
            t, a = f"tpr:{comp}", f"auc:{comp}"
            lines.append(
                f"| {det} | Human vs. {comp} | {_fmt(s.estimate[t], *s.ci[t])} | "
                f"{_fmt(s.estimate[a], *s.ci[a])} |"
            )
    lines += ["", "Paper (Table 7):", "", lines[0], lines[1]]
    for det, comps in ref.TABLE7.items():
        for comp, (t, a) in comps.items():
            lines.append(f"| {det} | Human vs. {comp} | {_fv(t)} | {_fv(a)} |")
    return "\n".join(lines)


def table8(results: Mapping[str, DetectorSummary]) -> str:
    head = "| Detector | ΔTPR@1%FPR H2L | ΔAUROC H2L | ΔTPR@1%FPR LLM2L | ΔAUROC LLM2L |"
    keys = ("delta_tpr:H2L", "delta_auc:H2L", "delta_tpr:LLM2L", "delta_auc:LLM2L")
    lines = [head, "|---|---|---|---|---|"]
    for det, s in results.items():
        lines.append(f"| {det} | " + " | ".join(_fmt(s.estimate[k], *s.ci[k]) for k in keys) + " |")
    lines += ["", "Paper (Table 8):", "", head, "|---|---|---|---|---|"]
    for det, vals in ref.TABLE8.items():
        lines.append(f"| {det} | " + " | ".join(_fv(v) for v in vals) + " |")
    return "\n".join(lines)


def table9(results: Mapping[str, DetectorSummary]) -> str:
    head = "| Detector | TPR@1%FPR gap [95% CI] | AUROC gap [95% CI] |"
    lines = [head, "|---|---|---|"]
    for det, s in results.items():
        lines.append(
            f"| {det} | {_fmt(s.estimate['gap_tpr'], *s.ci['gap_tpr'])} | "
            f"{_fmt(s.estimate['gap_auc'], *s.ci['gap_auc'])} |"
        )
    lines += ["", "Paper (Table 9):", "", head, "|---|---|---|"]
    for det, (t, a) in ref.TABLE9.items():
        lines.append(f"| {det} | {_fv(t)} | {_fv(a)} |")
    return "\n".join(lines)


def table10(h2l: Mapping[str, Any], llm2l: Mapping[str, Any]) -> str:
    names = {
        "word_ratio": "Word ratio",
        "token_ned": "Token NED",
        "jaccard": "Jaccard overlap",
        "semantic_similarity": "Semantic similarity",
    }
    lines = [
        "| Aspect | Human→H2L | Free-LLM→LLM2L | paper Human→H2L | paper Free-LLM→LLM2L | "
        "paper interpretation |",
        "|---|---|---|---|---|---|",
    ]
    for k, label in names.items():
        ph, pl, interp = ref.TABLE10[k]
        mine_h = _fmt(h2l[k][0], *h2l[k][1]) if k in h2l else "-"
        mine_l = _fmt(llm2l[k][0], *llm2l[k][1]) if k in llm2l else "-"
        lines.append(f"| {label} | {mine_h} | {mine_l} | {_fv(ph)} | {_fv(pl)} | {interp} |")
    return "\n".join(lines)


def block_table(results: Mapping[str, DetectorSummary]) -> str:
    """Per detector x block x comparison: n, TPR@1%FPR, achieved FPR, AUROC."""
    lines = [
        "| Detector | Block | n | Comparison | TPR@1%FPR | achieved FPR | AUROC |",
        "|---|---|---|---|---|---|---|",
    ]
    for det, s in results.items():
        for b in s.blocks:
            for comp in REGIMES[1:]:
                lines.append(
                    f"| {det} | {b.block} | {b.n} | {comp} | {b.tpr[comp]:.3f} | "
                    f"{b.achieved_fpr[comp]:.3f} | {b.auc[comp]:.3f} |"
                )
    return "\n".join(lines)


# ---------------------------------------------------------------- figures


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def delta_heatmap(results: Mapping[str, DetectorSummary], regime: str, path: Path) -> Path:
    """Figures 2/3: mean ΔTPR@1%FPR (regime - Free-LLM) by detector x dataset, averaged over
    generators."""
    plt = _plt()
    dets = list(results)
    datasets = sorted({b.block.split(BLOCK_SEP)[0] for s in results.values() for b in s.blocks})
    grid = np.full((len(dets), len(datasets)), np.nan)
    for i, d in enumerate(dets):
        for j, ds in enumerate(datasets):
            vals = [
                b.tpr[regime] - b.tpr["Free-LLM"]
                for b in results[d].blocks
                if b.block.split(BLOCK_SEP)[0] == ds
            ]
            grid[i, j] = np.mean(vals) if vals else np.nan
    fig, ax = plt.subplots(figsize=(1.6 + 1.4 * len(datasets), 1.0 + 0.5 * len(dets)))
    im = ax.imshow(grid, cmap="RdBu", vmin=-1, vmax=1, aspect="auto")
    for (i, j), v in np.ndenumerate(grid):
        ax.text(j, i, "-" if np.isnan(v) else f"{v:.2f}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(len(datasets)), datasets)
    ax.set_yticks(range(len(dets)), dets)
    ax.set_title(f"Mean ΔTPR@1%FPR under {regime} ({regime} − Free-LLM)")
    fig.colorbar(im, ax=ax)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def block_heatmaps(
    results: Mapping[str, DetectorSummary], metric: str, path: Path, regime: str = "H2L"
) -> Path:
    """Figures 6/7: one panel per detector, generator x dataset cells, 0-1 scale."""
    plt = _plt()
    dets = list(results)
    blocks = [b.block for b in next(iter(results.values())).blocks]
    datasets = sorted({b.split(BLOCK_SEP)[0] for b in blocks})
    gens = sorted({b.split(BLOCK_SEP)[1] for b in blocks})
    fig, axes = plt.subplots(
        1, len(dets), figsize=(0.8 + 2.6 * len(dets), 0.9 + 0.45 * len(gens)), squeeze=False
    )
    im = None
    for ax, d in zip(axes[0], dets, strict=True):
        grid = np.full((len(gens), len(datasets)), np.nan)
        for b in results[d].blocks:
            ds, g = b.block.split(BLOCK_SEP)
            val = (b.auc if metric == "auc" else b.tpr)[regime]
            grid[gens.index(g), datasets.index(ds)] = val
        im = ax.imshow(grid, cmap="viridis", vmin=0, vmax=1, aspect="auto")
        for (i, j), v in np.ndenumerate(grid):
            if not np.isnan(v):
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=7, color="w")
        ax.set_xticks(range(len(datasets)), datasets, fontsize=7)
        ax.set_yticks(range(len(gens)), gens, fontsize=7)
        ax.set_title(d, fontsize=9)
    label = "AUROC" if metric == "auc" else "TPR@1%FPR"
    fig.suptitle(f"{label}, Human vs. {regime}, per generator x dataset block")
    if im is not None:
        fig.colorbar(im, ax=axes[0].tolist())
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def regime_bars(results: Mapping[str, DetectorSummary], path: Path) -> Path:
    """Figure 4: mean TPR@1%FPR for Free-LLM, LLM2L, H2L with bootstrap 95% CIs."""
    plt = _plt()
    dets = list(results)
    regimes = ("Free-LLM", "LLM2L", "H2L")
    x = np.arange(len(dets))
    w = 0.27
    fig, ax = plt.subplots(figsize=(1.5 + 1.6 * len(dets), 3.4))
    for k, r in enumerate(regimes):
        est = np.array([results[d].estimate[f"tpr:{r}"] for d in dets])
        lo = np.array([results[d].ci[f"tpr:{r}"][0] for d in dets])
        hi = np.array([results[d].ci[f"tpr:{r}"][1] for d in dets])
        ax.bar(x + (k - 1) * w, est, w, yerr=[est - lo, hi - est], capsize=3, label=r)
    ax.set_xticks(x, dets)
    ax.set_ylim(0, 1)
    ax.set_ylabel("TPR@1%FPR (macro over blocks)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def write_report(
    results: Mapping[str, DetectorSummary],
    out_dir: Path,
    diag: tuple[Mapping[str, Any], Mapping[str, Any]] | None = None,
    header: str = "",
) -> Path:
    """Write report.md (Tables 7-10 with the paper's values), results.json and figures."""
    import json

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    figs = [
        delta_heatmap(results, "H2L", out_dir / "fig2_delta_tpr_h2l.png"),
        delta_heatmap(results, "LLM2L", out_dir / "fig3_delta_tpr_llm2l.png"),
        regime_bars(results, out_dir / "fig4_regime_tpr.png"),
        block_heatmaps(results, "auc", out_dir / "fig6_auroc_h2l_blocks.png"),
        block_heatmaps(results, "tpr", out_dir / "fig7_tpr_h2l_blocks.png"),
    ]
    parts = [
        "# ARB evaluation report",
        "",
        header,
        "",
        f"Paper values: {ref.SOURCE}.",
        "",
        "## Table 7: pairwise detection performance",
        "",
        table7(results),
        "",
        "## Table 8: deltas relative to Free-LLM",
        "",
        table8(results),
        "",
        "## Table 9: operational gap (LLM2L − H2L)",
        "",
        table9(results),
        "",
    ]
    parts += [
        "## Block-level estimates and operating points",
        "",
        "Threshold set on each block's Human scores: flag iff score >= threshold, the largest "
        "TPR with FPR <= 1%; tied scores are never split, so the achieved FPR can be below 1%.",
        "",
        block_table(results),
        "",
    ]
    if diag is not None:
        parts += ["## Table 10: textual change of the two rewriting paths", "", table10(*diag), ""]
    parts += ["## Figures", ""] + [f"![{p.stem}]({p.name})" for p in figs]
    (out_dir / "report.md").write_text("\n".join(parts) + "\n")
    payload = {d: s.as_dict() for d, s in results.items()}
    if diag is not None:
        payload["_diagnostics"] = {
            "H2L": {k: [v[0], list(v[1])] for k, v in diag[0].items()},
            "LLM2L": {k: [v[0], list(v[1])] for k, v in diag[1].items()},
        }
    (out_dir / "results.json").write_text(json.dumps(payload, indent=2))
    return out_dir / "report.md"


def evaluate_scores(
    table: Any, n_resamples: int = 5000, seed: int = 42
) -> dict[str, DetectorSummary]:
    """Bootstrap every detector of a long score table."""
    blocks = blocks_from_scores(table)
    if not blocks or not any(blocks.values()):
        raise DataError("score table holds no complete quartet block")
    return bootstrap(blocks, n_resamples, seed)
