"""The public memory appended to the observation (M9, 2026-12-01), and the option ``memory``.

Histories that a player at the table tells apart must give different observations (omission),
with the exact entries the layout of stonk_envs.games.stonk_market.core promises; hidden cards
must not show (leak).
"""

import numpy as np
import pytest
from stonk_market_helpers import (
    BIOHIPPO,
    CHATTERFLY,
    EXAMPLE_EXCHANGE,
    EXAMPLE_HANDS,
    GLITCH,
    GREEDLE,
    MIXED_HANDS,
    SOCKTOPUS,
    SWEETBEE,
    announce,
    bid,
    exchange,
    set_table,
    stonks,
    table_env,
    take,
    tick,
    withdraw,
)

from stonk_envs import stonk_market_v1 as sm
from stonk_envs import vector
from stonk_envs.games.stonk_market import core
from stonk_envs.policies.players import builtin_player
from stonk_envs.single_agent import SingleAgentEnv

N = 4
BASE = 207  # n^2 + 34n + 55 at 4 players: the observation without memory
PER_SUIT_BLOCKS = ("ann_max", "bid_max", "last_ann", "last_bid", "wanted", "gained", "given", "last_hand")


def memory(obs, n=N) -> dict:
    """The public memory of an observation, cut by the documented layout."""
    m = np.asarray(obs[n * n + 34 * n + 55 :])
    assert m.shape == (2 * n * n + 85 * n + 64,)
    out, k = {}, 0
    for name in PER_SUIT_BLOCKS:
        out[name] = m[k : k + 9 * n].reshape(n, 9).astype(int).tolist()
        k += 9 * n
    out["last_bid_target"] = m[k : k + n * n].reshape(n, n).astype(int).tolist()
    k += n * n
    out["activity"] = m[k : k + 6 * n].reshape(n, 6).astype(int).tolist()
    k += 6 * n
    for name in ("last_caller", "valid_calls", "invalid_calls"):
        out[name] = m[k : k + n].astype(int).tolist()
        k += n
    for name in ("exchange_in", "first_exchange", "last_exchange"):
        out[name] = m[k : k + 9].astype(int).tolist()
        k += 9
    out["last_valid"] = int(m[k])
    k += 1
    out["recent"] = [(m[k + i * (9 + n) : k + i * (9 + n) + 9].astype(int).tolist(),
                      m[k + i * (9 + n) + 9 : k + (i + 1) * (9 + n)].astype(int).tolist()) for i in range(4)]
    k += 4 * (9 + n)
    out["bids_on_seat"] = m[k : k + n * n].reshape(n, n).astype(int).tolist()
    assert k + n * n == len(m)
    return out


def view(observations, seat):
    return observations[f"player_{seat}"]["observation"]


def one_hot(index, size=9):
    return [int(i == index) for i in range(size)]


def at(suit, count):
    return [count if i == suit else 0 for i in range(9)]


ZERO9 = [0] * 9


# ---------------------------------------------------------------------------- the option
@pytest.mark.parametrize("n", [3, 6])
def test_memory_false_is_the_observation_without_memory_entry_for_entry(n):
    with_memory = sm.parallel_env(num_players=n, tick_cap=20)
    without = sm.parallel_env(num_players=n, tick_cap=20, memory=False)
    obs_a, _ = with_memory.reset(seed=3)
    obs_b, _ = without.reset(seed=3)
    rng = np.random.default_rng(n)
    base = n * n + 34 * n + 55
    steps = 0
    while with_memory.agents:
        for agent in with_memory.agents:
            assert obs_b[agent]["observation"].shape == (base,)
            assert np.array_equal(obs_a[agent]["observation"][:base], obs_b[agent]["observation"])
            assert np.array_equal(obs_a[agent]["action_mask"], obs_b[agent]["action_mask"])
        actions = {a: int(rng.choice(np.flatnonzero(obs_a[a]["action_mask"]))) for a in with_memory.agents}
        obs_a, *_ = with_memory.step(actions)
        obs_b, *_ = without.step(actions)
        steps += 1
    assert steps >= 3 and not without.agents  # three rounds, ended together


