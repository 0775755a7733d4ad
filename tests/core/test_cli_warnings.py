"""stylebench's own warnings print as one line through the ``stylebench`` entry point
(``warning: <message>``), not as Python's two lines with a file name and source line;
other libraries' warnings keep Python's format."""

from __future__ import annotations

import contextlib
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT

SCRIPT = """
import warnings
warnings.simplefilter("always")
from evaluators.console import one_line_warnings
one_line_warnings(); one_line_warnings()  # idempotent
from evaluators.encoders import get_encoder
get_encoder("function-words", backend="onnx", precision="fp32")
warnings.warn("a library's own warning", DeprecationWarning)
"""


def test_our_warnings_are_one_line_others_keep_their_format() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=REPO_ROOT,
        timeout=120, check=True,
    )  # fmt: skip
    lines = done.stderr.splitlines()
    ours = [line for line in lines if "ignored" in line]
    assert ours == [
        "warning: function-words: backend onnx, precision fp32 ignored: a non-neural encoder "
        "runs no model (it runs as always)"
    ]
    assert not any("routing.py" in line or "warnings.warn(" in line for line in lines)
    # a warning of another module keeps Python's file:line: Category: message form
    assert any(
        "DeprecationWarning: a library's own warning" in line and ":" in line.split("Dep")[0]
        for line in lines
    )


def test_the_entry_point_installs_it() -> None:
    import warnings

    from evaluators import cli

    before = warnings.formatwarning
    try:
        with contextlib.suppress(SystemExit):
            cli.main(["--help"])
        assert getattr(warnings.formatwarning, "_stylebench", False)
    finally:
        warnings.formatwarning = before


def test_warnings_stay_catchable_after_the_cli_ran_in_process() -> None:
    """The one-line form changes the text only: a recording ``catch_warnings`` (what
    ``pytest.warns`` is) still records our warnings when the entry point installed it
    inside the block (it replaced ``showwarning``, which bypassed the recorder: CI's
    "DID NOT WARN" in tests/encoders/test_backend_option_rule.py) or before it."""
    import warnings

    from evaluators import cli
    from evaluators.encoders import get_encoder
    from evaluators.encoders.routing import BackendOptionIgnored

    before = warnings.showwarning, warnings.formatwarning
    try:
        for _ in range(2):  # inside the block, then already installed before it
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                with contextlib.suppress(SystemExit):
                    cli.main(["--help"])
                get_encoder("function-words", backend="onnx")
            assert [w.category for w in caught] == [BackendOptionIgnored]
            assert warnings.showwarning is before[0]  # where warnings go: untouched
        with pytest.warns(BackendOptionIgnored, match="function-words: backend onnx ignored"):
            get_encoder("function-words", backend="onnx")
        text = warnings.formatwarning(caught[0].message, BackendOptionIgnored, "f.py", 1)
        assert text == (
            "warning: function-words: backend onnx ignored: a non-neural encoder runs no "
            "model (it runs as always)\n"
        )
    finally:
        warnings.showwarning, warnings.formatwarning = before
