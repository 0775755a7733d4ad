"""``concepts/metrics/<name>.md``: one page per evaluate module, made from its card
(``metrics/<name>/README.md``, the Hub Space's README) at every build: the YAML front
matter (the Space's settings) is dropped and the card's ``description`` becomes the
page's lead; the card itself is not copied anywhere."""

from __future__ import annotations

from pathlib import Path

import yaml

from evaluators.paths import metrics_dir


def cards(root: Path | None = None) -> dict[str, Path]:
    """Every metric module's card by module name (folders of ``metrics/`` with a README)."""
    folder = root if root is not None else metrics_dir()
    return {
        p.parent.name: p
        for p in sorted(folder.glob("*/README.md"))
        if (p.parent / f"{p.parent.name}.py").is_file()
    }


def split_front_matter(text: str) -> tuple[dict, str]:
    """``(front matter, body)`` of a card; a card without front matter has ``{}``."""
    if not text.startswith("---\n"):
        return {}, text
    head, sep, body = text[4:].partition("\n---\n")
    if not sep:
        raise ValueError("the card's front matter has no closing '---' line")
    return yaml.safe_load(head) or {}, body


def page(name: str, card: Path) -> str:
    """The Markdown of ``concepts/metrics/<name>.md``."""
    meta, body = split_front_matter(card.read_text(encoding="utf-8"))
    body = body.lstrip("\n")
    title, _, rest = body.partition("\n")
    if not title.startswith("# "):
        title, rest = f"# {meta.get('title', name)}", body
    lead = " ".join(str(meta.get("description", "")).split())
    lines = [
        title,
        "",
        f"<!-- generated from metrics/{name}/README.md by docs/hooks/sbdocs/metric_cards.py -->",
        "",
    ]
    if lead:
        lines += [f"*{lead}*", ""]
    lines += [
        f'Load it with `evaluate.load("{name}")` after `stylebench metrics install`, or '
        f'`load_metric("{name}")` with nothing installed (`stylebench list metrics`).',
        "",
    ]
    return "\n".join(lines) + rest


def index(found: dict[str, Path]) -> str:
    """``concepts/metrics/index.md``: what the modules are, one line each."""
    lines = [
        "# Metrics",
        "",
        "<!-- generated from the metric cards by docs/hooks/sbdocs/metric_cards.py -->",
        "",
        "Each metric is a Hugging Face `evaluate` module under `metrics/<name>/` (with a "
        "Gradio Space of its own); its formulas live in `evaluators.metric_math`, the "
        "one place the task evaluators also take them from. One page per module, made "
        "from its card:",
        "",
    ]
    for name, card in found.items():
        meta, _ = split_front_matter(card.read_text(encoding="utf-8"))
        what = " ".join(str(meta.get("description", "")).split())
        lines.append(f"- [{meta.get('title', name)}]({name}.md): {what}")
    return "\n".join(lines) + "\n"
