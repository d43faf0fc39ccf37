"""Every game option, engine option and seed is checked once for type and range (issue probes and more)."""

import numpy as np
import pytest

from stonk_envs import stockpile_v1, stocks_and_bombs_v1, stonk_market_v1, vector
from stonk_envs.core.validation import INT32_MAX, OptionTypeError

MODULES = {"stockpile": stockpile_v1, "stonk_market": stonk_market_v1, "stocks_and_bombs": stocks_and_bombs_v1}


@pytest.mark.parametrize(
    ("game", "options", "message"),
    [
        # values the int32 state record cannot hold were once stored wrapped around
        ("stonk_market", {"tick_cap": 2**32 + 3}, r"tick_cap must be 1\.\.2147483647, got 4294967299"),
        ("stonk_market", {"num_rounds": 2**32 + 1}, r"num_rounds must be 1\.\.2147483647, got 4294967297"),
        ("stonk_market", {"stonks_bonus": 2**31}, r"stonks_bonus must be 0\.\.\d+, got 2147483648"),
        ("stonk_market", {"reward_scale": 2**31}, r"reward_scale must be 1\.\.2147483647, got 2147483648"),
        ("stonk_market", {"reward_scale": 2**32}, r"reward_scale must be 1\.\.2147483647, got 4294967296"),
        ("stonk_market", {"reward_scale": float("inf")}, r"reward_scale must be an integer .*, got inf"),
        ("stonk_market", {"close_weight": -0.5}, r"close_weight must be a finite number .*got -0\.5"),
        ("stonk_market", {"close_weight": float("nan")}, r"close_weight must be a finite number .*got nan"),
        ("stonk_market", {"num_rounds": 2**30, "stonks_bonus": 5}, r"num_rounds \* \(122 \+ stonks_bonus\)"),
        ("stocks_and_bombs", {"points_to_win": 2**32 + 1}, r"points_to_win must be 1\.\.\d+, got 4294967297"),
        ("stocks_and_bombs", {"tick_cap": 2**31}, r"tick_cap must be 1\.\.2147483647, got 2147483648"),
        ("stocks_and_bombs", {"round_cap": -1}, r"round_cap must be 1\.\.2147483647, got -1"),
        ("stockpile", {"reward_scale": float("inf")}, r"reward_scale must be a finite number .*got inf"),
        ("stockpile", {"reward_scale": float("nan")}, r"reward_scale must be a finite number .*got nan"),
        ("stockpile", {"reward_scale": 1e-300}, r"reward_scale must be a finite number \(0\.001\.\.1"),
        ("stockpile", {"reward_scale": True}, r"reward_scale must be a number, got True"),
        ("stockpile", {"rounds": 2**40}, r"rounds must be 1\.\.1000"),
        ("stockpile", {"bid_values": "0123"}, r"bid_values must be a tuple"),
        ("stockpile", {"bid_values": (0, 1.5)}, r"each of bid_values must be an integer"),
        # a set has no order: refused even when it happens to iterate in order
        ("stockpile", {"bid_values": {0, 1, 3}}, r"bid_values must be a tuple or list of 2\.\.16 integers, got "
                                                 r"\{0, 1, 3\}; a set has no order"),
        ("stockpile", {"bid_values": {0, 10, 3}}, r"got \{0, 10, 3\}; a set has no order"),
        ("stockpile", {"bid_values": frozenset({0, 1})}, r"got frozenset\(\{0, 1\}\); a set has no order"),
        ("stockpile", {"bid_values": {0: 1, 1: 2}}, r"bid_values must be a tuple or list .*, got \{0: 1, 1: 2\}$"),
        ("stockpile", {"bid_values": [0]}, r"bid_values must be a tuple or list of 2\.\.16 integers, got 1: \[0\]"),
        # type slips
        ("stocks_and_bombs", {"num_players": True}, r"num_players must be an integer \(4\.\.6\), got True"),
        ("stocks_and_bombs", {"num_players": 4.0}, r"num_players must be an integer \(4\.\.6\), got 4\.0"),
        ("stonk_market", {"num_players": "4"}, r"num_players must be an integer \(3\.\.6\), got '4'"),
        ("stonk_market", {"reward_mode": ["win_loss"]}, r"reward_mode must be one of"),
        ("stockpile", {"reward_mode": "WIN_LOSS"}, r"reward_mode must be one of \['win_loss'"),
        ("stockpile", {"tick_cap": 5}, r"unknown option\(s\) \['tick_cap'\]"),
    ],
)
def test_a_bad_option_names_itself_its_value_and_its_range(game, options, message):
    for make in (MODULES[game].parallel_env, MODULES[game].raw_env, lambda **o: vector.make(game, 2, **o)):
        with pytest.raises(ValueError, match=message):
            make(**options)


