"""The base install: with every extra's modules refused, the CLI's help, the envs, the engine and Gymnasium's
``make``/``make_vec`` work and import nothing from an extra, and a command that needs one names it in one line.

A quick stand-in for the slow test of the wheel installed without extras (``tests/test_wheel.py``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from stonk_envs.extras import EXTRA_MODULES, extra_for, needs_extra_message

ROOT = Path(__file__).resolve().parents[1]
OPTIONAL = sorted({module for modules in EXTRA_MODULES.values() for module in modules})

REFUSE = f"""
import sys

class RefuseExtras:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {OPTIONAL!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, RefuseExtras())
"""
"""Makes every module of an extra fail to import, as on the base install."""

BASE_PATHS = """
import gymnasium
import numpy as np
import pettingzoo

import stonk_envs
from stonk_envs import stockpile_v1, stocks_and_bombs_v1, stonk_market_v1, vector

for module in (stockpile_v1, stocks_and_bombs_v1, stonk_market_v1):
    env = module.env()
    env.reset(seed=0)
    parallel = module.parallel_env()
    parallel.reset(seed=0)
aec = pettingzoo.make("aec", "stonk_envs/stockpile-v1", num_players=4)
engine = vector.make("stocks_and_bombs", 8, num_players=4)
engine.reset(seed=0)
engine.step(engine.random_actions())
single = gymnasium.make("stonk_envs/Stockpile-v1", opponents="heuristic", num_players=4)
single.reset(seed=0)
envs = gymnasium.make_vec("stonk_envs/StocksAndBombs-v1", num_envs=4)
envs.reset(seed=0)
envs.step(np.array(envs.call("action_masks")).argmax(axis=1))
print(sorted(name for name in sys.modules if name.partition(".")[0] in OPTIONAL_NAMES))
"""


def run_refusing_extras(code: str) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter in which no extra's module imports."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    script = REFUSE + f"OPTIONAL_NAMES = {OPTIONAL!r}\n" + code
    return subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)


def test_every_help_works_without_the_extras():
    done = run_refusing_extras(
        "from stonk_envs import cli\n"
        "for argv in [['--help']] + [[name, '--help'] for name in cli.SUBCOMMANDS]:\n"
        "    try:\n"
        "        cli.main(argv)\n"
        "    except SystemExit as stop:\n"
        "        assert stop.code == 0, argv\n"
    )
    assert done.returncode == 0, done.stderr[-3000:]
    for name in ("train", "exploit", "evaluate", "train-rllib", "convert", "soak", "replay"):
        assert f"usage: stonk-envs {name}" in done.stdout


def test_the_envs_the_engine_and_gymnasium_import_no_extra():
    done = run_refusing_extras(BASE_PATHS)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_a_command_that_needs_no_extra_runs_and_one_that_needs_one_names_it():
    done = run_refusing_extras(
        "from stonk_envs import cli\n"
        "assert cli.main(['configs']) == 0\n"
        "assert cli.main(['demo', '--game', 'stockpile', '--every', '1000']) == 0\n"
        "assert cli.main(['card', 'champion', '--game', 'stockpile']) == 0\n"
        "status = cli.main(['train', '--config', 'stocks_and_bombs'])\n"
        "print('train exit', status)\n"
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "final scores" in done.stdout and "stockpile champion: stonk_envs/champions/" in done.stdout
    assert "train exit 2" in done.stdout
    assert done.stderr.strip() == ("stonk-envs train: error: this command needs the training extra: "
                                   "pip install 'stonk_envs[training]'")


def test_a_missing_module_maps_to_the_extra_that_brings_it():
    assert extra_for(ModuleNotFoundError("x", name="torch.nn")) == "training"
    assert extra_for(ModuleNotFoundError("x", name="omegaconf"), preferred="rllib") == "rllib"
    assert extra_for(ModuleNotFoundError("x", name="omegaconf"), preferred="bench") == "training"
    assert extra_for(ModuleNotFoundError("x", name="tqdm")) == "evaluation"
    assert extra_for(ModuleNotFoundError("x", name="stonk_envs.nothing")) is None
    assert needs_extra_message("video") == "this command needs the video extra: pip install 'stonk_envs[video]'"


def _requirements(extra: str, extras: dict[str, list[str]]) -> set[str]:
    """The distributions ``extra`` installs, through the extras it includes, as module names."""
    found = set()
    for requirement in extras[extra]:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement).group(0)
        included = re.fullmatch(r"stonk_envs\[(\w+)\]", requirement)
        if included:
            found |= _requirements(included.group(1), extras)
        else:
            found.add(name.lower().replace("-", "_"))
    return found


@pytest.mark.parametrize("extra", sorted(EXTRA_MODULES))
def test_the_table_of_extras_matches_the_project(extra):
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert set(EXTRA_MODULES[extra]) == _requirements(extra, extras)
