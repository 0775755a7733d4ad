"""``styledisc/<domain>``: DD and AA triplets of one writing domain, built from the raw
corpora; one dataset declared per entry of :data:`.domains.DOMAINS` (Reuters-21578,
Reuter_50_50, Enron, arXiv, WritingPrompts, Reddit, Amazon Fine Food, blogs, lyrics).

A domain's DD negatives come from the *other* domains, so the builder reads every corpus
it finds next to the given one: ``stylebench build styledisc/reuters --raw
../shared/corpora/reuters21578`` (siblings under ``../shared/corpora``) or ``--raw
../shared/corpora`` (the corpora root). LLM-setting rows are added by ``stylebench
styledisc build --llm-generator ...`` (they need a text generator).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import StylebenchError
from dataset_scripts.core.source import Source, github, https, manual
from dataset_scripts.core.spec import Builder, BuildResult, DatasetSpec
from dataset_scripts.core.styledisc_schema import CONFIG, validate_triplets
from dataset_scripts.styledisc.domains import DOMAINS, GENRES, Domain
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


def _make_builder(name: str) -> Builder:
    def build(raw: Path | None) -> BuildResult:
        if raw is None:
            raise FileNotFoundError(f"styledisc/{name} needs --raw (the corpora folder)")
        rows, dropped = build_domain(raw, name)
        return BuildResult({CONFIG: {"test": rows}}, dropped)

    build.__doc__ = f"DD/AA triplets of the {name} domain."
    return build


DATASETS = tuple(  # one dataset per domain
    DatasetSpec(
        hub_id=f"styledisc/{name}",
        pretty_name=f"Style discrimination: {domain.pretty}",
        summary=(
            "Triplets (reference, positive, negative) for the style discrimination "
            f"benchmark of Jangra et al.: which candidate is stylistically closer to the "
            f"reference? Domain: {domain.pretty}."
        ),
        builder=_make_builder(name),
        license=domain.license,
        source_url=domain.source_url,
        citation=PAPER_CITATION + "\n" + domain.source_citation,
        raw_format=domain.raw_format,
        protocol=_protocol(domain),
        raw_hint=domain.raw_hint,
        run_command=f"stylebench styledisc run --dataset built/styledisc__{name}",
    )
    for name, domain in DOMAINS.items()
)

# Where the raw download comes from (dataset_scripts/core/source.py; hashes in
# dataset_scripts/sources/checksums.tsv).
RAW_SOURCES = (
    Source(
        "enron_emails_drndr",
        (
            github(
                "drndr/bert_ent_attack",
                "12b65cc9f57d950268893bdd7d51d777fe86445f",
                (
                    ("datasets/enron/test_data.json", "test_data.json"),
                    ("datasets/README.md", "README.md"),
                ),
            ),
        ),
        license="no licence (CMU Enron corpus, via Kaggle)",
    ),
    Source(
        "raidar",
        (github("cvlab-columbia/RaidarLLMDetect", "6bd9752078d480ba4ed6b87d82c205942ec1e867"),),
        license="no licence file (ICLR 2024 paper code)",
        note="the copy here is partial and gzip'ed; the recorded hashes are its files' content (the originals')",
    ),
    Source(
        "reuters21578",
        (
            github(
                "colibri17/TextCategorization",
                "b6c2ca3d46a2540843400890792e5165448b4516",
                ("reuters21578/",),
            ),
        ),
        license="Reuters-21578 Distribution 1.0: free distribution for research purposes only",
        homepage="https://doi.org/10.24432/C52G6M",
        terms="Reuters-21578 Distribution 1.0: research purposes only.",
        note="the copy here gzip'ed the .sgm files; the recorded hashes are their content's (the originals')",
    ),
    Source(
        "fast_detectgpt_raw",
        (
            github(
                "baoguangsheng/fast-detect-gpt",
                "971b05202bac2bb504d60c0ac0812fea7a8f7c82",
                (
                    "exp_gpt3to4/data/",
                    "exp_main/data/",
                    ("LICENSE", ""),
                ),
            ),
        ),
        license="MIT",
    ),
    Source(
        "amazon_fine_food",
        (https("https://snap.stanford.edu/data/finefoods.txt.gz", "finefoods.txt.gz"),),
        license="see the SNAP page",
        homepage="https://snap.stanford.edu/data/web-FineFoods.html",
        note="a fixed URL; its hash is not recorded here (no internet): unverified",
    ),
    Source(
        "lyrics_edenbd",
        (
            manual(
                "https://www.kaggle.com/datasets/edenbd/150k-lyrics-labeled-with-spotify-valence",
                "labeled_lyrics_cleaned.csv",
            ),
        ),
        license="see the Kaggle dataset",
        instructions="Kaggle needs a login: download the dataset and unzip labeled_lyrics_cleaned.csv.",
    ),
)

#: the sources a styledisc builder reads beside its own raw folder (DD negatives come
#: from the other domains): ``build styledisc/<domain> --download`` fetches them too, so
#: that it builds what ``--raw ../shared/corpora/<raw_hint>`` builds
READS_BESIDE = tuple(
    dict.fromkeys(
        hint for d in DOMAINS.values() for hint in (d.raw_hint, *(h for h, _ in d.more_sources))
    )
)
