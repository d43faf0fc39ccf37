#!/usr/bin/env bash
# Create .venv (if missing) and install stonk_envs with its training and dev extras.
# torch is pinned to the CPU build first, so the "torch" requirement of the extras is met
# without downloading a CUDA build. The dev extra includes the integrations extra (Ray RLlib,
# TorchRL, Tianshou, SuperSuit), whose examples the tests run; see docs/integrations.md.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet "torch==2.13.0"
.venv/bin/python -m pip install --quiet -e ".[training,dev]"