def test_memory_option_reaches_the_engine_and_the_single_agent_env():
    assert vector.make("stonk_market", 2, num_players=N).obs_size == BASE + 436
    engine = vector.make("stonk_market", 2, num_players=N, memory=False)
    assert engine.obs_size == BASE
    engine.reset(seed=1)
    assert engine.obs.shape[-1] == BASE
    env = SingleAgentEnv("stonk_market", opponents="random", num_players=3, memory=False)
    assert env.observation_space.shape == (166,)
    with pytest.raises(ValueError, match="memory must be True or False, got 'yes'"):
        sm.parallel_env(memory="yes")


# ---------------------------------------------------------------------------- announcements and bids
def test_a_withdrawn_announcement_is_remembered():
    env, quiet = table_env(), table_env()
    tick(env, p0=announce(CHATTERFLY, 3))
    observations, *_ = tick(env, p0=withdraw(N))
    tick(quiet)
    still, *_ = tick(quiet)
    seen = memory(view(observations, 1))  # p0 is p1's relative seat 3
    assert seen["ann_max"][3] == at(CHATTERFLY, 3)
    assert seen["last_ann"][3] == at(CHATTERFLY, 3)
    assert seen["activity"][3] == [1, 0, 1, 0, 0, 0]
    assert not np.array_equal(view(observations, 1), view(still, 1))
    assert np.array_equal(view(observations, 1)[:BASE], view(still, 1)[:BASE])  # the table is the same


def test_a_replaced_announcement_is_remembered():
    env, direct = table_env(), table_env()
    tick(env, p0=announce(CHATTERFLY, 1))
    replaced, *_ = tick(env, p0=announce(CHATTERFLY, 3))
    tick(direct)
    once, *_ = tick(direct, p0=announce(CHATTERFLY, 3))
    assert np.array_equal(view(replaced, 2)[:BASE], view(once, 2)[:BASE])
    assert memory(view(replaced, 2))["activity"][2] == [2, 0, 0, 0, 0, 0]
    assert memory(view(once, 2))["activity"][2] == [1, 0, 0, 0, 0, 0]
    # repeating the open announcement posts nothing new
    again, *_ = tick(direct, p0=announce(CHATTERFLY, 3))
    assert memory(view(again, 2))["activity"][2] == [1, 0, 0, 0, 0, 0]


def test_a_taken_deal_is_remembered_by_every_seat():
    env = table_env()
    tick(env, p0=announce(CHATTERFLY, 3))
    tick(env, p1=bid(N, 1, 0, GREEDLE, 3))
    observations, *_ = tick(env, p0=take(N, 0, 1))
    seen = memory(view(observations, 2))  # from p2: p0 is relative 2, p1 relative 3
    assert seen["ann_max"][2] == at(CHATTERFLY, 3) and seen["last_ann"][2] == at(CHATTERFLY, 3)
    assert seen["bid_max"][3] == at(GREEDLE, 3) and seen["last_bid"][3] == at(GREEDLE, 3)
    assert seen["last_bid_target"][3] == one_hot(2, N)
    assert seen["wanted"][3] == at(CHATTERFLY, 1)  # p1 bid on Chatterfly
    assert seen["gained"][2] == at(GREEDLE, 3) and seen["given"][2] == at(CHATTERFLY, 3)
    assert seen["gained"][3] == at(CHATTERFLY, 3) and seen["given"][3] == at(GREEDLE, 3)
    assert seen["activity"][2] == [1, 0, 0, 1, 0, 0]
    assert seen["activity"][3] == [0, 1, 0, 0, 1, 0]
    assert seen["activity"][0] == seen["activity"][1] == [0] * 6
    assert seen["ann_max"][0] == seen["ann_max"][1] == ZERO9
    # the open announcement and bid are gone from the table, not from the memory
    assert view(observations, 2)[58:58 + 36].sum() == 0 and view(observations, 2)[110:146].sum() == 0


