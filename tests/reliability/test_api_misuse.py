"""Misusing the AEC and Parallel APIs gets a clear error and changes nothing."""

import numpy as np
import pytest

from stonk_envs import stockpile_v0, stocks_and_bombs_v0, stonk_market_v0

MODULES = [stockpile_v0, stonk_market_v0, stocks_and_bombs_v0]


def finished_aec(make):
    env = make(num_players=4) if make is not stocks_and_bombs_v0.env else make()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
@pytest.mark.parametrize("wrapped", [False, True], ids=["raw_env", "env"])
def test_aec_misuse(module, wrapped):
    make = module.env if wrapped else module.raw_env
    env = make()
    with pytest.raises((ValueError, AttributeError), match="before reset"):
        env.step(0)
    with pytest.raises((ValueError, AttributeError), match="before reset"):
        env.last()
    env.reset(seed=0)
    for bad in (True, np.bool_(False), 0.5, "0", [0], np.zeros(2, np.int64)):
        with pytest.raises(TypeError, match=r"action must be an integer or None, got"):
            env.step(bad)
    with pytest.raises(ValueError, match=r"no agent 'player_9'"):
        env.unwrapped.observe("player_9")
    env = finished_aec(make)
    for call in (lambda: env.step(0), lambda: env.step(None), env.last):
        with pytest.raises(ValueError, match=r"called after the game ended .* call reset\(\) first"):
            call()
    env.reset(seed=1)
    assert env.agents and env.last()[0]["action_mask"].any()


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_parallel_misuse(module):
    env = module.parallel_env()
    with pytest.raises(ValueError, match=r"step\(\) called before reset\(\)"):
        env.step({})
    observations, _ = env.reset(seed=0)
    before = env.table.states.tobytes()
    legal = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items() if o["action_mask"].any()}
    with pytest.raises(ValueError, match=r"actions name no agent of this game: \['player_7'\]"):
        env.step({**legal, "player_7": 0})
    with pytest.raises(ValueError, match=r"actions name no agent of this game: \[0\]"):
        env.step({**legal, 0: 0})
    with pytest.raises(TypeError, match=r"actions must be a dict from agent name to action, got \[0, 0\]"):
        env.step([0, 0])
    with pytest.raises(ValueError, match=r"may act this step but no action was given"):
        env.step({})
    strict = module.parallel_env(illegal_action="raise")
    strict.reset(seed=0)
    acting = next(iter(legal))
    for bad in (True, 0.5, np.uint64(2**64 - 1)):
        with pytest.raises(ValueError, match=rf"{acting}: action"):
            strict.step({**legal, acting: bad})
    assert env.table.states.tobytes() == before
    with pytest.raises(ValueError, match=r"illegal_action must be one of"):
        module.parallel_env(illegal_action="ignore")


def test_a_huge_unsigned_action_is_reported_as_given():
    env = stocks_and_bombs_v0.raw_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"action 18446744073709551615 is outside 0\.\.148"):
        env.step(np.uint64(2**64 - 1))
