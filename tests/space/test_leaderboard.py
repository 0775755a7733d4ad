"""The leaderboard's data layer (no server): every view against an independent
computation (``evaluators.benchmarks.Benchmark.aggregate``, ``steb_scores.scores``'
``evaluate_spec``, plain pandas), coverage without averages over missing cells, CIs,
filters, the paper fallback, table checks, the submission checks and /health."""

from __future__ import annotations

import math
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.space.synthetic_table import synthetic_table

SMALL = 40


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return synthetic_table(n_models=SMALL, seed=3, missing_every=7, other_every=4)


@pytest.fixture(scope="module")
def board(table):
    from stylebench_space.leaderboard_data import Leaderboard, check_table

    return Leaderboard(check_table(table, "synthetic"), "synthetic")


def _main(table: pd.DataFrame, key: str) -> pd.DataFrame:
    name, version = key.rstrip(")").split("(")
    rows = table[(table["benchmark"] == name) & (table["benchmark_version"] == version)]
    return rows[rows["is_main"]]


def test_by_task_type_equals_benchmark_aggregate(board, table) -> None:
    from evaluators.benchmarks import benchmarks

    for key in ("STEB(v1)", "STEB-lite(v1)", "Valla(v1)"):
        bench = benchmarks()[key]
        frame, _ = board.table(key, "by task type")
        got = frame.set_index("model")
        main = _main(table, key)
        assert set(got.index) == set(main["model"])
        n_units = len(bench.units)
        for model, rows in main.groupby("model"):
            values = {
                (d, t): v
                for d, t, v in zip(rows["dataset"], rows["task"], rows["value"], strict=True)
            }
            want = bench.aggregate(values)
            cell = got.loc[model, "score"]
            if want.value is None:
                assert math.isnan(cell), (key, model)
                assert math.isnan(
                    got.loc[model, "rank"] if got.loc[model, "rank"] is not None else float("nan")
                )
            else:
                assert cell == pytest.approx(round(100 * want.value, 2), abs=1e-9)
            datasets = {d for d, _ in bench.units}
            complete = {
                d for d in datasets if all((d, t) in values for dd, t in bench.units if dd == d)
            }
            assert got.loc[model, "coverage"] == f"{len(complete)}/{len(datasets)}"
        assert n_units > 0
    # the models the synthetic table leaves a unit out of get no STEB(v1) score
    frame, _ = board.table("STEB(v1)", "by task type")
    incomplete = frame[frame["coverage"] != "113/113"]
    assert len(incomplete) == len(range(3, SMALL, 7)) and incomplete["score"].isna().all()
    assert incomplete["rank"].isna().all() and frame["rank"].iloc[0] == 1
    assert list(frame.index[frame["rank"].notna()]) == list(range(frame["rank"].notna().sum()))


def test_steb_views_equal_steb_scores(board, table) -> None:
    """Operational and definitional cells of complete models equal steb_scores.scores'
    evaluate_spec on the same units (each dataset its own cluster)."""
    from evaluators.benchmarks import benchmarks
    from evaluators.steb_scores import scores

    bench = benchmarks()["STEB(v1)"]
    available: dict[str, set[str]] = {}
    for d, t in bench.units:
        available.setdefault(d, set()).add(t)
    rows = table[(table["benchmark"] == "STEB")]
    for view in ("operational", "definitional", "application", "multilingual"):
        if view == "operational":
            foreign = scores.multilingual_datasets()
            by_task: dict[str, set[str]] = {}
            for d, tasks in available.items():
                if d not in foreign:
                    for t in tasks:
                        by_task.setdefault(t, set()).add(d)
            spec = scores.operational_spec(by_task, None)
        else:
            spec = scores.build_spec(
                view, [_score(d, t) for d, ts in available.items() for t in ts]
            )
        frame, _ = board.table("STEB(v1)", view)
        got = frame[frame["source"] == "table"].set_index("model")
        checked = 0
        for model, group in rows.groupby("model"):
            values = {
                (d, t, m): v
                for d, t, m, v in zip(
                    group["dataset"], group["task"], group["metric"], group["value"], strict=True
                )
            }
            if got.loc[model, "coverage"].split("/")[0] != got.loc[model, "coverage"].split("/")[1]:
                continue
            want = scores.evaluate_spec(spec, values)
            for column, value in want.items():
                assert got.loc[model, column] == pytest.approx(round(100 * value, 2), abs=0.0051), (
                    view,
                    column,
                )
            checked += 1
        assert checked >= SMALL - len(range(3, SMALL, 7))