def test_a_trade_and_its_reversal_differ_from_no_trade():
    env, quiet = table_env(), table_env()
    tick(env, p0=announce(CHATTERFLY, 1), p1=announce(GREEDLE, 1))
    tick(env, p1=bid(N, 1, 0, GREEDLE, 1), p0=bid(N, 0, 1, CHATTERFLY, 1))
    tick(env, p0=take(N, 0, 1))
    assert env.table.states["hand"][0, :2].tolist() == [
        [2, 2, 1, 2, 2, 1, 3, 1, 1], [1, 1, 2, 2, 2, 2, 2, 2, 1]]
    tick(env, p1=announce(CHATTERFLY, 1))
    tick(env, p0=bid(N, 0, 1, GREEDLE, 1))
    observations, *_ = tick(env, p1=take(N, 1, 0))
    assert env.table.states["hand"][0, :N].tolist() == MIXED_HANDS  # back where it started
    for _ in range(6):
        still, *_ = tick(quiet)
    seen = memory(view(observations, 3))  # p0 relative 1, p1 relative 2
    assert seen["gained"][1] == [0, 0, 0, 0, 1, 0, 1, 0, 0]
    assert seen["given"][1] == [0, 0, 0, 0, 1, 0, 1, 0, 0]
    assert seen["gained"][2] == seen["given"][2] == [0, 0, 0, 0, 1, 0, 1, 0, 0]
    assert seen["activity"][1] == [1, 2, 0, 1, 1, 0]
    assert seen["activity"][2] == [2, 1, 0, 1, 1, 0]
    assert not np.array_equal(view(observations, 3), view(still, 3))


# ---------------------------------------------------------------------------- the Exchange
def test_exchange_history_counts_and_last_trades_newest_first():
    env = table_env()  # the Exchange holds a Socktopus Ltd. card
    tick(env, order=[0, 1, 2], p0=exchange(N, GLITCH), p1=exchange(N, BIOHIPPO), p2=exchange(N, GLITCH))
    observations, *_ = tick(env, order=[3, 0], p3=exchange(N, BIOHIPPO), p0=exchange(N, SWEETBEE))
    seen = memory(view(observations, 3))  # relative seats from p3: p0 1, p1 2, p2 3, me 0
    assert seen["exchange_in"] == [2, 0, 0, 1, 0, 0, 0, 0, 2]
    assert seen["first_exchange"] == one_hot(SOCKTOPUS)
    newest_first = [(SWEETBEE, 1), (BIOHIPPO, 0), (GLITCH, 3), (BIOHIPPO, 2)]  # the first trade fell off
    assert seen["recent"] == [(one_hot(suit), one_hot(seat, N)) for suit, seat in newest_first]
    # p0 took Socktopus, then the BioHippo p3 put in; p1 took p0's Glitch; p2 p1's BioHippo; p3 p2's Glitch
    assert seen["gained"][1] == [0, 0, 0, 0, 0, 0, 0, 1, 1] and seen["given"][1] == [1, 0, 0, 1, 0, 0, 0, 0, 0]
    assert seen["gained"][2] == at(GLITCH, 1) and seen["given"][2] == at(BIOHIPPO, 1)
    assert seen["gained"][3] == at(BIOHIPPO, 1) and seen["given"][3] == at(GLITCH, 1)
    assert seen["gained"][0] == at(GLITCH, 1) and seen["given"][0] == at(BIOHIPPO, 1)
    assert [row[5] for row in seen["activity"]] == [1, 2, 1, 1]
    assert view(observations, 3)[9 + SWEETBEE] == 1  # the Exchange card now


