"""``python -m evaluators.cli``: the ``stylebench`` command."""

from evaluators.cli import main

main()
