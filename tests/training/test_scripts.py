"""The runnable scripts of training/: each builds its trainer's config from the package and hands it to ``train``."""

import importlib.util
import shlex
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "training"


def load(name: str, monkeypatch):
    """The script ``training/<name>.py`` as a module, its ``train`` replaced by one that keeps the config."""
    spec = importlib.util.spec_from_file_location(f"training_script_{name}", SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    given = []
    monkeypatch.setattr(module, "train", given.append)
    return module, given


@pytest.mark.parametrize(("name", "trainer"), [("ppo_selfplay", "ppo"), ("sb3_selfplay", "sb3")])
def test_the_docstring_command_builds_its_trainers_config(name, trainer, monkeypatch):
    module, given = load(name, monkeypatch)
    command = next(line.strip() for line in module.__doc__.splitlines() if line.strip().startswith("python "))
    module.main(shlex.split(command)[2:])
    (config,) = given
    assert config.trainer == trainer and config.total_timesteps in (200_000, 500_000)


def test_a_shipped_config_and_overrides(monkeypatch):
    module, given = load("ppo_selfplay", monkeypatch)
    module.main(["--config", "stockpile", "total_timesteps=1000", "seed=3"])
    (config,) = given
    assert (config.game, config.total_timesteps, config.seed, config.num_envs) == ("stockpile", 1000, 3, 512)


@pytest.mark.parametrize(("name", "argv", "message"), [
    ("sb3_selfplay", ["sb3.n_steps=0"], "sb3.n_steps must be 1..10000000, got 0"),
    ("ppo_selfplay", ["--config", "chess"], "no shipped config has that name"),
    ("ppo_selfplay", ["total_timesteps"], "overrides must be KEY=VALUE"),
])
def test_bad_input_is_a_one_line_error(name, argv, message, monkeypatch, capsys):
    module, given = load(name, monkeypatch)
    with pytest.raises(SystemExit) as stop:
        module.main(argv)
    assert stop.value.code == 2 and given == []
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
