"""The READMEs and the docs cannot drift: every shell and Python block of README.md,
spaces/stylebench/README.md and every page under docs/ (those the docs build writes from the
code and the cards left out: :data:`GENERATED`) is run by the suite, in order, as a user
runs them, each page in a checkout of its own.

Where the blocks run: a user's checkout (a temp folder holding ``.venv``, ``tests``,
``spaces``, ``metrics`` and ``requirements.lock`` of this repository as links), with
``../shared/corpora`` beside it (a link to the real corpora; blocks that read them skip
where they are absent), ``.venv/bin`` first on ``PATH`` (what ``source .venv/bin/activate``
does), a home folder whose ``~/Downloads/pan23-multi-author-analysis`` is a PAN23
download in its published layout (our sentences: ``tests/hub/pan23_fixture.py``) and
``my_corpus.csv`` (columns text, author, book; our sentences), and caches of its own. The
blocks of one page share that folder, so a block sees what the blocks above it built; a
page never sees another page's folder.

Markers (HTML comments just above a block, invisible on GitHub and the Hub):

* ``<!-- skip: REASON -->``: the block is not run; the test skips with REASON (a download,
  a GPU, a cluster, a network, a long run, or something the setup script does);
* ``<!-- skip-line: TEXT | REASON -->``: the lines containing TEXT are left out (the
  others run), and REASON is reported;
* ``<!-- output-of: COMMAND -->`` above a plain block: the block is what COMMAND prints
  (``above`` = the shell block above it); each of its lines that holds a number must be
  printed, its numbers equal at the precision shown (``0.280`` is not ``0.279``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import ISOLATED_ENV, ISOLATION_ROOT, REPO_ROOT

pytestmark = pytest.mark.slow

READMES = ("README.md", "spaces/stylebench/README.md")
# written by the docs build from the code and the cards (mkdocstrings, mkdocs-click, the
# registry's catalogue, the metric cards, whose examples tests/metrics runs): not pages of ours
GENERATED = ("docs/reference/", "docs/concepts/metrics/", "docs/concepts/datasets.md")


def _doc_pages() -> tuple[str, ...]:
    pages = sorted(p.relative_to(REPO_ROOT).as_posix() for p in (REPO_ROOT / "docs").rglob("*.md"))
    return tuple(p for p in pages if not p.startswith(GENERATED))


PAGES = (*READMES, *_doc_pages())
MARKER = re.compile(r"<!--\s*(skip|skip-line|output-of):\s*(.*?)\s*-->", re.S)
FENCE = re.compile(r"^```(\w*)\s*$")
NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?(?![\w])")
BOX = re.compile(r"[│┃┏┓┗┛┡┩┢┪━─┳┻╇╈└┘┌┐├┤┬┴┼]")
TIMEOUT = 600


@dataclass
class Block:
    readme: str
    line: int  # 1-based line of the opening fence
    lang: str  # bash, python or "" (printed output)
    text: str
    skip: str | None = None
    skip_lines: list[tuple[str, str]] = field(default_factory=list)
    output_of: str | None = None

    @property
    def id(self) -> str:
        return f"{self.readme}:{self.line}"

    @property
    def runs(self) -> bool:
        return self.lang in ("bash", "sh", "shell", "python") or self.output_of is not None


def parse(readme: str) -> list[Block]:
    """Every fenced block of ``readme`` with the markers written above it."""
    lines = (REPO_ROOT / readme).read_text(encoding="utf-8").splitlines()
    blocks, since, i = [], [], 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            since.append(lines[i])
            i += 1
            continue
        start, body = i, []
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        block = Block(readme, start + 1, fence.group(1), "\n".join(body) + "\n")
        above = "\n".join(since)  # markers sit between the block above and this one
        for kind, value in MARKER.findall(above):
            if kind == "skip":
                block.skip = value
            elif kind == "skip-line":
                text, _, reason = value.partition("|")
                block.skip_lines.append((text.strip(), reason.strip()))
            else:
                block.output_of = value
        blocks.append(block)
        since = []
        i += 1
    return blocks


BLOCKS = [b for page in PAGES for b in parse(page) if b.runs]


def test_every_block_is_run_or_skipped_with_a_reason() -> None:
    """A new shell or Python block is run by the next test run; a plain block is output
    only when it says whose."""
    assert "docs/getting-started.md" in PAGES, "the docs pages are collected"
    for page in PAGES:
        blocks = parse(page)
        if page in READMES:
            assert any(b.lang in ("bash", "python") for b in blocks), page
        for block in blocks:
            if block.skip is not None:
                assert len(block.skip) > 10, f"{block.id}: say why it is skipped"
            for text, reason in block.skip_lines:
                assert text in block.text, f"{block.id}: no line contains {text!r}"
                assert reason, f"{block.id}: say why lines with {text!r} are skipped"


# --------------------------------------------------------------------------- setup


@pytest.fixture(scope="module")
def checkouts() -> dict[str, dict[str, object]]:
    """One user's checkout per page, made when the page's first block runs."""
    return {}


@pytest.fixture
def user(
    block: Block,
    checkouts: dict[str, dict[str, object]],
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, object]:
    """The checkout of ``block``'s page (see the module docstring)."""
    if block.readme not in checkouts:
        checkouts[block.readme] = _make_user(tmp_path_factory)
    return checkouts[block.readme]


