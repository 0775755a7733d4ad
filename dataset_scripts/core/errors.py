"""Exceptions whose message is one line that names the problem."""

from __future__ import annotations


class StylebenchError(Exception):
    """Base error: the CLI prints ``error: <message>`` and exits with status 2."""


class UnknownNameError(StylebenchError, KeyError):
    """An unknown task, encoder, dataset or metric name."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class DataError(StylebenchError, ValueError):
    """A dataset that does not satisfy its schema (empty, wrong type, one class, ...)."""
