"""LLM-as-judge: which candidate is stylistically closer to the reference?

The judge sees the candidates as A and B; their order is randomised per triplet (seeded)
so that a judge that always answers "A" scores 0.5, not 1. Its answer is parsed into
T+, T-, Both, None or unparseable; only T+ counts as correct (the paper's small judges
fall below chance because Both/None are wrong answers). Unparseable answers are counted
and kept as abstentions (vote 0), never dropped.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from evaluators.styledisc.generators import Generator
from evaluators.styledisc.prompts import JUDGE

ANSWERS = ("T+", "T-", "Both", "None", "unparseable")
_ANSWER = re.compile(r"\b(both|none|neither|candidate[_ ]?a|candidate[_ ]?b|a|b)\b", re.IGNORECASE)


def parse_answer(text: str) -> str:
    """``A``/``B``/``Both``/``None`` (first such word of the answer) or ``unparseable``."""
    match = _ANSWER.search(text or "")
    if match is None:
        return "unparseable"
    word = match.group(1).lower().replace("candidate", "").strip("_ ")
    return {"a": "A", "b": "B", "both": "Both", "none": "None", "neither": "None"}[word]


def positive_first(triplet_id: str, seed: int = 0) -> bool:
    """Whether T+ is shown as candidate A for this triplet (seeded, per id)."""
    return hashlib.sha256(f"{seed}:{triplet_id}".encode()).digest()[0] % 2 == 0


def _truncate(text: str, max_words: int) -> str:
    words = text.split()
    return text if len(words) <= max_words else " ".join(words[:max_words]) + " ..."


@dataclass
class JudgeResult:
    votes: np.ndarray
    answers: list[str]  # T+, T-, Both, None, unparseable
    raw: list[str]

    @property
    def counts(self) -> dict[str, int]:
        counts = Counter(self.answers)
        return {answer: counts.get(answer, 0) for answer in ANSWERS}


def judge_triplets(
    generator: Generator,
    rows: Sequence[dict[str, Any]],
    *,
    max_new_tokens: int = 8,
    max_words: int = 400,
    seed: int = 0,
) -> JudgeResult:
    """Ask ``generator`` to judge every triplet; texts are cut to ``max_words`` words."""
    votes, answers, raw = [], [], []
    for row in rows:
        first = positive_first(row["id"], seed)
        a, b = (row["positive"], row["negative"]) if first else (row["negative"], row["positive"])
        prompt = JUDGE.format(
            reference=_truncate(row["reference"], max_words),
            a=_truncate(a, max_words),
            b=_truncate(b, max_words),
        )
        text = generator.generate(prompt, max_new_tokens)
        letter = parse_answer(text)
        picked_positive = (letter == "A") == first
        answer = ("T+" if picked_positive else "T-") if letter in ("A", "B") else letter
        raw.append(text)
        answers.append(answer)
        votes.append({"T+": 1, "T-": -1}.get(answer, 0))
    return JudgeResult(np.array(votes, dtype=np.int8), answers, raw)
