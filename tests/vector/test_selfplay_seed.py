"""A view made with a seed deals the same games at its first reset, not only the same opponents."""

import numpy as np

from stonk_envs import vector
from stonk_envs.vector.gym_vector import EngineVectorEnv
from stonk_envs.vector.sb3_selfplay import SelfPlayVecEnv


def _sb3_trace(seed):
    venv = SelfPlayVecEnv(vector.make("stockpile", 3, num_players=4), seed=seed)
    trace = [venv.reset().copy()]
    for _ in range(5):
        trace.append(venv.step(venv.action_masks().argmax(axis=1))[0].copy())
    return np.stack(trace)


def test_two_sb3_views_with_one_seed_deal_identical_games():
    np.testing.assert_array_equal(_sb3_trace(7), _sb3_trace(7))
    assert not np.array_equal(_sb3_trace(7), _sb3_trace(8))


def test_the_gymnasium_view_deals_from_its_reset_seed():
    def first_obs(seed):
        return EngineVectorEnv(2, "stonk_market", num_players=4).reset(seed=seed)[0]

    np.testing.assert_array_equal(first_obs(3), first_obs(3))
    assert not np.array_equal(first_obs(3), first_obs(4))
