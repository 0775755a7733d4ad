"""AUROC with EER and the standardized partial AUROC (STEB pair classification, Valla AV, ARB).

The math lives in ``evaluators.metric_math.roc_summary``; this module is its ``evaluate`` face.
"""

import datasets
import evaluate

from evaluators.metric_math import roc_summary
from evaluators.metric_math.evaluate_glue import DirectComputeMixin
from evaluators.metric_math.page import Field, MetricPage

_CITATION = """\
@article{riverasoto2026steb,
  title   = {{STEB}: Style Text Embedding Benchmark},
  author  = {Rivera Soto, Rafael and Wegmann, Anna and Aggazzotti, Cristina},
  journal = {arXiv preprint arXiv:2606.31741},
  year    = {2026}
}
@article{tyo2022valla,
  title   = {On the State of the Art in Authorship Attribution and Authorship Verification},
  author  = {Tyo, Jacob and Dhingra, Bhuwan and Lipton, Zachary C.},
  journal = {arXiv preprint arXiv:2209.06869},
  year    = {2022}
}
@article{hanley1982auc,
  title   = {The meaning and use of the area under a receiver operating characteristic ({ROC}) curve},
  author  = {Hanley, James A. and McNeil, Barbara J.},
  journal = {Radiology},
  volume  = {143},
  number  = {1},
  pages   = {29--36},
  year    = {1982}
}
@article{mcclish1989partial,
  title   = {Analyzing a portion of the {ROC} curve},
  author  = {McClish, Donna Katzman},
  journal = {Medical Decision Making},
  volume  = {9},
  number  = {3},
  pages   = {190--195},
  year    = {1989}
}
"""

_DESCRIPTION = """\
AUROC is the probability that a random positive scores higher than a random negative, a tied
pair counting 1/2 (equal to scikit-learn's roc_auc_score). The equal error rate (EER) is the
error rate where the false-positive rate equals the false-negative rate on the ROC curve,
linearly interpolated between ROC points. With max_fpr, the McClish-standardized partial
AUROC over FPR in [0, max_fpr] is added (scikit-learn's roc_auc_score(max_fpr=...), STEB's
auc@max_fpr): 0.5 for random scores, 1 for perfect ones.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (`list` of `float`): scores, higher = more likely positive (e.g. cosine
        similarity of a same-author pair). A numpy array is used as is.
    references (`list` of `int`): 1 = positive, 0 = negative; both classes must occur.
    max_fpr (`float` or `list` of `float`, *optional*): FPR bound(s) in (0, 1] for the
        standardized partial AUROC.

Returns:
    auroc (`float`): area under the ROC curve, in [0, 1].
    eer (`float`): equal error rate, in [0, 1].
    partial_auc (`float`): only with a single `max_fpr`; with a list, one
        `partial_auc@<max_fpr>` key per bound instead.

Examples:
    >>> import evaluate
    >>> auroc = evaluate.load("metrics/auroc")
    >>> auroc.compute(predictions=[0.1, 0.4, 0.35, 0.8], references=[0, 0, 1, 1])
    {'auroc': 0.75, 'eer': 0.5}
    >>> auroc.compute(predictions=[0.1, 0.4, 0.35, 0.8], references=[0, 0, 1, 1], max_fpr=0.5)
    {'auroc': 0.75, 'eer': 0.5, 'partial_auc': 0.6666666666666666}
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Auroc(DirectComputeMixin, evaluate.Metric):
    """AUROC, EER and partial AUROC (see ``evaluators.metric_math.roc_summary``)."""

    PAGE = MetricPage(
        "AUROC, EER and partial AUROC",
        "Ties between a positive and a negative count 1/2. Leave max FPR at 0 to skip the "
        "partial AUROC. Paste values separated by commas, spaces or newlines.",
        (
            Field("predictions", "floats", "predictions: scores, higher = positive",
                  "0.1, 0.4, 0.35, 0.8"),
            Field("references", "ints", "references: 1 = positive, 0 = negative", "0, 0, 1, 1"),
            Field("max_fpr", "number", "max FPR for the partial AUROC (0 = none)", 0.5,
                  zero_is_none=True),
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
            reference_urls=[
                "https://arxiv.org/abs/2606.31741",
                "https://scikit-learn.org/stable/modules/generated/sklearn.metrics.roc_auc_score.html",
            ],
        )

    def _compute(self, predictions, references, max_fpr=None):
        return roc_summary(predictions, references, max_fpr=max_fpr)
