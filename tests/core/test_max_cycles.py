"""``max_cycles``: every agent is truncated after that many game steps, as PettingZoo defines it."""

import types

import numpy as np
import pytest
from pettingzoo.test import max_cycles_test

from stonk_envs import stockpile_v0, stocks_and_bombs_v0, stonk_market_v0
from stonk_envs.core.negotiation import VOID_ILLEGAL, VOID_REASONS

REAL_TIME = [stocks_and_bombs_v0, stonk_market_v0]


@pytest.mark.parametrize("module", REAL_TIME, ids=lambda m: m.__name__)
def test_pettingzoo_max_cycles_test(module):
    # The test samples actions without masks, so illegal actions are void rather than ending the game.
    max_cycles_test(
        types.SimpleNamespace(
            parallel_env=module.parallel_env,
            env=lambda **kw: module.env(illegal_action="void", **kw),
        )
    )


@pytest.mark.parametrize("module", [stockpile_v0, *REAL_TIME], ids=lambda m: m.__name__)
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
    env = stockpile_v0.env(max_cycles=5)
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
        stocks_and_bombs_v0.parallel_env(max_cycles=bad)


def test_aec_void_reports_an_illegal_action_and_plays_on():
    env = stocks_and_bombs_v0.raw_env(illegal_action="void")
    env.reset(seed=0)
    mask = env.observe("player_0")["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    env.step(illegal)
    for _agent in env.agents[1:]:
        env.step(0)
    assert env.infos["player_0"]["void"] == VOID_REASONS[VOID_ILLEGAL]
    assert "void" not in env.infos["player_1"]
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        stocks_and_bombs_v0.env(illegal_action="raise")