def test_type_errors_are_also_type_errors():
    with pytest.raises(TypeError):
        stocks_and_bombs_v1.parallel_env(num_players="4")
    assert issubclass(OptionTypeError, ValueError) and issubclass(OptionTypeError, TypeError)


@pytest.mark.parametrize("game", sorted(MODULES))
def test_numpy_integers_work_wherever_python_ints_do(game):
    module = MODULES[game]
    n = {"stockpile": 4, "stonk_market": 4, "stocks_and_bombs": 4}[game]
    env = module.parallel_env(num_players=np.int64(n), render_seat=np.int32(1), render_mode="ansi")
    assert env.table.game.config.num_players == n and type(env.table.game.config.num_players) is int
    obs_np, _ = env.reset(seed=np.int64(7))
    obs_py, _ = module.parallel_env(num_players=n).reset(seed=7)
    for agent in obs_py:
        np.testing.assert_array_equal(obs_np[agent]["observation"], obs_py[agent]["observation"])
    aec = module.raw_env(num_players=np.int8(n))
    aec.reset(seed=np.uint64(3))
    engine = vector.make(game, np.int64(2), num_players=np.int16(n))
    engine.reset(seed=np.int64(5))
    assert engine.num_envs == 2 and engine.config == module.CONFIG(num_players=n)


@pytest.mark.parametrize("bids", [(0, 2, 5), [0, 2, 5], np.array([0, 2, 5], dtype=np.int16)],
                         ids=["tuple", "list", "array"])
def test_bid_values_in_any_ordered_form_are_stored_as_a_tuple_of_ints(bids):
    config = stockpile_v1.CONFIG(bid_values=bids)
    assert config.bid_values == (0, 2, 5) and all(type(v) is int for v in config.bid_values)
    assert config == stockpile_v1.CONFIG(bid_values=(0, 2, 5))


def test_the_largest_counters_the_state_holds_play_as_given():
    env = stonk_market_v1.parallel_env(tick_cap=INT32_MAX, num_rounds=INT32_MAX // 200, stonks_bonus=50)
    env.reset(seed=0)
    record = env.table.states[0]
    assert (record["tick_cap"], record["num_rounds"], record["stonks_bonus"]) == (INT32_MAX, INT32_MAX // 200, 50)
    env = stocks_and_bombs_v1.parallel_env(points_to_win=INT32_MAX - 100, tick_cap=INT32_MAX, round_cap=INT32_MAX)
    env.reset(seed=0)
    record = env.table.states[0]
    assert (record["points_to_win"], record["tick_cap"], record["round_cap"]) == (INT32_MAX - 100, INT32_MAX, INT32_MAX)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"parallel": "no"}, r"parallel must be True or False, got 'no'"),
        ({"parallel": 1}, r"parallel must be True or False, got 1"),
        ({"parallel": 0.5}, r"parallel must be True or False, got 0\.5"),
        ({"observe": "none"}, r"observe must be one of \['all', 'actors'\], got 'none'"),
        ({"num_envs": 0}, r"num_envs must be 1\.\.16777216, got 0"),
        ({"num_envs": True}, r"num_envs must be an integer"),
        ({"num_envs": 2.0}, r"num_envs must be an integer"),
        ({"num_envs": 2**40}, r"num_envs must be 1\.\.16777216"),
        ({"name": "chess"}, r"no batched engine for game 'chess'"),
        ({"name": ["stonk_market"]}, r"no batched engine for game \['stonk_market'\]"),
    ],
)
def test_bad_engine_options(options, message):
    arguments = {"name": "stonk_market", "num_envs": 2, **options}
    with pytest.raises(ValueError, match=message):
        vector.make(**arguments)


