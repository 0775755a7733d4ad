"""Named evaluation protocols: which rule decides where the STEB paper is silent.

* ``steb`` (default): the STEB authors' code (GitHub ``rrivera1849/STEB``) wherever the
  paper leaves a rule open, so our numbers stand beside the paper's tables: order
  alignment takes the Hungarian solver's own choice among tied optima (scipy's
  ``linear_sum_assignment``, as their code does), retrieval averages ``1/rank`` over
  every matching target and drops authors missing from either side, recall@k is
  reported for every k of ``1, 8, 16, 32, 64, 128``.
* ``steb-strict``: the same data and costs, but exact ties in an order-alignment cost
  matrix score the *expected* accuracy over the tied optimal assignments, and retrieval
  breaks score ties pessimistically. A degenerate encoder then scores chance instead of
  the solver's identity preference; numbers differ from ``steb`` only on tied items.
  Probing trains scikit-learn's logistic regression at its optimum instead of the
  authors' early-stopped torch probe (see :mod:`evaluators.tasks.probing`).

Every result records ``details["protocol"] = {"name", "version"}``; both the tie-aware
and the solver numbers are always reported (``*_tie_aware``, ``*_solver``) with the
share of tied items, whichever protocol is the main score. The full rule table is in
``docs/concepts/protocol.md``.
"""

from __future__ import annotations

from dataset_scripts.core.errors import UnknownNameError

#: 2: exact-grid cosines (issue 25); float64 order-alignment decisions near ties (issue 33)
PROTOCOL_VERSION = "2"
DEFAULT_PROTOCOL = "steb"
PROTOCOLS: dict[str, str] = {
    "steb": "the STEB authors' code where the paper is silent (solver tie-breaks)",
    "steb-strict": (
        "as steb, but tied optima score their expected accuracy; pessimistic rank ties; "
        "scikit-learn probe"
    ),
}


def check_protocol(name: str) -> str:
    """``name`` when it is a known protocol, else an error listing the known ones."""
    if name not in PROTOCOLS:
        raise UnknownNameError(
            f"unknown protocol {name!r}; known protocols: {', '.join(PROTOCOLS)}"
        )
    return name


def protocol_record(name: str) -> dict[str, str]:
    """What a result JSON stores about the protocol it was computed under."""
    return {"name": check_protocol(name), "version": PROTOCOL_VERSION}
