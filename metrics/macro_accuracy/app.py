"""Gradio Space for the ``macro_accuracy`` metric: paste predicted and gold classes."""

from pathlib import Path

import evaluate
import gradio as gr

from evaluators.metric_loading import json_safe, parse_labels

metric = evaluate.load(str(Path(__file__).parent))


def compute(predictions: str, references: str) -> dict:
    """Macro-accuracy (mean per-class recall), accuracy and per-class recall."""
    try:
        pred, ref = parse_labels(predictions), parse_labels(references)
        if {type(v) for v in pred} != {type(v) for v in ref}:  # "1" vs 1 would never match
            pred, ref = [str(v) for v in pred], [str(v) for v in ref]
        result = metric.fresh().compute(predictions=pred, references=ref)
    except ValueError as exc:
        raise gr.Error(str(exc)) from None
    return json_safe(result)


with gr.Blocks(title="Macro-accuracy") as demo:
    gr.Markdown(
        "# Macro-accuracy\n"
        "Mean over classes of each class's recall (Valla's authorship-attribution metric). "
        "Paste labels separated by commas, spaces or newlines."
    )
    with gr.Row():
        predictions = gr.Textbox(
            label="predictions: predicted class", lines=5, value="alice bob bob carol"
        )
        references = gr.Textbox(
            label="references: gold class", lines=5, value="alice bob carol carol"
        )
    button = gr.Button("Compute", variant="primary")
    output = gr.JSON(label="result")
    button.click(compute, inputs=[predictions, references], outputs=output, api_name="compute")

if __name__ == "__main__":
    demo.launch()
