"""The Gradio page of a metric module's Space, built from the module's declaration.

Each bundled module (``metrics/<name>/<name>.py``) declares its page as a class attribute
``PAGE = MetricPage(...)``: a title, a short introduction and one :class:`Field` per
``compute`` argument (what the box holds, its label, an example). Its ``app.py`` is then::

    from pathlib import Path
    from evaluators.metric_math.page import metric_page
    demo, compute = metric_page(Path(__file__).parent)

:func:`metric_page` loads the module from its folder with ``evaluate``, lays the fields
out (data boxes side by side, options below), parses what is pasted
(:mod:`evaluators.metric_math.text_inputs`) and answers ``/compute`` with the module's
result as JSON; a bad input is a ``gr.Error`` naming the box and the value. Gradio and
``evaluate`` are imported only when a page is built.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .text_inputs import (
    json_safe,
    parse_blocks,
    parse_floats,
    parse_ints,
    parse_labels,
    parse_rows,
)

__all__ = ["KINDS", "Field", "MetricPage", "metric_page"]

# what a box holds -> how its text is read (``name`` names the box in errors)
KINDS: dict[str, Callable[[str, str], Any]] = {
    "floats": parse_floats,  # values separated by commas, spaces or newlines
    "ints": parse_ints,
    "labels": lambda text, name: parse_labels(text),  # integers when all are, else text
    "rows": parse_rows,  # one row of numbers per line
    "int_rows": lambda text, name: parse_rows(text, name, integers=True),
    "blocks": parse_blocks,  # matrices separated by blank lines
}
NUMBER = "number"  # a number box (an option such as ``fpr`` or ``beta``)


@dataclass(frozen=True)
class Field:
    """One argument of ``compute``: ``name`` (the keyword), ``kind`` (a key of
    :data:`KINDS`, or ``"number"``), the box's ``label`` and ``example`` value.

    ``optional``: an empty box is left out of the call (the module's default applies);
    ``zero_is_none``: a number box's 0 is passed as None (``max_fpr``: 0 = no partial
    AUROC); ``lines``: the height of a text box (0: one line, below the data boxes)."""

    name: str
    kind: str
    label: str
    example: Any
    optional: bool = False
    zero_is_none: bool = False
    lines: int = 5

    def __post_init__(self) -> None:
        if self.kind not in KINDS and self.kind != NUMBER:
            raise ValueError(f"field {self.name!r}: kind {self.kind!r} is not one of "
                             f"{', '.join([*KINDS, NUMBER])}")  # fmt: skip

    @property
    def is_option(self) -> bool:
        """Shown below the data boxes (a number, or a one-line text box)."""
        return self.kind == NUMBER or self.lines == 0

    def read(self, value: Any) -> Any:
        """The box's value as the module takes it; None: leave the argument out."""
        if self.kind == NUMBER:
            if value is None or (self.zero_is_none and value == 0):
                return None
            return float(value)
        text = "" if value is None else str(value)
        if self.optional and not text.strip():
            return None
        return KINDS[self.kind](text, self.name)


@dataclass(frozen=True)
class MetricPage:
    """A metric Space's page: ``title``, ``intro`` (Markdown) and the ``fields`` in the
    order ``/compute`` takes them. ``same_label_type``: when the label boxes read as
    different types (``1`` vs ``a``), compare every label as text (a class ``"1"`` and
    a class ``1`` would otherwise never match)."""

    title: str
    intro: str
    fields: tuple[Field, ...]
    same_label_type: bool = False

    def arguments(self, *values: Any) -> dict[str, Any]:
        """The keyword arguments of ``compute`` for the boxes' ``values`` (ValueError
        naming the box and the value that does not read)."""
        if len(values) != len(self.fields):
            raise ValueError(f"{len(self.fields)} inputs expected, got {len(values)}")
        read = {f.name: f.read(v) for f, v in zip(self.fields, values, strict=True)}
        kwargs = {k: v for k, v in read.items() if v is not None}
        labels = [f.name for f in self.fields if f.kind == "labels" and f.name in kwargs]
        if self.same_label_type and len({type(x) for n in labels for x in kwargs[n]}) > 1:
            for name in labels:
                kwargs[name] = [str(x) for x in kwargs[name]]
        return kwargs


def metric_page(folder: str | Path) -> tuple[Any, Callable[..., dict[str, Any]]]:
    """``(demo, compute)``: the ``gr.Blocks`` page of the module in ``folder`` (its
    ``PAGE``) and the function behind its ``/compute`` endpoint."""
    import evaluate
    import gradio as gr

    metric = evaluate.load(str(folder))
    page: MetricPage = type(metric).PAGE

    def compute(*values: Any) -> dict[str, Any]:
        try:
            return json_safe(metric.fresh().compute(**page.arguments(*values)))
        except ValueError as exc:
            raise gr.Error(str(exc)) from None

    compute.__doc__ = f"{page.title}: the module's result for the pasted inputs."
    boxes: dict[str, Any] = {}
    with gr.Blocks(title=page.title) as demo:
        gr.Markdown(f"# {page.title}\n{page.intro}")
        data = [f for f in page.fields if not f.is_option]
        for start in range(0, len(data), 2):  # two data boxes a row
            with gr.Row():
                for f in data[start : start + 2]:
                    boxes[f.name] = gr.Textbox(label=f.label, lines=f.lines, value=f.example)
        for f in page.fields:
            if f.kind == NUMBER:
                boxes[f.name] = gr.Number(label=f.label, value=f.example)
            elif f.is_option:
                boxes[f.name] = gr.Textbox(label=f.label, value=f.example)
        button = gr.Button("Compute", variant="primary")
        output = gr.JSON(label="result")
        button.click(
            compute,
            inputs=[boxes[f.name] for f in page.fields],
            outputs=output,
            api_name="compute",
        )
    return demo, compute
