"""The command line's surface, pinned: every command path with its parameters (name,
spelling, type, default, flags) and short help. A refactoring of the CLI package must leave
this dump unchanged; a deliberate change of an option updates the golden beside this file
(``python tests/core/test_cli_surface.py --write``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

GOLDEN = Path(__file__).with_name("cli_surface.json")


def _value(value: object) -> object:
    """A parameter default or type as JSON (paths, tuples and callables as text)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (tuple, list)):
        return [_value(v) for v in value]
    return repr(value)


def _param(param: click.Parameter) -> dict[str, object]:
    kind = param.type
    return {
        "name": param.name,
        "kind": type(param).__name__,
        "opts": list(param.opts),
        "secondary_opts": list(param.secondary_opts),
        "type": kind.name,
        "choices": list(getattr(kind, "choices", []) or []),
        "default": _value(param.default),
        "required": param.required,
        "is_flag": bool(getattr(param, "is_flag", False)),
        "multiple": param.multiple,
        "nargs": param.nargs,
        "hidden": bool(getattr(param, "hidden", False)),
        "envvar": _value(param.envvar),
        "show_default": _value(getattr(param, "show_default", None)),
        "metavar": param.metavar,
        "help": getattr(param, "help", None),
    }


def surface() -> dict[str, object]:
    """Every command path of ``stylebench`` -> its parameters, short help and hidden flag."""
    from evaluators.cli import cli

    out: dict[str, object] = {}

    def walk(command: click.Command, path: str) -> None:
        out[path] = {
            "short_help": command.get_short_help_str(limit=500),
            "help": command.help,
            "hidden": command.hidden,
            "params": [_param(p) for p in command.params],
        }
        if isinstance(command, click.Group):
            for name in sorted(command.commands):
                walk(command.commands[name], f"{path} {name}")

    walk(cli, "stylebench")
    return out


def test_the_command_line_surface_is_unchanged() -> None:
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    actual = json.loads(json.dumps(surface()))
    assert sorted(actual) == sorted(expected)
    for path in expected:
        assert actual[path] == expected[path], path


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    GOLDEN.write_text(json.dumps(surface(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
