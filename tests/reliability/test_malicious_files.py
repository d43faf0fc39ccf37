"""A file whose loading would run a shell command: through every loader and CLI path, nothing runs.

Each payload is a pickle that runs ``touch <marker>`` when unpickled. A test passes only when
the marker does not exist afterwards (and, where the file is otherwise sound, the load got
that far); loaders that unpickle (SB3's ``load``, RLlib's ``from_checkpoint``,
``torch.load(weights_only=False)``) create it.
"""

import base64
import json
import os
import pickle
import shlex
import zipfile

import gymnasium as gym
import numpy as np
import pytest
import torch
from gymnasium import spaces
from sb3_contrib import MaskablePPO

from stonk_envs.cli import main
from stonk_envs.policies.checkpoint import METADATA_MEMBER, load_policy, make_metadata, save_sb3, save_torch
from stonk_envs.policies.games import game_sizes
from stonk_envs.policies.torch_policy import MaskedMLP
from stonk_envs.training import run_state
from stonk_envs.training.config import load_config, to_yaml

OBS, ACTIONS = 163, 149  # Stocks & Bombs at 4 players, without the public memory
GAME = ["--game", "stocks_and_bombs"]


class Payload:
    """Unpickling this runs ``touch marker``."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return os.system, (f"touch {shlex.quote(self.marker)}",)


class Flat(gym.Env):
    observation_space = spaces.Box(-100, 100, (OBS,), np.float32)
    action_space = spaces.Discrete(ACTIONS)

    def reset(self, seed=None, options=None):
        return np.zeros(OBS, np.float32), {}

    def step(self, action):
        return np.zeros(OBS, np.float32), 0.0, True, False, {}

    def action_masks(self):
        return np.ones(ACTIONS, bool)


def metadata(kind):
    return make_metadata("stocks_and_bombs", 4, OBS, ACTIONS, {"memory": False}, kind)


@pytest.fixture
def marker(tmp_path):
    path = tmp_path / "code_ran"
    yield path
    assert not path.exists(), "the file's code ran"


@pytest.fixture(scope="module")
def sb3_zip(tmp_path_factory):
    """A sound SB3 model zip whose ``data`` member's pickled entries are replaced by the payload."""
    folder = tmp_path_factory.mktemp("sb3_payload")
    model = MaskablePPO("MlpPolicy", Flat(), n_steps=16, batch_size=16, policy_kwargs={"net_arch": [16]}, seed=0)
    path = save_sb3(model, folder / "policy.zip", metadata("sb3"))
    marker = folder / "code_ran"
    with zipfile.ZipFile(path) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    data = json.loads(members["data"])
    evil = base64.b64encode(pickle.dumps(Payload(marker))).decode()
    for value in data.values():
        if isinstance(value, dict) and ":serialized:" in value:
            value[":serialized:"] = evil
    members["data"] = json.dumps(data).encode()
    with zipfile.ZipFile(path, "w") as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return path, marker


def test_an_sb3_zip_with_a_pickled_payload_loads_without_running_it(sb3_zip):
    path, marker = sb3_zip
    policy = load_policy(path, "stocks_and_bombs", 4)
    assert policy.act(np.zeros((1, OBS), np.float32), np.ones((1, ACTIONS), np.int8), np.random.default_rng(0))[0] in \
        range(ACTIONS)
    assert not marker.exists()


def test_evaluate_plays_a_payload_sb3_zip_without_running_it(sb3_zip, tmp_path):
    path, marker = sb3_zip
    code = main(["evaluate", *GAME, "--players", str(path), "random", "random", "random", "--games", "2",
                 "--out", str(tmp_path / "out"), "--no-plot"])
    assert code == 0 and (tmp_path / "out" / "report.json").is_file()
    assert not marker.exists()


def test_play_seats_a_payload_sb3_zip_without_running_it(sb3_zip, tmp_path, monkeypatch):
    import stonk_envs.play.session as play_session

    path, marker = sb3_zip
    seated = []

    def stop(game, seats, *args):
        seated.append(seats)
        raise ValueError("stopped before play")

    monkeypatch.setattr(play_session, "Session", stop)
    assert main(["play", *GAME, "--opponents", str(path), "--num-players", "4",
                 "--record", str(tmp_path / "r.json")]) == 2
    assert seated and len(seated[0]) == 4
    assert not marker.exists()


def test_exploit_loads_a_payload_sb3_zip_without_running_it(sb3_zip, monkeypatch):
    import stonk_envs.evaluation.output as output

    path, marker = sb3_zip
    reached = []

    def stop(folder):
        reached.append(folder)
        raise ValueError("stopped before training")

    monkeypatch.setattr(output, "prepare_folder", stop)
    assert main(["exploit", "--policy", str(path), "--timesteps", "64"]) == 2
    assert reached
    assert not marker.exists()


def rllib_folder(folder, marker):
    """An RLlib module checkpoint folder whose class-and-arguments pickle is the payload."""
    folder.mkdir()
    (folder / METADATA_MEMBER).write_text(json.dumps(metadata("rllib")))
    (folder / "class_and_ctor_args.pkl").write_bytes(pickle.dumps(Payload(marker)))
    return folder


