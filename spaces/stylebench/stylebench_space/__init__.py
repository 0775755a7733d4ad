"""The stylebench Gradio Space, as an importable package.

``ui.build_demo()`` assembles the four tabs; the logic of each tab lives in a plain module
(``embedding``, ``detectors``, ``metrics_tab``, ``browser``) that raises
:class:`~stylebench_space.safety.UserError` with a one-line message, which the UI turns into
a ``gr.Error``. Optional back ends (STEB reference tables, ARB detectors) are found at run
time by ``backends``.
"""

__all__ = ["backends", "browser", "detectors", "embedding", "metrics_tab", "safety", "ui"]