def _score(dataset: str, task: str):
    from evaluators.steb_scores.results import Score

    return Score(model="x", dataset=dataset, task=task, main_score_name="m", metrics={})


def test_paper_rows_and_fallback(board) -> None:
    from evaluators.steb_scores.reference import view_reference

    frame, caption = board.table("STEB(v1)", "definitional")
    paper = frame[frame["source"] == "paper"].set_index("model")
    reference = view_reference("definitional")
    assert len(paper) == len(reference) == 40
    for model, values in reference.items():
        assert paper.loc[model, "average"] == pytest.approx(100 * values["average"], abs=0.011)
        assert paper.loc[model, "coverage"] == "paper"
    assert "paper" in caption

    from stylebench_space.leaderboard_data import PAPER_ONLY, Leaderboard

    empty = Leaderboard(None, "none")
    assert empty.benchmark_names() == [PAPER_ONLY]
    assert empty.views(PAPER_ONLY) == ["operational", "definitional", "application", "multilingual"]
    frame, _ = empty.table(PAPER_ONLY, "operational")
    reference = view_reference("operational")
    best = max(reference, key=lambda m: reference[m]["steb_score"])
    assert frame["model"].iloc[0] == best and len(frame) == 40
    assert frame["steb_score"].iloc[0] == pytest.approx(100 * reference[best]["steb_score"])


def test_interval_is_the_normal_approximation(board, table) -> None:
    frame, _ = board.table("STEB(v1)", "by task type")
    row = frame.iloc[0]
    main = _main(table, "STEB(v1)")
    rows = main[main["model"] == row["model"]]
    se = (rows["ci_high"] - rows["ci_low"]) / (2 * 1.959963984540054)
    per_task = rows.assign(var=se**2).groupby("task")["var"].agg(["sum", "count"])
    n_tasks = len(per_task)
    var = float((per_task["sum"] / per_task["count"] ** 2).sum() / n_tasks**2)
    half = 100 * 1.959963984540054 * math.sqrt(var)
    assert row["ci_high"] - row["ci_low"] == pytest.approx(2 * half, abs=0.011)
    assert row["ci_low"] < row["score"] < row["ci_high"]


def test_filters(board) -> None:
    from stylebench_space.leaderboard_data import Filters

    everything, _ = board.table("STEB(v1)", "by task type")
    opened, caption = board.table("STEB(v1)", "by task type", Filters(open_only=True))
    assert set(opened["model"]) == set(
        everything.loc[everything["open_weights"].map(lambda v: v is True), "model"]
    )
    assert "Filtered" in caption
    sized, _ = board.table("STEB(v1)", "by task type", Filters(size="100M - 1B"))
    assert sized["n_parameters"].between(1e8, 1e9, inclusive="left").all() and len(sized)
    two, _ = board.table(
        "STEB(v1)", "by task type", Filters(task_types=("clustering", "retrieval"))
    )
    assert [c for c in two.columns if c in ("clustering", "retrieval", "probing")] == [
        "clustering",
        "retrieval",
    ]
    both = two.dropna(subset=["clustering", "retrieval"])
    assert np.allclose(both["score"], (both["clustering"] + both["retrieval"]) / 2, atol=0.0051)
    # the definitional paper rows cannot be split by task: left out, and the caption says so
    frame, caption = board.table("STEB(v1)", "definitional", Filters(task_types=("clustering",)))
    assert (frame["source"] == "table").all() and "no per-task split" in caption


def test_drilldown_and_pair(board, table) -> None:
    model = board.models("STEB(v1)")[0]
    detail = board.drilldown("STEB(v1)", model)
    rows = table[(table["benchmark"] == "STEB") & (table["model"] == model)]
    assert len(detail) == len(rows)
    assert np.allclose(sorted(detail["value"]), sorted(np.round(100 * rows["value"], 2)))
    other = board.models("STEB(v1)")[1]
    pair = board.paired("STEB(v1)", model, other)
    assert len(pair) == len(
        set(zip(*[rows[rows["is_main"]][c] for c in ("dataset", "task")], strict=True))
    )


def test_check_table_names_the_problem(table) -> None:
    from stylebench_space.leaderboard_data import check_table

    from dataset_scripts.core.errors import DataError

    with pytest.raises(DataError, match="lacks column"):
        check_table(table.drop(columns=["ci_low"]), "t.parquet")
    bad = table.head(20).copy()
    bad["value"] = bad["value"].astype(object)
    bad.loc[7, "value"] = "high"
    with pytest.raises(DataError, match=r"row 7, column value: 'high' is not a number"):
        check_table(bad, "t.parquet")
    twice = pd.concat([table.head(3), table.head(1)], ignore_index=True)
    with pytest.raises(DataError, match="row 3 repeats an earlier row"):
        check_table(twice, "t.parquet")


