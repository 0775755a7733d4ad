"""Readers for the raw corpora of the style discrimination benchmark (the news, mail,
arXiv, story and Reddit domains; reviews, blogs and lyrics: :mod:`.reviews_blogs_lyrics`).

Every reader returns :class:`Document` rows in source order and a ``{reason: count}``
report of what it skipped. Corpora with author ids (Reuters-21578 ``<AUTHOR>`` tags,
Reuter_50_50 author folders) serve the DD and AA settings; the others (Enron mail
folders, arXiv abstracts, WritingPrompts stories, Reddit answers) carry no author ids
and serve only domain discrimination (their ``author`` is ``None``).
"""

from __future__ import annotations

import gzip
import html
import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.raw_io import iter_jsonl


@dataclass(frozen=True)
class Document:
    """One human-written text with its domain and (where known) author."""

    doc_id: str
    text: str
    domain: str
    author: str | None


def _open_text(path: Path) -> str:
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8", errors="replace") as handle:
            return handle.read()
    return path.read_text(encoding="utf-8", errors="replace")


def _find(raw: Path, names: Iterable[str]) -> Path:
    """The first of ``names`` (relative paths, with or without ``.gz``) under ``raw``."""
    tried = []
    for name in names:
        for candidate in (raw / name, raw / f"{name}.gz"):
            tried.append(str(candidate))
            if candidate.is_file():
                return candidate
    raise FileNotFoundError(f"{raw}: none of {', '.join(tried)} exists")


def _load_json(path: Path) -> Any:
    try:
        return json.loads(_open_text(path))
    except json.JSONDecodeError as error:
        raise DataError(f"{path} line {error.lineno}: invalid JSON ({error.msg})") from None


def _load_jsonl(path: Path) -> list[dict[str, Any]]:
    return [record for _, record in iter_jsonl(path, objects=False)]


def _field(row: Any, key: str, where: str) -> Any:
    if not isinstance(row, dict) or key not in row:
        raise DataError(f"{where}: missing field {key!r}")
    return row[key]


# --- Reuters-21578 (SGML) -------------------------------------------------------------

_REUTERS = re.compile(r"<REUTERS\b([^>]*)>(.*?)</REUTERS>", re.DOTALL)
_ATTR = re.compile(r'(\w+)="([^"]*)"')
_CONTROL = re.compile(r"&#(?:[0-8]|1[0-9]|2[0-9]|3[01]);")


def _tag(body: str, name: str) -> str | None:
    match = re.search(rf"<{name}>(.*?)</{name}>", body, re.DOTALL)
    return match.group(1) if match else None


def normalise_reuters_author(raw_author: str) -> str | None:
    """``"    By Cal Mankowski, Reuters"`` -> ``"cal mankowski"`` (``None`` if empty)."""
    name = html.unescape(_CONTROL.sub("", raw_author))
    name = re.sub(r"^\s*by\s+", "", name, flags=re.IGNORECASE)
    name = re.split(r",", name)[0]
    name = re.sub(r"\s+", " ", name).strip().casefold()
    return name or None


def _reuters_body(text: str) -> str:
    text = html.unescape(_CONTROL.sub("", text))
    text = re.sub(r"\s*\bReuters?\s*$", "", text.rstrip())  # trailing wire signature
    lines = [line.strip() for line in text.splitlines()]
    # paragraphs start with an indented line; join wrapped lines inside a paragraph
    paragraphs: list[list[str]] = [[]]
    for original, line in zip(text.splitlines(), lines, strict=True):
        if original.startswith(("    ", "\t")) and paragraphs[-1]:
            paragraphs.append([])
        if line:
            paragraphs[-1].append(line)
    return "\n".join(" ".join(p) for p in paragraphs if p).strip()


def read_reuters21578(raw: Path) -> tuple[list[Document], Counter[str]]:
    """Reuters-21578 ``reut2-*.sgm(.gz)``: documents with an ``<AUTHOR>`` byline."""
    folder = raw / "reuters21578" if (raw / "reuters21578").is_dir() else raw
    files = sorted(folder.glob("reut2-*.sgm*"))
    if not files:
        raise FileNotFoundError(f"{folder}: no reut2-*.sgm files (expected Reuters-21578)")
    docs: list[Document] = []
    dropped: Counter[str] = Counter()
    for path in files:
        content = _open_text(path)
        starts = content.count("<REUTERS ")
        matches = list(_REUTERS.finditer(content))
        if len(matches) != starts:
            line = content[: content.rfind("<REUTERS ")].count("\n") + 1
            raise DataError(f"{path.name} line {line}: <REUTERS> element without </REUTERS>")
        for match in matches:
            attrs = dict(_ATTR.findall(match.group(1)))
            if "NEWID" not in attrs:
                line = content[: match.start()].count("\n") + 1
                raise DataError(f"{path.name} line {line}: <REUTERS> without NEWID attribute")
            author_tag = _tag(match.group(2), "AUTHOR")
            body = _tag(match.group(2), "BODY")
            if author_tag is None:
                dropped["reuters: no <AUTHOR> byline"] += 1
                continue
            author = normalise_reuters_author(author_tag)
            if author is None:
                dropped["reuters: empty <AUTHOR>"] += 1
                continue
            text = _reuters_body(body) if body is not None else ""
            if not text:
                dropped["reuters: bylined story without <BODY> text"] += 1
                continue
            docs.append(Document(f"reuters-{attrs['NEWID']}", text, "reuters", author))
    return docs, dropped


# --- Reuter_50_50 (CCAT50) ------------------------------------------------------------


