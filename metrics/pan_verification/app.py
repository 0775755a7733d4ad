"""Gradio Space for the ``pan_verification`` metric: PAN's AUC, c@1, F0.5u, F1 and Brier."""

from pathlib import Path

import evaluate
import gradio as gr

from evaluators.metric_loading import json_safe, parse_floats, parse_ints

metric = evaluate.load(str(Path(__file__).parent))


def compute(predictions: str, references: str) -> dict:
    """All PAN verification scores for pasted scores in [0, 1] (0.5 = no answer)."""
    try:
        result = metric.fresh().compute(
            predictions=parse_floats(predictions, "predictions"),
            references=parse_ints(references, "references"),
        )
    except ValueError as exc:
        raise gr.Error(str(exc)) from None
    return json_safe(result)


with gr.Blocks(title="PAN verification") as demo:
    gr.Markdown(
        "# PAN authorship verification\n"
        "Scores in [0, 1]: above 0.5 = same author, below = different, exactly 0.5 = no "
        "answer. Paste values separated by commas, spaces or newlines."
    )
    with gr.Row():
        predictions = gr.Textbox(
            label="predictions: scores in [0, 1]", lines=5, value="0.9, 0.2, 0.5, 0.7"
        )
        references = gr.Textbox(
            label="references: 1 = same author, 0 = different", lines=5, value="1, 0, 1, 0"
        )
    button = gr.Button("Compute", variant="primary")
    output = gr.JSON(label="result")
    button.click(compute, inputs=[predictions, references], outputs=output, api_name="compute")

if __name__ == "__main__":
    demo.launch()
