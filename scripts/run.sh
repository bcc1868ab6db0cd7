#!/usr/bin/env bash
# Set up, then run the default study (AES-128 and AES 3-in-1 iterative on every available target)
# and write the report to report/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
if [[ -z "${CIPHERBENCH_LIBERTY:-}" && -f ../shared/pdk/nangate45/nangate45_typ.lib.gz ]]; then
  export CIPHERBENCH_LIBERTY="$(cd ../shared/pdk/nangate45 && pwd)/nangate45_typ.lib.gz"
fi
if [[ -z "${CIPHERBENCH_KAT:-}" && -d ../shared/kat ]]; then
  export CIPHERBENCH_KAT="$(cd ../shared/kat && pwd)"
fi
.venv/bin/cipherbench run "$@"
.venv/bin/cipherbench report -o report
echo "report: $(pwd)/report/report.html"
