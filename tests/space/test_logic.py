"""The Space's logic in-process: identifier validation, upload parsing, error messages,
detector metrics (cross-checked with scikit-learn and by hand) and back-end detection."""

from __future__ import annotations

import types
from pathlib import Path

import numpy as np
import pytest
from stylebench_space import backends, detectors, safety
from stylebench_space.safety import UserError

from tests.space.conftest import write_remote_code_model

BUILTINS = ("tfidf-ngrams", "function-words", "stylometric", "random", "minilm")


# ------------------------------------------------------------------------- model identifiers


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("function-words", "function-words"),
        ("  minilm ", "minilm"),
        ("sentence-transformers/all-MiniLM-L6-v2", "st:sentence-transformers/all-MiniLM-L6-v2"),
        ("st:AnnaWegmann/Style-Embedding", "st:AnnaWegmann/Style-Embedding"),
        ("hf:rrivera1849/LUAR-MUD", "hf:rrivera1849/LUAR-MUD"),
    ],
)
def test_accepted_encoder_specs(spec: str, expected: str) -> None:
    assert safety.validate_encoder_spec(spec, BUILTINS) == expected


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "choose an encoder"),
        ("../../etc/passwd", "no '..'"),
        ("org/..", "no '..'"),
        ("~/models/x", "no '..', '~'"),
        ("C:\\models\\x", "backslashes"),
        ("/etc/passwd", "local model paths are refused"),
        ("st:/root/model", "local model paths are refused"),
        ("causal:HuggingFaceTB/SmolLM2-135M", "causal language models"),
        ("org/name?trust_remote_code=true", "trust_remote_code"),
        ("a/b/c", "neither a built-in encoder nor a Hub id"),
        ("x" * 300, "longer than 200"),
        ("org/na me", "neither a built-in"),
    ],
)
def test_refused_encoder_specs(spec: str, message: str) -> None:
    with pytest.raises(UserError, match=None) as info:
        safety.validate_encoder_spec(spec, BUILTINS)
    assert message in str(info.value)


def test_local_models_only_inside_allowed_dirs(tmp_path: Path, monkeypatch) -> None:
    allowed, elsewhere = tmp_path / "models", tmp_path / "elsewhere"
    (allowed / "plain").mkdir(parents=True)
    (allowed / "plain" / "config.json").write_text('{"model_type": "bert"}')
    (elsewhere / "plain").mkdir(parents=True)
    write_remote_code_model(allowed / "custom")
    monkeypatch.setenv("STYLEBENCH_SPACE_MODEL_DIRS", str(allowed))
    plain = str(allowed / "plain")
    assert safety.validate_encoder_spec(plain, BUILTINS) == f"st:{plain}"
    assert safety.validate_encoder_spec(f"hf:{plain}", BUILTINS) == f"hf:{plain}"
    for bad in (str(elsewhere / "plain"), str(allowed), str(tmp_path)):
        with pytest.raises(UserError, match="local model paths are refused"):
            safety.validate_encoder_spec(bad, BUILTINS)
    with pytest.raises(UserError, match="ships its own code"):
        safety.validate_encoder_spec(str(allowed / "custom"), BUILTINS)
    with pytest.raises(UserError, match="does not exist"):
        safety.validate_encoder_spec(str(allowed / "missing"), BUILTINS)


def test_dataset_ids() -> None:
    assert safety.validate_dataset_id(" steb/stel ") == "steb/stel"
    for bad in ("../data", "/etc", "steb", "a/b/c", "./x/y"):
        with pytest.raises(UserError, match="not a Hub dataset id"):
            safety.validate_dataset_id(bad)


# ---------------------------------------------------------------------- texts and uploads


