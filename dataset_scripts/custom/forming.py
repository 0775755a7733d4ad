"""Rows of a user's data -> rows of a stylebench schema.

Passages
--------
:func:`chunk_words` cuts a document into consecutive, non-overlapping passages of exactly
``n`` whitespace-separated words (whitespace inside a passage is normalised to single
spaces). The words after the last full passage are dropped and counted, and a document
shorter than ``n`` words yields no passage (counted), so every passage has the same
length. ``chunks_per_doc`` keeps ``k`` passages per document, drawn with
``random.Random(seed)`` in document source order and kept in document order. A passage
(or, without chunking, a document) whose text equals an earlier one is dropped and
counted (:func:`unique_texts`); the two documents are then near-duplicates, and the
retrieval split treats them as one document.

Label variants
--------------
:func:`label_variants` finds labels that differ only in case or whitespace (``Barclay``,
``barclay``, ``Barclay  `` inside: compared after collapsing whitespace and
``str.casefold``). They stay separate classes and are reported (the counts name up to three
groups); with ``merge`` (``--normalise-labels``) every variant takes the most frequent
spelling of its group (the first seen on a tie), counted.

Retrieval (STEB App. C.9)
-------------------------
STEB's retrieval datasets give each author a *query* and a *target*, each an "episode" of
several documents that the evaluator mean-pools. From labelled passages (author = label,
each passage knowing the document it came from) :func:`retrieval_rows` forms them so that
no document contributes to both sides: per author the documents are shuffled with
``random.Random(seed)`` (authors in source order) and split in two halves (the query side
gets ``floor(d/2)`` of ``d`` documents, the target side the rest); each side's passages are
shuffled with the same generator and cut into ``episodes`` groups of ``texts_per_episode``
passages (STEB's episode length; ``None`` = one group of every passage of that side).
Authors with fewer than two documents, or a side with fewer than ``texts_per_episode``
passages, are dropped and counted.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from dataset_scripts.core.errors import DataError


@dataclass(frozen=True)
class Passage:
    """One text ready for a schema: its id, text, label and the document it came from."""

    id: str
    text: str
    label: str | None
    document: str
    where: str
    extra: dict[str, Any]


def chunk_words(text: str, n: int) -> tuple[list[str], int]:
    """Consecutive ``n``-word passages of ``text`` and the number of words left over."""
    if n < 1:
        raise DataError(f"--chunk-words must be >= 1, got {n}")
    words = text.split()
    full = len(words) // n
    passages = [" ".join(words[i * n : (i + 1) * n]) for i in range(full)]
    return passages, len(words) - full * n


def to_passages(
    documents: Sequence[Passage],
    dropped: Counter[str],
    *,
    chunk_words_n: int | None = None,
    chunks_per_doc: int | None = None,
    seed: int = 42,
) -> tuple[list[Passage], list[tuple[str, str]]]:
    """Documents -> unique passages and the near-duplicate document links (see the module
    docstring); without ``chunk_words_n`` every document is one passage (``chunks_per_doc``
    then needs chunking and is refused). Duplicates are removed over *all* passages
    before the per-document sample, so every near-duplicate pair is found."""
    if chunk_words_n is None:
        if chunks_per_doc is not None:
            raise DataError("--chunks-per-doc needs --chunk-words")
        return unique_texts(documents, dropped)
    if chunks_per_doc is not None and chunks_per_doc < 1:
        raise DataError(f"--chunks-per-doc must be >= 1, got {chunks_per_doc}")
    pieces: list[Passage] = []
    for doc in documents:
        parts, rest = chunk_words(doc.text, chunk_words_n)
        if not parts:
            dropped[f"documents shorter than {chunk_words_n} words (no full passage)"] += 1
            continue
        if rest:
            dropped[f"partial passages after the last full {chunk_words_n}-word passage"] += 1
        for i, part in enumerate(parts):
            pieces.append(
                Passage(f"{doc.id}#p{i}", part, doc.label, doc.document, doc.where, doc.extra)
            )
    pieces, links = unique_texts(pieces, dropped)
    if chunks_per_doc is None:
        return pieces, links
    rng = random.Random(seed)
    by_doc: dict[tuple[str | None, str], list[Passage]] = defaultdict(list)
    for p in pieces:
        by_doc[(p.label, p.document)].append(p)
    out: list[Passage] = []
    for members in by_doc.values():
        if len(members) > chunks_per_doc:
            dropped[f"passages beyond {chunks_per_doc} per document (seeded sample)"] += (
                len(members) - chunks_per_doc
            )
            members = [members[i] for i in sorted(rng.sample(range(len(members)), chunks_per_doc))]
        out.extend(members)
    return out, links


def _label_key(label: str) -> str:
    return " ".join(label.split()).casefold()


def label_variants(
    passages: Sequence[Passage], dropped: Counter[str], *, merge: bool = False
) -> list[Passage]:
    """Report (and with ``merge``, merge) labels differing only in case or whitespace; see
    the module docstring. The notes go into ``dropped`` (the build report) and say that no
    row was dropped."""
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    for p in passages:
        if p.label is not None:
            spellings[_label_key(p.label)][p.label] += 1
    variants = {k: c for k, c in spellings.items() if len(c) > 1}
    if not variants:
        return list(passages)
    shown = list(variants.values())[:3]
    examples = "; ".join(" / ".join(repr(v) for v in c) for c in shown)
    more = f"; and {len(variants) - 3} more" if len(variants) > 3 else ""
    if not merge:
        dropped[
            f"rows whose label differs from another label only in case or whitespace "
            f"({len(variants)} group(s): {examples}{more}); kept as separate classes, not "
            "dropped (--normalise-labels merges them)"
        ] += sum(sum(c.values()) for c in variants.values())
        return list(passages)
    canonical = {k: c.most_common(1)[0][0] for k, c in variants.items()}
    out, changed = [], 0
    for p in passages:
        target = canonical.get(_label_key(p.label)) if p.label is not None else None
        if target is not None and p.label != target:
            p = replace(p, label=target)
            changed += 1
        out.append(p)
    merged = "; ".join(
        f"{' / '.join(repr(v) for v in c if v != canonical[k])} -> {canonical[k]!r}"
        for k, c in list(variants.items())[:3]
    )
    dropped[
        f"rows relabelled to the most frequent case/whitespace variant of their label "
        f"(--normalise-labels; {merged}{more}); not dropped"
    ] += changed
    return out


def unique_texts(
    passages: Sequence[Passage], dropped: Counter[str]
) -> tuple[list[Passage], list[tuple[str, str]]]:
    """Passages whose text was seen before are dropped (counted), and the pair (document
    of the kept copy, document of the dropped copy) is returned: a repeated text would
    pair with itself, and two documents sharing a passage are near-duplicates that a
    retrieval split must keep on one side (CCAT50 has such article pairs)."""
    first: dict[str, Passage] = {}
    out, links = [], []
    for p in passages:
        kept = first.get(p.text)
        if kept is not None:
            dropped["duplicate texts (identical to an earlier passage; first kept)"] += 1
            if kept.label == p.label and kept.document != p.document:
                links.append((kept.document, p.document))
            continue
        first[p.text] = p
        out.append(p)
    return out, links


def _merge_documents(
    passages: Sequence[Passage], links: Sequence[tuple[str, str]]
) -> dict[str, str]:
    """document -> representative document, merging linked documents (union-find)."""
    parent: dict[str, str] = {}

    def find(d: str) -> str:
        parent.setdefault(d, d)
        while parent[d] != d:
            parent[d] = parent[parent[d]]
            d = parent[d]
        return d

    for a, b in links:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[rb] = ra
    return {p.document: find(p.document) for p in passages}


def labelled_rows(passages: Sequence[Passage]) -> list[dict[str, Any]]:
    return [{"id": p.id, "text": p.text, "label": p.label} for p in passages]


def retrieval_rows(
    passages: Sequence[Passage],
    dropped: Counter[str],
    *,
    texts_per_episode: int | None = None,
    episodes: int = 1,
    seed: int = 42,
    links: Sequence[tuple[str, str]] = (),
) -> list[dict[str, Any]]:
    """Query and target rows split by document (see the module docstring); documents
    joined by ``links`` (near-duplicates, from :func:`unique_texts`) count as one."""
    if texts_per_episode is not None and texts_per_episode < 1:
        raise DataError(f"--texts-per-query must be >= 1, got {texts_per_episode}")
    if episodes < 1:
        raise DataError(f"--queries-per-author must be >= 1, got {episodes}")
    by_author: dict[str, dict[str, list[Passage]]] = defaultdict(lambda: defaultdict(list))
    merged = _merge_documents(passages, links)
    if any(merged[d] != d for d in merged):
        dropped["documents kept with a near-duplicate on one side of the split (not dropped)"] += (
            sum(1 for d in merged if merged[d] != d)
        )
    for p in passages:
        by_author[str(p.label)][merged[p.document]].append(p)
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    for author, docs in by_author.items():
        names = list(docs)
        if len(names) < 2:
            dropped["authors with one document (cannot split queries and targets by document)"] += 1
            continue
        rng.shuffle(names)
        half = len(names) // 2
        sides = {"query": names[:half], "target": names[half:]}
        groups: dict[str, list[list[Passage]]] = {}
        for role, side_docs in sides.items():
            pool = [p for d in side_docs for p in docs[d]]
            rng.shuffle(pool)
            k = texts_per_episode or len(pool)
            n = min(episodes, len(pool) // k)
            groups[role] = [pool[j * k : (j + 1) * k] for j in range(n)]
        if not groups["query"] or not groups["target"]:
            dropped[
                f"authors with fewer than {texts_per_episode} passages on the query or target side"
            ] += 1
            continue
        for role, episodes_of_role in groups.items():
            for j, group in enumerate(episodes_of_role):
                rows.append(
                    {
                        "id": f"{role}-{author}-{j}",
                        "author": author,
                        "role": role,
                        "texts": [p.text for p in group],
                    }
                )
    return rows


def pair_label(value: Any, where: str) -> int:
    """0/1 from 0/1, true/false, same/different (case-insensitive)."""
    text = str(value).strip().lower()
    if text in ("1", "true", "same", "yes", "1.0"):
        return 1
    if text in ("0", "false", "different", "no", "0.0"):
        return 0
    raise DataError(f"{where}: pair label {value!r} is not 0/1, true/false or same/different")


def sequence_rows(
    records: Sequence[tuple[str, dict[str, Any]]],
    *,
    text_column: str,
    sequence_column: str,
    style_column: str,
    group_column: str | None,
    order_column: str | None,
) -> list[dict[str, Any]]:
    """``style_sequences`` rows from one row per text: texts of one sequence (in source
    order, or ascending ``order_column``: the first text carries the most of the style)."""
    sequences: dict[str, list[tuple[float, str, str, str]]] = defaultdict(list)
    groups: dict[str, str] = {}
    for position, (where, row) in enumerate(records):
        seq = str(row[sequence_column])
        order = float(row[order_column]) if order_column else float(position)
        if order_column and not math.isfinite(order):
            raise DataError(f"{where}: {order_column!r} = {row[order_column]!r} is not a number")
        group = str(row[group_column]) if group_column else "all"
        if groups.setdefault(seq, group) != group:
            raise DataError(
                f"{where}: sequence {seq!r} appears in groups {groups[seq]!r} and {group!r}"
            )
        sequences[seq].append((order, str(row[text_column]), str(row[style_column]), where))
    rows = []
    for seq, items in sequences.items():
        items.sort(key=lambda item: item[0])
        rows.append(
            {
                "id": seq,
                "group": groups[seq],
                "texts": [i[1] for i in items],
                "styles": [i[2] for i in items],
            }
        )
    return rows
