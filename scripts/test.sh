#!/usr/bin/env bash
# Set up .venv and run the whole test suite on two worker processes, listing the slowest tests.
# On a cold numba cache (a fresh clone, or after an edit to compiled code) tests/conftest.py first
# compiles each game's functions once, one process per game, before the workers start.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python -m pytest -n 2 -q --durations=10 "$@"
