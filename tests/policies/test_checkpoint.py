"""Saved policies: metadata, atomic files, identical play after reloading, clear refusals."""

import json
import zipfile

import gymnasium as gym
import numpy as np
import pytest
import torch
from gymnasium import spaces
from sb3_contrib import MaskablePPO

from stonk_envs.evaluation import evaluate
from stonk_envs.games.stocks_and_bombs import core
from stonk_envs.policies import RandomPolicy, make_player
from stonk_envs.policies.checkpoint import (
    METADATA_MEMBER,
    load_policy,
    make_metadata,
    read_metadata,
    save_sb3,
    save_torch,
)
from stonk_envs.policies.games import game_sizes
from stonk_envs.policies.sb3_policy import SB3Policy
from stonk_envs.policies.torch_policy import MaskedMLP, TorchPolicy

OBS, ACTIONS = 163, 149  # Stocks & Bombs at 4 players, without the public memory


def table_batch(num=32, seed=0):
    """Observations and masks of every seat along a few random 4-player games."""
    states = np.zeros(1, dtype=core.STATE_DTYPE)
    core.init(states[0], seed, 4, 100, 30, 12, 0)
    rng = np.random.default_rng(seed)
    obs, masks = np.zeros((num, OBS), np.float32), np.zeros((num, ACTIONS), np.int8)
    joint, rewards, voids = np.zeros(4, np.int64), np.zeros(4, np.float32), np.zeros(4, np.int8)
    for k in range(num):
        core.observe(states[0], k % 4, obs[k])
        core.legal_mask(states[0], k % 4, masks[k])
        if k % 4 == 3:
            for p in range(4):
                m = np.zeros(ACTIONS, np.int8)
                core.legal_mask(states[0], p, m)
                joint[p] = rng.choice(np.flatnonzero(m[:-1]))  # never STOP, so the round goes on
            core.step(states[0], joint, rewards, voids)
    return obs, masks


def metadata(**changes):
    fields = {
        "game": "stocks_and_bombs",
        "num_players": 4,
        "observation_size": OBS,
        "num_actions": ACTIONS,
        "env_config": {"memory": False},
        "kind": "test",
    }
    return make_metadata(**{**fields, **changes})


class Flat(gym.Env):
    """A stand-in env with the Stocks & Bombs spaces, only to build a model."""

    observation_space = spaces.Box(-100, 100, (OBS,), np.float32)
    action_space = spaces.Discrete(ACTIONS)

    def reset(self, seed=None, options=None):
        return np.zeros(OBS, np.float32), {}

    def step(self, action):
        return np.zeros(OBS, np.float32), 0.0, True, False, {}

    def action_masks(self):
        return np.ones(ACTIONS, bool)


@pytest.fixture
def net():
    torch.manual_seed(0)
    return MaskedMLP(OBS, ACTIONS, (32, 16))


@pytest.fixture
def model():
    return MaskablePPO("MlpPolicy", Flat(), n_steps=16, batch_size=16, seed=0, policy_kwargs={"net_arch": [16]})


def test_metadata_names_everything_a_loader_checks():
    meta = metadata(extra={"steps": 10})
    assert meta["format"] == "stonk_envs.policy/1"
    assert (meta["game"], meta["num_players"], meta["observation_size"], meta["num_actions"]) == (
        "stocks_and_bombs",
        4,
        OBS,
        ACTIONS,
    )
    assert meta["extra"] == {"steps": 10}
    assert set(meta["versions"]) == {"stonk_envs", "python", "numpy", "torch", "stable-baselines3", "sb3-contrib"}
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        metadata(game="chess")
    with pytest.raises(ValueError, match="num_actions must be a positive integer"):
        metadata(num_actions=0)
    with pytest.raises(ValueError, match="JSON-serialisable"):
        metadata(env_config={"x": object()})