def test_exchange_there_and_back_differs_from_no_exchange():
    env, quiet = table_env(), table_env()
    tick(env, p0=exchange(N, GLITCH))
    observations, *_ = tick(env, p0=exchange(N, SOCKTOPUS))
    assert env.table.states["hand"][0, 0].tolist() == MIXED_HANDS[0]
    tick(quiet)
    still, *_ = tick(quiet)
    seen = memory(view(observations, 1))
    assert seen["exchange_in"] == [1, 0, 0, 0, 0, 0, 0, 1, 0]
    assert seen["gained"][3] == seen["given"][3] == [1, 0, 0, 0, 0, 0, 0, 1, 0]
    assert view(observations, 1)[9 + SOCKTOPUS] == view(still, 1)[9 + SOCKTOPUS] == 1
    assert not np.array_equal(view(observations, 1), view(still, 1))


# ---------------------------------------------------------------------------- the round end
def round_end(caller=None, tick_cap=300):
    """The rule text's example table scored after ``caller``'s STONKS (or the tick cap): seat 1's view."""
    env = table_env(EXAMPLE_HANDS, EXAMPLE_EXCHANGE, tick_cap=tick_cap)
    env.table.states["tick"][0] = tick_cap - 1
    observations, *_ = tick(env, **({f"p{caller}": stonks(N)} if caller is not None else {}))
    assert env.table.states["round"][0] == 1
    return view(observations, 1)


def test_who_called_whether_it_was_valid_and_the_hands_are_remembered():
    valid, invalid, capped = round_end(caller=0), round_end(caller=1), round_end()
    rotated = EXAMPLE_HANDS[1:] + EXAMPLE_HANDS[:1]  # from seat 1
    for obs in (valid, invalid, capped):
        seen = memory(obs)
        assert seen["last_hand"] == rotated
        assert seen["last_exchange"] == one_hot(SOCKTOPUS)
        assert seen["activity"] == [[0] * 6] * N and seen["exchange_in"] == ZERO9  # a new round's record
    seen = memory(valid)  # p0 (relative 3) held two full suits: a valid call
    assert (seen["last_caller"], seen["last_valid"]) == ([0, 0, 0, 1], 1)
    assert (seen["valid_calls"], seen["invalid_calls"]) == ([0, 0, 0, 1], [0, 0, 0, 0])
    seen = memory(invalid)  # p1 (me) held 2 of 5 Glitch & Co.: invalid
    assert (seen["last_caller"], seen["last_valid"]) == ([1, 0, 0, 0], 0)
    assert (seen["valid_calls"], seen["invalid_calls"]) == ([0, 0, 0, 0], [1, 0, 0, 0])
    seen = memory(capped)
    assert (seen["last_caller"], seen["last_valid"]) == ([0, 0, 0, 0], 0)
    assert (seen["valid_calls"], seen["invalid_calls"]) == ([0] * N, [0] * N)
    assert not np.array_equal(valid, invalid) and not np.array_equal(invalid, capped)


# ---------------------------------------------------------------------------- leaks
def test_hidden_cards_do_not_show_in_the_memory():
    """Seat 2 holds other hidden cards; the same public play leaves every other seat's view unchanged."""
    env, other = table_env(), table_env()
    hands = [list(h) for h in MIXED_HANDS]
    hands[2] = [1, 1, 1, 2, 2, 1, 1, 3, 3]  # a BioHippo where it held a Blammo!
    hands[3] = [1, 1, 1, 1, 1, 3, 1, 2, 4]  # ... and the other way round for seat 3
    set_table(other, hands, SOCKTOPUS)
    for table in (env, other):
        tick(table, order=[2, 0], p2=announce(SOCKTOPUS, 2), p0=exchange(N, GLITCH))
        tick(table, p1=bid(N, 1, 2, GREEDLE, 1), p3=bid(N, 3, 2, BIOHIPPO, 1))
        tick(table, p2=take(N, 2, 1))
    views = [table.table.observe(seat)["observation"] for table in (env, other) for seat in (0, 1)]
    assert np.array_equal(views[0], views[2]) and np.array_equal(views[1], views[3])
    assert not np.array_equal(env.state(), other.state())


