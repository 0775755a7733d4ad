"""Macro-accuracy (mean per-class recall), Valla's authorship-attribution metric.

The math lives in ``evaluators.metric_math.macro_accuracy``; this module is its
``evaluate`` face.
"""

import datasets
import evaluate

from evaluators.metric_math import macro_accuracy
from evaluators.metric_math.evaluate_glue import DirectComputeMixin
from evaluators.metric_math.page import Field, MetricPage

_CITATION = """\
@article{tyo2022valla,
  title   = {On the State of the Art in Authorship Attribution and Authorship Verification},
  author  = {Tyo, Jacob and Dhingra, Bhuwan and Lipton, Zachary C.},
  journal = {arXiv preprint arXiv:2209.06869},
  year    = {2022}
}
@inproceedings{brodersen2010balanced,
  title     = {The Balanced Accuracy and Its Posterior Distribution},
  author    = {Brodersen, Kay Henning and Ong, Cheng Soon and Stephan, Klaas Enno and Buhmann, Joachim M.},
  booktitle = {Proceedings of the 20th International Conference on Pattern Recognition},
  pages     = {3121--3124},
  year      = {2010}
}
"""

_DESCRIPTION = """\
Macro-accuracy is the unweighted mean over classes (authors) of each class's recall, so a
prolific author counts as much as a rare one; Valla adopts it for authorship attribution. It
equals scikit-learn's balanced_accuracy_score. Only classes present in the references get a
recall; predicted labels that never occur in the references only count as errors.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (`list` of `int` or `str`): predicted class (author) per item.
    references (`list` of `int` or `str`): gold class per item, same type as predictions.

Returns:
    macro_accuracy (`float`): mean per-class recall.
    accuracy (`float`): plain fraction of correct predictions.
    per_class_recall (`dict`): recall of each class present in the references.

Examples:
    >>> import evaluate
    >>> macc = evaluate.load("metrics/macro_accuracy")
    >>> macc.compute(predictions=["a", "a", "a", "a"], references=["a", "a", "a", "b"])
    {'macro_accuracy': 0.5, 'accuracy': 0.75, 'per_class_recall': {'a': 1.0, 'b': 0.0}}
    >>> macc.compute(predictions=[0, 1, 1, 2], references=[0, 1, 2, 2])["macro_accuracy"]
    0.8333333333333334
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class MacroAccuracy(DirectComputeMixin, evaluate.Metric):
    """Macro-accuracy (see ``evaluators.metric_math.macro_accuracy``)."""

    PAGE = MetricPage(
        "Macro-accuracy",
        "Mean over classes of each class's recall (Valla's authorship-attribution metric). "
        "Paste labels separated by commas, spaces or newlines.",
        (
            Field("predictions", "labels", "predictions: predicted class", "alice bob bob carol"),
            Field("references", "labels", "references: gold class", "alice bob carol carol"),
        ),
        same_label_type=True,
    )

    def _info(self):
        return evaluate.MetricInfo(
            module_type="metric",
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                datasets.Features(
                    {"predictions": datasets.Value(t), "references": datasets.Value(t)}
                )
                for t in ("int64", "string")
            ],
            reference_urls=["https://arxiv.org/abs/2209.06869"],
        )

    def _compute(self, predictions, references):
        return macro_accuracy(predictions, references)
