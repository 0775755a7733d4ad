"""Prompts of the LLM setting and the LLM judge, written in the spirit of the paper's
Figures 4, 6, 8 and 9 (whose exact text is not in the extraction we have). They are
shipped in the dataset card of LLM-setting rows and in the run report."""

from __future__ import annotations

QUERY_RECONSTRUCTION = (
    "Here is a text that a user wrote:\n\n<text>\n{text}\n</text>\n\n"
    "Write the short request (one or two sentences) that this user could have given a "
    "writing assistant to obtain a text with the same topic, purpose and form. Do not copy "
    "phrases from the text. Reply with the request only."
)

PERSONALISED_GENERATION = (
    "Here is an example of the user's own writing:\n\n<example>\n{grounding}\n</example>\n\n"
    "Carry out the user's request below, writing in the user's personal style as shown in "
    "the example (vocabulary, sentence length, punctuation, tone, formatting), about "
    "{words} words long.\n\nRequest: {query}"
)

PLAIN_GENERATION = (
    "Carry out the user's request below, about {words} words long.\n\nRequest: {query}"
)

JUDGE = (
    "You compare writing styles. Read the reference text and two candidate texts, then "
    "decide which candidate is written in a style closer to the reference (word choice, "
    "sentence structure, punctuation, tone, formatting), ignoring the topic.\n\n"
    "<reference>\n{reference}\n</reference>\n\n<candidate_A>\n{a}\n</candidate_A>\n\n"
    "<candidate_B>\n{b}\n</candidate_B>\n\n"
    "Answer with exactly one of: A, B, Both, None."
)

ALL_PROMPTS = {
    "query_reconstruction": QUERY_RECONSTRUCTION,
    "personalised_generation (T+)": PERSONALISED_GENERATION,
    "plain_generation (T-)": PLAIN_GENERATION,
    "judge": JUDGE,
}