def _make_user(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A user's checkout, home and environment (see the module docstring)."""
    from tests.hub.pan23_fixture import write_pan23

    root = tmp_path_factory.mktemp("readme")
    checkout = root / "checkout"
    checkout.mkdir()
    for name in (".venv", "tests", "spaces", "metrics", "requirements.lock", "pyproject.toml"):
        if (REPO_ROOT / name).exists():
            (checkout / name).symlink_to(REPO_ROOT / name)
    from evaluators.paths import corpora_dir

    corpora = corpora_dir()
    if corpora is not None:
        (root / "shared").mkdir()
        (root / "shared" / "corpora").symlink_to(corpora)
    home = root / "home"
    write_pan23(home / "Downloads" / "pan23-multi-author-analysis")
    vocabulary = {
        "ann": [
            "she",
            "walked",
            "softly",
            "to",
            "the",
            "quiet",
            "garden",
            "and",
            "read",
            "her",
            "letter",
            "over",
            "tea",
        ],
        "bob": [
            "he",
            "drove",
            "the",
            "loud",
            "truck",
            "hard",
            "down",
            "the",
            "long",
            "road",
            "and",
            "the",
            "engine",
            "roared",
        ],
    }
    rows = [  # two 130-word texts per book: one 100-word passage each
        f"{' '.join(words[(7 * k + j) % len(words)] for j in range(130))},{author},{book}"
        for author, words in vocabulary.items()
        for book in ("one", "two", "three")
        for k in range(2)
    ]
    (checkout / "my_corpus.csv").write_text("text,author,book\n" + "\n".join(rows) + "\n")
    env = dict(os.environ)
    for name, value in ISOLATED_ENV.items():  # caches of its own, under root/
        if value.startswith(str(ISOLATION_ROOT)):
            env[name] = value.replace(str(ISOLATION_ROOT), str(root / "isolated"), 1)
    env.update(
        HOME=str(home),
        PATH=f"{checkout / '.venv' / 'bin'}{os.pathsep}{Path(sys.executable).parent}"
        f"{os.pathsep}{env.get('PATH', '')}",
        VIRTUAL_ENV=str(checkout / ".venv"),
        COLUMNS="300",  # long lines stay whole (rich wraps at the terminal width)
        PYTHONWARNINGS="ignore",
    )
    return {"checkout": checkout, "env": env, "corpora": corpora, "printed": {}}


def _needs_corpora(text: str) -> bool:
    return "../shared/corpora" in text


def _run(user: dict[str, object], command: list[str], what: str) -> str:
    done = subprocess.run(
        command, cwd=user["checkout"], env=user["env"], capture_output=True, text=True,
        timeout=TIMEOUT,
    )  # fmt: skip
    assert done.returncode == 0, f"{what} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout + done.stderr


def _shell(block: Block) -> str:
    kept = [
        line
        for line in block.text.splitlines()
        if not any(text in line for text, _ in block.skip_lines)
    ]
    return "set -euo pipefail\n" + "\n".join(kept) + "\n"


# ----------------------------------------------------------------------- comparing


def _skeleton(line: str) -> str:
    return " ".join(NUMBER.sub("#", BOX.sub(" ", line)).split())


def _numbers(line: str) -> list[str]:
    return NUMBER.findall(BOX.sub(" ", line))


def _close(expected: str, got: str) -> bool:
    """``got`` is ``expected`` at the precision the README shows: the same digits when
    printed with as many decimals (``0.280`` is not ``0.279``), else ``got`` rounded half
    up to the decimals shown."""
    from decimal import ROUND_HALF_UP, Decimal

    expected, got = expected.replace(",", ""), got.replace(",", "")
    decimals = len(expected.split(".")[1]) if "." in expected else 0
    got_decimals = len(got.split(".")[1]) if "." in got else 0
    if got_decimals == decimals:
        return Decimal(expected) == Decimal(got)
    return Decimal(got).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP) == Decimal(expected)


