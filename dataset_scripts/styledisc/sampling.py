"""Appendix A sampling: per-author target texts and bags, then DD/AA triplets.

For every author ``a`` of a domain ``d`` (a *unit*):

- the **target** is one randomly chosen text of the author whose length lies in
  ``[min_target, max_target]`` tokens (200-700; Reddit: 0-700; short stories: 200-2000);
- the **bag** (the author's style sample) is built by visiting the author's other texts
  in random order and adding each one that still fits under ``bag_limit`` tokens in
  total (500; short stories 1500), joined by blank lines.

A DD/AA triplet of unit ``u`` is ``(T_ref, T+, T-) = (bag_u, target_u, target_v)``: in
**AA** ``v`` is another author's unit of the same domain, in **DD** a unit of another
domain (of another genre: the two Reuters newswire corpora are never each other's
negative). Both candidates are thus target texts of comparable length, and the reference
is the bag: this is the reading of the paper's Table 1, whose DD/AA columns (T_ref, T+,
T-) are e.g. 363/506/461 words for Reuters (bag <= 500 tokens, targets 200-700 tokens)
while its LLM columns start with the target (506). In the LLM setting the target is
T_ref and the bag is the grounding T'_ref. Domains without
author ids form *pseudo-units* from disjoint random groups of texts: their positive is
only same-domain (``author_known=False``), so they serve DD only.

Randomness is keyed by (seed, domain, author) strings, so a unit does not change when
other authors or domains are added. Every removal is counted under a reason.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dataset_scripts.styledisc.readers import Document

BAG_SEPARATOR = "\n\n"


@dataclass(frozen=True)
class LengthRules:
    """Token windows of Appendix A for one domain."""

    min_target: int = 200
    max_target: int = 700
    bag_limit: int = 500
    max_units: int = 100


DEFAULT_RULES = LengthRules()
# Appendix A exceptions: Reddit texts are short (no minimum target length), short
# stories are long (bag up to 1500 tokens, target up to 2000); ~50 instances for Reddit,
# Reuters and short stories, 100 for the other domains.
DOMAIN_RULES: dict[str, LengthRules] = {
    "reddit": LengthRules(min_target=0, max_units=56),
    "short_stories": LengthRules(max_target=2000, bag_limit=1500, max_units=50),
    "reuters": LengthRules(max_units=50),
}


def rules_for(domain: str) -> LengthRules:
    return DOMAIN_RULES.get(domain, DEFAULT_RULES)


@dataclass(frozen=True)
class Unit:
    """One author (or pseudo-author) of one domain: a target text and a bag."""

    domain: str
    author: str | None
    target: Document
    bag: tuple[Document, ...]
    target_tokens: int
    bag_tokens: int

    @property
    def bag_text(self) -> str:
        return BAG_SEPARATOR.join(doc.text for doc in self.bag)

    @property
    def key(self) -> str:
        return self.author if self.author is not None else self.target.doc_id


def _rng(*parts: object) -> random.Random:
    return random.Random("\x1f".join(str(p) for p in parts))


def _fill_bag(
    docs: Sequence[Document], count: Callable[[str], int], limit: int, *, stop_at_overflow: bool
) -> tuple[list[Document], int]:
    bag: list[Document] = []
    total = 0
    for doc in docs:
        n = count(doc.text)
        if total + n <= limit:
            bag.append(doc)
            total += n
        elif stop_at_overflow and bag:
            break
    return bag, total


def author_units(
    docs: Sequence[Document],
    domain: str,
    count: Callable[[str], int],
    rules: LengthRules,
    seed: int,
    dropped: Counter[str],
) -> list[Unit]:
    """Units of a domain whose documents carry author ids (one per author)."""
    by_author: dict[str, list[Document]] = defaultdict(list)
    seen: dict[str, set[str]] = defaultdict(set)
    for doc in docs:
        assert doc.author is not None
        if doc.text in seen[doc.author]:
            dropped[f"{domain}: duplicate text of the same author"] += 1
            continue
        seen[doc.author].add(doc.text)
        by_author[doc.author].append(doc)
    units = []
    for author in sorted(by_author):
        own = by_author[author]
        rng = _rng(seed, domain, author)
        lengths = {doc.doc_id: count(doc.text) for doc in own}
        candidates = [d for d in own if rules.min_target <= lengths[d.doc_id] <= rules.max_target]
        if len(own) < 2:
            dropped[f"{domain}: author with a single text"] += 1
            continue
        if not candidates:
            dropped[f"{domain}: author without a text of target length"] += 1
            continue
        target = rng.choice(candidates)
        rest = [d for d in own if d.doc_id != target.doc_id]
        rng.shuffle(rest)
        bag, total = _fill_bag(rest, count, rules.bag_limit, stop_at_overflow=False)
        if not bag:
            dropped[f"{domain}: author whose other texts all exceed the bag limit"] += 1
            continue
        units.append(Unit(domain, author, target, tuple(bag), lengths[target.doc_id], total))
    return _cap_units(units, domain, rules, seed, dropped)


def pseudo_units(
    docs: Sequence[Document],
    domain: str,
    count: Callable[[str], int],
    rules: LengthRules,
    seed: int,
    dropped: Counter[str],
) -> list[Unit]:
    """Units of a domain without author ids: disjoint random groups of texts. A target of
    target length is followed by the next texts of the shuffled pool while they fit in
    the bag (stopping at the first that does not, so the pool is not skimmed)."""
    unique: dict[str, Document] = {}
    for doc in docs:
        if doc.text in unique:
            dropped[f"{domain}: duplicate text"] += 1
            continue
        unique[doc.text] = doc
    pool = list(unique.values())
    _rng(seed, domain, "pool").shuffle(pool)
    units: list[Unit] = []
    used: set[str] = set()
    position = 0
    while position < len(pool) and len(units) < rules.max_units:
        target = pool[position]
        position += 1
        n = count(target.text)
        if not rules.min_target <= n <= rules.max_target:
            continue
        rest = pool[position:]
        bag, total = _fill_bag(rest, count, rules.bag_limit, stop_at_overflow=True)
        if not bag:
            continue
        position += rest.index(bag[-1]) + 1
        used.update(d.doc_id for d in (target, *bag))
        units.append(Unit(domain, None, target, tuple(bag), n, total))
    unused = len(pool) - len(used)
    if unused:
        dropped[f"{domain}: text not used by any pseudo-author group"] += unused
    return units


def _cap_units(
    units: list[Unit], domain: str, rules: LengthRules, seed: int, dropped: Counter[str]
) -> list[Unit]:
    if len(units) <= rules.max_units:
        return units
    keep = set(_rng(seed, domain, "cap").sample(range(len(units)), rules.max_units))
    dropped[f"{domain}: author beyond the {rules.max_units}-instance cap"] += len(units) - len(keep)
    return [u for i, u in enumerate(units) if i in keep]


def make_units(
    docs: Sequence[Document],
    domain: str,
    count: Callable[[str], int],
    seed: int,
    dropped: Counter[str],
    rules: LengthRules | None = None,
) -> list[Unit]:
    """Units of one domain: per author when every document has an author, else pseudo."""
    rules = rules or rules_for(domain)
    if docs and all(doc.author is not None for doc in docs):
        return author_units(docs, domain, count, rules, seed, dropped)
    return pseudo_units(docs, domain, count, rules, seed, dropped)


def _row(
    setting: str, index: int, unit: Unit, negative: Unit, count: Callable[[str], int]
) -> dict[str, Any]:
    known = unit.author is not None
    return {
        "id": f"{setting}-{unit.domain}-{index:04d}",
        "setting": setting,
        "domain": unit.domain,
        "negative_domain": negative.domain,
        "reference": unit.bag_text,
        "positive": unit.target.text,
        "negative": negative.target.text,
        "author": unit.author,
        "negative_author": negative.author,
        "author_known": known,
        "query": "",
        "generator": "",
        "reference_tokens": count(unit.bag_text),
        "positive_tokens": unit.target_tokens,
        "negative_tokens": negative.target_tokens,
    }


def triplets(
    domain: str,
    units_by_domain: Mapping[str, Sequence[Unit]],
    count: Callable[[str], int],
    seed: int,
    dropped: Counter[str],
    genres: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """DD and AA triplets whose reference is a unit of ``domain``.

    ``genres`` maps domains to a genre; a DD negative comes from a domain of another
    genre (default: every domain its own genre).
    """
    genres = genres or {}
    units = list(units_by_domain.get(domain, ()))
    rows: list[dict[str, Any]] = []
    genre = genres.get(domain, domain)
    others = [
        d
        for d in sorted(units_by_domain)
        if d != domain and genres.get(d, d) != genre and units_by_domain[d]
    ]
    for index, unit in enumerate(units):
        rng = _rng(seed, "DD", domain, unit.key)
        if not others:
            dropped[f"{domain}: DD triplet without any other-genre domain"] += 1
        else:
            other = rng.choice(others)
            rows.append(_row("DD", index, unit, rng.choice(list(units_by_domain[other])), count))
        if unit.author is None:
            dropped[f"{domain}: no AA triplet (corpus has no author ids)"] += 1
            continue
        peers = [u for u in units if u.author != unit.author]
        if not peers:
            dropped[f"{domain}: AA triplet without another author"] += 1
            continue
        rows.append(
            _row("AA", index, unit, _rng(seed, "AA", domain, unit.key).choice(peers), count)
        )
    return rows
