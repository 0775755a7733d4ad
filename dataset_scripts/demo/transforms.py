"""Deterministic style transformations for the embedded demo benchmark.

Every transformation is a pure function ``str -> str``: no randomness, no state, no I/O. The same
input always gives the same output, on every machine and Python version (the emoji choice uses
SHA-256, not the salted built-in ``hash``). Each one is idempotent: applying it twice gives the
same text as applying it once.

The plain sentences of :mod:`dataset_scripts.demo.source_text` are the *base* style, which the
builder may call ``formal_words``: formal vocabulary, no contractions, numbers written as words,
normal capitalisation and punctuation. Each registered transformation moves one style dimension
away from that base:

>>> TRANSFORMS["contraction"].apply("It is late and we do not know why.")
"It's late and we don't know why."
>>> number_words_to_digits("I have seven cats.")
'I have 7 cats.'
>>> informal_words("However, the children require assistance.")
'But the kids need help.'
>>> shouting("It is late.")
'IT IS LATE!!!'
>>> no_punctuation("Well, it's late.")
'Well its late'
>>> apply_many(["lowercase", "contraction"], "It is late.")
"it's late."
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "CANONICAL_ORDER",
    "CONTRACTIONS",
    "EMOJI",
    "INFORMAL_LEXICON",
    "NUMBER_WORDS",
    "TRANSFORMS",
    "Transform",
    "apply_many",
    "contraction",
    "emoji",
    "informal_words",
    "lowercase",
    "no_punctuation",
    "number_words_to_digits",
    "shouting",
]


@dataclass(frozen=True)
class Transform:
    """A named, deterministic style transformation.

    Attributes:
        name: registry key, e.g. ``"contraction"``.
        description: one sentence for dataset cards and reports.
        apply: the pure function ``str -> str`` that performs the transformation.
    """

    name: str
    description: str
    apply: Callable[[str], str]

    def __call__(self, text: str) -> str:
        """Apply the transformation to ``text``."""
        return self.apply(text)


# --------------------------------------------------------------------------------------------
# Case-preserving phrase replacement
# --------------------------------------------------------------------------------------------


def _match_case(source: str, replacement: str) -> str:
    """Give ``replacement`` the casing of ``source``.

    All-capital sources (``"IT IS"``) give all-capital replacements (``"IT'S"``); a source whose
    first letter is a capital (``"It is"``, ``"I am"``) gives a replacement with a capital first
    letter; anything else gives the replacement as written in the table (lower case, except
    the pronoun ``I``).
    """
    letters = [c for c in source if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return replacement.upper()
    if letters and letters[0].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


def _phrase_pattern(phrases: Sequence[str]) -> re.Pattern[str]:
    """Compile a case-insensitive pattern matching any of ``phrases`` as whole words.

    Longer phrases are tried first, so ``"however,"`` wins over ``"however"``; whitespace inside
    a phrase matches any run of spaces.
    """
    ordered = sorted(phrases, key=lambda p: (-len(p), p))
    alternatives = "|".join(r"\s+".join(re.escape(word) for word in p.split()) for p in ordered)
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


def _replacer(table: Mapping[str, str]) -> Callable[[str], str]:
    """Build a pure function that replaces every key of ``table`` by its value, preserving case."""
    lookup = {" ".join(key.lower().split()): value for key, value in table.items()}
    pattern = _phrase_pattern(tuple(table))

    def replace(text: str) -> str:
        return pattern.sub(
            lambda m: _match_case(m.group(0), lookup[" ".join(m.group(0).lower().split())]), text
        )

    return replace


# --------------------------------------------------------------------------------------------
# contraction
# --------------------------------------------------------------------------------------------

_NEGATIVE_CONTRACTIONS: dict[str, str] = {
    "cannot": "can't",
    "will not": "won't",
    "would not": "wouldn't",
    "should not": "shouldn't",
    "could not": "couldn't",
    "must not": "mustn't",
    "do not": "don't",
    "does not": "doesn't",
    "did not": "didn't",
    "is not": "isn't",
    "are not": "aren't",
    "was not": "wasn't",
    "were not": "weren't",
    "have not": "haven't",
    "has not": "hasn't",
    "had not": "hadn't",
}
_PRONOUN_CONTRACTIONS: dict[str, str] = {
    "I am": "I'm",
    "I have": "I've",
    "I will": "I'll",
    "it is": "it's",
    "it will": "it'll",
    "that is": "that's",
    "there is": "there's",
    "what is": "what's",
    "he is": "he's",
    "she is": "she's",
    "we are": "we're",
    "we have": "we've",
    "we will": "we'll",
    "you are": "you're",
    "you have": "you've",
    "you will": "you'll",
    "they are": "they're",
    "they have": "they've",
    "they will": "they'll",
    "let us": "let's",
}

CONTRACTIONS: Mapping[str, str] = {**_NEGATIVE_CONTRACTIONS, **_PRONOUN_CONTRACTIONS}
"""Expanded phrase -> contraction (36 pairs), as used by :func:`contraction`."""

_contract_negatives = _replacer(_NEGATIVE_CONTRACTIONS)
_contract_pronouns = _replacer(_PRONOUN_CONTRACTIONS)


def contraction(text: str) -> str:
    """Contract expanded phrases: ``"it is"`` -> ``"it's"``, ``"do not"`` -> ``"don't"``.

    Negations are contracted first, so ``"it will not"`` becomes ``"it won't"`` (not
    ``"it'll not"``). Case is preserved: ``"It is"`` -> ``"It's"``, ``"IT IS"`` -> ``"IT'S"``.

    >>> contraction("It is true that we cannot stay, and I am sure it will not rain.")
    "It's true that we can't stay, and I'm sure it won't rain."
    """
    return _contract_pronouns(_contract_negatives(text))


# --------------------------------------------------------------------------------------------
# number_words_to_digits
# --------------------------------------------------------------------------------------------

NUMBER_WORDS: Mapping[str, int] = {
    word: value
    for value, word in enumerate(
        (
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        )
    )
}
"""Number word -> value, zero to twenty."""

_NUMBER_PATTERN = _phrase_pattern(tuple(NUMBER_WORDS))


def number_words_to_digits(text: str) -> str:
    """Write the number words zero to twenty as digits: ``"seven"`` -> ``"7"``.

    Whole words only, in any case (``"Twelve"`` -> ``"12"``); ``"someone"`` and ``"often"`` are
    left alone. The inverse (digits -> words) is the base style of the demo sentences.

    >>> number_words_to_digits("Twelve of the twenty birds left, and often someone counts them.")
    '12 of the 20 birds left, and often someone counts them.'
    """
    return _NUMBER_PATTERN.sub(lambda m: str(NUMBER_WORDS[m.group(0).lower()]), text)


# --------------------------------------------------------------------------------------------
# informal_words
# --------------------------------------------------------------------------------------------

INFORMAL_LEXICON: Mapping[str, str] = {
    # sentence adverbs: the comma that follows a formal connective goes with it
    "however,": "but",
    "however": "but",
    "therefore,": "so",
    "therefore": "so",
    "consequently,": "so",
    "consequently": "so",
    "nevertheless,": "still,",
    "nevertheless": "still",
    "furthermore,": "also,",
    "furthermore": "also",
    # adverbs, adjectives and nouns
    "approximately": "about",
    "regarding": "about",
    "prior to": "before",
    "frequently": "often",
    "immediately after": "right after",
    "immediately": "right away",
    "currently": "now",
    "sufficient": "enough",
    "numerous": "many",
    "additional": "extra",
    "difficult": "hard",
    "large": "big",
    "children": "kids",
    "child": "kid",
    "individuals": "people",
    "assistance": "help",
    # verbs
    "assist": "help",
    "assists": "helps",
    "assisted": "helped",
    "request": "ask for",
    "requests": "asks for",
    "requested": "asked for",
    "commence": "start",
    "commences": "starts",
    "commenced": "started",
    "reside": "live",
    "resides": "lives",
    "resided": "lived",
    "purchase": "buy",
    "purchased": "bought",
    "obtain": "get",
    "obtains": "gets",
    "obtained": "got",
    "receive": "get",
    "receives": "gets",
    "received": "got",
    "inform": "tell",
    "informed": "told",
    "require": "need",
    "requires": "needs",
    "attempt": "try",
    "attempted": "tried",
    "attempting": "trying",
    "depart": "leave",
    "departs": "leaves",
    "departed": "left",
    "observe": "watch",
    "observed": "watched",
    "demonstrate": "show",
    "demonstrates": "shows",
    "demonstrated": "showed",
    "remain": "stay",
    "remains": "stays",
    "remained": "stayed",
    "utilize": "use",
}
"""Formal word or phrase -> informal equivalent, as used by :func:`informal_words`.

