"""One fast look at whether the Hugging Face Hub answers, before the first Hub lookup.

With no network and ``HF_HUB_OFFLINE`` unset, ``datasets`` and ``huggingface_hub`` retry
every Hub request five times with backoff: about half a minute before ``stylebench run
--dataset steb/...`` can say the dataset is not built. :func:`offline_unless_reachable`
opens one TCP connection to the Hub's host (``HF_ENDPOINT`` or huggingface.co) with a
:data:`PROBE_SECONDS` deadline, once per process; when nothing answers, the process
works offline from then on (``HF_HUB_OFFLINE=1`` for this process and the libraries
already imported) and one line says so. ``HF_HUB_OFFLINE`` (or ``HF_DATASETS_OFFLINE``,
``TRANSFORMERS_OFFLINE``) already set, to anything, means no probe at all. Only a connection is made: nothing is sent.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from urllib.parse import urlsplit

PROBE_SECONDS = 3.0
DEFAULT_ENDPOINT = "https://huggingface.co"

# the user's say, first one set wins: no probe then
OFFLINE_VARIABLES = ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE")
_verdict: bool | None = None  # True: online; False: offline (found or set); per process


def _say(line: str) -> None:
    print(line, file=sys.stderr)


def hub_endpoint() -> tuple[str, int]:
    """``(host, port)`` of ``HF_ENDPOINT`` (default huggingface.co:443)."""
    url = urlsplit(os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT)
    port = url.port or (80 if url.scheme == "http" else 443)
    return url.hostname or "huggingface.co", port


def _set_offline() -> None:
    os.environ["HF_HUB_OFFLINE"] = "1"
    for module, names in (
        ("huggingface_hub.constants", ("HF_HUB_OFFLINE",)),
        ("datasets.config", ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE")),
        ("evaluate.config", ("HF_HUB_OFFLINE", "HF_EVALUATE_OFFLINE")),
        ("transformers.utils.hub", ("_is_offline_mode",)),
    ):
        loaded = sys.modules.get(module)
        for name in names:
            if loaded is not None and hasattr(loaded, name):
                setattr(loaded, name, True)


def offline_unless_reachable(say: Callable[[str], None] = _say) -> bool:
    """True when the Hub can be asked (its host took a TCP connection within
    :data:`PROBE_SECONDS`), False when this process works offline (``HF_HUB_OFFLINE``
    set by the user, or set here after the probe failed, with one line through ``say``).
    The first call decides for the whole process."""
    global _verdict
    if _verdict is not None:
        return _verdict
    given = next((os.environ[n] for n in OFFLINE_VARIABLES if os.environ.get(n)), None)
    if given and given.strip():
        _verdict = given.strip().upper() not in ("1", "ON", "YES", "TRUE")
        return _verdict
    import socket

    host, port = hub_endpoint()
    try:
        with socket.create_connection((host, port), timeout=PROBE_SECONDS):
            _verdict = True
    except OSError as error:
        reason = (
            "no answer" if isinstance(error, TimeoutError) else str(error) or type(error).__name__
        )
        _set_offline()
        _verdict = False
        say(
            f"note: the Hugging Face Hub ({host}:{port}) cannot be reached ({reason}): "
            "working offline for this run, from local builds and caches "
            "(set HF_HUB_OFFLINE=1 to skip this check)"
        )
    return _verdict


def _forget() -> None:
    """Forget the verdict (tests)."""
    global _verdict
    _verdict = None
