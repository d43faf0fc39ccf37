"""Clear errors for bad input: illegal actions through the raw API, bad config values."""

import numpy as np
import pytest

from stonk_envs import stocks_and_bombs_v1
from tests.stocks_and_bombs.scripting import accept, play, propose, table


def snapshot(env):
    return env.state().copy(), {a: env.observe(a)["observation"].copy() for a in env.possible_agents}


@pytest.mark.parametrize(
    ("action_of", "message"),
    [
        (
            lambda n: propose(0, (1, 1), (2, 1), n),
            r"player_0: action \d+ \(propose: give c1S, get c2S\).*does not hold c1S",
        ),
        (lambda n: propose(0, (0, 1), (0, 2), n), r"already holds c0M"),
        (lambda n: accept(0, 2, n), r"accept player_2's proposal\) is illegal: player_2 has no open proposal"),
        (lambda n: 10_000, r"player_0: action 10000 is outside the action space 0\.\.148"),
        (lambda n: 1.5, r"action must be an integer"),
    ],
)
def test_raw_env_raises_and_changes_nothing(action_of, message):
    env = stocks_and_bombs_v1.raw_env(num_players=4)
    env.reset(seed=1)
    before_state, before_obs = snapshot(env)
    with pytest.raises(ValueError, match=message):
        env.step(action_of(4))
    after_state, after_obs = snapshot(env)
    assert np.array_equal(before_state, after_state)
    assert all(np.array_equal(before_obs[a], after_obs[a]) for a in before_obs)
    assert env.agent_selection == "player_0"
    env.step(0)  # the env is still usable and the turn has not moved
    assert env.agent_selection == "player_1"


def test_raw_env_names_an_accept_addressed_to_someone_else():
    env = stocks_and_bombs_v1.raw_env(num_players=4)
    env.reset(seed=1)
    for action in (propose(0, (0, 1), (1, 1), 4), 0, 0, 0, 0, 0):
        env.step(action)
    assert env.agent_selection == "player_2"
    with pytest.raises(ValueError, match="player_0's proposal is addressed to player_1"):
        env.step(accept(2, 0, 4))


def test_parallel_void_policy_reports_illegal_actions_in_info():
    env = stocks_and_bombs_v1.parallel_env(num_players=4)
    env.reset(seed=0)
    _, _, _, _, infos = env.step({"player_0": propose(0, (1, 1), (2, 1), 4), "player_1": 0, "player_2": 0,
                                  "player_3": 0})
    assert infos["player_0"] == {"void": "the action was illegal when it was submitted"}


def test_parallel_raise_policy_changes_nothing():
    env, states = table()
    before = states.copy()
    with pytest.raises(ValueError, match=r"player_2: action .* does not hold c0S"):
        play(env, [0, 0, propose(2, (0, 1), (1, 1), 4), 0])
    assert before.tobytes() == states.tobytes()


def test_parallel_missing_action_is_an_error():
    env, _ = table()
    with pytest.raises(ValueError, match="player_3 may act this step but no action was given"):
        env.step({"player_0": 0, "player_1": 0, "player_2": 0})


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"num_players": 3}, r"num_players must be 4\.\.6, got 3"),
        ({"num_players": "4"}, "num_players must be an integer"),
        ({"tick_cap": 0}, r"tick_cap must be 1\.\.2147483647, got 0"),
        ({"reward_mode": "points"}, "reward_mode must be one of"),
        ({"tick_limit": 5}, r"unknown option\(s\) \['tick_limit'\]"),
        ({"render_mode": "rgb"}, "render_mode must be one of"),
    ],
)
def test_bad_config_is_a_clear_error(config, message):
    with pytest.raises(ValueError, match=message):
        stocks_and_bombs_v1.raw_env(**config)
