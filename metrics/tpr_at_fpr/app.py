"""Gradio Space for the ``tpr_at_fpr`` metric: paste scores and labels, get TPR@FPR."""

from pathlib import Path

from evaluators.metric_math.page import metric_page

demo, compute = metric_page(Path(__file__).parent)  # the page the module declares (PAGE)

if __name__ == "__main__":
    demo.launch()
