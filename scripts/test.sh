#!/usr/bin/env bash
# Set up, then run the test suite. Uses ../shared (Liberty files, KAT files) when it is there.
# Tiers (tests/conftest.py): --fast the development tier, no option CI's suite, --runslow the
# long checks as well. Other arguments go to pytest (files, -k, -n 0, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
if [[ -z "${CIPHERBENCH_LIBERTY:-}" && -f ../shared/pdk/nangate45/nangate45_typ.lib.gz ]]; then
  export CIPHERBENCH_LIBERTY="$(cd ../shared/pdk/nangate45 && pwd)/nangate45_typ.lib.gz"
fi
if [[ -z "${CIPHERBENCH_KAT:-}" && -d ../shared/kat ]]; then
  export CIPHERBENCH_KAT="$(cd ../shared/kat && pwd)"
fi
# One worker per CPU (pytest-xdist), each test file on one worker: a file's module fixtures are
# built once, and the design and simulator caches are safe for concurrent use. `-n 0` runs serially.
exec .venv/bin/python -m pytest -q -ra --durations=25 -n auto --dist loadfile "$@"
