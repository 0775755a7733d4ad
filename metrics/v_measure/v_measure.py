"""V-measure of a clustering with homogeneity and completeness (STEB clustering).

The math lives in ``evaluators.metric_math.v_measure``; this module is its ``evaluate`` face.
"""

import datasets
import evaluate

from evaluators.metric_math import v_measure
from evaluators.metric_math.evaluate_glue import DirectComputeMixin
from evaluators.metric_math.page import Field, MetricPage

_CITATION = """\
@article{riverasoto2026steb,
  title   = {{STEB}: Style Text Embedding Benchmark},
  author  = {Rivera Soto, Rafael and Wegmann, Anna and Aggazzotti, Cristina},
  journal = {arXiv preprint arXiv:2606.31741},
  year    = {2026}
}
@inproceedings{rosenberg2007vmeasure,
  title     = {V-Measure: A Conditional Entropy-Based External Cluster Evaluation Measure},
  author    = {Rosenberg, Andrew and Hirschberg, Julia},
  booktitle = {Proceedings of EMNLP-CoNLL 2007},
  pages     = {410--420},
  year      = {2007}
}
"""

_DESCRIPTION = """\
V-measure scores a clustering against gold classes: homogeneity (each cluster holds one
class) h = 1 - H(C|K)/H(C), completeness (each class sits in one cluster)
c = 1 - H(K|C)/H(K), and V = (1 + beta) h c / (beta h + c), as in scikit-learn's
homogeneity_completeness_v_measure. A single class gives h = 1, a single cluster c = 1.
The score only depends on the partition, so cluster ids are arbitrary.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (`list` of `int` or `str`): cluster id per item.
    references (`list` of `int` or `str`): gold class per item.
    beta (`float`, *optional*, defaults to 1.0): weight of completeness vs homogeneity.

Returns:
    v_measure, homogeneity, completeness (`float`): in [0, 1].

Examples:
    >>> import evaluate
    >>> vm = evaluate.load("metrics/v_measure")
    >>> vm.compute(predictions=[1, 1, 0, 0], references=["x", "x", "y", "y"])
    {'v_measure': 1.0, 'homogeneity': 1.0, 'completeness': 1.0}
    >>> r = vm.compute(predictions=[0, 0, 1, 1], references=[0, 0, 0, 1], beta=2.0)
    >>> {k: round(v, 4) for k, v in r.items()}
    {'v_measure': 0.3322, 'homogeneity': 0.3837, 'completeness': 0.3113}
"""

_LABEL_TYPES = ("int64", "string")


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class VMeasure(DirectComputeMixin, evaluate.Metric):
    """V-measure (see ``evaluators.metric_math.v_measure``)."""

    PAGE = MetricPage(
        "V-measure",
        "Clustering quality against gold classes (labels may be numbers or words). "
        "Paste values separated by commas, spaces or newlines.",
        (
            Field("predictions", "labels", "predictions: cluster ids", "0 0 1 1 1 2"),
            Field("references", "labels", "references: gold classes", "a a a b b b"),
            Field("beta", "number", "beta (weight of completeness)", 1.0),
        ),
    )

    def _info(self):
        return evaluate.MetricInfo(
            module_type="metric",
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            # cluster ids and gold labels may each be integers or strings
            features=[
                datasets.Features(
                    {"predictions": datasets.Value(p), "references": datasets.Value(r)}
                )
                for p in _LABEL_TYPES
                for r in _LABEL_TYPES
            ],
            reference_urls=["https://aclanthology.org/D07-1043/"],
        )

    def _compute(self, predictions, references, beta=1.0):
        return v_measure(predictions, references, beta=beta)
