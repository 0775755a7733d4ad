"""``styledisc/<domain>``: DD and AA triplets of one writing domain, built from the raw
corpora (Reuters-21578, Reuter_50_50, Enron, arXiv, WritingPrompts, Reddit).

A domain's DD negatives come from the *other* domains, so the builder reads every corpus
it finds next to the given one: ``stylebench build styledisc/reuters --raw
../shared/corpora/reuters21578`` (siblings under ``../shared/corpora``) or ``--raw
../shared/corpora`` (the corpora root). LLM-setting rows are added by ``stylebench
styledisc build --llm-generator ...`` (they need a text generator).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import StylebenchError
from dataset_scripts.core.spec import DatasetSpec
from dataset_scripts.core.styledisc_schema import CONFIG, validate_triplets
from dataset_scripts.registry import register
from dataset_scripts.styledisc.readers import (
    Document,
    read_ccat50,
    read_detectrl_arxiv,
    read_detectrl_stories,
    read_enron_drndr,
    read_m4,
    read_raidar_arxiv,
    read_reuters21578,
)
from dataset_scripts.styledisc.sampling import Unit, make_units, rules_for, triplets
from dataset_scripts.styledisc.tokens import get_token_counter

PAPER_CITATION = """@article{jangra2025evaluating,
  title   = {Evaluating Style-Personalized Text Generation: Challenges and Directions},
  author  = {Jangra, Anubhav and Sarrafzadeh, Bahareh and de Wynter, Adrian and
             Cucerzan, Silviu and Jauhar, Sujay Kumar},
  year    = {2025}
}"""

SEED = 13
TOKEN_COUNTER = "regex"


@dataclass(frozen=True)
class Domain:
    """One writing domain: where its raw data lives and how to read it."""

    name: str
    pretty: str
    raw_hint: str
    reader: Callable[[Path], tuple[list[Document], Counter[str]]]
    genre: str
    license: str
    source_url: str
    raw_format: str
    source_citation: str
    has_authors: bool
    # further (raw folder, reader) pairs merged into the domain when present
    more_sources: tuple[tuple[str, Callable[[Path], tuple[list[Document], Counter[str]]]], ...] = ()


DOMAINS: dict[str, Domain] = {
    d.name: d
    for d in (
        Domain(
            "reuters",
            "Reuters-21578 bylined news",
            "reuters21578",
            read_reuters21578,
            "newswire",
            "Reuters-21578 Distribution 1.0 (research use)",
            "https://doi.org/10.24432/C52G6M",
            "Reuters-21578 SGML (reut2-NNN.sgm, optionally gzip'ed); author from <AUTHOR>",
            "@misc{lewis1987reuters, title={Reuters-21578 Text Categorization Collection}, "
            "author={Lewis, David}, year={1987}}",
            True,
        ),
        Domain(
            "ccat50",
            "Reuter_50_50 (CCAT50) news authors",
            "ccat50",
            read_ccat50,
            "newswire",
            "UCI Reuter_50_50 (RCV1 subset, research use)",
            "https://archive.ics.uci.edu/dataset/217/reuter+50+50",
            "folders C50train/<author>/*newsML.txt and C50test/<author>/*newsML.txt",
            "@misc{liu2011reuter5050, title={Reuter_50_50}, author={Liu, Zhi}, year={2011}, "
            "howpublished={UCI Machine Learning Repository}}",
            True,
        ),
        Domain(
            "enron",
            "Enron emails (no author ids: DD only)",
            "enron_emails_drndr",
            read_enron_drndr,
            "email",
            "CMU Enron corpus (public record); drndr sample has no licence file",
            "https://github.com/drndr/bert_ent_attack",
            "JSON list [{cleaned_text, folder}] (test_data.json; train_data.json if present)",
            "@inproceedings{klimt2004enron, title={Introducing the Enron Corpus}, "
            "author={Klimt, Bryan and Yang, Yiming}, booktitle={CEAS}, year={2004}}",
            False,
        ),
        Domain(
            "arxiv",
            "arXiv abstracts (no author ids: DD only)",
            "raidar",
            read_raidar_arxiv,
            "scientific",
            "arXiv abstracts via RAIDAR (repository has no licence file)",
            "https://github.com/cvlab-columbia/RaidarLLMDetect",
            "JSON list [{abs, title}] in Arxiv/arXiv_human.json(.gz) (RAIDAR), plus the human "
            "abstracts of DetectRL's Benchmark/Tasks/Task1/multi_domains_arxiv_test.json(.gz) "
            "when ../detectrl is present",
            "@inproceedings{mao2024raidar, title={Raidar: geneRative AI Detection viA "
            "Rewriting}, author={Mao, Chengzhi and Vondrick, Carl and Wang, Hao and Yang, "
            "Junfeng}, booktitle={ICLR}, year={2024}}",
            False,
            (("detectrl", read_detectrl_arxiv),),
        ),
        Domain(
            "short_stories",
            "WritingPrompts short stories (no author ids: DD only)",
            "detectrl",
            read_detectrl_stories,
            "fiction",
            "WritingPrompts via DetectRL (repository has no licence file)",
            "https://github.com/NLP2CT/DetectRL",
            "JSON list [{text, label, data_type, llm_type}] in "
            "Benchmark/Tasks/Task1/multi_domains_writing_prompt_test.json(.gz); human rows",
            "@inproceedings{wu2024detectrl, title={DetectRL: Benchmarking LLM-Generated Text "
            "Detection in Real-World Scenarios}, author={Wu, Junchao and others}, "
            "booktitle={NeurIPS Datasets and Benchmarks}, year={2024}}",
            False,
        ),
        Domain(
            "reddit",
            "Reddit ELI5 answers (no author ids: DD only)",
            "m4_llama2",
            lambda raw: read_m4(raw, "reddit"),
            "forum",
            "Reddit ELI5 via M4 (SemEval-2024 Task 8 data policy)",
            "https://github.com/mbzuai-nlp/M4",
            "JSONL {prompt, human_text, machine_text, model, source, source_ID} in "
            "data/reddit_<model>.jsonl; human_text",
            "@inproceedings{wang2024m4, title={M4: Multi-generator, Multi-domain, and "
            "Multi-lingual Black-Box Machine-Generated Text Detection}, author={Wang, Yuxia "
            "and others}, booktitle={EACL}, year={2024}}",
            False,
        ),
    )
}
GENRES = {name: d.genre for name, d in DOMAINS.items()}

_UNIT_CACHE: dict[tuple[str, str, int, str], tuple[list[Unit], Counter[str]]] = {}


def corpora_root(raw: Path, domain: str) -> Path:
    """The folder holding every domain's raw folder, given either that folder or one
    domain's own raw folder."""
    raw = Path(raw)
    hint = DOMAINS[domain].raw_hint
    if raw.name == hint:  # the domain's own folder (even if it holds a folder of that name)
        return raw.parent
    if (raw / hint).is_dir():
        return raw
    return raw.parent


