#!/usr/bin/env bash
# Set up .venv and run the package's main job.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/stonk-envs demo --game stocks_and_bombs --num-players 4 --seed 0 "$@"
