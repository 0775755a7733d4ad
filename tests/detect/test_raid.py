"""`stylebench detect run --protocol raid` and the RAID-shaped API (issue #30).

RAID's rule (liamdugan/raid, ``raid/evaluate.py``): a threshold per domain, set on that
domain's human texts only, to reach the target FPR; TPR of the machine texts of every
combination of the group columns (and "all") at their domain's threshold; AUROC against the
domain's human texts; null where the domain cannot reach the target. The reference below
is written here from that rule, by brute force over every candidate threshold, and shares
no code with ``evaluators.detect.raid`` or ``metric_math``. Of the thresholds with the same
(largest within budget) FPR on the human texts it takes the lowest, as ours does; RAID's
own step search lands anywhere in that gap and may overshoot the target by its
``epsilon`` of 0.0005 (see the module docstring of ``evaluators.detect.raid``).
"""

from __future__ import annotations

import gzip
import itertools
import json
import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

from evaluators.cli import main
from evaluators.detect.raid import evaluate_detection, raid_records, run_detection

FPRS = (0.05, 0.01)


def reference_threshold(human: np.ndarray, target: float) -> float | None:
    """The lowest cut ``u`` (flag iff score > u) whose FPR on ``human`` is at most
    ``target``; None when that FPR is 0 (the target cannot be met)."""
    best = None
    for u in sorted(set(human.tolist()), reverse=True):  # lower cuts flag more humans
        fpr = float(np.mean(human > u))
        if fpr <= target + 1e-12:
            best = (u, fpr)
    if best is None or best[1] == 0.0:
        return None
    return best[0]


def reference_records(frame: pd.DataFrame, columns: list[str], fprs=FPRS) -> dict:
    """``{(group values): {"auroc", "n_human", "n_machine", tpr@f...}}`` by RAID's rule."""
    humans = frame[frame.label == 0]
    machines = frame[frame.label == 1]
    cut = {
        f: {d: reference_threshold(g.score.to_numpy(), f) for d, g in humans.groupby("domain")}
        for f in fprs
    }
    out = {}
    values = [[*sorted(machines[c].unique()), "all"] for c in columns]
    for combo in itertools.product(*values):
        m = machines
        for c, v in zip(columns, combo, strict=True):
            if v != "all":
                m = m[m[c] == v]
        if m.empty:
            continue
        domain = dict(zip(columns, combo, strict=True)).get("domain", "all")
        h = humans if domain == "all" else humans[humans.domain == domain]
        record = {"n_machine": len(m), "n_human": len(h)}
        y = np.r_[np.zeros(len(h)), np.ones(len(m))]
        record["auroc"] = roc_auc_score(y, np.r_[h.score, m.score]) if len(h) else None
        for f in fprs:
            cuts = [cut[f].get(d) for d in m.domain]
            if any(c is None for c in cuts):
                record[f"tpr@{f:g}fpr"] = None
            else:
                record[f"tpr@{f:g}fpr"] = float(np.mean(m.score.to_numpy() > np.array(cuts)))
        out[combo] = record
    return out


def _compare(records: list[dict], reference: dict, columns: list[str]) -> tuple[int, int]:
    """Every record equals the reference; returns (TPRs compared, nulls)."""
    assert len(records) == len(reference)
    compared = nulls = 0
    for r in records:
        want = reference[tuple(r[c] for c in columns)]
        assert (r["n_machine"], r["n_human"]) == (want["n_machine"], want["n_human"])
        assert r["auroc"] == pytest.approx(want["auroc"], abs=1e-12)
        for f in FPRS:
            key = f"tpr@{f:g}fpr"
            if want[key] is None:
                assert r[key] is None, (r, want)
                nulls += 1
            else:
                assert r[key] == pytest.approx(want[key], abs=1e-12), (r, want)
                compared += 1
    return compared, nulls


@settings(max_examples=40, deadline=None)
@given(
    data=st.lists(
        st.tuples(
            st.integers(0, 1), st.sampled_from("abc"), st.sampled_from("xy"), st.integers(0, 9)
        ),
        min_size=4,
        max_size=120,
    )
)
def test_records_equal_the_reference_on_any_tied_set(data) -> None:
    frame = pd.DataFrame(data, columns=["label", "domain", "generator", "score"])
    frame["score"] = frame["score"].astype(float)
    if not (frame.label == 1).any():
        return
    groups = {"domain": frame.domain.tolist(), "generator": frame.generator.tolist()}
    records, _ = raid_records(frame.score.to_numpy(), frame.label.to_numpy(), groups, "domain")
    _compare(records, reference_records(frame, ["domain", "generator"]), ["domain", "generator"])


def test_api_shaped_like_raid() -> None:
    rng = np.random.default_rng(3)
    rows = []
    for i in range(400):
        domain = ["news", "books"][i % 2]
        model = "human" if i < 240 else ["gpt", "llama"][i % 3 % 2]
        rows.append(
            {"id": f"r{i}", "generation": f"text {i}", "domain": domain, "model": model,
             "attack": "none" if i % 5 else "homoglyph"}
        )  # fmt: skip
    frame = pd.DataFrame(rows)
    value = {r["generation"]: rng.normal(1.0 if r["model"] != "human" else 0.0) for r in rows}
    results = run_detection(lambda texts: [value[t] for t in texts], frame)
    assert [r["id"] for r in results] == frame.id.tolist()
    out = evaluate_detection(results, frame, target_fpr=[0.05, 0.01])
    frame["score"] = [r["score"] for r in results]
    frame["label"] = (frame.model != "human").astype(int)
    columns = ["domain", "model", "attack"]
    _compare(out["scores"], reference_records(frame, columns), columns)
    # 120 human texts per domain: 1% of 120 is 1.2, so one false positive fits
    assert out["thresholds"]["tpr@0.01fpr"]["news"]["achieved_fpr"] == pytest.approx(1 / 120)
    with pytest.raises(Exception, match="2 scores for 400 rows"):
        evaluate_detection([0.1, 0.2], frame)


