"""A griffe extension for the API reference (``extensions:`` of mkdocstrings in
``mkdocs.yml``): the code's docstrings use Sphinx roles (``:class:`Dataset```,
``:func:`~evaluators.tasks.get_evaluator```) that Markdown would show verbatim; each
becomes a code span of its target (``~`` keeps the last name, as Sphinx shows it)."""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|data|attr|exc|obj|const):`(~?)([^`]+)`")


def plain(text: str) -> str:
    """``:class:`~a.b.C``` -> ```C```, ``:func:`f``` -> ```f```."""
    return ROLE.sub(lambda m: f"`{m.group(2).split('.')[-1] if m.group(1) else m.group(2)}`", text)


class SphinxRoles(griffe.Extension):
    def on_object(self, *, obj: Any, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain(obj.docstring.value)
