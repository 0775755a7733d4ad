"""Evaluate AI-text detectors on any labelled human/machine set (``stylebench detect run``).

The input is any table :mod:`dataset_scripts.custom.readers` reads (CSV, TSV, JSON lines, a
JSON list, Parquet, a Hugging Face dataset) with a text column and either a ``label``
column (human/machine, 0/1, ...) or an ARB-style ``regime`` column (``Human`` is the
negative class, every other regime positive), plus optional group columns (generator,
domain, attack). Detectors are the ARB ones (:mod:`evaluators.arb.detectors`); the
metrics are :func:`evaluators.metric_math.roc_auc` and
:func:`~evaluators.metric_math.tpr_at_fpr`, with stratified percentile-bootstrap CIs
(:mod:`.bootstrap`, drawn by :mod:`evaluators.metric_math.resampling`).

Modules: :mod:`.data` (reading and label parsing), :mod:`.split` (the seeded held-out split
for supervised detectors), :mod:`.scoring` (resumable scoring with progress bars),
:mod:`.bootstrap`, :mod:`.report` (groups, records, ROC plot, files), :mod:`.estimate`
(run-time estimates from the text count), :mod:`.leaks` (exact duplicates, conflicting
labels, 13-gram near-duplicates), :mod:`.raid` (``--protocol raid`` and the RAID-shaped
``run_detection``/``evaluate_detection``); its command line is :mod:`evaluators.cli.detect`.
"""
