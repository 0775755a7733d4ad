"""The command line's one console: how every ``stylebench`` command prints.

In a terminal, rich wraps to the terminal's width. Printed to a pipe, a file or a CI log,
rich would assume 80 columns and cut table cells (``detec…``, ``TPR@5…``); there the
console is as wide as the widest line needs (:data:`PIPE_WIDTH`), so tables and messages
come out whole, one line per message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

# wide enough for any table we print; rich pads nothing to this width (tables take the
# width of their cells, messages are soft-wrapped)
PIPE_WIDTH = 100_000


def cli_console(**options: Any) -> Console:
    """A rich console for CLI output: messages never wrapped mid-phrase
    (``soft_wrap``), tables never truncated when the output is not a terminal."""
    from rich.console import Console

    console = Console(soft_wrap=True, **options)
    if console.is_terminal or "width" in options:
        return console
    return Console(soft_wrap=True, width=PIPE_WIDTH, **options)


def one_line_warnings() -> None:
    """Print stylebench's own warnings (classes defined in ``evaluators`` or
    ``dataset_scripts``) as one line, ``warning: <message>``, instead of Python's two lines
    with a file name and the warning's source line; other libraries' warnings keep
    Python's format. Called once by the ``stylebench`` entry point.

    Only the text is changed (``warnings.formatwarning``), never where a warning goes
    (``warnings.showwarning``): ``warnings.catch_warnings(record=True)`` and
    ``pytest.warns`` still record every warning, also when the CLI installs this inside
    their block (a replaced ``showwarning`` is called instead of their recorder, so the
    warning was printed and never caught)."""
    import warnings

    if getattr(warnings.formatwarning, "_stylebench", False):
        return
    default = warnings.formatwarning

    def one_line(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        line: str | None = None,
    ) -> str:
        if not category.__module__.startswith(("evaluators.", "dataset_scripts.")):
            return default(message, category, filename, lineno, line)
        return "warning: " + " ".join(str(message).split()) + "\n"

    one_line._stylebench = True  # type: ignore[attr-defined]
    warnings.formatwarning = one_line
