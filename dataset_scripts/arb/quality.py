"""Text normalisation, hashing, word counts, length strata and the quality flags of ARB
Sec. 4.6 (under 50 words, refusal/disclaimer pattern, non-English, exact duplicate).

Flags are *kept* on the rows and counted; nothing is dropped because of them.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

SHORT_WORDS = 50
STRATA: tuple[tuple[str, int, int], ...] = (
    ("short", 150, 220),
    ("medium", 221, 350),
    ("long", 351, 500),
)

_REFUSAL = re.compile(
    r"\b(?:I\s*(?:can(?:'|’)?t|cannot|can not|am unable to|'m unable to|won(?:'|’)t)\s+"
    r"(?:fulfill|fulfil|comply|assist|help|create|write|provide|generate|rewrite|do that)"
    r"|I(?:'|’)m sorry,? but|I apologi[sz]e,? but|As an AI(?: language model)?\b"
    r"|against (?:my|the) (?:guidelines|policy|policies)|I must decline)",
    re.IGNORECASE,
)

# Frequent English function words: genuine English prose of >= 20 words has well over 15%
# of its tokens in this list; other languages (and code) have almost none.
_EN_FUNCTION_WORDS = frozenset(
    [
        "a",
        "about",
        "after",
        "all",
        "also",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "he",
        "her",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "just",
        "like",
        "may",
        "more",
        "most",
        "my",
        "no",
        "not",
        "of",
        "on",
        "one",
        "only",
        "or",
        "other",
        "our",
        "out",
        "over",
        "she",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "up",
        "was",
        "we",
        "were",
        "what",
        "when",
        "which",
        "who",
        "will",
        "with",
        "would",
        "you",
        "your",
    ]
)
_WORD = re.compile(r"[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF\u4E00-\u9FFF']+")


def normalise(text: str) -> str:
    """NFC, whitespace runs collapsed to one space, stripped (the hash input)."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def text_sha256(text: str) -> str:
    """SHA-256 hex digest of the normalised text."""
    return hashlib.sha256(normalise(text).encode("utf-8")).hexdigest()


def word_count(text: str) -> int:
    """Whitespace-delimited words (the paper's unit)."""
    return len(text.split())


def length_stratum(n_words: int) -> str:
    """short 150-220, medium 221-350, long 351-500, else ``outside``."""
    for name, lo, hi in STRATA:
        if lo <= n_words <= hi:
            return name
    return "outside"


def is_refusal(text: str) -> bool:
    """True when the text matches a refusal / policy-disclaimer pattern."""
    return _REFUSAL.search(text) is not None


def is_non_english(text: str) -> bool:
    """Heuristic language check (no language-id model is installed): a text of at least
    8 words is non-English when under 15% of its words are frequent English function
    words. Shorter texts are not judged (False)."""
    words = [w.lower() for w in _WORD.findall(text)]
    if len(words) < 8:
        return False
    share = sum(w in _EN_FUNCTION_WORDS for w in words) / len(words)
    return share < 0.15


def add_flags(rows: Sequence[dict[str, Any]], *, generated_only: bool = True) -> dict[str, int]:
    """Set ``flag_short/refusal/non_english/duplicate`` on every row (in place) and return
    counts over generated rows like Sec. 4.6 (plus their union and the total).

    A row is a duplicate when an earlier row (in row order) has the same ``text_sha256``;
    the first occurrence is not flagged.
    """
    seen: set[str] = set()
    for row in rows:
        text = row["text"]
        row["flag_short"] = row["word_count"] < SHORT_WORDS
        row["flag_refusal"] = is_refusal(text)
        row["flag_non_english"] = is_non_english(text)
        row["flag_duplicate"] = row["text_sha256"] in seen
        seen.add(row["text_sha256"])
    return flag_counts(rows, generated_only=generated_only)


def flag_counts(
    rows: Sequence[Mapping[str, Any]], *, generated_only: bool = True
) -> dict[str, int]:
    """The counts :func:`add_flags` returns, from rows whose flags are set: per flag over
    generated rows (Sec. 4.6), their union and the total."""
    counts = {"flag_short": 0, "flag_refusal": 0, "flag_non_english": 0, "flag_duplicate": 0}
    union = total = 0
    for row in rows:
        if generated_only and row["regime"] == "Human":
            continue
        total += 1
        hit = False
        for k in counts:
            if row[k]:
                counts[k] += 1
                hit = True
        union += hit
    return {**counts, "any_flag": union, "generated_texts": total}


def flag_summary(counts: Mapping[str, int]) -> str:
    """One Markdown line per flag with its share of generated texts, like Sec. 4.6."""
    total = max(1, counts.get("generated_texts", 0))
    names = {
        "flag_short": "shorter than 50 words",
        "flag_refusal": "refusal / policy-disclaimer pattern",
        "flag_non_english": "flagged non-English (function-word heuristic)",
        "flag_duplicate": "exact duplicates (normalised SHA-256)",
        "any_flag": "union",
    }
    return "\n".join(
        f"- {names[k]}: {counts.get(k, 0):,} ({100 * counts.get(k, 0) / total:.2f}%)" for k in names
    )
