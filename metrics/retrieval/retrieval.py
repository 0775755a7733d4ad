"""Retrieval: MRR, mean rank and recall@k of each query's first relevant target (STEB).

The math lives in ``evaluators.metric_math.retrieval_scores``; this module is its
``evaluate`` face.
"""

import datasets
import evaluate
import numpy as np

from evaluators.metric_math import cosine_similarity_matrix, retrieval_scores
from evaluators.metric_math.evaluate_glue import DirectComputeMixin
from evaluators.metric_math.page import Field, MetricPage

_CITATION = """\
@article{riverasoto2026steb,
  title   = {{STEB}: Style Text Embedding Benchmark},
  author  = {Rivera Soto, Rafael and Wegmann, Anna and Aggazzotti, Cristina},
  journal = {arXiv preprint arXiv:2606.31741},
  year    = {2026}
}
@inproceedings{riverasoto2021luar,
  title     = {Learning Universal Authorship Representations},
  author    = {Rivera-Soto, Rafael A. and Miano, Olivia Elizabeth and Ordonez, Juanita and Chen, Barry Y. and Khan, Aleem and Bishop, Marcus and Andrews, Nicholas},
  booktitle = {Proceedings of EMNLP 2021},
  year      = {2021}
}
@inproceedings{voorhees1999trec8qa,
  title     = {The {TREC}-8 Question Answering Track Report},
  author    = {Voorhees, Ellen M.},
  booktitle = {Proceedings of TREC-8},
  year      = {1999}
}
"""

_DESCRIPTION = """\
Ranks targets for each query by score and finds the rank of the query's first (best-scoring)
relevant target. Ties are pessimistic: every non-relevant target scoring >= the best relevant
one ranks above it. Reports the mean reciprocal rank (MRR, STEB's retrieval headline), the
mean rank and recall@k, the fraction of queries whose first relevant target is in the top k.
Scores can be given directly (one row per query) or computed as cosine similarities from
query embeddings (predictions) and target_embeddings.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (`list` of `list` of `float`): per query, its score for every target
        (higher = more similar); or, with `target_embeddings`, the query's embedding.
    references (`list` of `list` of `int`): per query, 1 for each relevant target, else 0.
        Every query needs at least one relevant target.
    ks (`int` or `list` of `int`, *optional*, defaults to (1, 5, 10)): cut-offs for
        recall@k (STEB uses 1, 8, 16, 32, 64, 128).
    target_embeddings (`list` of `list` of `float`, *optional*): target vectors; the
        scores become the cosine similarities between query and target embeddings.
    ignore (`list` of `list` of `int`, *optional*): 1 where a target takes no part in a
        query's ranking (e.g. the query itself); must not mark a relevant target.

Returns:
    mrr (`float`), mean_rank (`float`), recall@k (`float`) per k, n_queries (`int`).

Examples:
    >>> import evaluate
    >>> retrieval = evaluate.load("metrics/retrieval")
    >>> retrieval.compute(
    ...     predictions=[[0.9, 0.1, 0.5], [0.2, 0.3, 0.4]],
    ...     references=[[1, 0, 0], [1, 0, 0]],
    ...     ks=[1, 2],
    ... )
    {'mrr': 0.6666666666666666, 'mean_rank': 2.0, 'recall@1': 0.5, 'recall@2': 0.5, 'n_queries': 2}
    >>> retrieval.compute(
    ...     predictions=[[1.0, 0.0], [0.0, 1.0]],
    ...     references=[[1, 0], [0, 1]],
    ...     target_embeddings=[[0.9, 0.1], [0.2, 0.8]],
    ...     ks=1,
    ... )
    {'mrr': 1.0, 'mean_rank': 1.0, 'recall@1': 1.0, 'n_queries': 2}
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Retrieval(DirectComputeMixin, evaluate.Metric):
    """Retrieval scores (see ``evaluators.metric_math.retrieval_scores``)."""

    PAGE = MetricPage(
        "Retrieval: MRR, mean rank, recall@k",
        "One line per query: its score for every target (higher = more similar), and 1 for "
        "each relevant target, else 0. Ties are ranked pessimistically.",
        (
            Field("predictions", "rows", "predictions: scores (query x target)",
                  "0.9 0.1 0.5\n0.2 0.3 0.4"),
            Field("references", "int_rows", "references: relevance (0/1)", "1 0 0\n1 0 0"),
            Field("ks", "ints", "ks (cut-offs for recall@k; empty: 1, 5, 10)", "1, 2",
                  optional=True, lines=0),
        ),
    )  # fmt: skip

    def _info(self):
        return evaluate.MetricInfo(
            module_type="metric",
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "predictions": datasets.Sequence(datasets.Value("float64")),
                    "references": datasets.Sequence(datasets.Value("int8")),
                }
            ),
            reference_urls=["https://arxiv.org/abs/2606.31741"],
        )

    def _compute(self, predictions, references, ks=(1, 5, 10), target_embeddings=None, ignore=None):
        scores = np.asarray(predictions)
        if target_embeddings is not None:
            scores = cosine_similarity_matrix(scores, target_embeddings)
        return retrieval_scores(scores, np.asarray(references), ks=ks, ignore=ignore)
