"""gymnasium.make_vec on the batched engine: spaces, masks after autoreset, opponents, league, errors."""

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import stonk_envs  # noqa: F401  (registers the ids)
from stonk_envs import registry
from stonk_envs.policies.base import Policy
from stonk_envs.vector.gym_vector import EngineVectorEnv

ID = registry.spec("stockpile").gym_id


def _play(envs, steps, rng):
    """Random legal play from ``envs.call("action_masks")`` (never all zero); yields each step's results."""
    for _ in range(steps):
        masks = np.array(envs.call("action_masks"))
        assert masks.shape == (envs.num_envs, envs.single_action_space.n)
        assert masks.any(axis=1).all(), "an all-zero mask"
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        yield envs.step(actions)


def test_make_vec_returns_the_engine_env():
    envs = gymnasium.make_vec(ID, num_envs=8, num_players=3)
    assert isinstance(envs.unwrapped, EngineVectorEnv)
    obs, info = envs.reset(seed=0)
    assert obs.shape == (8, *envs.single_observation_space.shape) and obs.dtype == np.float32
    assert info["action_mask"].shape == (8, envs.single_action_space.n)
    assert envs.single_observation_space == gymnasium.make(ID, num_players=3).observation_space


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_masks_are_never_all_zero_around_autoreset(mode):
    envs = gymnasium.make_vec(ID, num_envs=4, num_players=3, autoreset_mode=mode)
    envs.reset(seed=1)
    rng = np.random.default_rng(0)
    ended, after_end = 0, np.zeros(4, np.bool_)
    for _, rewards, terminated, _, info in _play(envs, 400, rng):
        np.testing.assert_array_equal(info["action_mask"].astype(bool), np.array(envs.call("action_masks")))
        if mode == AutoresetMode.NEXT_STEP:
            # the reset step: zero reward, not over, the first observation of the next game
            assert not terminated[after_end].any() and (rewards[after_end] == 0).all()
        else:
            assert all(info["final_obs"][i] is not None for i in np.flatnonzero(terminated))
        after_end = terminated.copy()
        ended += int(terminated.sum())
    assert ended > 0


def test_next_step_returns_final_then_first_observation():
    envs = EngineVectorEnv(num_envs=4, game="stockpile", num_players=3, seat=0)
    envs.reset(seed=3)
    rng = np.random.default_rng(1)
    for obs, _, terminated, _, _ in _play(envs, 400, rng):
        if terminated.any():
            i = int(np.flatnonzero(terminated)[0])
            final = obs[i].copy()
            first_of_next = envs.selfplay.learner_obs()[0][i]
            assert not np.array_equal(final, first_of_next)
            obs, _, terminated, _, _ = envs.step(np.array(envs.call("action_masks")).argmax(axis=1))
            np.testing.assert_array_equal(obs[i], first_of_next)
            return
    pytest.fail("no game ended")


class CountingPolicy(Policy):
    """Plays the first legal action and counts the seats it was asked for."""

    def __init__(self):
        self.seats = 0

    def act(self, observations, masks, rng):
        self.seats += len(observations)
        return np.asarray(masks).argmax(axis=1)


def test_league_players_fill_the_other_seats():
    first, second = CountingPolicy(), CountingPolicy()
    envs = EngineVectorEnv(num_envs=16, game="stockpile", num_players=3)
    envs.reset(seed=0)
    envs.set_league([first, second], [1.0, 0.0])
    list(_play(envs, 30, np.random.default_rng(0)))
    assert first.seats > 0 and second.seats == 0
    envs.set_opponents(second)
    list(_play(envs, 30, np.random.default_rng(0)))
    assert second.seats > 0


def test_rllib_layout():
    envs = EngineVectorEnv(num_envs=2, game="stockpile", num_players=3, layout="rllib")
    obs, _ = envs.reset(seed=0)
    assert set(obs) == {"observations", "action_mask"} and obs["action_mask"].dtype == np.float32
    assert envs.single_observation_space.contains({k: v[0] for k, v in obs.items()})


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_flat_layout_is_the_box_layout_then_the_mask(mode):
    box = EngineVectorEnv(num_envs=4, game="stockpile", num_players=3, seat=0, autoreset_mode=mode)
    flat = EngineVectorEnv(num_envs=4, game="stockpile", num_players=3, seat=0, layout="flat", autoreset_mode=mode)
    a = flat.single_action_space.n
    (obs, _), (joined, info) = box.reset(seed=2), flat.reset(seed=2)
    assert info == {} and joined.shape == (4, obs.shape[1] + a)
    rng, ended = np.random.default_rng(0), 0
    for _ in range(300):
        masks = np.array(box.call("action_masks"))
        np.testing.assert_array_equal(joined[:, :-a], obs)
        np.testing.assert_array_equal(joined[:, -a:], masks)
        assert all(flat.single_observation_space.contains(row) for row in joined)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        (obs, _, done, _, box_info), (joined, _, flat_done, _, info) = box.step(actions), flat.step(actions)
        np.testing.assert_array_equal(done, flat_done)
        for i in np.flatnonzero(done if mode == AutoresetMode.SAME_STEP else []):
            np.testing.assert_array_equal(info["final_obs"][i], np.concatenate([box_info["final_obs"][i], np.zeros(a)]))
        ended += int(done.sum())
    assert ended > 0


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="illegal_action"):
        EngineVectorEnv(num_envs=2, game="stockpile", illegal_action="void")
    with pytest.raises(ValueError, match="layout"):
        EngineVectorEnv(num_envs=2, game="stockpile", layout="tuple")
    envs = EngineVectorEnv(num_envs=2, game="stockpile", num_players=3)
    envs.reset(seed=0)
    illegal = (~np.array(envs.call("action_masks"))).argmax(axis=1)
    with pytest.raises(ValueError, match="illegal"):
        envs.step(illegal)
    with pytest.raises(ValueError, match="opponents"):
        envs.set_opponents(["random"] * 3)
