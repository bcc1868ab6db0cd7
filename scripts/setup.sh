#!/usr/bin/env bash
# Install everything cipherbench needs on Debian 12 (Python 3.11): Debian packages, then a virtual
# environment in .venv with the project and its PyPI dependencies. Safe to rerun.
set -euo pipefail
cd "$(dirname "$0")/.."

debian_packages=(opensta g++ make python3-venv python3-dev libcrypto++-dev python3-botan)
# The asic-layout target: qflow drives graywolf (placement) and qrouter (routing) on the OSU
# 0.18 um cell kit, which Debian ships with its LEF and Liberty (docs/flows.md "layout").
debian_packages+=(qflow qflow-tech-osu018 qflow-tech-osu035 qflow-tech-osu050)
# Headless browser for the HTML explorer's tests (tests/test_html_explorer.py): Playwright, from
# the test extras, drives Debian's chromium through executable_path; no `playwright install`.
debian_packages+=(chromium)
# Opt-in: a PostgreSQL server for the results-store tests against a real database (CI sets it;
# scripts/pg-test-server.sh runs a throwaway cluster). Users of a postgresql:// store need only
# the psycopg client library, which pip installs below.
if [[ "${CIPHERBENCH_WITH_POSTGRES:-0}" == 1 ]]; then
  debian_packages+=(postgresql)
fi
missing=()
for pkg in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  echo "setup: installing Debian packages: ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

python=${PYTHON:-python3}
if [[ ! -x .venv/bin/python ]]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[test]"
echo "setup: done (.venv/bin/cipherbench)"