def test_numpy_bools_are_accepted_as_engine_flags():
    assert vector.make("stonk_market", 2, parallel=np.bool_(True)).parallel is True


@pytest.fixture
def engine():
    engine = vector.make("stocks_and_bombs", 3)
    engine.reset(seed=0)
    return engine


@pytest.mark.parametrize(
    ("active", "message"),
    [
        (0.5, r"active must be a bool array of shape \(3,\), got float64 \(\)"),
        ([0.5, 0.5, 0.5], r"active must be a bool array of shape \(3,\), got float64 \(3,\)"),
        ([1, 0, 1], r"active must be a bool array of shape \(3,\), got int64 \(3,\)"),
        ([True, False], r"active must be a bool array of shape \(3,\), got bool \(2,\)"),
    ],
)
def test_engine_step_refuses_an_active_flag_that_is_not_bool(engine, active, message):
    before = engine.states.copy()
    with pytest.raises(ValueError, match=message):
        engine.step(engine.random_actions(), active=active)
    assert engine.states.tobytes() == before.tobytes()


def test_engine_reports_a_uint64_action_as_given(engine):
    actions = engine.random_actions().astype(np.uint64)
    seat = int(np.flatnonzero(engine.actors[0])[0])
    actions[0, seat] = np.uint64(2**64 - 1)
    with pytest.raises(ValueError, match=r"action 18446744073709551615 is illegal"):
        engine.step(actions)


@pytest.mark.parametrize(
    ("seed", "message"),
    [(-1, r"seed must be 0\.\.\d+, got -1"), (2**63, r"seed must be 0\.\.9223372036854775807"),
     (1.0, r"seed must be an integer"), ("1", r"seed must be an integer"), (True, r"seed must be an integer")],
)
def test_bad_seeds_are_named_the_same_everywhere(engine, seed, message):
    with pytest.raises(ValueError, match=message):
        engine.reset(seed=seed)
    with pytest.raises(ValueError, match=message):
        stocks_and_bombs_v1.parallel_env().reset(seed=seed)
    with pytest.raises(ValueError, match=message):
        stocks_and_bombs_v1.raw_env().reset(seed=seed)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"render_seat": "0"}, r"render_seat must be an integer \(0\.\.3\), got '0'"),
        ({"render_seat": 4}, r"render_seat must be 0\.\.3, got 4"),
        ({"render_seat": 1.0}, r"render_seat must be an integer"),
        ({"render_mode": "rgb"}, r"render_mode must be one of \['ansi', 'human', 'rgb_array'\], got 'rgb'"),
    ],
)
def test_bad_render_options(options, message):
    for make in (stocks_and_bombs_v1.parallel_env, stocks_and_bombs_v1.raw_env, stocks_and_bombs_v1.env):
        with pytest.raises(ValueError, match=message):
            make(**options)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"learner_seat": 4}, r"learner_seat must be 0\.\.3, got 4"),
        ({"learner_seat": "0"}, r"learner_seat must be an integer"),
        ({"rotate_seats": "yes"}, r"rotate_seats must be True or False, got 'yes'"),
        ({"seed": -2}, r"seed must be 0\.\.\d+, got -2"),
    ],
)
def test_selfplay_views_check_their_arguments(options, message):
    from stonk_envs.vector.sb3_selfplay import SelfPlayVecEnv
    from stonk_envs.vector.selfplay import SelfPlay

    for view in (SelfPlayVecEnv, SelfPlay):
        with pytest.raises(ValueError, match=message):
            view(vector.make("stocks_and_bombs", 2), **options)
    view = SelfPlayVecEnv(vector.make("stocks_and_bombs", 2), learner_seat=np.int64(3))
    assert view.selfplay.seats.tolist() == [3, 3]
