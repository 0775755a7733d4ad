"""Gradio Space for the ``v_measure`` metric: paste cluster ids and gold labels."""

from pathlib import Path

import evaluate
import gradio as gr

from evaluators.metric_loading import json_safe, parse_labels

metric = evaluate.load(str(Path(__file__).parent))


def compute(predictions: str, references: str, beta: float) -> dict:
    """V-measure, homogeneity and completeness of pasted cluster ids vs gold labels."""
    try:
        result = metric.fresh().compute(
            predictions=parse_labels(predictions), references=parse_labels(references), beta=beta
        )
    except ValueError as exc:
        raise gr.Error(str(exc)) from None
    return json_safe(result)


with gr.Blocks(title="V-measure") as demo:
    gr.Markdown(
        "# V-measure\n"
        "Clustering quality against gold classes (labels may be numbers or words). "
        "Paste values separated by commas, spaces or newlines."
    )
    with gr.Row():
        predictions = gr.Textbox(label="predictions: cluster ids", lines=5, value="0 0 1 1 1 2")
        references = gr.Textbox(label="references: gold classes", lines=5, value="a a a b b b")
    beta = gr.Number(label="beta (weight of completeness)", value=1.0)
    button = gr.Button("Compute", variant="primary")
    output = gr.JSON(label="result")
    button.click(
        compute, inputs=[predictions, references, beta], outputs=output, api_name="compute"
    )

if __name__ == "__main__":
    demo.launch()