@pytest.mark.slow
def test_results_repository_table_reads(tmp_path: Path) -> None:
    """The real `results table` of a real repository reads and shows its model."""
    from stylebench_space.leaderboard_data import Leaderboard, read_table

    from evaluators.results.table import results_table
    from tests.space.submissions import good_repository

    repo = good_repository(tmp_path)
    results_table(repo).to_parquet(tmp_path / "t.parquet", index=False)
    for source in (tmp_path / "t.parquet", repo):
        frame, where = read_table(source)
        board = Leaderboard(frame, where)
        shown, _ = board.table("(no benchmark)", "by task type")
        assert list(shown["model"]) == ["function-words"] and shown["coverage"].iloc[0] == "1/1"
        mrr = frame[(frame["task"] == "retrieval") & frame["is_main"]]["value"].iloc[0]
        assert shown["retrieval"].iloc[0] == round(100 * mrr, 2)


@pytest.mark.slow
def test_pair_panel_runs_stylebench_compare(tmp_path: Path, monkeypatch) -> None:
    """From a results-repository folder the model-vs-model panel is `stylebench compare`:
    its scores are the ones compare tests (the main score; for clustering the mean
    V-measure over the recorded k-means seeds, issue 41, which the note says), its
    differences those scores apart, its Holm p-values no smaller than the raw ones; from a
    Parquet table it is the labelled paired scatter of the main scores."""
    from stylebench_space import leaderboard_data, leaderboard_tab
    from stylebench_space.safety import UserError

    from evaluators.compare.records import read_records
    from evaluators.compare.units import seed_v_measures, units_of
    from evaluators.results.table import results_table
    from tests.space.submissions import good_repository

    monkeypatch.setenv("STYLEBENCH_SPACE_HOME", str(tmp_path / "home"))
    repo = good_repository(
        tmp_path, models=("function-words", "random"), tasks=("retrieval", "clustering")
    )
    table = results_table(repo)
    main = table[table["is_main"]].set_index(["model", "task"])["value"]
    tested = {}  # (model, task) -> the score compare tests, re-derived from the items
    for model in ("function-words", "random"):
        for (_, task), (path, rec) in read_records([repo]).of(model).items():
            u = units_of(rec, path)
            if task == "clustering":
                assert u.point == pytest.approx(seed_v_measures(u.arrays).mean())
            else:
                assert u.point == pytest.approx(main[(model, task)])
            tested[(model, task)] = u.point
    for source, compared in ((repo, True), (None, False)):
        if source is None:
            table.to_parquet(tmp_path / "t.parquet", index=False)
            source = tmp_path / "t.parquet"
        monkeypatch.setattr(leaderboard_data, "_board", None)
        leaderboard_data.get_leaderboard(source)
        png, frame, note = leaderboard_tab.leaderboard_pair(
            "(no benchmark)", "function-words", "random"
        )
        assert Path(png).stat().st_size > 5_000 and len(frame) == 2
        scores = tested if compared else main
        for _, row in frame.iterrows():
            a = scores[("function-words", row["task"])]
            b = scores[("random", row["task"])]
            assert row["function-words"] == round(100 * a, 2) and row["random"] == round(100 * b, 2)
            if compared:
                assert row["difference"] == pytest.approx(100 * (a - b), abs=0.011)
                assert row["ci_low"] <= row["difference"] <= row["ci_high"]
                assert row["outcome"] in ("win", "tie", "loss") and 0 <= row["p_holm"] <= 1
        assert ("stylebench compare" in note and "Holm" in note) == compared
        assert ("k-means seeds" in note) == compared
        assert ("not a significance test" in note) == (not compared)
        if compared:
            ranks, note = leaderboard_tab.leaderboard_ranks(
                "(no benchmark)", "by task type", False, "any size", None, 10
            )
            assert set(ranks["model"]) == {"function-words", "random"}
            assert (ranks["rank_low"] <= ranks["rank"]).all()
            assert (ranks["rank"] <= ranks["rank_high"]).all()
            assert sorted(ranks["rank"]) == [1, 2] and "rank intervals" in note
            leader = ranks.iloc[0]
            assert leader["score"] == max(frame_score for frame_score in ranks["score"])
        else:
            with pytest.raises(UserError, match="need the result records"):
                leaderboard_tab.leaderboard_ranks("(no benchmark)", "by task type")
    monkeypatch.setattr(leaderboard_data, "_board", None)