def test_an_rllib_checkpoint_is_refused_without_trust_and_runs_nothing(tmp_path, marker):
    folder = rllib_folder(tmp_path / "module", marker)
    with pytest.raises(ValueError, match=r"runs any code.*--trust-file"):
        load_policy(folder, "stocks_and_bombs", 4)


def test_evaluate_refuses_an_rllib_checkpoint_without_trust(tmp_path, marker, capsys):
    folder = rllib_folder(tmp_path / "module", marker)
    code = main(["evaluate", *GAME, "--players", str(folder), "random", "random", "random", "--games", "2",
                 "--out", str(tmp_path / "out"), "--no-plot"])
    assert code == 2
    assert "--trust-file" in capsys.readouterr().err


def payload_run(folder, marker):
    """A run folder whose newest checkpoint's state file holds the payload."""
    config = load_config(None, ["trainer=ppo", f"run_dir={folder}", "total_timesteps=1000"])
    folder.mkdir(exist_ok=True)
    (folder / "config.yaml").write_text(to_yaml(config))
    obs, actions = game_sizes("stocks_and_bombs", 4, {})
    meta = make_metadata("stocks_and_bombs", 4, obs, actions, {}, "ppo", extra={"num_timesteps": 100})
    save_torch(MaskedMLP(obs, actions, (8,)), run_state.policy_path(folder, 100), meta)
    state = run_state.state_path(folder, 100)
    torch.save({"step": 100, "league": Payload(marker)}, state)
    run_state.write_json(folder / run_state.LATEST, {"step": 100, "policy": run_state.policy_path(folder, 100).name,
                                                     "state": state.name})
    return folder


def test_a_payload_state_file_is_refused_and_runs_nothing(tmp_path, marker):
    folder = payload_run(tmp_path / "run", marker)
    with pytest.raises(ValueError, match="no intact checkpoint"):
        run_state.latest_checkpoint(folder)


def test_train_resume_refuses_a_payload_state_file(tmp_path, marker, capsys):
    folder = payload_run(tmp_path / "run", marker)
    assert main(["train", "--resume", str(folder)]) == 2
    assert "refused" in capsys.readouterr().err


def test_a_torch_policy_file_with_a_payload_is_refused(tmp_path, marker):
    with pytest.raises(ValueError, match="--trust-file"):
        load_policy(payload_torch_file(tmp_path / "policy.pt", marker))


def test_a_yaml_config_with_a_python_tag_runs_nothing(tmp_path, marker, capsys):
    config = tmp_path / "evil.yaml"
    config.write_text(f"game: !!python/object/apply:os.system [touch {shlex.quote(str(marker))}]\n")
    assert main(["train", "--config", str(config), f"run_dir={tmp_path / 'run'}"]) == 2
    assert "error:" in capsys.readouterr().err


def test_exploit_refuses_an_rllib_checkpoint_without_trust(tmp_path, marker, capsys):
    folder = rllib_folder(tmp_path / "module", marker)
    assert main(["exploit", "--policy", str(folder), "--timesteps", "64", "--out", str(tmp_path / "out")]) == 2
    assert "--trust-file" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def payload_torch_file(path, marker):
    net = MaskedMLP(OBS, ACTIONS, (8,))
    meta = {**metadata("torch"), "architecture": dict(net.hparams)}
    torch.save({"metadata": meta, "state_dict": net.state_dict(), "extra": Payload(marker)}, path)
    return path


def test_crossplay_refuses_a_payload_checkpoint_before_writing_anything(tmp_path, marker, capsys):
    (tmp_path / "run" / "checkpoints").mkdir(parents=True)
    payload_torch_file(tmp_path / "run" / "checkpoints" / "policy_0000000100.pt", marker)
    assert main(["crossplay", str(tmp_path / "run"), "--games", "4", "--out", str(tmp_path / "out")]) == 2
    assert "--trust-file" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_train_refuses_a_payload_eval_opponent_before_writing_anything(tmp_path, marker, capsys):
    opponent = payload_torch_file(tmp_path / "opponent.pt", marker)
    run = tmp_path / "run"
    assert main(["train", "trainer=ppo", f"run_dir={run}", "total_timesteps=64", f"eval.opponents=[{opponent}]"]) == 2
    assert "eval.opponents" in (err := capsys.readouterr().err) and "--trust-file" in err
    assert not run.exists()


def test_an_rllib_config_with_a_python_tag_runs_nothing(tmp_path, marker, capsys):
    config = tmp_path / "evil.yaml"
    config.write_text(f"game: !!python/object/apply:os.system [touch {shlex.quote(str(marker))}]\n")
    assert main(["train-rllib", "--config", str(config), f"run_dir={tmp_path / 'run'}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("stonk-envs train-rllib: error: ") and "is not valid YAML" in err and err.count("\n") == 1
    assert not (tmp_path / "run").exists()
