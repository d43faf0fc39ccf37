"""Property-based fuzzing of the public entry points (Hypothesis, bounded example counts).

Any input gives either a correct result or a ``ValueError``/``TypeError`` naming the problem,
and a refused call changes nothing. A game that is built plays with exactly the settings given.
"""

import argparse
import dataclasses
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stonk_envs import cli, stockpile_v1, stocks_and_bombs_v1, stonk_market_v1, vector
from stonk_envs.policies.checkpoint import load_policy

MODULES = {"stockpile": stockpile_v1, "stonk_market": stonk_market_v1, "stocks_and_bombs": stocks_and_bombs_v1}
FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)

STATE_FIELDS = {
    "stonk_market": {"num_players": "n", "tick_cap": "tick_cap", "num_rounds": "num_rounds",
                     "stonks_bonus": "stonks_bonus", "reward_scale": "reward_scale"},
    "stocks_and_bombs": {"num_players": "n", "tick_cap": "tick_cap", "round_cap": "round_cap",
                         "points_to_win": "points_to_win"},
    "stockpile": {"num_players": "n", "starting_cash": "start_cash", "max_price": "max_price",
                  "split_bonus": "split_bonus", "action_move": "action_move", "reward_scale": "reward_scale"},
}
"""Options and the state record fields that hold them: what a built game must play with."""

numbers = st.one_of(
    st.integers(-10, 10),
    st.integers(-(2**70), 2**70),
    st.sampled_from([2**31 - 1, 2**31, 2**32 + 3, 2**63, -(2**31)]),
    st.integers(-5, 400).map(np.int64),
    st.integers(0, 255).map(np.uint8),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.sampled_from([np.bool_(True), None, "4", "win_loss", "score_diff", [], (0, 1, 3), b"\x00"]),
)


def names_the_problem(error, names):
    """The message names one of ``names`` (or says which agent or action is wrong)."""
    text = str(error)
    return any(re.search(rf"\b{re.escape(str(name))}\b", text) for name in names)


def option_values(game):
    fields = [f.name for f in dataclasses.fields(MODULES[game].CONFIG)]
    return st.dictionaries(st.sampled_from([*fields, "bombs"]), numbers, max_size=3)


@FUZZ
@given(game=st.sampled_from(sorted(MODULES)), data=st.data())
def test_constructors_build_exactly_the_game_asked_for_or_name_the_problem(game, data):
    options = data.draw(option_values(game))
    try:
        env = MODULES[game].parallel_env(**options)
    except (ValueError, TypeError) as error:
        assert names_the_problem(error, options), (options, error)
        return
    env.reset(seed=0)
    record, config = env.table.states[0], env.table.game.config
    for option, field in STATE_FIELDS[game].items():
        assert record[field] == getattr(config, option), (option, record[field], getattr(config, option))
        if option in options:
            assert getattr(config, option) == options[option]
    obs, *_ = env.step({a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in env.reset(seed=1)[0].items()
                        if o["action_mask"].any()})
    assert all(env.observation_space(a).contains(o) for a, o in obs.items())


@FUZZ
@given(
    name=st.sampled_from([*MODULES, "chess", 3]),
    num_envs=st.one_of(st.integers(-3, 6), st.sampled_from([2**40, 2.0, True, np.int32(3), "2"])),
    parallel=st.sampled_from([None, True, False, np.bool_(False), "no", 0, 1, 0.5]),
    observe=st.sampled_from(["all", "actors", "none", None, 1]),
)
def test_vector_make_builds_or_names_the_problem(name, num_envs, parallel, observe):
    try:
        engine = vector.make(name, num_envs, parallel=parallel, observe=observe)
    except (ValueError, TypeError) as error:
        assert names_the_problem(error, ["game", "num_envs", "parallel", "observe"]), error
        return
    assert engine.num_envs == num_envs and engine.observe == observe
    assert engine.parallel == (engine.num_envs >= 256 if parallel is None else bool(parallel))
    obs, masks = engine.reset(seed=0)
    assert obs.shape[0] == masks.shape[0] == num_envs


actions = st.one_of(
    st.integers(-3, 400),
    st.integers(-(2**66), 2**66),
    st.integers(0, 400).map(np.int16),
    st.sampled_from([np.uint64(2**64 - 1), True, np.bool_(False), 0.0, 1.5, float("nan"), "1", None, [1]]),
)


@FUZZ
@given(game=st.sampled_from(sorted(MODULES)), strict=st.booleans(), data=st.data())
def test_parallel_step_steps_or_refuses_and_changes_nothing(game, strict, data):
    env = MODULES[game].parallel_env(illegal_action="raise" if strict else "void")
    env.reset(seed=data.draw(st.integers(0, 2**63 - 1)))
    keys = st.sampled_from([*env.agents, "player_9", 0, None])
    chosen = data.draw(st.dictionaries(keys, actions, max_size=6))
    before, acting = env.table.states.tobytes(), env.acting_agents
    try:
        env.step(chosen)
    except (ValueError, TypeError) as error:
        assert env.table.states.tobytes() == before
        assert "action" in str(error) or "agent" in str(error), error
        return
    assert all(agent in chosen for agent in acting)  # a seat not on turn may leave out its no-op


