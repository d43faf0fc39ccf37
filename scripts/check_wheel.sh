#!/usr/bin/env bash
# Build the wheel from this checkout's committed files, check that it holds only stonk_envs (with
# the shipped configs), install it with the training extra into a fresh venv outside the checkout,
# and train from a shipped config there: bash scripts/check_wheel.sh [WORK_DIR] [KEY=VALUE ...]
# WORK_DIR (default: a new temporary folder) gets the export, the wheel, the venv and the run.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(realpath "${1:-$(mktemp -d)}")
shift || true
mkdir -p "$work"
rm -rf "$work/src" "$work/dist" "$work/venv" "$work/run"
git archive --prefix=src/ HEAD | tar -x -C "$work"
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --no-compile "torch==2.13.0"
"$work/venv/bin/python" -m pip wheel --quiet --no-deps -w "$work/dist" "$work/src"
wheel=$(ls "$work"/dist/stonk_envs-*.whl)
"$work/venv/bin/python" - "$wheel" <<'PY'
import sys
import zipfile

names = zipfile.ZipFile(sys.argv[1]).namelist()
tops = sorted({name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")})
configs = sorted(name for name in names if name.startswith("stonk_envs/configs/") and name.endswith(".yaml"))
print(f"wheel: {len(names)} files, top-level {tops}, {len(configs)} shipped configs")
if tops != ["stonk_envs"] or len(configs) < 6:
    sys.exit("error: the wheel must hold only stonk_envs, with its configs")
PY
"$work/venv/bin/python" -m pip install --quiet --no-compile "$wheel[training]"
cd "$work"
"$work/venv/bin/stonk-envs" --version
"$work/venv/bin/stonk-envs" train --config stocks_and_bombs total_timesteps=100000 run_dir="$work/run" progress=false "$@"
ls "$work/run"
