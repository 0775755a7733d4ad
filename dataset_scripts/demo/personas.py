"""Synthetic "authors" of the demo benchmark.

A persona is a fixed combination of style transformations from
:mod:`dataset_scripts.demo.transforms`; its "writing" is every source sentence put through
:func:`~dataset_scripts.demo.transforms.apply_many` with those names. The builder uses personas
for the authorship-like retrieval task: texts by the same persona share a style, whatever their
topic. No two personas have the same set of transformations, so every persona is
distinguishable from every other by style alone.
"""

from __future__ import annotations

PERSONAS: dict[str, tuple[str, ...]] = {
    "formal_writer": (),
    "chatty_friend": ("informal_words", "contraction"),
    "casual_texter": ("informal_words", "contraction", "emoji", "lowercase"),
    "excited_fan": ("informal_words", "emoji", "shouting"),
    "note_taker": ("contraction", "number_words_to_digits"),
    "cheerful_writer": ("contraction", "emoji"),
    "loud_announcer": ("number_words_to_digits", "shouting"),
    "hurried_typist": ("number_words_to_digits", "lowercase", "no_punctuation"),
}
"""Persona name -> the transformation names that make its style, in canonical order.

``formal_writer`` is the base style: the plain source sentences, unchanged.
"""

PERSONA_DESCRIPTIONS: dict[str, str] = {
    "formal_writer": "Formal words, full forms, number words, normal case and punctuation.",
    "chatty_friend": "Informal words and contractions.",
    "casual_texter": "Informal words, contractions, emoji, all in lower case.",
    "excited_fan": "Informal words and emoji, shouted in capitals with '!!!'.",
    "note_taker": "Contractions and digits instead of number words.",
    "cheerful_writer": "Contractions and emoji, otherwise formal.",
    "loud_announcer": "Digits instead of number words, shouted in capitals with '!!!'.",
    "hurried_typist": "Digits, all lower case, no punctuation.",
}
"""Persona name -> one-line description of its style, for dataset cards."""

__all__ = ["PERSONAS", "PERSONA_DESCRIPTIONS"]