def domain_units(
    root: Path,
    domain: str,
    seed: int = SEED,
    counter: str = TOKEN_COUNTER,
    folder: Path | None = None,
):
    """(units, dropped) of one domain read from ``folder`` (default ``root/<raw_hint>``);
    cached per process."""
    folder = Path(root) / DOMAINS[domain].raw_hint if folder is None else Path(folder)
    key = (str(folder.resolve()), domain, seed, counter)
    if key not in _UNIT_CACHE:
        docs, dropped = DOMAINS[domain].reader(folder)
        for hint, reader in DOMAINS[domain].more_sources:
            if (Path(root) / hint).is_dir():
                more, more_dropped = reader(Path(root) / hint)
                docs += more
                dropped.update(more_dropped)
        units = make_units(docs, domain, get_token_counter(counter), seed, dropped)
        _UNIT_CACHE[key] = (units, dropped)
    units, dropped = _UNIT_CACHE[key]
    return list(units), Counter(dropped)


def build_domain(
    raw: Path, domain: str, *, seed: int = SEED, counter: str = TOKEN_COUNTER
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """DD and AA triplet rows of ``domain`` plus the dropped-row report."""
    root = corpora_root(raw, domain)
    own_folder = root / DOMAINS[domain].raw_hint
    if not own_folder.is_dir() and Path(raw).is_dir() and Path(raw) != root:
        own_folder = Path(raw)  # the domain's download under another folder name
    if not own_folder.is_dir():
        raise FileNotFoundError(f"{own_folder}: raw folder of styledisc/{domain} not found")
    units_by_domain: dict[str, list[Unit]] = {}
    units, dropped = domain_units(root, domain, seed, counter, own_folder)
    units_by_domain[domain] = units
    for other in DOMAINS:
        if other == domain:
            continue
        if not (root / DOMAINS[other].raw_hint).is_dir():
            dropped[
                f"DD negatives: domain {other} unavailable (no {DOMAINS[other].raw_hint}/)"
            ] += 0
            continue
        try:
            units_by_domain[other] = domain_units(root, other, seed, counter)[0]
        except (StylebenchError, OSError, UnicodeError, ValueError) as error:
            # one unreadable source fails only its own dataset: this domain is built
            # without that source's DD negatives, and the card says why
            dropped[
                f"DD negatives: domain {other} not used, its raw data could not be read "
                f"({type(error).__name__}: {str(error)[:200]})"
            ] += 1
    rows = triplets(domain, units_by_domain, get_token_counter(counter), seed, dropped, GENRES)
    validate_triplets(rows, f"styledisc/{domain}")
    return rows, {reason: n for reason, n in dropped.items() if n}


def _protocol(domain: Domain) -> str:
    rules = rules_for(domain.name)
    authors = (
        "one unit per author (author ids from the source)"
        if domain.has_authors
        else "**no author ids in this corpus**: units are disjoint random groups of texts, so "
        "the positive is only *same domain*, not *same author* (`author_known=False`); the "
        "domain serves domain discrimination (DD) only, never AA"
    )
    return (
        "Style discrimination triplets (Jangra et al., Sec. 3.1 and App. A). Per author: "
        f"a random target text of {rules.min_target}-{rules.max_target} tokens is the "
        f"positive T+; the author's other texts, visited in random order and kept while the "
        f"total stays within {rules.bag_limit} tokens, form the bag that is the reference "
        f"T_ref (joined by blank lines; the paper's Table 1 lengths show this orientation); "
        f"at most {rules.max_units} units; {authors}. DD: T- is the target text of a unit "
        "from a domain of another genre (Reuters-21578 and Reuter_50_50 are both newswire "
        "and never each other's negative); AA: T- is the target text of another author of "
        "the same domain. Seeded (seed 13) per (domain, author). Tokens are counted offline "
        "with a GPT-style pre-tokenisation regex, not tiktoken (not downloadable here); it "
        "counts slightly fewer tokens than tiktoken's BPE on English prose. LLM-setting rows "
        "(setting `LLM`) are added only by `stylebench styledisc build --llm-generator`; "
        "their prompts are listed in evaluators/styledisc/prompts.py and in the run report."
    )


def _make_builder(name: str) -> Callable[[Path | None], tuple[dict[str, Any], dict[str, int]]]:
    def build(raw: Path | None) -> tuple[dict[str, Any], dict[str, int]]:
        if raw is None:
            raise FileNotFoundError(f"styledisc/{name} needs --raw (the corpora folder)")
        rows, dropped = build_domain(raw, name)
        return {CONFIG: {"test": rows}}, dropped

    build.__doc__ = f"DD/AA triplets of the {name} domain."
    return build


SPECS: dict[str, DatasetSpec] = {}
for _name, _domain in DOMAINS.items():
    SPECS[_name] = register(
        DatasetSpec(
            hub_id=f"styledisc/{_name}",
            pretty_name=f"Style discrimination: {_domain.pretty}",
            summary=(
                "Triplets (reference, positive, negative) for the style discrimination "
                f"benchmark of Jangra et al.: which candidate is stylistically closer to the "
                f"reference? Domain: {_domain.pretty}."
            ),
            builder=_make_builder(_name),
            license=_domain.license,
            source_url=_domain.source_url,
            citation=PAPER_CITATION + "\n" + _domain.source_citation,
            raw_format=_domain.raw_format,
            protocol=_protocol(_domain),
            raw_hint=_domain.raw_hint,
            extra={
                "domain": _name,
                "genre": _domain.genre,
                "has_authors": _domain.has_authors,
                "run_command": f"stylebench styledisc run --dataset built/styledisc__{_name}",
            },
        )
    )

# The domains read by more_readers.py register themselves on import (after DOMAINS exists).
from dataset_scripts.styledisc import more_domains as _more_domains  # noqa: E402, F401
