"""The documentation site's generators, run by ``mkdocs build`` through the hook
``docs/hooks/stylebench_docs.py``: pages made from the code (the datasets catalogue from
the registry, one page per metric card) and the pictures made from real runs.

Nothing here computes a score: every number comes from the project's own commands and
functions (the registry, ``evaluators.demo``, ``evaluators.api``, ``stylebench detect``,
``stylebench compare``, the STEB leaderboard)."""
