"""Gradio Space for the ``auroc`` metric: paste scores and labels, get AUROC, EER, pAUC."""

from pathlib import Path

from evaluators.metric_math.page import metric_page

demo, compute = metric_page(Path(__file__).parent)  # the page the module declares (PAGE)

if __name__ == "__main__":
    demo.launch()
