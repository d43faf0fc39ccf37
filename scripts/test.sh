#!/usr/bin/env bash
# Set up .venv and run the test suite on two worker processes, listing the slowest tests.
# Tests marked slow (long soaks, trainings and multi-process runs) are left out; pass a marker
# expression to choose: `bash scripts/test.sh -m slow` runs only them, `-m ""` every test.
# On a cold numba cache (a fresh clone, or after an edit to compiled code) tests/conftest.py first
# compiles each game's functions once, one process per core, before the workers start.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python -m pytest -n 2 -q --durations=10 -m "not slow" "$@"