The demo sentences are written with the keys (the formal variant); no value is also a key, so
:func:`informal_words` is idempotent.
"""

_informalise = _replacer(INFORMAL_LEXICON)


def informal_words(text: str) -> str:
    """Swap formal words for informal ones: ``"purchase"`` -> ``"buy"``, ``"However,"`` -> ``"But"``.

    Case is preserved (``"Children"`` -> ``"Kids"``, ``"APPROXIMATELY"`` -> ``"ABOUT"``).

    >>> informal_words("Therefore, we purchased approximately twelve eggs.")
    'So we bought about twelve eggs.'
    """
    return _informalise(text)


# --------------------------------------------------------------------------------------------
# emoji
# --------------------------------------------------------------------------------------------

EMOJI: tuple[str, ...] = (
    "\U0001f642",  # slightly smiling face
    "\U0001f60a",  # smiling face with smiling eyes
    "\U0001f604",  # grinning face with smiling eyes
    "\U0001f609",  # winking face
    "\U0001f44d",  # thumbs up
    "\U0001f44c",  # OK hand
    "\U0001f64c",  # raising hands
    "\U0001f389",  # party popper
    "\U0001f4af",  # hundred points
    "\U0001f60e",  # smiling face with sunglasses
)
"""The fixed, topic-neutral emoji that :func:`emoji` chooses from (single code points)."""

_EMOJI_SET = frozenset(EMOJI)


def _split_emoji_tail(text: str) -> tuple[str, str]:
    """Split ``text`` into its body and a trailing run of emoji (from :data:`EMOJI`) and spaces."""
    end = len(text)
    while end > 0 and (text[end - 1] in _EMOJI_SET or text[end - 1].isspace()):
        end -= 1
    return text[:end], text[end:]


def emoji(text: str) -> str:
    """Append one or two emoji, chosen deterministically from the SHA-256 of ``text``.

    Text that already ends with one of :data:`EMOJI` is returned unchanged (idempotence).

    >>> emoji("It is late.") == emoji("It is late.")
    True
    >>> emoji("It is late.").startswith("It is late. ")
    True
    >>> emoji(emoji("It is late.")) == emoji("It is late.")
    True
    """
    body, tail = _split_emoji_tail(text)
    if tail.strip():
        return text
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    first = digest[0] % len(EMOJI)
    chosen = EMOJI[first]
    if digest[1] % 2:
        chosen += EMOJI[(first + 1 + digest[2] % (len(EMOJI) - 1)) % len(EMOJI)]
    return f"{body} {chosen}" if body else chosen


# --------------------------------------------------------------------------------------------
# casing and punctuation
# --------------------------------------------------------------------------------------------


def lowercase(text: str) -> str:
    """Write everything in lower case.

    >>> lowercase("It is Monday.")
    'it is monday.'
    """
    return text.lower()


_END_PUNCTUATION = ".!?\u2026"


def shouting(text: str) -> str:
    """Write everything in upper case and end the sentence with ``"!!!"``.

    Any end punctuation (``.``, ``!``, ``?``, ``…``) is replaced; trailing emoji stay after it.

    >>> shouting("It is late?")
    'IT IS LATE!!!'
    >>> shouting("It is late. \U0001f642")
    'IT IS LATE!!! \U0001f642'
    """
    body, tail = _split_emoji_tail(text)
    body = body.rstrip().rstrip(_END_PUNCTUATION).rstrip()
    if not body:
        return text.upper()
    return f"{body.upper()}!!!{tail}"


_SPACES = re.compile(r"\s+")


def no_punctuation(text: str) -> str:
    """Remove all punctuation (Unicode categories ``P*``); dashes become spaces.

    Apostrophes go too (``"it's"`` -> ``"its"``); runs of spaces are collapsed.

    >>> no_punctuation("Well, it's twenty-one (or so)!")
    'Well its twenty one or so'
    """
    chars: list[str] = []
    for char in text:
        category = unicodedata.category(char)
        if category == "Pd":
            chars.append(" ")
        elif not category.startswith("P"):
            chars.append(char)
    return _SPACES.sub(" ", "".join(chars)).strip()


# --------------------------------------------------------------------------------------------
# registry
# --------------------------------------------------------------------------------------------

TRANSFORMS: dict[str, Transform] = {
    t.name: t
    for t in (
        Transform(
            "informal_words",
            "Formal words swapped for informal ones (purchase -> buy, however -> but).",
            informal_words,
        ),
        Transform(
            "contraction",
            "Expanded forms contracted (it is -> it's, do not -> don't).",
            contraction,
        ),
        Transform(
            "number_words_to_digits",
            "Number words zero to twenty written as digits (seven -> 7).",
            number_words_to_digits,
        ),
        Transform(
            "emoji",
            "One or two emoji appended, chosen deterministically from a fixed list.",
            emoji,
        ),
        Transform("lowercase", "Everything in lower case.", lowercase),
        Transform("shouting", "Everything in upper case, ending with '!!!'.", shouting),
        Transform("no_punctuation", "All punctuation removed.", no_punctuation),
    )
}
"""Every demo style transformation by name (the base style, ``formal_words``, is no entry)."""

CANONICAL_ORDER: tuple[str, ...] = (
    "informal_words",
    "contraction",
    "number_words_to_digits",
    "emoji",
    "lowercase",
    "shouting",
    "no_punctuation",
)
"""The order in which :func:`apply_many` applies transformations: lexical swaps, contraction,
numbers, emoji, casing, punctuation."""


def apply_many(names: Sequence[str], text: str) -> str:
    """Apply the named transformations to ``text`` in :data:`CANONICAL_ORDER`.

    The order of ``names`` and repeated names do not matter; an empty sequence returns ``text``.

    Raises:
        KeyError: if a name is not in :data:`TRANSFORMS`.

    >>> apply_many(["shouting", "informal_words", "number_words_to_digits"], "We require six.")
    'WE NEED 6!!!'
    """
    if isinstance(names, str):
        raise TypeError("names must be a sequence of transformation names, not a string")
    unknown = sorted(set(names) - set(TRANSFORMS))
    if unknown:
        raise KeyError(f"unknown transformation(s) {unknown}; known: {sorted(TRANSFORMS)}")
    wanted = set(names)
    for name in CANONICAL_ORDER:
        if name in wanted:
            text = TRANSFORMS[name].apply(text)
    return text
