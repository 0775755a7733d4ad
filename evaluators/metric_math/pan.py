"""PAN authorship-verification scores: AUC, c@1, F0.5u, F1, Brier and their mean.

A system answers each verification problem with a score in [0, 1]: above 0.5 means
"same author", below 0.5 "different authors", and exactly 0.5 is a non-answer. The
definitions follow the PAN organisers' evaluator (PAN 2020-2022 authorship verification,
``pan20_verif_evaluator.py`` and its 2021/2022 successors, which add the Brier score):

* ``auc``: AUROC of the raw scores, non-answers included (:func:`~.binary.roc_auc`).
* ``c_at_1`` [1]_: ``(n_c + n_u * n_c / n) / n`` with ``n_c`` correct answers and ``n_u``
  non-answers among ``n`` problems: non-answers earn the accuracy of the answered ones.
* ``f_05_u`` [2]_: ``1.25 tp / (1.25 tp + 0.25 (fn + n_u) + fp)``, the F0.5 measure with
  non-answers counted as false negatives (so abstaining beats a wrong "same author").
* ``f1``: F1 of the positive class on the answered problems only; 0 when it is
  undefined (no true and no predicted positive among them).
* ``brier``: ``1 - mean((score - label)**2)``, the complement of the Brier loss [3]_.
* ``overall``: the unweighted mean of the five.

The 2020 evaluator script binarised scores with ``>= 0.5`` before counting F0.5u's
non-answers, so there a 0.5 counted as "same author"; we follow the corrected 2021/2022
definition above (a 0.5 is a non-answer everywhere). Unlike the evaluator script we do
not round to three decimals, and a single-class truth raises instead of scoring AUC 0.

References
----------
.. [1] Peñas, A. and Rodrigo, A. (2011). A Simple Measure to Assess Non-response.
   ACL-HLT 2011, 1415-1424.
.. [2] Bevendorff, J., Stein, B., Hagen, M. and Potthast, M. (2019). Generalizing
   Unmasking for Short Texts. NAACL-HLT 2019, 654-659.
.. [3] Brier, G. W. (1950). Verification of forecasts expressed in terms of probability.
   Monthly Weather Review 78(1), 1-3.
.. [4] Kestemont, M. et al. (2021). Overview of the Cross-Domain Authorship Verification
   Task at PAN 2021. CLEF 2021 Working Notes.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._checks import (
    as_binary_labels,
    as_scores,
    check_same_length,
    check_two_classes,
    check_unit_interval,
)
from .binary import roc_auc

__all__ = ["NON_ANSWER", "pan_verification"]

#: The score that means "no answer".
NON_ANSWER = 0.5


def pan_verification(scores: ArrayLike, references: ArrayLike) -> dict[str, float]:
    """All PAN authorship-verification scores of one system.

    Parameters
    ----------
    scores : array-like of shape (n,)
        Scores in [0, 1]: > 0.5 = same author, < 0.5 = different authors, exactly 0.5 =
        no answer.
    references : array-like of shape (n,)
        1 = same author, 0 = different authors; both must occur.

    Returns
    -------
    dict
        ``auc``, ``c_at_1``, ``f_05_u``, ``f1``, ``brier`` and ``overall`` (their mean),
        all floats in [0, 1]; see the module notes for the definitions.

    Raises
    ------
    ValueError
        Empty input, length mismatch, NaN/inf or out-of-[0, 1] scores, non-binary
        references or a single class.

    Examples
    --------
    >>> r = pan_verification([0.9, 0.2, 0.5, 0.7], [1, 0, 1, 0])
    >>> {k: round(v, 4) for k, v in r.items()}
    {'auc': 0.75, 'c_at_1': 0.625, 'f_05_u': 0.5, 'f1': 0.6667, 'brier': 0.8025, 'overall': 0.6688}
    """
    s = as_scores(scores, "scores")
    y = as_binary_labels(references, "references")
    check_same_length("scores", s, "references", y)
    check_two_classes(y, "references")
    check_unit_interval(s, "scores")

    n = s.size
    answered = s != NON_ANSWER
    says_same = s > NON_ANSWER
    n_u = int(n - np.count_nonzero(answered))
    n_c = int(np.count_nonzero(answered & (says_same == y)))
    tp = int(np.count_nonzero(says_same & y))
    fp = int(np.count_nonzero(says_same & ~y))
    fn = int(np.count_nonzero(answered & ~says_same & y))  # answered "different", truly same

    c_at_1 = (n_c + n_u * n_c / n) / n
    f05u_den = 1.25 * tp + 0.25 * (fn + n_u) + fp
    f_05_u = 1.25 * tp / f05u_den if f05u_den > 0 else 0.0
    f1_den = 2 * tp + fp + fn
    f1 = 2 * tp / f1_den if f1_den > 0 else 0.0
    brier = 1.0 - float(np.mean((s.astype(np.float64) - y) ** 2))
    result = {
        "auc": roc_auc(s, y),
        "c_at_1": float(c_at_1),
        "f_05_u": float(f_05_u),
        "f1": float(f1),
        "brier": brier,
    }
    result["overall"] = float(np.mean(list(result.values())))
    return result