def test_torch_policy_reloads_and_plays_identically(tmp_path, net):
    path = save_torch(net, tmp_path / "net.pt", metadata())
    assert [p.name for p in tmp_path.iterdir()] == ["net.pt"]  # no temporary file left behind
    assert read_metadata(path)["architecture"] == {"observation_size": OBS, "num_actions": ACTIONS, "hidden": [32, 16]}
    loaded = load_policy(path, game="stocks_and_bombs", num_players=4)
    assert isinstance(loaded, TorchPolicy)
    obs, masks = table_batch()
    original = TorchPolicy(net)
    for deterministic in (True, False):
        original.deterministic = loaded.deterministic = deterministic
        a = original.act(obs, masks, np.random.default_rng(5))
        b = loaded.act(obs, masks, np.random.default_rng(5))
        assert np.array_equal(a, b)
        assert masks[np.arange(len(a)), a].all()
    loaded.deterministic = original.deterministic = True
    seats = ["random", "random", "random"]
    reports = [
        evaluate("stocks_and_bombs", [p, *seats], 8, env_config={"memory": False}, progress=False)
        for p in (original, loaded)
    ]
    results = [[{**r, "name": None} for r in report.to_dict()["players"]] for report in reports]
    assert results[0] == results[1]


def test_the_same_network_and_metadata_save_to_the_same_bytes(tmp_path, net):
    meta = metadata()
    first = save_torch(net, tmp_path / "a" / "policy.zip", meta).read_bytes()
    second = save_torch(net, tmp_path / "b" / "policy.zip", meta).read_bytes()
    assert first == second
    assert {name.split("/")[0] for name in zipfile.ZipFile(tmp_path / "a" / "policy.zip").namelist()} == {"archive"}


def test_sb3_model_reloads_and_plays_identically(tmp_path, model):
    path = save_sb3(model, tmp_path / "model", metadata(kind="sb3"))
    assert path == tmp_path / "model.zip"
    assert [p.name for p in tmp_path.iterdir()] == ["model.zip"]
    with zipfile.ZipFile(path) as archive:
        assert json.loads(archive.read(METADATA_MEMBER))["algorithm"] == "MaskablePPO"
    loaded = load_policy(path, game="stocks_and_bombs", num_players=4)
    assert isinstance(loaded, SB3Policy)
    obs, masks = table_batch()
    expected, _ = model.predict(obs, action_masks=masks.astype(bool), deterministic=True)
    assert np.array_equal(loaded.act(obs, masks, np.random.default_rng(0)), expected)
    assert np.array_equal(SB3Policy(model).act(obs, masks, np.random.default_rng(0)), expected)
    assert isinstance(make_player(str(path), "stocks_and_bombs", 4), SB3Policy)


def test_a_file_for_another_game_or_seat_layout_is_refused(tmp_path, model, net):
    sb3 = save_sb3(model, tmp_path / "model.zip", metadata())
    plain = save_torch(net, tmp_path / "net.pt", metadata())
    for path in (sb3, plain):
        with pytest.raises(ValueError, match="is a policy for 'stocks_and_bombs', not for 'stockpile'"):
            load_policy(path, game="stockpile", num_players=4)
        with pytest.raises(ValueError, match="made for 4 players \\(its seat layout\\), not 5"):
            load_policy(path, game="stocks_and_bombs", num_players=5)
        with pytest.raises(ValueError, match="not for 'stonk_market'"):
            make_player(str(path), "stonk_market", 4)


def test_a_file_whose_sizes_do_not_match_its_game_is_refused(tmp_path):
    wrong = save_torch(MaskedMLP(OBS + 1, ACTIONS), tmp_path / "wrong.pt", metadata(observation_size=OBS + 1))
    with pytest.raises(ValueError, match=f"observation size {OBS + 1} does not match stocks_and_bombs at 4 players"):
        load_policy(wrong)
    actions = save_torch(MaskedMLP(OBS, 10), tmp_path / "actions.pt", metadata(num_actions=10))
    with pytest.raises(ValueError, match="action count 10 does not match"):
        load_policy(actions)
    lying = save_torch(MaskedMLP(OBS, ACTIONS, (8,)), tmp_path / "lying.pt", metadata())
    payload = torch.load(lying, weights_only=True)
    payload["state_dict"]["body.0.weight"] = torch.zeros(9, OBS)
    torch.save(payload, lying)
    with pytest.raises(ValueError, match="the weights do not fit the network"):
        load_policy(lying)


