"""Tiny raw datasets written in the published formats (self-written texts, no corpora)."""

from __future__ import annotations

import json
from pathlib import Path

WORDS = {
    "ann": "indeed the committee shall consider whereas furthermore",
    "bob": "gonna totally wanna yeah lol super",
    "cat": "perhaps one might suggest rather quietly however",
}


def sentence(author: str, n: int, topic: str) -> str:
    words = WORDS[author].split()
    body = " ".join(words[(n + i) % len(words)] for i in range(12))
    return f"{body.capitalize()} about {topic} number {n}. {words[n % len(words)]} é."


def write_guardian(root: Path, per_category: int = 4) -> Path:
    """``<Category>/<author>/*.txt`` in Windows-1252, plus one duplicate text."""
    for category in ("Politics", "Society", "World", "UK", "Books"):
        for author in WORDS:
            folder = root / category / author
            folder.mkdir(parents=True, exist_ok=True)
            for n in range(per_category):
                text = sentence(author, n, category)
                (folder / f"{category[:2]}{n}.txt").write_bytes(text.encode("cp1252"))
    dup = root / "Politics" / "ann"
    (dup / "copy.txt").write_bytes((dup / "Po0.txt").read_bytes())
    return root


def write_cmcc(root: Path) -> Path:
    """``<Genre>/Correlated/<author><genre><n><topic><n>.txt`` including CMCC's typo file."""
    letters = {
        "Blogs": "B",
        "Chat": "C",
        "Discussion": "D",
        "Emails": "E",
        "Essays": "S",
        "Interviews": "I",
    }
    for genre, g in letters.items():
        folder = root / genre / "Correlated"
        folder.mkdir(parents=True)
        for a, author in enumerate(WORDS, 1):
            for n, topic in enumerate("CGIP", 1):
                name = f"S{a}{g}{n}{topic}{n}.txt"
                if name == "S1D3I3.txt":
                    name = "S1D313.txt"  # a file name with a digit for the topic letter
                (folder / name).write_bytes(
                    sentence(author, n, f"{topic} {genre}").encode("cp1252")
                )
    (root / "Discussion" / "Correlated" / "S1D313.txt").rename(
        root / "Discussion" / "Correlated" / "S1D113.txt"
    )
    return root


def write_imdb62(path: Path, per_author: int = 12) -> Path:
    lines = []
    for u, author in enumerate(WORDS):
        for n in range(per_author):
            lines.append(f"r{u}{n}\tu{u}\tm{n}\t{n % 10}\tTitle {n}\t{sentence(author, n, 'film')}")
    lines.append(lines[0])  # an exact duplicate
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_pan(root: Path, n_authors: int = 10) -> Path:
    """PAN jsonl pairs + truth: pairs within and across ``n_authors`` synthetic authors."""
    root.mkdir(parents=True, exist_ok=True)
    pairs, truth = [], []
    k = 0
    for a in range(n_authors):
        for b in (a, (a + 1) % n_authors):
            k += 1
            pid = f"p{k:03d}"
            pairs.append(
                {"id": pid, "fandoms": ["x", "y"], "pair": [f"text {a} {k}", f"text {b} {k}"]}
            )
            truth.append({"id": pid, "same": a == b, "authors": [f"A{a}", f"A{b}"]})
    (root / "pairs.jsonl").write_text("\n".join(json.dumps(p) for p in pairs) + "\n")
    (root / "pairs-truth.jsonl").write_text("\n".join(json.dumps(t) for t in truth) + "\n")
    return root


def write_blogs(root: Path, authors: int = 4, posts: int = 6) -> Path:
    """``<id>.<gender>.<age>.<industry>.<sign>.xml`` files with multi-line posts."""
    root.mkdir(parents=True, exist_ok=True)
    names = [*WORDS, "ann", "bob"]
    for a in range(authors):
        blocks = []
        for n in range(posts - a):  # author 0 has the most posts
            body = sentence(names[a % 3], n, f"blog {a}") * 3
            blocks.append(
                f"<date>0{n},June,2004</date>\n<post>\n\n  {body}\n  second line {n}\n</post>\n"
            )
        blocks.append("<date>1,July,2004</date>\n<post>\nshort\n</post>\n")
        if a == 1:  # a post copied from author 0
            blocks.append(
                f"<post>\n  {sentence('ann', 0, 'blog 0') * 3}\n  second line 0\n</post>\n"
            )
        (root / f"{100 + a}.male.25.Student.Leo.xml").write_text(
            "<Blog>\n\n" + "\n".join(blocks) + "</Blog>\n", encoding="utf-8"
        )
    return root
