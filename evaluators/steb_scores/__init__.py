"""STEB's aggregate scores and reference results.

Modules: ``reference`` (the paper's Tables 2-9 and 14 as data), ``results`` (read result
JSON files), ``clusters`` (redundancy-cluster discovery), ``scores`` (operational,
definitional, application and multilingual views), ``bootstrap`` (CIs), ``summary``
(everything for every model), ``model_card`` (Hub ``model-index`` metadata). The
leaderboard that shows them beside a user's runs is :mod:`evaluators.leaderboard` (it
ranks runs through :mod:`evaluators.compare`, which reads these scores); the named
benchmarks are :mod:`evaluators.benchmarks`, resolved to built folders by
:mod:`evaluators.benchmark_folders`; the ``stylebench steb`` commands are in
:mod:`evaluators.cli`.
"""
