"""The result JSONs of a run folder, to compare two runs of the same work."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# what differs between two runs of the same work (``evaluation_time``: encode +
# evaluation seconds, evaluators/records/record.py)
VOLATILE = ("timings", "evaluation_time", "created_at")


def result_payloads(root: Path) -> dict[str, dict[str, Any]]:
    """``{path relative to root: payload without VOLATILE}`` of every result JSON."""
    found = {}
    for path in sorted(Path(root).rglob("*.json")):
        payload = json.loads(path.read_text())
        for key in VOLATILE:
            payload.pop(key, None)
        found[str(path.relative_to(root))] = payload
    return found
