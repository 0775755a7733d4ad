"""Gradio Space for the ``pan_verification`` metric: PAN's AUC, c@1, F0.5u, F1 and Brier."""

from pathlib import Path

from evaluators.metric_math.page import metric_page

demo, compute = metric_page(Path(__file__).parent)  # the page the module declares (PAGE)

if __name__ == "__main__":
    demo.launch()