def test_text_limits() -> None:
    assert safety.check_text("  hi  ") == "hi"
    with pytest.raises(UserError, match="empty"):
        safety.check_text("   ")
    with pytest.raises(UserError, match="5,001 characters; the limit is 5,000"):
        safety.check_text("a" * 5_001)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty file"),
        (b"a,b\n", "no data rows"),
        (b"a,a\n1,2\n", "duplicate column names"),
        (b"a,b\n1,2\n3\n", "row at line 3 has 1 fields; the header has 2"),
        (b'a,b\n"unterminated,2\n', "malformed CSV"),
        (b"a,b\n\xff\xfe,1\n", "not UTF-8 text (bad byte at position 4)"),
        (b"PK\x03\x04\x00\x00binary", "binary file"),
        (b"x,y\n1,2\n", "missing column(s) a, b; found x, y"),
    ],
)
def test_malformed_uploads(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "upload.csv"
    path.write_bytes(content)
    with pytest.raises(UserError) as info:
        safety.read_csv_upload(path, required=("a", "b"))
    assert message in str(info.value)


def test_upload_limits(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "big.csv"
    path.write_text("a,b\n" + "1,2\n" * 30)
    with pytest.raises(UserError, match="more than 10 rows"):
        safety.read_csv_upload(path, required=("a",), max_rows=10)
    monkeypatch.setattr(safety, "MAX_UPLOAD_BYTES", 50)
    with pytest.raises(UserError, match="the limit is 50"):
        safety.read_csv_upload(path)
    good = tmp_path / "bom.csv"
    good.write_bytes('\ufefftext,regime\n"a, b",Human\n'.encode())
    assert safety.read_csv_upload(good) == [{"text": "a, b", "regime": "Human"}]


def test_clean_message_hides_paths_and_tracebacks() -> None:
    error = OSError("cannot open /srv/space/cache/models/x.bin\nTraceback (most recent call last)")
    assert safety.clean_message(error) == "cannot open <path>"
    assert safety.clean_message(ValueError("C:\\Users\\me\\model missing")) == "<path> missing"
    assert safety.clean_message(KeyError()) == "KeyError"


# ------------------------------------------------------------------------------- detectors


def test_regime_metrics_against_sklearn_and_by_hand() -> None:
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(7)
    regimes = ["Human"] * 200 + ["Free-LLM"] * 100 + ["H2L"] * 100 + ["LLM2L"] * 100
    scores = np.concatenate(
        [
            rng.normal(0, 1, 200),
            rng.normal(3, 1, 100),
            rng.normal(0.5, 1, 100),
            rng.normal(2.5, 1, 100),
        ]
    )
    rows, threshold = detectors.regime_metrics(scores, regimes)
    assert [r[0] for r in rows] == ["Free-LLM", "H2L", "LLM2L"]
    human = scores[:200]
    # 1% of 200 humans = 2 false positives allowed: the threshold sits above the 3rd largest
    third = np.sort(human)[-3]
    for row, target in zip(rows, (scores[200:300], scores[300:400], scores[400:]), strict=True):
        labels = np.r_[np.zeros(200), np.ones(100)]
        assert row[5] == pytest.approx(roc_auc_score(labels, np.r_[human, target]), abs=5e-5)
        expected_tpr = np.mean(target > third)
        assert row[3] == pytest.approx(expected_tpr, abs=5e-5)
        assert row[4] <= 0.01
        assert row[1:3] == [200, 100]
    assert rows[0][3] > rows[1][3]  # the ARB pattern in this synthetic set: H2L is harder
    assert np.mean(human >= threshold) <= 0.01


def test_regime_checks() -> None:
    with pytest.raises(UserError, match="no 'Human' rows"):
        detectors.check_regimes(["H2L", "LLM2L"])
    with pytest.raises(UserError, match="only Human rows"):
        detectors.check_regimes(["Human", "Human"])
    assert detectors.check_regimes(["Human", "Human", "zeta", "H2L"]) == ["H2L", "zeta"]


class _LengthDetector:
    """Scores a text by its length (a stand-in with the detector interface)."""

    def score(self, texts):
        return np.array([len(t) for t in texts], dtype=float)


def _fake_arb(monkeypatch) -> None:
    module = types.ModuleType("fake_arb")
    module.list_detectors = lambda: [{"name": "length", "available": True}, "broken"]
    module.get_detector = lambda name: _LengthDetector() if name == "length" else 1 / 0
    backend = backends.Backend(
        "ARB detectors",
        module,
        "",
        {"list_detectors": module.list_detectors, "get_detector": module.get_detector},
    )
    monkeypatch.setattr(detectors, "arb_backend", lambda: backend)
    monkeypatch.setattr(backends, "arb_backend", lambda: backend)


def test_detector_flow_with_a_backend(tmp_path: Path, monkeypatch) -> None:
    _fake_arb(monkeypatch)
    csv = tmp_path / "arb.csv"
    lines = ["text,regime"]
    lines += [f"{'h' * n},Human" for n in range(1, 101)]
    lines += [f"{'m' * (n + 95)},Free-LLM" for n in range(1, 11)]
    lines += [f"{'r' * n},H2L" for n in range(40, 50)]
    csv.write_text("\n".join(lines) + "\n")
    report = detectors.evaluate_detector("length", str(csv), tmp_path / "charts")
    by_regime = {row[0]: row for row in report.rows}
    # humans 1..100 chars, 1% FPR allows one: threshold 100 flags texts of >= 100 chars
    assert report.threshold == 100.0
    assert by_regime["Free-LLM"][3] == pytest.approx(0.6)  # 96..105 chars -> 6 of 10 >= 100
    assert by_regime["H2L"][3] == 0.0
    assert report.heatmap is not None and report.heatmap.stat().st_size > 5_000
    score, text = detectors.score_pasted("length", "x" * 120, report.threshold)
    assert score == 120.0 and "flagged as machine-like" in text and "15-31%" in text
    _, text = detectors.score_pasted("length", "short", None)
    assert "No calibrated threshold" in text
    with pytest.raises(UserError, match="cannot load detector 'broken'"):
        detectors.score_pasted("broken", "text", None)
    with pytest.raises(UserError, match="unknown detector"):
        detectors.score_pasted("nope", "text", None)


def test_built_arb_sets(tmp_path: Path, monkeypatch) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path / "built" / "arb__quartets"
    (folder / "data" / "quartets").mkdir(parents=True)
    (folder / "stylebench_build.json").write_text("{}")
    regimes = ["Human", "Free-LLM", "H2L", "LLM2L"] * 5
    pq.write_table(
        pa.table({"id": list(range(20)), "text": [f"t{i}" for i in range(20)], "regime": regimes}),
        folder / "data" / "quartets" / "test-00000-of-00001.parquet",
    )
    (tmp_path / "built" / "other").mkdir()
    monkeypatch.setenv("STYLEBENCH_SPACE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("STYLEBENCH_SPACE_DATASETS", str(tmp_path / "built"))
    assert list(detectors.built_arb_sets()) == ["arb__quartets"]
    texts, got = detectors.load_built_set("arb__quartets", per_regime=2)
    assert texts == ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"]
    assert got == regimes[:8]
    with pytest.raises(UserError, match="no built ARB-style set"):
        detectors.load_built_set("nope")


def test_missing_backends_are_reported() -> None:
    backend = backends._find("X", ("stylebench_space_no_such_module",), ("f",))
    assert not backend.available and "is not installed" in backend.reason
    backend = backends._find("X", ("stylebench_space.safety",), ("no_such_function",))
    assert not backend.available and "has no no_such_function" in backend.reason
    assert backends.detector_names(backend) == []
