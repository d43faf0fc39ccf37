#!/usr/bin/env bash
# Set up .venv and run the whole test suite on two worker processes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python -m pytest -n 2 -q "$@"