# ---------------------------------------------------------------------------- bounds
def test_round_score_bounds_are_reached():
    assert core.round_score_bounds(4, 5) == (-8, 117)
    assert core.round_score_bounds(6, 5) == (-8, 113)
    # everything but Glitch & Co., whose 4 other cards the other three seats hold
    hands = np.zeros((6, 9), np.int8)
    hands[0] = sm.SUIT_COUNTS
    hands[0, GLITCH] = 0
    hands[1:4, GLITCH] = [2, 1, 1]
    scores = np.zeros(4, np.int64)
    core.round_scores(hands, 4, GLITCH, 0, 5, scores)
    assert scores[0] == 117
    # 6 players: the fifth other seat takes one card of a full 7-card suit, Greedle's Exchange
    hands = np.zeros((6, 9), np.int8)
    hands[0] = sm.SUIT_COUNTS
    hands[0, GREEDLE] = 0
    hands[1:, GREEDLE] = [2, 1, 1, 1, 1]
    scores = np.zeros(6, np.int64)
    core.round_scores(hands, 6, GREEDLE, 0, 5, scores)
    assert scores[0] == 113
    activity = np.zeros(6)
    core.activity_bounds(300, activity)
    assert activity.tolist() == [300, 299, 150, 100, 298, 300]


def test_observation_bounds_of_the_memory():
    low, high = sm.parallel_env(num_players=N, tick_cap=10, num_rounds=2).table.game.observation_bounds
    assert np.isfinite(high).all() and (low == 0)[BASE:].all()
    assert high[18:22].tolist() == [57] * N  # hand sizes: every other seat keeps a card
    seen = memory(high)
    totals = list(sm.SUIT_COUNTS)
    for name in ("ann_max", "bid_max", "last_ann", "last_bid", "last_hand"):
        assert seen[name] == [totals] * N
    assert seen["wanted"] == [[9] * 9] * N
    assert seen["gained"] == seen["given"] == [[10 * t for t in totals]] * N
    assert seen["activity"] == [[10, 9, 5, 3, 8, 10]] * N
    assert seen["last_bid_target"] == [[int(t != j) for t in range(N)] for j in range(N)]
    assert seen["valid_calls"] == seen["invalid_calls"] == [2] * N
    assert seen["exchange_in"] == [40] * 9


@pytest.mark.parametrize("n", [3, 6])
def test_heuristic_and_random_play_stays_within_the_bounds(n):
    env = sm.parallel_env(num_players=n, tick_cap=60, num_rounds=2)
    low, high = env.table.game.observation_bounds
    rng = np.random.default_rng(n)
    players = [builtin_player("stonk_market", name, n) for name in ("heuristic", "basic", "random")]
    for game in range(3):
        observations, _ = env.reset(seed=game)
        seen = 0
        while env.agents:
            obs = np.stack([observations[a]["observation"] for a in env.agents])
            masks = np.stack([observations[a]["action_mask"] for a in env.agents])
            assert ((obs >= low) & (obs <= high)).all()
            seen = np.maximum(seen, obs.max(axis=0))
            acts = players[game].act(obs, masks, rng)
            observations, *_ = env.step(dict(zip(env.agents, acts.tolist(), strict=True)))
        assert seen[n * n + 34 * n + 55 :].sum() > 0  # the memory was written


# ---------------------------------------------------------------------------- state()
TRANSIENT = {"seen_ann_suit", "seen_ann_count", "seen_bid_to", "seen_bid_suit", "seen_bid_count", "round_over", "n"}
"""Fields that cannot change how a state plays out: the tick's snapshot is taken again at the
start of every step, ``round_over`` is consumed within the step, ``n`` is the vector's length."""


def perturbed(states, field):
    other = states.copy()
    value = other[field][0]
    if field == "rng":
        other[field][0] = value ^ np.uint64(1 << 50)
    elif value.dtype == np.bool_:
        other[field][0] = not value
    elif np.ndim(value) == 0:
        other[field][0] = value + 1
    else:
        flat = other[field][0].reshape(-1)
        flat[-1 if field in ("recent_suit", "recent_seat", "exchange_in") else 0] += 1
        if np.ndim(value) == 2 and value.shape[0] == 6:
            other[field][0][N - 1, 2] += 1  # the last seat, too
    return other


