"""stylebench's own warnings print as one line through the ``stylebench`` entry point
(``warning: <message>``), not as Python's two lines with a file name and source line;
other libraries' warnings keep Python's format."""

from __future__ import annotations

import subprocess
import sys

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

    before = warnings.showwarning
    try:
        try:
            cli.main(["--help"])
        except SystemExit:
            pass
        assert getattr(warnings.showwarning, "_stylebench", False)
    finally:
        warnings.showwarning = before
