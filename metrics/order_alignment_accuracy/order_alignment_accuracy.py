"""STEB order-alignment accuracy (and distractor accuracy), tie-aware.

The math lives in ``evaluators.metric_math.order_alignment_accuracy``; this module is its
``evaluate`` face.
"""

import datasets
import evaluate

from evaluators.metric_math import order_alignment_accuracy
from evaluators.metric_math.evaluate_glue import DirectComputeMixin
from evaluators.metric_math.page import Field, MetricPage

_CITATION = """\
@article{riverasoto2026steb,
  title   = {{STEB}: Style Text Embedding Benchmark},
  author  = {Rivera Soto, Rafael and Wegmann, Anna and Aggazzotti, Cristina},
  journal = {arXiv preprint arXiv:2606.31741},
  year    = {2026}
}
@inproceedings{wegmann2021stel,
  title     = {Does It Capture {STEL}? A Modular, Similarity-based Linguistic Style Evaluation Framework},
  author    = {Wegmann, Anna and Nguyen, Dong},
  booktitle = {Proceedings of EMNLP 2021},
  year      = {2021}
}
@inproceedings{wegmann2022same,
  title     = {Same Author or Just Same Topic? Towards Content-Independent Style Representations},
  author    = {Wegmann, Anna and Schraagen, Marijn and Nguyen, Dong},
  booktitle = {Proceedings of the 7th Workshop on Representation Learning for NLP},
  year      = {2022}
}
@article{kuhn1955hungarian,
  title   = {The {H}ungarian method for the assignment problem},
  author  = {Kuhn, Harold W.},
  journal = {Naval Research Logistics Quarterly},
  volume  = {2},
  number  = {1--2},
  pages   = {83--97},
  year    = {1955}
}
"""

_DESCRIPTION = """\
Order alignment asks a style embedding to re-order a set of texts to match the stylistic
order of a reference set (STEL generalised). Each item is a cost matrix: rows = reference
positions, columns = candidates, cost = distance (STEB: 1 - max(cosine, 0)). The Hungarian
algorithm finds the minimum-cost assignment and the item scores the fraction of rows placed on
their expected column; the metric is the mean over items. When several assignments tie for the
minimum (within 1e-9 relative), the item scores the expected accuracy of a uniformly random
optimal assignment, so a constant encoder scores chance instead of 100% (exact up to 40,320
assignments per item, e.g. any 7x7 or 7x8 item; beyond that the solver's single solution).
Items may instead give the already-chosen column per row. In the distractor variant each item
has one extra candidate that must stay unassigned.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (`list` of items): per item either a cost matrix (`list` of `list` of
        `float`, k rows x m >= k columns, lower = better match) or the column chosen for
        each row (`list` of `int`).
    references (`list` of `list` of `int`): per item, the expected column of each row.
    distractor_predictions, distractor_references (*optional*): the distractor-variant items
        in the same formats (one extra column per item); give both or neither.

Returns:
    accuracy (`float`): mean per-item fraction of correctly placed rows (STEB's acc_mean).
    n_items (`int`): number of items.
    distractor_accuracy (`float`), n_distractor_items (`int`): with distractor items only
        (STEB's distractor_acc_mean, its order-alignment headline).

Examples:
    >>> import evaluate
    >>> oa = evaluate.load("metrics/order_alignment_accuracy")
    >>> oa.compute(
    ...     predictions=[[[0.1, 0.9], [0.8, 0.2]], [[0.5, 0.5], [0.5, 0.5]]],
    ...     references=[[0, 1], [0, 1]],
    ...     distractor_predictions=[[[0.1, 0.5, 0.9]]],
    ...     distractor_references=[[0]],
    ... )
    {'accuracy': 0.75, 'n_items': 2, 'distractor_accuracy': 1.0, 'n_distractor_items': 1}
    >>> oa.compute(predictions=[[1, 0], [0, 1]], references=[[0, 1], [0, 1]])
    {'accuracy': 0.5, 'n_items': 2}
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class OrderAlignmentAccuracy(DirectComputeMixin, evaluate.Metric):
    """Order-alignment accuracy (see ``evaluators.metric_math.order_alignment_accuracy``)."""

    PAGE = MetricPage(
        "STEB order-alignment accuracy",
        "Each item is a cost matrix (rows = reference positions, columns = candidates, lower "
        "= better match); separate items with a blank line. Give the expected column of each "
        "row, one line per item. Tied optimal alignments score their average accuracy.",
        (
            Field("predictions", "blocks", "predictions: cost matrices",
                  "0.1 0.9\n0.8 0.2\n\n0.5 0.5\n0.5 0.5", lines=8),
            Field("references", "int_rows", "references: expected columns", "0 1\n0 1",
                  lines=8),
            Field("distractor_predictions", "blocks", "distractor items (optional)",
                  "0.1 0.5 0.9", optional=True, lines=4),
            Field("distractor_references", "int_rows",
                  "distractor expected columns (optional)", "0", optional=True, lines=4),
        ),
    )  # fmt: skip

    def _info(self):
        expected = datasets.Sequence(datasets.Value("int32"))
        return evaluate.MetricInfo(
            module_type="metric",
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=[
                # a cost matrix per item
                datasets.Features(
                    {
                        "predictions": datasets.Sequence(
                            datasets.Sequence(datasets.Value("float64"))
                        ),
                        "references": expected,
                    }
                ),
                # the column already chosen for each row
                datasets.Features(
                    {
                        "predictions": datasets.Sequence(datasets.Value("int32")),
                        "references": expected,
                    }
                ),
            ],
            reference_urls=["https://arxiv.org/abs/2606.31741"],
        )

    def _compute(
        self,
        predictions,
        references,
        distractor_predictions=None,
        distractor_references=None,
    ):
        return order_alignment_accuracy(
            predictions,
            references,
            distractor_costs=distractor_predictions,
            distractor_expected=distractor_references,
        )
