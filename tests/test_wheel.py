"""The wheel a pip user gets: only the ``stonk_envs`` package, with its shipped configs, and,
installed outside the checkout, it trains from a shipped config's name."""

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from stonk_envs import configs as shipped
from tests.training.test_ppo import TINY

ROOT = Path(__file__).resolve().parents[1]


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
def test_the_wheel_holds_only_the_package_and_its_configs(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert {name.split("/")[0] for name in names if ".dist-info/" not in name} == {"stonk_envs"}
    files = {f"stonk_envs/configs/{name}.yaml" for name in shipped.names()}
    assert "stonk_envs/configs/stocks_and_bombs.yaml" in files and files <= set(names)


@pytest.mark.slow
def test_the_installed_wheel_trains_from_a_config_name_outside_the_checkout(wheel, tmp_path):
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
