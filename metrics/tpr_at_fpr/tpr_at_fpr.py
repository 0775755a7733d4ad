"""TPR@FPR: the true-positive rate at a false-positive-rate budget (ARB's primary endpoint).

The math lives in ``evaluators.metric_math.tpr_at_fpr``; this module is its ``evaluate`` face.
"""

import datasets
import evaluate

from evaluators.metric_math import tpr_at_fpr
from evaluators.metric_math.evaluate_glue import DirectComputeMixin
from evaluators.metric_math.page import Field, MetricPage

_CITATION = """\
@article{perrone2026arb,
  title   = {{ARB}: A Matched Authorship-Rewriting Benchmark Dataset for {AI}-Text Detector Evaluation},
  author  = {Perrone, Gaetano},
  journal = {arXiv preprint arXiv:2607.29539},
  year    = {2026}
}
@article{fawcett2006roc,
  title   = {An introduction to {ROC} analysis},
  author  = {Fawcett, Tom},
  journal = {Pattern Recognition Letters},
  volume  = {27},
  number  = {8},
  pages   = {861--874},
  year    = {2006}
}
"""

_DESCRIPTION = """\
TPR@FPR is the fraction of positives a detector flags when its threshold is set so that at
most a target fraction of negatives is flagged (ARB reports TPR@1%FPR: machine-written text
caught while at most 1% of human texts are falsely accused). A case is flagged iff
score >= threshold; candidate thresholds are the distinct scores plus +inf (flag nothing).
Among thresholds whose FPR on negatives is <= the target, the one with the largest TPR is
used (and among those, the highest). Tied scores cannot be split, so the achieved FPR may be
below the target; it never exceeds it.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (`list` of `float`): scores, higher = more likely positive (e.g. more
        machine-like). A numpy array is used as is (float32 stays float32).
    references (`list` of `int`): 1 = positive (e.g. machine), 0 = negative (e.g. human).
        Both classes must occur.
    fpr (`float`, *optional*, defaults to 0.01): target false-positive rate, in (0, 1).

Returns:
    tpr (`float`): true-positive rate at the chosen threshold.
    threshold (`float`): the threshold used (`inf` when no positive can be flagged).
    achieved_fpr (`float`): FPR actually reached on the negatives (<= `fpr`).
    n_pos (`int`), n_neg (`int`): number of positives and negatives.

Examples:
    >>> import evaluate
    >>> tpr = evaluate.load("metrics/tpr_at_fpr")
    >>> tpr.compute(
    ...     predictions=[0.1, 0.2, 0.3, 0.4, 0.35, 0.8, 0.9],
    ...     references=[0, 0, 0, 0, 1, 1, 1],
    ...     fpr=0.25,
    ... )
    {'tpr': 1.0, 'threshold': 0.35, 'achieved_fpr': 0.25, 'n_pos': 3, 'n_neg': 4}
    >>> tpr.compute(predictions=[0.9, 0.9, 0.1], references=[1, 0, 0], fpr=0.4)["tpr"]
    0.0
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class TprAtFpr(DirectComputeMixin, evaluate.Metric):
    """TPR at a fixed FPR (see ``evaluators.metric_math.tpr_at_fpr``)."""

    PAGE = MetricPage(
        "TPR@FPR",
        "True-positive rate when at most a target fraction of negatives is flagged "
        "(flag iff score >= threshold; ARB reports TPR@1%FPR). "
        "Paste values separated by commas, spaces or newlines.",
        (
            Field("predictions", "floats", "predictions: scores, higher = positive",
                  "0.1, 0.2, 0.3, 0.4, 0.35, 0.8, 0.9"),
            Field("references", "ints", "references: 1 = positive, 0 = negative",
                  "0, 0, 0, 0, 1, 1, 1"),
            Field("fpr", "number", "target FPR, in (0, 1)", 0.25),
        ),
    )  # fmt: skip

    def _info(self):
        return evaluate.MetricInfo(
            module_type="metric",
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {"predictions": datasets.Value("float64"), "references": datasets.Value("int32")}
            ),
            reference_urls=["https://arxiv.org/abs/2607.29539"],
        )

    def _compute(self, predictions, references, fpr=0.01):
        return tpr_at_fpr(predictions, references, fpr=fpr)
