"""Gradio Space for the ``retrieval`` metric: paste a score matrix and relevance rows."""

from pathlib import Path

import evaluate
import gradio as gr

from evaluators.metric_loading import json_safe, parse_ints, parse_rows

metric = evaluate.load(str(Path(__file__).parent))


def compute(scores: str, relevance: str, ks: str) -> dict:
    """MRR, mean rank and recall@k; one line per query in both boxes."""
    try:
        result = metric.fresh().compute(
            predictions=parse_rows(scores, "scores"),
            references=parse_rows(relevance, "relevance", integers=True),
            ks=parse_ints(ks, "ks") or (1, 5, 10),
        )
    except ValueError as exc:
        raise gr.Error(str(exc)) from None
    return json_safe(result)


with gr.Blocks(title="Retrieval") as demo:
    gr.Markdown(
        "# Retrieval: MRR, mean rank, recall@k\n"
        "One line per query: its score for every target (higher = more similar), and 1 for "
        "each relevant target, else 0. Ties are ranked pessimistically."
    )
    with gr.Row():
        scores = gr.Textbox(
            label="predictions: scores (query x target)", lines=5, value="0.9 0.1 0.5\n0.2 0.3 0.4"
        )
        relevance = gr.Textbox(label="references: relevance (0/1)", lines=5, value="1 0 0\n1 0 0")
    ks = gr.Textbox(label="ks (cut-offs for recall@k)", value="1, 2")
    button = gr.Button("Compute", variant="primary")
    output = gr.JSON(label="result")
    button.click(compute, inputs=[scores, relevance, ks], outputs=output, api_name="compute")

if __name__ == "__main__":
    demo.launch()
