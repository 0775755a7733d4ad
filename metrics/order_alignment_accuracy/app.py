"""Gradio Space for ``order_alignment_accuracy``: paste cost matrices and expected orders."""

from pathlib import Path

import evaluate
import gradio as gr

from evaluators.metric_loading import json_safe, parse_blocks, parse_rows

metric = evaluate.load(str(Path(__file__).parent))


def compute(costs: str, expected: str, distractor_costs: str, distractor_expected: str) -> dict:
    """Tie-aware order-alignment accuracy (and distractor accuracy when given)."""
    try:
        kwargs = {}
        if distractor_costs.strip():
            kwargs = {
                "distractor_predictions": parse_blocks(distractor_costs, "distractor costs"),
                "distractor_references": parse_rows(
                    distractor_expected, "distractor expected", integers=True
                ),
            }
        result = metric.fresh().compute(
            predictions=parse_blocks(costs, "costs"),
            references=parse_rows(expected, "expected", integers=True),
            **kwargs,
        )
    except ValueError as exc:
        raise gr.Error(str(exc)) from None
    return json_safe(result)


with gr.Blocks(title="Order-alignment accuracy") as demo:
    gr.Markdown(
        "# STEB order-alignment accuracy\n"
        "Each item is a cost matrix (rows = reference positions, columns = candidates, lower "
        "= better match); separate items with a blank line. Give the expected column of each "
        "row, one line per item. Tied optimal alignments score their average accuracy."
    )
    with gr.Row():
        costs = gr.Textbox(
            label="predictions: cost matrices",
            lines=8,
            value="0.1 0.9\n0.8 0.2\n\n0.5 0.5\n0.5 0.5",
        )
        expected = gr.Textbox(label="references: expected columns", lines=8, value="0 1\n0 1")
    with gr.Row():
        distractor_costs = gr.Textbox(
            label="distractor items (optional)", lines=4, value="0.1 0.5 0.9"
        )
        distractor_expected = gr.Textbox(
            label="distractor expected columns (optional)", lines=4, value="0"
        )
    button = gr.Button("Compute", variant="primary")
    output = gr.JSON(label="result")
    button.click(
        compute,
        inputs=[costs, expected, distractor_costs, distractor_expected],
        outputs=output,
        api_name="compute",
    )

if __name__ == "__main__":
    demo.launch()