def test_a_policy_trained_without_memory_plays_games_with_it_and_not_the_reverse(tmp_path):
    wide, narrow = (game_sizes("stocks_and_bombs", 4, {"memory": m})[0] for m in (True, False))
    assert wide > narrow
    obs, masks = table_batch()
    long_obs = np.concatenate([obs, np.full((len(obs), wide - narrow), 7.0, np.float32)], axis=1)
    without = save_torch(MaskedMLP(narrow, ACTIONS, (8,)), tmp_path / "without.pt",
                         metadata(observation_size=narrow, env_config={"memory": False}))
    policy = load_policy(without, game="stocks_and_bombs", num_players=4)
    rng = np.random.default_rng(0)
    assert np.array_equal(policy.act(long_obs, masks, rng), policy.act(obs, masks, rng))
    with_memory = save_torch(MaskedMLP(wide, ACTIONS, (8,)), tmp_path / "with.pt",
                             metadata(observation_size=wide, env_config={"memory": True}))
    policy = load_policy(with_memory, game="stocks_and_bombs", num_players=4)
    with pytest.raises(ValueError, match=rf"trained on observations of {wide} entries \(with the public memory\) "
                       rf"and cannot read this game's {narrow}"):
        policy.act(obs, masks, rng)


@pytest.mark.parametrize("saved_version", [0, None, 2])
def test_a_file_for_another_observation_version_is_refused(tmp_path, net, saved_version):
    meta = metadata()
    assert meta["observation_version"] == 1
    if saved_version is None:
        del meta["observation_version"]  # files from before versioning carry no version: v0
    else:
        meta["observation_version"] = saved_version
    path = save_torch(net, tmp_path / "old.pt", meta)
    shown = 0 if saved_version is None else saved_version
    with pytest.raises(ValueError, match=rf"saved for stonk_envs/stocks_and_bombs-v{shown} observations.*has "
                       r"stonk_envs/stocks_and_bombs-v1.*retrain"):
        load_policy(path, game="stocks_and_bombs", num_players=4)


def test_missing_corrupt_and_foreign_files_are_refused(tmp_path):
    with pytest.raises(ValueError, match="no policy file at"):
        read_metadata(tmp_path / "absent.zip")
    corrupt = tmp_path / "corrupt.pt"
    corrupt.write_bytes(b"\x00not a policy" * 10)
    with pytest.raises(ValueError, match="not a stonk_envs policy file \\(corrupt or foreign\\)"):
        read_metadata(corrupt)
    foreign_zip = tmp_path / "foreign.zip"
    with zipfile.ZipFile(foreign_zip, "w") as archive:
        archive.writestr("data", "{}")
    with pytest.raises(ValueError, match="not a stonk_envs policy file"):
        load_policy(foreign_zip)
    foreign_torch = tmp_path / "foreign.pt"
    torch.save({"weights": torch.zeros(3)}, foreign_torch)
    with pytest.raises(ValueError, match="no metadata and state_dict"):
        load_policy(foreign_torch)
    tagged = tmp_path / "tagged.pt"
    torch.save({"metadata": {"format": "other/1"}, "state_dict": {}}, tagged)
    with pytest.raises(ValueError, match=r"no 'stonk_envs\.policy/1' metadata"):
        load_policy(tagged)
    broken = tmp_path / "broken.pt"
    torch.save({"metadata": {**metadata(), "num_players": "four"}, "state_dict": {}}, broken)
    with pytest.raises(ValueError, match="metadata field 'num_players' is missing or not a int"):
        load_policy(broken)


def test_only_supported_objects_are_saved(tmp_path):
    with pytest.raises(ValueError, match="save_torch saves a MaskedMLP"):
        save_torch(torch.nn.Linear(2, 2), tmp_path / "x.pt", metadata())
    with pytest.raises(ValueError, match="cannot save a RandomPolicy"):
        save_sb3(RandomPolicy(), tmp_path / "x.zip", metadata())
    assert list(tmp_path.iterdir()) == []
