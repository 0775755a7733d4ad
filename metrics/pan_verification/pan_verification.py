"""PAN authorship-verification scores: AUC, c@1, F0.5u, F1, Brier and their mean.

The math lives in ``evaluators.metric_math.pan_verification``; this module is its
``evaluate`` face.
"""

import datasets
import evaluate

from evaluators.metric_math import pan_verification
from evaluators.metric_math.evaluate_glue import DirectComputeMixin
from evaluators.metric_math.page import Field, MetricPage

_CITATION = """\
@inproceedings{kestemont2021overview,
  title     = {Overview of the Cross-Domain Authorship Verification Task at {PAN} 2021},
  author    = {Kestemont, Mike and Manjavacas, Enrique and Markov, Ilia and Bevendorff, Janek and Wiegmann, Matti and Stamatatos, Efstathios and Stein, Benno and Potthast, Martin},
  booktitle = {CLEF 2021 Working Notes},
  year      = {2021}
}
@article{tyo2022valla,
  title   = {On the State of the Art in Authorship Attribution and Authorship Verification},
  author  = {Tyo, Jacob and Dhingra, Bhuwan and Lipton, Zachary C.},
  journal = {arXiv preprint arXiv:2209.06869},
  year    = {2022}
}
@inproceedings{penas2011simple,
  title     = {A Simple Measure to Assess Non-response},
  author    = {Pe{\\~n}as, Anselmo and Rodrigo, Alvaro},
  booktitle = {Proceedings of the 49th Annual Meeting of the Association for Computational Linguistics},
  pages     = {1415--1424},
  year      = {2011}
}
@inproceedings{bevendorff2019generalizing,
  title     = {Generalizing Unmasking for Short Texts},
  author    = {Bevendorff, Janek and Stein, Benno and Hagen, Matthias and Potthast, Martin},
  booktitle = {Proceedings of NAACL-HLT 2019},
  pages     = {654--659},
  year      = {2019}
}
"""

_DESCRIPTION = """\
The PAN authorship-verification evaluation (PAN 2020-2022). Each problem gets a score in
[0, 1]: > 0.5 = same author, < 0.5 = different authors, exactly 0.5 = no answer.
auc is the AUROC of the raw scores; c@1 = (n_c + n_u * n_c / n) / n rewards leaving hard
problems unanswered; F0.5u = 1.25 tp / (1.25 tp + 0.25 (fn + n_u) + fp) counts non-answers
as false negatives; f1 is computed on the answered problems; brier is 1 - Brier loss; overall
is the mean of the five.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (`list` of `float`): scores in [0, 1]; exactly 0.5 means "no answer".
    references (`list` of `int`): 1 = same author, 0 = different authors; both must occur.

Returns:
    auc, c_at_1, f_05_u, f1, brier, overall (`float`): all in [0, 1], not rounded.

Examples:
    >>> import evaluate
    >>> pan = evaluate.load("metrics/pan_verification")
    >>> r = pan.compute(predictions=[0.9, 0.2, 0.5, 0.7], references=[1, 0, 1, 0])
    >>> {k: round(v, 4) for k, v in r.items()}
    {'auc': 0.75, 'c_at_1': 0.625, 'f_05_u': 0.5, 'f1': 0.6667, 'brier': 0.8025, 'overall': 0.6688}
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class PanVerification(DirectComputeMixin, evaluate.Metric):
    """PAN verification scores (see ``evaluators.metric_math.pan_verification``)."""

    PAGE = MetricPage(
        "PAN authorship verification",
        "Scores in [0, 1]: above 0.5 = same author, below = different, exactly 0.5 = no "
        "answer. Paste values separated by commas, spaces or newlines.",
        (
            Field("predictions", "floats", "predictions: scores in [0, 1]", "0.9, 0.2, 0.5, 0.7"),
            Field("references", "ints", "references: 1 = same author, 0 = different",
                  "1, 0, 1, 0"),
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
                "https://pan.webis.de/clef21/pan21-web/author-identification.html",
                "https://github.com/pan-webis-de/pan-code",
            ],
        )

    def _compute(self, predictions, references):
        return pan_verification(predictions, references)