def compare(quoted: str, printed: str) -> list[str]:
    """The quoted lines (those with a number) that the printed output does not hold."""
    candidates: dict[str, list[list[str]]] = {}
    for line in printed.splitlines():
        candidates.setdefault(_skeleton(line), []).append(_numbers(line))
    problems = []
    for line in quoted.splitlines():
        if not re.search(r"\d", line) or line.strip() in ("...", "…"):
            continue
        cut = line.rstrip().removesuffix("...").removesuffix("…")  # "...": the line goes on
        if cut != line.rstrip():
            skeleton = _skeleton(cut)
            found = [n for s, ns in candidates.items() if s.startswith(skeleton) for n in ns]
            found = [n[: len(_numbers(cut))] for n in found]
            line = cut
        else:
            found = candidates.get(_skeleton(line))
        expected = _numbers(line)
        if not found:
            problems.append(f"not printed: {line.strip()}")
        elif not any(
            len(got) == len(expected) and all(map(_close, expected, got)) for got in found
        ):
            problems.append(f"other numbers: {line.strip()} (printed: {found[0]})")
    return problems


def test_compare_finds_changed_and_missing_lines() -> None:
    printed = "│tfidf-ngrams   │      0.001 │      0.588 │\nbuilt x: 100 rows\n"
    assert compare("│tfidf-ngrams │ 0.001 │ 0.588 │\n...\nbuilt x: 100 rows", printed) == []
    assert compare("│tfidf-ngrams │ 0.001 │ 0.59 │", printed) == []  # 0.588 shown as 0.59
    assert compare("│tfidf-ngrams │ 0.001 │ 0.587 │", printed) == [
        "other numbers: │tfidf-ngrams │ 0.001 │ 0.587 │ (printed: ['0.001', '0.588'])"
    ]  # the last digit is compared exactly
    assert compare("built x: 101 rows", printed) == ["other numbers: built x: 101 rows "
                                                    "(printed: ['100'])"]  # fmt: skip
    assert compare("│minilm │ 0.5 │", printed) == ["not printed: │minilm │ 0.5 │"]
    assert compare("built x: 100 ...", printed + "built x: 100 rows, 3 more\n") == []


# --------------------------------------------------------------------------- blocks


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.id)
def test_readme_block(block: Block, user: dict[str, object]) -> None:
    printed: dict[str, str | None] = user["printed"]  # type: ignore[assignment]
    if block.lang in ("bash", "sh", "shell"):
        printed[block.readme] = None  # "output-of: above" reads this block's output
    if block.skip is not None:
        pytest.skip(block.skip)
    needs = block.text + (block.output_of or "")
    if _needs_corpora(needs) and user["corpora"] is None:
        pytest.skip("reads ../shared/corpora, which is not present on this machine")
    if block.lang == "python":
        script = user["checkout"] / f"block_{Path(block.readme).stem}_{block.line}.py"
        script.write_text(block.text)
        _run(user, ["python", script.name], block.id)
    elif block.lang in ("bash", "sh", "shell"):
        script = user["checkout"] / f"block_{block.line}.sh"
        script.write_text(_shell(block))
        printed[block.readme] = _run(user, ["bash", script.name], block.id)
    else:  # quoted output
        if block.output_of == "above":
            output = printed.get(block.readme)
            if output is None:
                pytest.skip("the block above did not run")
        else:
            output = _run(user, ["bash", "-c", f"set -euo pipefail; {block.output_of}"], block.id)
        problems = compare(block.text, output)
        assert not problems, f"{block.id} quotes what the command no longer prints:\n" + (
            "\n".join(problems)
        )
