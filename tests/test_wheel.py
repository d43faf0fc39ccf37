"""The wheel a pip user gets: only the ``stonk_envs`` package, with its shipped configs and champions, under
10 MB; installed outside the checkout, it trains from a shipped config's name and plays a champion, and installed
without extras in a fresh venv it gives the envs, the engine, Gymnasium's ``make``/``make_vec``, the CLI's help and
the commands that need no extra."""

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from stonk_envs import champions, cli
from stonk_envs import configs as shipped
from tests.training.test_ppo import TINY

ROOT = Path(__file__).resolve().parents[1]
GAME = "stocks_and_bombs"
"""The one game the bare install plays (each game's compiled code is built afresh there)."""
BARE_PATHS = f"""
import sys

import gymnasium
import numpy as np
import pettingzoo

import stonk_envs
from stonk_envs import stocks_and_bombs_v1, vector

env = pettingzoo.make("aec", "stonk_envs/stocks_and_bombs-v1", num_players=4)
env.reset(seed=0)
for agent in env.agent_iter(max_iter=50):
    obs, reward, terminated, truncated, info = env.last()
    env.step(None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"]))
parallel = stocks_and_bombs_v1.parallel_env()
parallel.reset(seed=0)
engine = vector.make("{GAME}", 8, num_players=4)
engine.reset(seed=0)
engine.step(engine.random_actions())
single = gymnasium.make("stonk_envs/StocksAndBombs-v1", opponents="heuristic")
single.reset(seed=0)
envs = gymnasium.make_vec("stonk_envs/StocksAndBombs-v1", num_envs=4)
envs.reset(seed=0)
envs.step(np.array(envs.call("action_masks")).argmax(axis=1))
print("base paths ok")
"""
"""What ``pip install stonk_envs`` must give: the envs, the engine and Gymnasium's ``make`` and ``make_vec``."""


MAX_WHEEL_BYTES = 10 * 1024 * 1024
LOCAL = (".git", ".venv", "build", "dist", "runs", "__pycache__", "*.egg-info", ".*_cache", ".hypothesis")
"""What a checkout holds beyond its sources: not copied to the build."""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel built from a copy of the sources: setuptools writes ``build/`` and ``*.egg-info`` beside
    them, so two test workers building from the checkout itself would race."""
    sources = tmp_path_factory.mktemp("sources") / "stonk_envs"
    shutil.copytree(ROOT, sources, ignore=shutil.ignore_patterns(*LOCAL))
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                            "--wheel-dir", str(out), str(sources)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-2000:]
    (path,) = out.glob("stonk_envs-*.whl")
    return path


@pytest.mark.slow
def test_the_wheel_holds_only_the_package_its_configs_and_champions_under_10_mb(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert {name.split("/")[0] for name in names if ".dist-info/" not in name} == {"stonk_envs"}
    files = {f"stonk_envs/configs/{name}.yaml" for name in shipped.names()}
    assert "stonk_envs/configs/stocks_and_bombs.yaml" in files and files <= set(names)
    packaged = {f"stonk_envs/champions/{entry['file']}" for entry in champions.read_index().values()}
    assert packaged and packaged | {"stonk_envs/champions/index.json"} <= set(names)
    assert wheel.stat().st_size < MAX_WHEEL_BYTES


@pytest.mark.slow
def test_the_installed_wheel_trains_from_a_config_name_and_plays_a_champion_outside_the_checkout(wheel, tmp_path):
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-compile", "--quiet",
                    "--target", str(site), str(wheel)], check=True, capture_output=True)
    env = {**os.environ, "PYTHONPATH": str(site)}  # the wheel's package, not the checkout's
    where = subprocess.run([sys.executable, "-c", "import stonk_envs; print(stonk_envs.__file__)"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, check=True)
    assert Path(where.stdout.strip()).is_relative_to(site)
    run_dir = tmp_path / "run"
    done = subprocess.run([sys.executable, "-m", "stonk_envs.cli", "train", "--config", "stocks_and_bombs", *TINY,
                           "total_timesteps=300", "ppo.imitation.samples=200", "ppo.league.exploiter_samples=256",
                           f"run_dir={run_dir}"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (run_dir / "policy.zip").is_file()
    game = champions.games()[0]
    played = subprocess.run([sys.executable, "-m", "stonk_envs.cli", "evaluate", "--game", game, "--players",
                             "champion", *["random"] * (champions.default_num_players(game) - 1), "--games", "4",
                             "--no-plot", "--no-progress", "--out", str(tmp_path / "evaluate")],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert played.returncode == 0 and "\nchampion " in played.stdout, played.stderr[-2000:]


@pytest.mark.slow
def test_the_wheel_without_extras_gives_the_envs_the_engine_and_the_cli(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python, command = venv / "bin" / "python", venv / "bin" / "stonk-envs"
    installed = subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-compile", str(wheel)],
                               capture_output=True, text=True, timeout=900)
    assert installed.returncode == 0, installed.stderr[-2000:]
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}  # the venv's package only

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(arg) for arg in args], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=600)

    assert "No module named 'torch'" in run(python, "-c", "import torch").stderr
    base = run(python, "-c", BARE_PATHS)
    assert base.returncode == 0 and "base paths ok" in base.stdout, base.stderr[-2000:]
    listed = run(command, "--help")
    assert listed.returncode == 0, listed.stderr[-2000:]
    names = re.findall(r"^    (\S+)", listed.stdout, flags=re.MULTILINE)
    assert set(names) == set(cli.SUBCOMMANDS)
    for name in names:
        helped = run(command, name, "--help")
        assert helped.returncode == 0 and f"stonk-envs {name}" in helped.stdout, (name, helped.stderr[-2000:])
    demo = run(command, "demo", "--game", GAME, "--every", "1000")
    assert demo.returncode == 0 and "final scores" in demo.stdout, demo.stderr[-2000:]
    card = run(command, "card", "champion", "--game", champions.games()[0])
    assert card.returncode == 0 and f"sha256       {champions.read_index()[champions.games()[0]]['sha256']}" in (
        card.stdout), card.stderr[-2000:]
    train = run(command, "train", "--config", GAME)
    assert (train.returncode, train.stderr) == (
        2, "stonk-envs train: error: this command needs the training extra: pip install 'stonk_envs[training]'\n")
