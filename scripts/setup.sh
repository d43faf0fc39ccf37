#!/usr/bin/env bash
# Create .venv (if missing) and install stonk_envs with its training and dev extras.
# torch is pinned to the CPU build first, so the "torch" requirement of the extras is met
# without downloading a CUDA build. The dev extra includes the integrations extra (Ray RLlib,
# TorchRL, Tianshou, SuperSuit), whose examples the tests run (see docs/integrations.md), and MkDocs
# with mkdocstrings, with which a test builds the API reference (mkdocs.yml).
# The install is editable, so it is redone only when pyproject.toml or this script changes (a stamp file in
# .venv says which version was installed). Packages are not byte-compiled at install time:
# Python compiles what it imports on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
stamp=".venv/stonk-envs-setup-$(cat pyproject.toml scripts/setup.sh | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ]; then
    .venv/bin/python -m pip install --quiet --no-compile "torch==2.13.0"
    .venv/bin/python -m pip install --quiet --no-compile -e ".[training,dev]"
    rm -f .venv/stonk-envs-setup-*
    touch "$stamp"
fi