def _detectrl_frame(corpora: Path) -> pd.DataFrame:
    folder = corpora / "detectrl" / "Benchmark" / "Tasks" / "Task1"
    rows = []
    for domain, per_file in (("arxiv", 600), ("xsum", 200), ("writing_prompt", 200)):
        path = folder / f"multi_domains_{domain}_test.json.gz"
        if not path.is_file():
            pytest.skip(f"{path} is not present")
        records = json.loads(gzip.decompress(path.read_bytes()))
        for r in random.Random(0).sample(records, per_file):
            human = r["label"] == "human"
            rows.append(
                {"text": r["text"], "label": r["label"], "domain": domain,
                 "generator": "human" if human else r["llm_type"],
                 "attack": "none" if human else r["data_type"]}
            )  # fmt: skip
    return pd.DataFrame(rows)


def _fast_detectgpt_frame(corpora: Path) -> pd.DataFrame:
    folder = corpora / "fast_detectgpt_raw" / "exp_main" / "data"
    if not folder.is_dir():
        pytest.skip(f"{folder} is not present")
    rows = []
    for path in sorted(folder.glob("*.raw_data.json")):
        domain, generator = path.name.split(".raw_data")[0].split("_", 1)
        pairs = json.loads(path.read_text())
        for human, machine in list(zip(pairs["original"], pairs["sampled"], strict=True))[:25]:
            rows.append({"text": human, "label": "human", "domain": domain, "generator": "human"})
            rows.append(
                {"text": machine, "label": "machine", "domain": domain, "generator": generator}
            )
    return pd.DataFrame(rows)


@pytest.mark.slow
@pytest.mark.corpora
@pytest.mark.parametrize("corpus", ["detectrl", "fast_detectgpt"])
def test_protocol_raid_on_real_corpora(corpus: str, corpora: Path, tmp_path: Path) -> None:
    frame = _detectrl_frame(corpora) if corpus == "detectrl" else _fast_detectgpt_frame(corpora)
    columns = [c for c in ("domain", "generator", "attack") if c in frame]
    path = tmp_path / f"{corpus}.csv"
    frame.to_csv(path, index=False)
    out = tmp_path / "run"
    args = ["detect", "run", "--data", str(path), "--detector", "tfidf", "--protocol", "raid",
            "--out", str(out), "--no-progress"]  # fmt: skip
    for c in columns:
        args += ["--group-column", c]
    main(args)
    result = json.loads((out / "detection.json").read_text())
    assert result["protocol"] == "raid" and result["fprs"] == [0.05, 0.01]
    scores = pd.read_csv(out / "scores.csv", keep_default_na=False)
    scores = scores.rename(columns={"score:tfidf": "score"})
    compared, nulls = _compare(result["results"], reference_records(scores, columns), columns)
    assert compared > 10 and nulls > 0  # both cases occur on these samples
    thresholds = result["raid"]["thresholds"]["tfidf"]
    for key, target in (("tpr@0.05fpr", 0.05), ("tpr@0.01fpr", 0.01)):
        for domain, c in thresholds[key].items():
            humans = scores[(scores.label == 0) & (scores.domain == domain)].score.to_numpy()
            assert c["reachable"] == (reference_threshold(humans, target) is not None)
            if c["reachable"]:
                assert 0 < c["achieved_fpr"] <= target
                assert c["achieved_fpr"] == pytest.approx(np.mean(humans >= c["threshold"]))
    if corpus == "fast_detectgpt":  # human texts repeat across the generator files
        assert result["data"]["leaks"]["exact_duplicate_rows"] > 0


class _Length:
    orientation = 1.0

    def raw_scores(self, texts):
        return np.array([len(t) for t in texts], float)

    def config(self):
        return {"detector": "length"}


@pytest.mark.parametrize("protocol", ["default", "raid"])
def test_output_files_never_hold_formulas(tmp_path: Path, protocol: str) -> None:
    """Issue #26 item 16 (the detector part): a group value like `=HYPERLINK(...)` goes
    into detection.csv as text."""
    from evaluators.detect.data import load_detection_set
    from evaluators.detect.run import run_detection as run_files
    from tests.byod.conftest import detection_rows

    rows = detection_rows(30, 30)
    for i, r in enumerate(rows):
        r["domain"] = '=HYPERLINK("http://x","y")' if i % 2 else "+news"
    path = tmp_path / "f.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    data = load_detection_set(path, group_columns=["domain"])
    out = tmp_path / protocol
    run_files(data, {"length": _Length()}, out, n_resamples=10, progress=False, log=str,
              protocol=protocol, domain_column="domain" if protocol == "raid" else None)  # fmt: skip
    text = (out / "detection.csv").read_text()
    assert "'=HYPERLINK" in text and "'+news" in text
    assert not any(line.startswith(("=", "+")) for line in text.splitlines())
    assert not any(",=" in line or ",+" in line for line in text.splitlines())
    assert not list(out.glob("*.tmp"))