def read_ccat50(raw: Path) -> tuple[list[Document], Counter[str]]:
    """Reuter_50_50: ``C50train/<author>/*newsML.txt`` and ``C50test/...``."""
    base = raw / "data" if (raw / "data").is_dir() else raw
    splits = [base / name for name in ("C50train", "C50test") if (base / name).is_dir()]
    if not splits:
        raise FileNotFoundError(f"{base}: no C50train/ or C50test/ folder (expected Reuter_50_50)")
    docs: list[Document] = []
    dropped: Counter[str] = Counter()
    for split in splits:
        for author_dir in sorted(p for p in split.iterdir() if p.is_dir()):
            for path in sorted(author_dir.glob("*.txt")):
                text = path.read_text(encoding="latin-1").strip()
                if not text:
                    dropped["ccat50: empty file"] += 1
                    continue
                doc_id = f"ccat50-{split.name}-{author_dir.name}-{path.stem}"
                docs.append(Document(doc_id, text, "ccat50", author_dir.name))
    return docs, dropped


# --- Enron (drndr's cleaned sample, no authors) ---------------------------------------


def read_enron_drndr(raw: Path) -> tuple[list[Document], Counter[str]]:
    """``test_data.json`` (+ ``train_data.json`` if present): ``[{cleaned_text, folder}]``.
    No sender ids: the folder label is a mailbox folder, not an author."""
    docs: list[Document] = []
    dropped: Counter[str] = Counter()
    paths = [p for p in (raw / "test_data.json", raw / "train_data.json") if p.is_file()]
    if not paths:
        raise FileNotFoundError(f"{raw}: no test_data.json (expected drndr's Enron sample)")
    for path in paths:
        data = _load_json(path)
        if not isinstance(data, list):
            raise DataError(f"{path}: expected a JSON list, got {type(data).__name__}")
        for index, row in enumerate(data):
            text = str(_field(row, "cleaned_text", f"{path.name} item {index}") or "").strip()
            if not text:
                dropped["enron: empty email"] += 1
                continue
            docs.append(Document(f"enron-{path.stem}-{index}", text, "enron", None))
    return docs, dropped


# --- arXiv abstracts -------------------------------------------------------------------


def read_raidar_arxiv(raw: Path) -> tuple[list[Document], Counter[str]]:
    """RAIDAR ``Arxiv/arXiv_human.json(.gz)``: ``[{abs, title}]`` (human abstracts)."""
    path = _find(raw, ["Arxiv/arXiv_human.json", "arXiv_human.json"])
    data = _load_json(path)
    docs: list[Document] = []
    dropped: Counter[str] = Counter()
    for index, row in enumerate(data):
        text = str(_field(row, "abs", f"{path.name} item {index}") or "").strip()
        if not text:
            dropped["arxiv: empty abstract"] += 1
            continue
        docs.append(Document(f"arxiv-raidar-{index}", text, "arxiv", None))
    return docs, dropped


def _read_detectrl(
    raw: Path, name: str, data_type: str, domain: str
) -> tuple[list[Document], Counter[str]]:
    path = _find(raw, [f"Benchmark/Tasks/Task1/{name}", name])
    data = _load_json(path)
    docs: list[Document] = []
    dropped: Counter[str] = Counter()
    for index, row in enumerate(data):
        where = f"{path.name} item {index}"
        label = _field(row, "label", where)
        if label != "human":
            dropped[f"{domain}: DetectRL LLM-written row"] += 1
            continue
        if _field(row, "data_type", where) != data_type:
            dropped[f"{domain}: DetectRL human row of another data_type"] += 1
            continue
        text = str(_field(row, "text", where) or "").strip()
        if not text:
            dropped[f"{domain}: empty text"] += 1
            continue
        docs.append(Document(f"{domain}-detectrl-{index}", text, domain, None))
    return docs, dropped


def read_detectrl_arxiv(raw: Path) -> tuple[list[Document], Counter[str]]:
    """DetectRL ``multi_domains_arxiv_test.json(.gz)``, human abstracts."""
    return _read_detectrl(raw, "multi_domains_arxiv_test.json", "abstract", "arxiv")


def read_detectrl_stories(raw: Path) -> tuple[list[Document], Counter[str]]:
    """DetectRL ``multi_domains_writing_prompt_test.json(.gz)``, human WritingPrompts stories."""
    return _read_detectrl(raw, "multi_domains_writing_prompt_test.json", "story", "short_stories")


def read_m4(raw: Path, domain: str) -> tuple[list[Document], Counter[str]]:
    """M4 ``data/<domain>_<model>.jsonl``: the ``human_text`` of each row (``reddit``
    holds ELI5 answers, ``arxiv`` abstracts). Rows sharing a ``source_ID`` are kept once."""
    source = {"reddit": "reddit", "arxiv": "arxiv"}[domain]
    base = raw / "data" if (raw / "data").is_dir() else raw
    paths = sorted(base.glob(f"{source}_*.jsonl"))
    if not paths:
        raise FileNotFoundError(f"{base}: no {source}_*.jsonl (expected M4 data files)")
    docs: list[Document] = []
    seen: set[str] = set()
    dropped: Counter[str] = Counter()
    for path in paths:
        for index, row in enumerate(_load_jsonl(path)):
            where = f"{path.name} line {index + 1}"
            key = str(row.get("source_ID") or _field(row, "human_text", where))
            if key in seen:
                dropped[f"{domain}: M4 row repeating a source_ID"] += 1
                continue
            seen.add(key)
            text = str(_field(row, "human_text", where) or "").strip()
            if not text:
                dropped[f"{domain}: empty human_text"] += 1
                continue
            docs.append(Document(f"{domain}-m4-{key}", text, domain, None))
    return docs, dropped
