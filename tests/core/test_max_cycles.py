"""``max_cycles``: every agent is truncated after that many game steps, as PettingZoo defines it."""

import numpy as np
import pytest
from pettingzoo.test import max_cycles_test

from stonk_envs import stockpile_v1, stocks_and_bombs_v1, stonk_market_v1
from stonk_envs.core.negotiation import VOID_ILLEGAL, VOID_REASONS

REAL_TIME = [stocks_and_bombs_v1, stonk_market_v1]


@pytest.mark.parametrize("module", REAL_TIME, ids=lambda m: m.__name__)
def test_pettingzoo_max_cycles_test(module):
    # The test samples actions without masks: env() of a real-time game voids an illegal one.
    max_cycles_test(module)


@pytest.mark.parametrize("module", [stockpile_v1, *REAL_TIME], ids=lambda m: m.__name__)
def test_parallel_env_truncates_after_max_cycles(module):
    env = module.parallel_env(max_cycles=3)
    observations, _ = env.reset(seed=0)
    for step in range(3):
        actions = {a: env.action_space(a).sample(o["action_mask"]) for a, o in observations.items()}
        observations, _, terminations, truncations, _ = env.step(actions)
        assert not any(terminations.values())
        assert all(truncations.values()) == (step == 2)
    assert env.agents == []
    observations, _ = env.reset(seed=0)  # a reset starts the count again
    env.step({a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()})
    assert env.agents


def test_aec_env_truncates_stockpile_after_max_cycles_decisions():
    env = stockpile_v1.env(max_cycles=5)
    env.reset(seed=1)
    decisions = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
            continue
        decisions += 1
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert decisions == 5


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "4"])
def test_bad_max_cycles_is_refused(bad):
    with pytest.raises(ValueError, match="max_cycles must be"):
        stocks_and_bombs_v1.parallel_env(max_cycles=bad)


@pytest.mark.parametrize(
    "make",
    [lambda: stocks_and_bombs_v1.raw_env(illegal_action="void"), stocks_and_bombs_v1.env, stonk_market_v1.env],
    ids=["raw_env void", "stocks_and_bombs env()", "stonk_market env()"],
)
def test_aec_void_reports_an_illegal_action_and_plays_on(make):
    env = make()
    env.reset(seed=0)
    mask = env.observe("player_0")["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    env.step(illegal)
    for _agent in env.agents[1:]:
        env.step(0)
    assert env.infos["player_0"]["void"] == VOID_REASONS[VOID_ILLEGAL]
    assert "void" not in env.infos["player_1"]
    assert env.agents and not any(env.terminations.values())
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        stocks_and_bombs_v1.env(illegal_action="raise")


def test_stockpile_env_ends_the_game_for_an_illegal_action_by_default():
    env = stockpile_v1.env(num_players=3)
    env.reset(seed=0)
    mover = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(mover)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[mover] == -1
