#!/usr/bin/env bash
# Set up .venv and run the package's main job: self-play training of a Stocks & Bombs policy
# with the shipped config configs/stocks_and_bombs.yaml (the batched trainer, trainer: ppo),
# ending with its evaluation against random and heuristic players.
# The run lives in runs/stocks_and_bombs; running this again resumes (or re-evaluates) it.
# Extra arguments are config overrides, e.g. `bash scripts/main.sh total_timesteps=100000`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
RUN_DIR=runs/stocks_and_bombs
if [ -f "$RUN_DIR/latest.json" ]; then
    .venv/bin/stonk-envs train --resume "$RUN_DIR" "$@"
else
    .venv/bin/stonk-envs train --config stocks_and_bombs run_dir="$RUN_DIR" "$@"
fi
