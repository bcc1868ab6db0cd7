#!/usr/bin/env bash
# Install everything cipherbench needs on Debian 12 (Python 3.11): Debian packages, then a virtual
# environment in .venv with the project and its PyPI dependencies. Safe to rerun.
#   scripts/setup.sh           what `cipherbench` needs (scripts/run.sh)
#   scripts/setup.sh --tests   and what the test suite needs besides (scripts/test.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

debian_packages=(opensta g++ make python3-venv python3-dev libcrypto++-dev python3-botan)
# The built-in cell libraries of the asic target (osu018, osu035, osu050: Liberty with timing and
# power) and the asic-layout target: qflow drives graywolf (placement) and qrouter (routing) on
# the same OSU kits, which Debian ships with their LEF (docs/flows.md).
debian_packages+=(qflow qflow-tech-osu018 qflow-tech-osu035 qflow-tech-osu050)
# Timed gate-level simulation (de-synchronized cores, issue 30): Icarus Verilog runs a mapped
# netlist with the OSU kits' cell models and OpenSTA's SDF, where a race shows (docs/flows.md).
debian_packages+=(iverilog)
# --tests: what only the test suite needs. A headless browser for the HTML explorer's tests
# (tests/test_html_explorer.py): Playwright, from the test extras, drives Debian's chromium
# through executable_path; no `playwright install`.
with_tests=0
[[ "${1:-}" == --tests ]] && with_tests=1
if ((with_tests)); then
  debian_packages+=(chromium)
fi
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
if ((with_tests)); then
  .venv/bin/python -m pip install -q -e ".[test]"
else
  .venv/bin/python -m pip install -q -e .
fi
echo "setup: done (.venv/bin/cipherbench)"
