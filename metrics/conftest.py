"""pytest setup for the doctests of the bundled metric modules (``pytest metrics``).

The examples call ``evaluate.load("metrics/<name>")``, which copies the module into the
Hugging Face cache: point every cache at a temp dir and stay offline before ``evaluate``
is imported (tests/conftest.py does the same for a full run). The Space apps are tested
in tests/metrics/test_apps.py, not imported here (seven files named ``app.py``).
"""

import os
import tempfile
from pathlib import Path

collect_ignore_glob = ["*/app.py"]

_HF_HOME = Path(tempfile.mkdtemp(prefix="stylebench-hf-"))
os.environ.setdefault("HF_HOME", str(_HF_HOME))
os.environ.setdefault("HF_DATASETS_CACHE", str(_HF_HOME / "datasets"))
os.environ.setdefault("HF_EVALUATE_CACHE", str(_HF_HOME / "evaluate"))
os.environ.setdefault("HF_MODULES_CACHE", str(_HF_HOME / "modules"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
