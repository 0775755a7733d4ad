"""Tests for the demo benchmark's source text, style transformations and personas."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from dataset_scripts.demo.personas import PERSONA_DESCRIPTIONS, PERSONAS
from dataset_scripts.demo.source_text import SENTENCES, TOPICS
from dataset_scripts.demo.transforms import (
    CANONICAL_ORDER,
    CONTRACTIONS,
    EMOJI,
    INFORMAL_LEXICON,
    NUMBER_WORDS,
    TRANSFORMS,
    Transform,
    apply_many,
    contraction,
    emoji,
    informal_words,
    lowercase,
    no_punctuation,
    number_words_to_digits,
    shouting,
)

EXPECTED_NAMES = {
    "contraction",
    "number_words_to_digits",
    "lowercase",
    "shouting",
    "emoji",
    "informal_words",
    "no_punctuation",
}


# ------------------------------------------------------------------------------------------
# source text
# ------------------------------------------------------------------------------------------


def test_at_least_120_unique_sentences() -> None:
    assert len(SENTENCES) >= 120
    assert len(set(SENTENCES)) == len(SENTENCES)
    assert all(isinstance(s, str) for s in SENTENCES)


def test_sentence_lengths_between_10_and_30_words() -> None:
    bad = [s for s in SENTENCES if not 10 <= len(s.split()) <= 30]
    assert bad == []


def test_sentences_have_normal_capitalisation_and_end_punctuation() -> None:
    for s in SENTENCES:
        assert s == s.strip()
        assert s[0].isupper(), s
        assert s[-1] in ".!?", s
        assert s != s.lower() and s != s.upper()


def test_topics_parallel_and_spread() -> None:
    assert len(TOPICS) == len(SENTENCES)
    counts = {t: TOPICS.count(t) for t in set(TOPICS)}
    assert len(counts) >= 10
    assert min(counts.values()) >= 5


def test_each_sentence_has_a_hook_for_every_lexical_transform() -> None:
    lowered = [f" {s.lower()} " for s in SENTENCES]
    for s, low in zip(SENTENCES, lowered, strict=True):
        words = {w.strip(".,!?;:") for w in low.split()}
        assert words & set(NUMBER_WORDS), s
        assert any(k.lower() in low for k in CONTRACTIONS), s
        assert any(k.lower() in low for k in INFORMAL_LEXICON), s


# ------------------------------------------------------------------------------------------
# registry and generic properties
# ------------------------------------------------------------------------------------------


def test_registry_names() -> None:
    assert set(TRANSFORMS) == EXPECTED_NAMES
    assert set(CANONICAL_ORDER) == EXPECTED_NAMES
    assert len(CANONICAL_ORDER) == len(set(CANONICAL_ORDER))
    for name, t in TRANSFORMS.items():
        assert isinstance(t, Transform)
        assert t.name == name
        assert t.description
        assert t("It is late.") == t.apply("It is late.")


def test_transform_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        TRANSFORMS["lowercase"].name = "other"  # type: ignore[misc]


@pytest.mark.parametrize("name", sorted(EXPECTED_NAMES))
def test_every_transform_changes_every_sentence(name: str) -> None:
    apply = TRANSFORMS[name].apply
    unchanged = [s for s in SENTENCES if apply(s) == s]
    assert unchanged == []


@pytest.mark.parametrize("name", sorted(EXPECTED_NAMES))
def test_deterministic_and_idempotent(name: str) -> None:
    apply = TRANSFORMS[name].apply
    for s in SENTENCES:
        once = apply(s)
        assert apply(s) == once
        assert apply(once) == once


# ------------------------------------------------------------------------------------------
# individual transforms
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It is late.", "It's late."),
        ("it is late.", "it's late."),
        ("IT IS LATE.", "IT'S LATE."),
        ("Do not run.", "Don't run."),
        ("We cannot stay.", "We can't stay."),
        ("They will not come, and it will not rain.", "They won't come, and it won't rain."),
        ("I am sure we are right.", "I'm sure we're right."),
        ("They have left, so let us go.", "They've left, so let's go."),
        ("It is not here.", "It isn't here."),
        ("This issue is notable.", "This issue is notable."),
    ],
)
def test_contraction_examples(text: str, expected: str) -> None:
    assert contraction(text) == expected


def test_contraction_table_size() -> None:
    assert len(CONTRACTIONS) >= 30


def test_number_words_to_digits() -> None:
    assert number_words_to_digits("I have seven cats.") == "I have 7 cats."
    assert number_words_to_digits("Twelve, zero and twenty.") == "12, 0 and 20."
    assert number_words_to_digits("Someone often listens.") == "Someone often listens."
    assert number_words_to_digits("Seventeen is not seven.") == "17 is not 7."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We purchase bread.", "We buy bread."),
        ("However, it rained.", "But it rained."),
        ("Children require assistance.", "Kids need help."),
        ("APPROXIMATELY TEN.", "ABOUT TEN."),
        ("We request a map prior to departure.", "We ask for a map before departure."),
        ("Therefore, they reside here.", "So they live here."),
        ("The larger child.", "The larger kid."),
    ],
)
def test_informal_words_examples(text: str, expected: str) -> None:
    assert informal_words(text) == expected


def test_informal_lexicon_is_idempotent_by_construction() -> None:
    keys = {k.lower() for k in INFORMAL_LEXICON}
    for value in INFORMAL_LEXICON.values():
        assert value.lower().strip(",") not in keys


def test_lowercase_and_shouting() -> None:
    assert lowercase("It is Monday.") == "it is monday."
    assert shouting("It is late.") == "IT IS LATE!!!"
    assert shouting("Is it late?") == "IS IT LATE!!!"
    assert shouting("It is late!!!") == "IT IS LATE!!!"
    assert shouting("No end punctuation") == "NO END PUNCTUATION!!!"
    for s in SENTENCES:
        assert lowercase(s) == s.lower()
        out = shouting(s)
        assert out.endswith("!!!")
        assert out == out.upper()


def test_emoji() -> None:
    for s in SENTENCES:
        out = emoji(s)
        assert out.startswith(s + " ")
        added = out[len(s) + 1 :]
        assert 1 <= len(added) <= 2
        assert all(c in EMOJI for c in added)
        assert len(set(added)) == len(added)
    chosen = {emoji(s)[len(s) + 1 :] for s in SENTENCES}
    assert len(chosen) > 5  # the choice varies with the sentence


def test_emoji_then_shouting_keeps_emoji_at_the_end() -> None:
    out = shouting(emoji("It is late."))
    assert out.startswith("IT IS LATE!!! ")
    assert out[-1] in EMOJI


def test_no_punctuation() -> None:
    assert no_punctuation("Well, it's twenty-one (or so)!") == "Well its twenty one or so"
    for s in SENTENCES:
        out = no_punctuation(s)
        assert not any(c in out for c in ".,;:!?'\"()-")
        assert out.split() != []


# ------------------------------------------------------------------------------------------
# apply_many and personas
# ------------------------------------------------------------------------------------------


def test_apply_many_uses_canonical_order() -> None:
    text = "However, it is seven."
    assert apply_many([], text) == text
    forward = apply_many(["no_punctuation", "shouting", "contraction", "informal_words"], text)
    backward = apply_many(["informal_words", "contraction", "shouting", "no_punctuation"], text)
    assert forward == backward == "BUT ITS SEVEN"
    assert apply_many(["lowercase", "lowercase"], text) == lowercase(text)
    assert apply_many(["number_words_to_digits", "contraction"], text) == "However, it's 7."


def test_apply_many_rejects_unknown_names() -> None:
    with pytest.raises(KeyError):
        apply_many(["no_such_transform"], "It is late.")
    with pytest.raises(TypeError):
        apply_many("lowercase", "It is late.")


def test_personas_are_distinct_and_valid() -> None:
    assert len(PERSONAS) == 8
    assert set(PERSONA_DESCRIPTIONS) == set(PERSONAS)
    sets = [frozenset(names) for names in PERSONAS.values()]
    assert len(set(sets)) == len(sets)
    for names in PERSONAS.values():
        assert set(names) <= EXPECTED_NAMES
        assert len(set(names)) == len(names)
        assert names == tuple(n for n in CANONICAL_ORDER if n in names)
        assert not {"lowercase", "shouting"} <= set(names)
    assert () in PERSONAS.values()


def test_personas_write_every_sentence_differently() -> None:
    for s in SENTENCES:
        outputs = {name: apply_many(names, s) for name, names in PERSONAS.items()}
        for a, b in itertools.combinations(outputs, 2):
            assert outputs[a] != outputs[b], (a, b, s)
        assert apply_many(PERSONAS["formal_writer"], s) == s
