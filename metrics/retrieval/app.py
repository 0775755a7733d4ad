"""Gradio Space for the ``retrieval`` metric: paste a score matrix and relevance rows."""

from pathlib import Path

from evaluators.metric_math.page import metric_page

demo, compute = metric_page(Path(__file__).parent)  # the page the module declares (PAGE)

if __name__ == "__main__":
    demo.launch()
