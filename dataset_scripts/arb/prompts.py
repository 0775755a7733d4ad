"""ARB's fixed system prompt, the three regime templates (paper App. A, quoted verbatim as
the specification) and the decoding settings of Sec. 4.4."""

from __future__ import annotations

SYSTEM_PROMPT = (
    "You are a text rewriting and generation engine for a scientific benchmark. Return only "
    "the requested text. Do not add explanations, comments, markdown, headings, or prefaces."
)

FREE_LLM_TEMPLATE = (
    "Write a fluent, self-contained English text about the following topic.\n\n"
    "Constraints: Use your own wording and structure. Do not refer to the existence of a "
    "source text. Do not include headings or bullet points. Keep the length between "
    "{min_words} and {max_words} words. Return only the generated text.\n\n"
    "Topic: {topic}"
)

H2L_TEMPLATE = (
    "Rewrite the following text in fluent natural English.\n\n"
    "Constraints: Preserve the original meaning. Preserve factual claims, entities, and "
    "relationships. Do not add new information. Do not remove important information. Change "
    "wording and sentence structure where possible. Keep approximately the same length. "
    "Return only the rewritten text.\n\n"
    "Text: {source_text}"
)

LLM2L_TEMPLATE = (
    "Rewrite the following text in fluent natural English.\n\n"
    "Constraints: Preserve the original meaning. Do not add new information. Do not remove "
    "important information. Change wording and sentence structure where possible. Keep "
    "approximately the same length. Return only the rewritten text.\n\n"
    "Text: {free_llm_text}"
)

TEMPLATES = {"Free-LLM": FREE_LLM_TEMPLATE, "H2L": H2L_TEMPLATE, "LLM2L": LLM2L_TEMPLATE}

DECODING: dict[str, object] = {
    "do_sample": True,
    "temperature": 0.7,
    "top_p": 0.9,
    "top_k": 40,
    "max_new_tokens": 512,
    "seed": 42,
}
MAX_RETRIES = 3


def _quote(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.split("\n"))


PROMPTS_MARKDOWN = "\n\n".join(
    [
        "System prompt:\n\n" + _quote(SYSTEM_PROMPT),
        "Free-LLM template:\n\n" + _quote(FREE_LLM_TEMPLATE),
        "H2L template:\n\n" + _quote(H2L_TEMPLATE),
        "LLM2L template:\n\n" + _quote(LLM2L_TEMPLATE),
    ]
)
