"""Misusing the AEC and Parallel APIs gets a clear error and changes nothing."""

import subprocess
import sys

import numpy as np
import pytest

from stonk_envs import stockpile_v1, stocks_and_bombs_v1, stonk_market_v1

MODULES = [stockpile_v1, stonk_market_v1, stocks_and_bombs_v1]


def finished_aec(make):
    env = make(num_players=4) if make is not stocks_and_bombs_v1.env else make()
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


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
@pytest.mark.parametrize(("make", "policy"), [("raw_env", "raise"), ("raw_env", "void"), ("env", "terminate"),
                                              ("env", "void")])
def test_aec_step_none_for_an_agent_in_play_is_refused_and_changes_nothing(module, make, policy):
    env = getattr(module, make)(illegal_action=policy)
    env.reset(seed=0)
    agent = env.agent_selection
    before = env.unwrapped.table.states.tobytes()
    with pytest.raises(ValueError, match=rf"{agent}: action None is only for an agent that is done; {agent} is in "
                                         r"play and must act with an integer of the action space"):
        env.step(None)
    assert env.unwrapped.table.states.tobytes() == before and env.agent_selection == agent
    assert not any(env.terminations.values()) and not any(env.truncations.values())
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))  # and the game goes on


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
@pytest.mark.parametrize("policy", ["void", "raise"])
def test_parallel_step_none_for_a_seat_that_acts_is_refused_and_changes_nothing(module, policy):
    env = module.parallel_env(illegal_action=policy)
    observations, _ = env.reset(seed=0)
    legal = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}
    acting = env.acting_agents[-1]
    before = env.table.states.tobytes()
    with pytest.raises(ValueError, match=rf"{acting} may act this step but its action is None"):
        env.step({**legal, acting: None})
    assert env.table.states.tobytes() == before


def test_parallel_step_none_for_a_seat_that_does_not_act_is_ignored():
    env = stockpile_v1.parallel_env(illegal_action="raise")
    observations, _ = env.reset(seed=0)
    assert env.acting_agents == ["player_0"]
    acting = int(np.flatnonzero(observations["player_0"]["action_mask"])[0])
    _, _, _, _, infos = env.step({"player_0": acting, "player_1": None})
    assert "void" not in infos["player_0"]


def test_step_none_for_an_agent_in_play_is_refused_under_python_optimize():
    script = """
from stonk_envs import stockpile_v1, stocks_and_bombs_v1, stonk_market_v1
for module in (stockpile_v1, stonk_market_v1, stocks_and_bombs_v1):
    for env in (module.env(), module.env(illegal_action="void"), module.raw_env(illegal_action="void")):
        env.reset(seed=0)
        try:
            env.step(None)
        except ValueError as error:
            print(error)
    parallel = module.parallel_env()
    parallel.reset(seed=0)
    try:
        parallel.step(dict.fromkeys(parallel.agents))
    except ValueError as error:
        print(error)
"""
    done = subprocess.run([sys.executable, "-O", "-c", script], capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    assert len(lines) == 12, done.stdout + done.stderr
    assert all("player_0: action None is only for an agent that is done" in line or
               "player_0 may act this step but its action is None" in line for line in lines), lines


def test_a_huge_unsigned_action_is_reported_as_given():
    env = stocks_and_bombs_v1.raw_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"action 18446744073709551615 is outside the action space 0\.\.148"):
        env.step(np.uint64(2**64 - 1))


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_render_and_state_before_reset_are_refused_not_drawn_from_an_empty_record(module):
    for env in (module.raw_env(render_mode="ansi"), module.parallel_env(render_mode="ansi")):
        for call in (env.render, env.state):
            with pytest.raises(ValueError, match=r"called before reset\(\)"):
                call()
        env.reset(seed=0)
        assert env.render() and env.state().any()


def test_engine_state_misuse():
    from stonk_envs import vector

    engine = vector.make("stonk_market", 2)
    with pytest.raises(ValueError, match=r"state_vectors\(\) called before reset\(\)"):
        engine.state_vectors()
    engine.reset(seed=0)
    saved = engine.get_state()
    for bad in ({}, None, {"game": "stonk_market"}, {**saved, "arrays": {}}):
        with pytest.raises(ValueError, match=r"not an engine state saved by get_state\(\)"):
            engine.set_state(bad)
    before = engine.states.copy()
    engine.set_state(saved)
    assert engine.states.tobytes() == before.tobytes()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"num_games": np.int64(0)}, r"num_games must be 1\.\.1000000000, got 0"),
        ({"seed": -1}, r"seed must be 0\.\.\d+, got -1"),
        ({"seed": 1.5}, r"seed must be an integer"),
        ({"workers": 0}, r"workers must be 1\.\.1024, got 0"),
        ({"players": "random"}, r"players must be a list of player specs or Policy objects, got 'random'"),
        ({"env_config": [1]}, r"env_config must be a dict of game options, got \[1\]"),
        ({"env_config": {"tick_cap": 2**32 + 3}}, r"tick_cap must be 1\.\.2147483647, got 4294967299"),
    ],
)
def test_evaluate_arguments_are_checked_before_any_game(arguments, message):
    from stonk_envs.evaluation import evaluate, league

    call = {"game": "stonk_market", "players": ["random"] * 4, "num_games": 2, "progress": False, **arguments}
    for play in (evaluate, league):
        with pytest.raises(ValueError, match=message):
            play(**call)


def test_evaluate_takes_numpy_integers():
    from stonk_envs.evaluation import evaluate

    report = evaluate("stonk_market", ["random"] * 4, np.int64(4), seed=np.int64(1), workers=np.int8(1), progress=False)
    assert report.num_games == 4 and report.seed == 1 and type(report.seed) is int
