"""Gradio Space for the ``auroc`` metric: paste scores and labels, get AUROC, EER, pAUC."""

from pathlib import Path

import evaluate
import gradio as gr

from evaluators.metric_loading import json_safe, parse_floats, parse_ints

metric = evaluate.load(str(Path(__file__).parent))


def compute(predictions: str, references: str, max_fpr: float | None) -> dict:
    """AUROC and EER; the standardized partial AUROC when 0 < max_fpr < 1 is given."""
    try:
        result = metric.fresh().compute(
            predictions=parse_floats(predictions, "predictions"),
            references=parse_ints(references, "references"),
            max_fpr=max_fpr or None,
        )
    except ValueError as exc:
        raise gr.Error(str(exc)) from None
    return json_safe(result)


with gr.Blocks(title="AUROC") as demo:
    gr.Markdown(
        "# AUROC, EER and partial AUROC\n"
        "Ties between a positive and a negative count 1/2. Leave max FPR at 0 to skip the "
        "partial AUROC. Paste values separated by commas, spaces or newlines."
    )
    with gr.Row():
        predictions = gr.Textbox(
            label="predictions: scores, higher = positive", lines=5, value="0.1, 0.4, 0.35, 0.8"
        )
        references = gr.Textbox(
            label="references: 1 = positive, 0 = negative", lines=5, value="0, 0, 1, 1"
        )
    max_fpr = gr.Number(label="max FPR for the partial AUROC (0 = none)", value=0.5)
    button = gr.Button("Compute", variant="primary")
    output = gr.JSON(label="result")
    button.click(
        compute, inputs=[predictions, references, max_fpr], outputs=output, api_name="compute"
    )

if __name__ == "__main__":
    demo.launch()
