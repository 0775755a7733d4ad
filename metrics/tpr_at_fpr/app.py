"""Gradio Space for the ``tpr_at_fpr`` metric: paste scores and labels, get TPR@FPR."""

from pathlib import Path

import evaluate
import gradio as gr

from evaluators.metric_loading import json_safe, parse_floats, parse_ints

metric = evaluate.load(str(Path(__file__).parent))


def compute(predictions: str, references: str, fpr: float) -> dict:
    """TPR at the target FPR for pasted scores (higher = positive) and 0/1 labels."""
    try:
        result = metric.fresh().compute(
            predictions=parse_floats(predictions, "predictions"),
            references=parse_ints(references, "references"),
            fpr=fpr,
        )
    except ValueError as exc:
        raise gr.Error(str(exc)) from None
    return json_safe(result)


with gr.Blocks(title="TPR@FPR") as demo:
    gr.Markdown(
        "# TPR@FPR\n"
        "True-positive rate when at most a target fraction of negatives is flagged "
        "(flag iff score >= threshold; ARB reports TPR@1%FPR). "
        "Paste values separated by commas, spaces or newlines."
    )
    with gr.Row():
        predictions = gr.Textbox(
            label="predictions: scores, higher = positive",
            lines=5,
            value="0.1, 0.2, 0.3, 0.4, 0.35, 0.8, 0.9",
        )
        references = gr.Textbox(
            label="references: 1 = positive, 0 = negative", lines=5, value="0, 0, 0, 0, 1, 1, 1"
        )
    fpr = gr.Number(label="target FPR, in (0, 1)", value=0.25)
    button = gr.Button("Compute", variant="primary")
    output = gr.JSON(label="result")
    button.click(compute, inputs=[predictions, references, fpr], outputs=output, api_name="compute")

if __name__ == "__main__":
    demo.launch()