@FUZZ
@given(game=st.sampled_from(sorted(MODULES)), data=st.data())
def test_aec_step_steps_or_refuses_and_changes_nothing(game, data):
    env = MODULES[game].raw_env()
    env.reset(seed=data.draw(st.integers(0, 1000)))
    for _ in range(3):
        action = data.draw(actions)
        before, agent = env.table.states.tobytes(), env.agent_selection
        try:
            env.step(action)
        except (ValueError, TypeError) as error:
            assert env.table.states.tobytes() == before and env.agent_selection == agent
            assert "action" in str(error), error
            continue
        assert action is not None and env.observe(agent) is not None


@FUZZ
@given(
    game=st.sampled_from(sorted(MODULES)),
    dtype=st.sampled_from([np.int64, np.int8, np.uint64, np.int32, np.float32, np.bool_]),
    shape_change=st.sampled_from([0, 0, 0, 1, -1]),
    fill=st.sampled_from(["random", "legal", "zeros", "huge"]),
    active=st.sampled_from([None, "all", "some", 0.5, "ints"]),
)
def test_engine_step_steps_or_refuses_and_changes_nothing(game, dtype, shape_change, fill, active):
    engine = vector.make(game, 3)
    engine.reset(seed=0)
    legal = engine.random_actions().copy()
    rng = np.random.default_rng(0)
    values = {"random": rng.integers(-2, engine.num_actions + 2, legal.shape), "legal": legal,
              "zeros": np.zeros(legal.shape, np.int64), "huge": np.full(legal.shape, 2**62)}[fill]
    given_actions = values.astype(dtype)
    if shape_change:
        given_actions = np.resize(given_actions, (3 + shape_change, legal.shape[1]))
    flags = {None: None, "all": np.ones(3, bool), "some": np.array([True, False, True]), 0.5: 0.5,
             "ints": np.ones(3, np.int64)}[active]
    before = engine.states.tobytes()
    try:
        engine.step(given_actions, active=flags)
    except (ValueError, TypeError) as error:
        assert engine.states.tobytes() == before
        assert names_the_problem(error, ["actions", "action", "active"]), error
        return
    assert dtype not in (np.float32, np.bool_) and shape_change == 0 and active not in (0.5, "ints")


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory):
    from stonk_envs.policies.checkpoint import make_metadata, save_torch
    from stonk_envs.policies.games import game_sizes
    from stonk_envs.policies.torch_policy import MaskedMLP

    obs, acts = game_sizes("stonk_market", 4, {})
    path = tmp_path_factory.mktemp("policy") / "policy.pt"
    save_torch(MaskedMLP(obs, acts, (8,)), path, make_metadata("stonk_market", 4, obs, acts, {}, "test"))
    return path


@FUZZ
@given(
    damage=st.one_of(st.binary(max_size=300), st.integers(0, 4000), st.just(None)),
    game=st.sampled_from([None, "stonk_market", "stockpile", "chess", 1]),
    num_players=st.sampled_from([None, 4, 5, 0, np.int64(4), "4"]),
)
def test_load_policy_loads_or_names_the_problem(policy_file, tmp_path_factory, damage, game, num_players):
    path = tmp_path_factory.mktemp("fuzz") / "candidate.pt"
    data = policy_file.read_bytes()
    if isinstance(damage, bytes):
        data = damage
    elif isinstance(damage, int):
        data = data[:damage]
    path.write_bytes(data)
    try:
        policy = load_policy(path, game=game, num_players=num_players)
    except (ValueError, TypeError) as error:
        assert str(path) in str(error) or "game" in str(error) or "num_players" in str(error), error
        return
    assert data == policy_file.read_bytes() and game in (None, "stonk_market") and num_players in (None, 4)
    assert policy is not None


TOKENS = ["--games", "--seed", "--seconds", "--num-players", "--out", "--repeats", "--batch-sizes", "--workers",
          "--every", "--env", "--game", "--players", "--batch", "--resume", "--config", "1", "0", "-3", "nan", "inf",
          "1e999", "2", "x", "stonk_market", "chess", "tick_cap=5", "=", "random", "heuristic", "", "\x00", "9" * 30]


@FUZZ
@given(command=st.sampled_from(sorted(cli.SUBCOMMANDS)), rest=st.lists(st.sampled_from(TOKENS), max_size=6))
def test_cli_parsing_accepts_or_exits_with_a_usage_error(command, rest):
    parser = cli.build_parser()
    try:
        args = parser.parse_args([command, *rest])
    except SystemExit as stop:
        assert stop.code == 2
        return
    assert isinstance(args, argparse.Namespace) and args.command == command
    for key in ("seed", "games", "seconds", "every", "workers", "repeats", "batch"):
        value = getattr(args, key, None)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            assert value >= 0 and np.isfinite(value), (key, value)
