"""The AEC env's standard wrappers read the per-step attributes straight from the base env."""

import pytest
from pettingzoo.utils import wrappers

from stonk_envs import stockpile_v1, stocks_and_bombs_v1
from stonk_envs.core.adapter import StonkAECEnv

HOT = ("agents", "agent_selection", "terminations", "truncations", "rewards", "infos", "_cumulative_rewards")


@pytest.mark.parametrize(
    ("make", "terminates"),
    [
        (stocks_and_bombs_v1.env, False),  # a real-time game voids an illegal action by default
        (lambda: stocks_and_bombs_v1.env(illegal_action="terminate"), True),
        (stockpile_v1.env, True),  # a turn-based game ends the game for it by default
    ],
    ids=["real-time default", "real-time terminate", "turn-based default"],
)
def test_wrapped_env_is_the_standard_wrapper_stack(make, terminates):
    env = make()
    assert isinstance(env, wrappers.OrderEnforcingWrapper)
    assert isinstance(env.env, wrappers.AssertOutOfBoundsWrapper)
    if terminates:
        assert isinstance(env.env.env, wrappers.TerminateIllegalWrapper)
    else:
        assert isinstance(env.env.env, StonkAECEnv)
    assert str(env) == env.unwrapped.metadata["name"]


def test_reads_before_reset_raise_as_before():
    env = stocks_and_bombs_v1.env()
    for name in ("agents", "agent_selection", "terminations", "rewards", "num_agents"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)


def test_every_layer_sees_the_base_env_values_as_they_change():
    env = stocks_and_bombs_v1.env(num_players=4, illegal_action="terminate")
    env.reset(seed=0)
    base = env.unwrapped
    for _ in range(5):
        env.step(0)
        for layer in (env, env.env, env.env.env):
            for name in HOT:
                assert getattr(layer, name) is getattr(base, name)
    assert env.agent_selection == "player_1"
    # an illegal move (ACCEPT with no proposal open) still ends the game: -1 to the mover
    env.step(147)
    assert all(env.terminations.values())
    assert env.rewards["player_1"] == -1
