"""Paired comparisons of stored results: which model is better, on each dataset and
across a benchmark, and how sure we are; rank intervals and tied groups.

* :mod:`evaluators.compare.records`: the result records of a run-output folder or a
  results repository (one reader);
* :mod:`evaluators.compare.units`: the paired units of one result, the paired test per
  task kind, joint bootstrap replicates;
* :mod:`evaluators.compare.benchmark`: per-dataset tests with Holm's correction, the
  benchmark-level two-level bootstrap, rank intervals;
* :mod:`evaluators.compare.detectors`: two detectors on the same held-out texts;
* :mod:`evaluators.cli.compare`: ``stylebench compare``.

Formulas live in :mod:`evaluators.metric_math.paired`. Nothing is embedded again: a
comparison reads only the records (``record.items``). Nothing heavy is imported here.
"""