def test_health_reports_a_table_that_does_not_load(tmp_path: Path, monkeypatch) -> None:
    from stylebench_space import health, leaderboard_data

    (tmp_path / "t.parquet").write_text("not parquet")
    monkeypatch.setenv(leaderboard_data.ENV_TABLE, str(tmp_path / "t.parquet"))
    monkeypatch.setattr(leaderboard_data, "_board", None)
    state = health.self_check()
    assert state["status"] == "degraded"
    assert "not a readable Parquet table" in state["problems"][0]
    assert state["benchmarks"] == [leaderboard_data.PAPER_ONLY] and state["views_checked"] == 4
    monkeypatch.setattr(leaderboard_data, "_board", None)


# ----------------------------------------------------------------------------- submissions


@pytest.fixture(scope="module")
def repositories(tmp_path_factory):
    from tests.space.submissions import BAD, bad_repository, good_repository, zip_folder

    root = tmp_path_factory.mktemp("submissions")
    good = good_repository(root)
    zips = {"good": zip_folder(good, root / "good.zip")}
    for kind in BAD:
        zips[kind] = zip_folder(bad_repository(good, kind, root / "bad"), root / f"{kind}.zip")
    return good, zips


def test_submissions_refuse_six_and_accept_one(repositories, monkeypatch) -> None:
    from stylebench_space import submissions_tab

    from tests.space.submissions import BAD

    good, zips = repositories
    monkeypatch.setenv(submissions_tab.ENV_BASE, str(good))
    report = submissions_tab.validate_submission(str(zips["good"]), "")
    assert report.accepted and not report.refusals and report.n_records == 2
    assert "Accepted" in report.summary()
    for kind, reason in BAD.items():
        report = submissions_tab.validate_submission(str(zips[kind]), None)
        assert not report.accepted, kind
        assert any(reason in r[2] for r in report.refusals), (kind, report.refusals)
        assert all("/tmp" not in r[2] and "/work" not in r[2] for r in report.findings)


def test_submission_from_a_git_branch(repositories, tmp_path: Path, monkeypatch) -> None:
    """A branch that deletes a result is refused against the default branch."""
    from stylebench_space import submissions_tab
    from stylebench_space.safety import UserError

    good, _ = repositories
    work = tmp_path / "work"
    bare = tmp_path / "remote.git"
    env = ["-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "init.defaultBranch=main"]
    subprocess.run(["git", *env, "init", "-q", "--bare", str(bare)], check=True)
    subprocess.run(["git", *env, "init", "-q", str(work)], check=True)
    (work / "results").mkdir()
    subprocess.run(["cp", "-r", f"{good}/results/.", str(work / "results")], check=True)
    git = ["git", *env, "-C", str(work)]
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "base"], check=True)
    subprocess.run([*git, "push", "-q", str(bare), "HEAD:main"], check=True)
    record = next(work.glob("results/*/*/*/*.json"))
    subprocess.run([*git, "rm", "-q", str(record)], check=True)
    subprocess.run([*git, "commit", "-qm", "drop one"], check=True)
    subprocess.run([*git, "push", "-q", str(bare), "HEAD:refs/heads/submission"], check=True)
    with pytest.raises(UserError, match="https://"):
        submissions_tab.validate_submission(None, str(bare))
    monkeypatch.setenv(submissions_tab.ENV_GIT_ROOTS, str(tmp_path))
    report = submissions_tab.validate_submission(None, f"{bare}#submission")
    assert not report.accepted and report.base == "git origin/HEAD"
    assert [r[2].split(":")[0] for r in report.refusals] == ["removed result"]
    assert submissions_tab.validate_submission(None, f"{bare}#main").accepted


def test_unsafe_zip_is_refused(tmp_path: Path) -> None:
    import zipfile

    from stylebench_space import submissions_tab
    from stylebench_space.safety import UserError

    path = tmp_path / "evil.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("../results/x.json", "{}")
    with pytest.raises(UserError, match="unsafe path"):
        submissions_tab.validate_submission(str(path), "")
    (tmp_path / "plain.zip").write_text("no zip")
    with pytest.raises(UserError, match="not a zip"):
        submissions_tab.validate_submission(str(tmp_path / "plain.zip"), "")
    with pytest.raises(UserError, match="one of them"):
        submissions_tab.validate_submission(None, "")
