"""The LLM setting: T+ and T- generated for a query reconstructed from the reference.

From a DD triplet (reference = the author's bag, positive = the author's target text),
the target becomes T_ref and the bag the style grounding T'_ref:
``q = M(QUERY_RECONSTRUCTION(T_ref))``, ``T+ = M(PERSONALISED_GENERATION(bag, q))`` and
``T- = M(PLAIN_GENERATION(q))``. Triplets whose generation is empty (or repeats the
reference) are dropped and counted, as the paper removed examples without an appropriate
response.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from evaluators.styledisc.generators import Generator
from evaluators.styledisc.prompts import (
    PERSONALISED_GENERATION,
    PLAIN_GENERATION,
    QUERY_RECONSTRUCTION,
)


def _cut(text: str, max_words: int) -> str:
    words = text.split()
    return text if len(words) <= max_words else " ".join(words[:max_words])


def llm_triplets(
    source_rows: Sequence[dict[str, Any]],
    generator: Generator,
    count_tokens: Callable[[str], int],
    *,
    n: int,
    query_tokens: int = 64,
    answer_tokens: int = 256,
    max_words: int = 400,
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """LLM-setting rows from the first ``n`` DD rows per domain of ``source_rows``."""
    dropped: Counter[str] = Counter()
    rows: list[dict[str, Any]] = []
    taken: Counter[str] = Counter()
    for source in source_rows:
        if source["setting"] != "DD" or taken[source["domain"]] >= n:
            continue
        taken[source["domain"]] += 1
        reference, grounding = source["positive"], source["reference"]
        query = generator.generate(
            QUERY_RECONSTRUCTION.format(text=_cut(reference, max_words)), query_tokens
        ).strip()
        if not query:
            dropped["LLM: empty reconstructed query"] += 1
            continue
        words = max(20, len(reference.split()))
        positive = generator.generate(
            PERSONALISED_GENERATION.format(
                grounding=_cut(grounding, max_words), words=words, query=query
            ),
            answer_tokens,
        ).strip()
        negative = generator.generate(
            PLAIN_GENERATION.format(words=words, query=query), answer_tokens
        ).strip()
        if not positive or not negative:
            dropped["LLM: generator returned an empty text"] += 1
            continue
        if reference in (positive, negative):
            dropped["LLM: generation repeats the reference"] += 1
            continue
        rows.append(
            {
                "id": source["id"].replace("DD-", "LLM-", 1),
                "setting": "LLM",
                "domain": source["domain"],
                "negative_domain": source["domain"],
                "reference": reference,
                "positive": positive,
                "negative": negative,
                "author": source["author"],
                "negative_author": None,
                "author_known": source["author_known"],
                "query": query,
                "generator": generator.name,
                "reference_tokens": source["positive_tokens"],
                "positive_tokens": count_tokens(positive),
                "negative_tokens": count_tokens(negative),
            }
        )
    return rows, dict(dropped)
