"""STEB's aggregate scores, reference results and leaderboard (issue 6).

Modules: ``reference`` (the paper's Tables 2-9 and 14 as data), ``results`` (read result
JSON files), ``clusters`` (redundancy-cluster discovery), ``scores`` (operational,
definitional, application and multilingual views), ``bootstrap`` (CIs), ``summary``
(everything for every model), ``leaderboard`` (terminal/Markdown/CSV/PNG), ``model_card``
(Hub ``model-index`` metadata), ``benchmarks`` (named subsets), ``cli`` (``stylebench steb``).
"""