@pytest.mark.parametrize("field", [f for f in core.STATE_DTYPE.names if f not in TRANSIENT])
def test_state_tells_apart_states_that_differ_in_any_lasting_field(field):
    env = sm.parallel_env(num_players=N)
    env.reset(seed=2)
    game = env.table.game
    states = env.table.states
    vectors = []
    for table in (states, perturbed(states, field)):
        out = np.zeros(game.state_size, np.float32)
        game.state_vector(table, 0, out)
        vectors.append(out)
    assert not np.array_equal(vectors[0], vectors[1]), field


def test_state_keeps_the_whole_random_stream():
    env = sm.parallel_env(num_players=N)
    env.reset(seed=2)
    states = env.table.states
    game = env.table.game
    out = np.zeros(game.state_size, np.float32)
    game.state_vector(states, 0, out)
    parts = out[25 * N + 4 + 67 * N + 9 + 2 + 8 + 3 :][:4].astype(np.uint64)
    assert int(sum(int(p) << (16 * i) for i, p in enumerate(parts))) == int(states["rng"][0])


@pytest.mark.parametrize("first_addressee", [0, 2])
def test_a_replaced_bid_keeps_its_addressee(first_addressee):
    # player_1 bids on player_0's or player_2's 1 x Glitch (the same announcement), then replaces the
    # bid by one on player_3's: only the bids-on-seat counts tell the two histories apart.
    env = table_env()
    tick(env, p0=announce(GLITCH, 1), p2=announce(GLITCH, 1), p3=announce(GLITCH, 1))
    tick(env, p1=bid(N, 1, first_addressee, 1, 1))
    observations, *_ = tick(env, p1=bid(N, 1, 3, 1, 1))
    seen = memory(view(observations, 3))  # player_3 sees player_1 as relative seat 2, player_0 as 1, player_2 as 3
    assert seen["bids_on_seat"][2] == [1, int(first_addressee == 0), 0, int(first_addressee == 2)]
    assert seen["last_bid_target"][2] == [1, 0, 0, 0]  # the latest bid, on player_3's announcement


def test_two_histories_that_differ_only_in_a_replaced_bids_addressee_look_different():
    views = []
    for first in (0, 2):
        env = table_env()
        tick(env, p0=announce(GLITCH, 1), p2=announce(GLITCH, 1), p3=announce(GLITCH, 1))
        tick(env, p1=bid(N, 1, first, 1, 1))
        observations, *_ = tick(env, p1=bid(N, 1, 3, 1, 1))
        views.append(np.asarray(view(observations, 3)))
    assert (views[0] != views[1]).any()
    assert (views[0][: -N * N] == views[1][: -N * N]).all()  # before the extension the memory could not tell


def test_a_seat_that_took_no_part_tells_a_replaced_bids_addressee():
    """Five players: player_1 bids on player_0's or player_2's announcement, then on player_3's.
    player_4 had no part in it and still tells the two histories apart."""
    n = 5
    views = []
    for first in (0, 2):
        env = sm.parallel_env(num_players=n)
        env.reset(seed=1)
        hands = env.table.states["hand"][0]
        suit = int(np.flatnonzero(hands[0] * hands[2] * hands[3])[0])  # one suit all three announce
        offer = int(next(s for s in np.flatnonzero(hands[1]) if s != suit))
        tick(env, **{f"p{p}": announce(suit, 1) for p in (0, 2, 3)})
        tick(env, p1=bid(n, 1, first, offer, 1))
        observations, *_ = tick(env, p1=bid(n, 1, 3, offer, 1))
        views.append(np.asarray(view(observations, 4)))
        seen = memory(views[-1], n)["bids_on_seat"][(1 - 4) % n]  # player_1 from player_4
        assert seen[(3 - 4) % n] == 1 and seen[(first - 4) % n] == 1
    assert (views[0][: -n * n] == views[1][: -n * n]).all()  # only the bids-on-seat counts differ
    assert (views[0] != views[1]).any()
