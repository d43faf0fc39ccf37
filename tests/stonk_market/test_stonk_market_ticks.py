"""Scripted ticks from constructed tables: deals, races, void actions, STONKS, the tick cap."""

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
    SLINKO,
    SOCKTOPUS,
    announce,
    bid,
    exchange,
    hands,
    known,
    set_table,
    stonks,
    table_env,
    take,
    tick,
    withdraw,
)

from stonk_envs import stonk_market_v1 as sm
from stonk_envs.core.negotiation import VOID_REASONS, VOID_ROUND_OVER, VOID_STALE

STALE = VOID_REASONS[VOID_STALE]
ROUND_OVER = VOID_REASONS[VOID_ROUND_OVER]
N = 4


def offers(env):
    """``(announcements, bids)``: seat -> (suit, count) and seat -> (announcer, suit, count)."""
    s = env.table.states[0]
    anns = {p: (int(s["ann_suit"][p]), int(s["ann_count"][p])) for p in range(N) if s["ann_count"][p]}
    bids = {
        p: (int(s["bid_to"][p]), int(s["bid_suit"][p]), int(s["bid_count"][p])) for p in range(N) if s["bid_count"][p]
    }
    return anns, bids


def with_open_deal():
    """p0 announces 3 Chatterfly and p1 bids 3 Greedle on it; p1 announces 2 Greedle, p2 bids 2 Socktopus."""
    env = table_env()
    tick(env, p0=announce(CHATTERFLY, 3), p1=announce(GREEDLE, 2))
    tick(env, p1=bid(N, 1, 0, GREEDLE, 3), p2=bid(N, 2, 1, SOCKTOPUS, 2))
    assert offers(env) == ({0: (CHATTERFLY, 3), 1: (GREEDLE, 2)}, {1: (0, GREEDLE, 3), 2: (1, SOCKTOPUS, 2)})
    return env


@pytest.mark.parametrize(("n", "size"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_deal_sizes(n, size):
    env = sm.parallel_env(num_players=n)
    for seed in range(5):
        env.reset(seed=seed)
        s = env.table.states[0]
        assert s["hand"][:n].sum(axis=1).tolist() == [size] * n
        counts = s["hand"][:n].sum(axis=0)
        counts[s["exchange"]] += 1
        assert counts.tolist() == list(sm.SUIT_COUNTS)
        assert not s["known"].any()


def test_deals_differ_by_seed_and_repeat_with_it():
    env = sm.parallel_env()
    env.reset(seed=3)
    first = env.table.states.copy()
    env.reset(seed=3)
    assert np.array_equal(env.table.states["hand"], first["hand"])
    env.reset(seed=4)
    assert not np.array_equal(env.table.states["hand"], first["hand"])


def test_take_swaps_face_up_and_clears_the_announcement_and_its_bids():
    env = table_env()
    tick(env, p0=announce(CHATTERFLY, 3))
    tick(env, p1=bid(N, 1, 0, GREEDLE, 3), p2=bid(N, 2, 0, BIOHIPPO, 2))
    _, _, _, _, infos = tick(env, p0=take(N, 0, 1))
    assert infos["player_0"] == {}
    assert hands(env)[0] == [2, 2, 1, 2, 0, 1, 5, 1, 1]
    assert hands(env)[1] == [1, 1, 2, 2, 4, 2, 0, 2, 1]
    assert hands(env)[2] == MIXED_HANDS[2]
    assert offers(env) == ({}, {})
    assert known(env)[0] == [0, 0, 0, 0, 0, 0, 3, 0, 0]
    assert known(env)[1] == [0, 0, 0, 0, 3, 0, 0, 0, 0]


@pytest.mark.parametrize("first", [0, 1])
def test_two_takes_at_once_resolve_by_the_order(first):
    env = with_open_deal()
    order = [0, 1] if first == 0 else [1, 0]
    _, _, _, _, infos = tick(env, order=order, p0=take(N, 0, 1), p1=take(N, 1, 2))
    if first == 0:
        # p0 takes p1's 3 Greedle; p1 is left with none, so its 2-Greedle announcement is gone.
        assert hands(env)[0] == [2, 2, 1, 2, 0, 1, 5, 1, 1]
        assert hands(env)[1] == [1, 1, 2, 2, 4, 2, 0, 2, 1]
        assert hands(env)[2] == MIXED_HANDS[2]
        assert infos["player_1"] == {"void": STALE} and infos["player_0"] == {}
    else:
        # p1 takes p2's 2 Socktopus for 2 Greedle; its 1 Greedle left cannot cover the bid on p0.
        assert hands(env)[1] == [1, 1, 2, 2, 1, 2, 1, 4, 1]
        assert hands(env)[2] == [1, 1, 1, 2, 2, 2, 3, 1, 2]
        assert hands(env)[0] == MIXED_HANDS[0]
        assert infos["player_0"] == {"void": STALE} and infos["player_1"] == {}
    assert offers(env) == (({}, {}) if first == 0 else ({0: (CHATTERFLY, 3)}, {}))


@pytest.mark.parametrize("bid_first", [True, False])
def test_a_rebid_races_a_take(bid_first):
    env = table_env()
    tick(env, p0=announce(CHATTERFLY, 3))
    tick(env, p1=bid(N, 1, 0, GREEDLE, 3))
    order = [1, 0] if bid_first else [0, 1]
    _, _, _, _, infos = tick(env, order=order, p0=take(N, 0, 1), p1=bid(N, 1, 0, BIOHIPPO, 1))
    if bid_first:
        # The bid p0 saw at the start of the tick was replaced: the TAKE is void.
        assert infos["player_0"] == {"void": STALE} and infos["player_1"] == {}
        assert hands(env)[:2] == MIXED_HANDS[:2]
        assert offers(env) == ({0: (CHATTERFLY, 3)}, {1: (0, BIOHIPPO, 1)})
    else:
        # The deal went through on the old bid; the new bid names an announcement that is gone.
        assert infos["player_1"] == {"void": STALE} and infos["player_0"] == {}
        assert hands(env)[0][GREEDLE] == 5 and hands(env)[1][CHATTERFLY] == 4
        assert offers(env) == ({}, {})


def test_two_bids_at_once_both_stand():
    env = table_env()
    tick(env, p0=announce(CHATTERFLY, 3))
    _, _, _, _, infos = tick(env, p1=bid(N, 1, 0, GREEDLE, 3), p2=bid(N, 2, 0, SOCKTOPUS, 3))
    assert infos == {f"player_{p}": {} for p in range(N)}
    assert offers(env) == ({0: (CHATTERFLY, 3)}, {1: (0, GREEDLE, 3), 2: (0, SOCKTOPUS, 3)})


@pytest.mark.parametrize("first", [1, 2])
def test_two_exchanges_at_once_chain_by_the_order(first):
    env = table_env()
    second = 3 - first
    give = {1: GREEDLE, 2: BIOHIPPO}
    tick(env, order=[first, second], p1=exchange(N, GREEDLE), p2=exchange(N, BIOHIPPO))
    # The first takes the Socktopus card; the second takes the card the first put in.
    got_first = np.array(MIXED_HANDS[first])
    got_first[give[first]] -= 1
    got_first[SOCKTOPUS] += 1
    got_second = np.array(MIXED_HANDS[second])
    got_second[give[second]] -= 1
    got_second[give[first]] += 1
    assert hands(env)[first] == got_first.tolist() and hands(env)[second] == got_second.tolist()
    assert env.table.states["exchange"][0] == give[second]
    assert known(env)[first][SOCKTOPUS] == 1 and known(env)[second][give[first]] == 1


@pytest.mark.parametrize("withdraw_first", [True, False])
def test_a_bid_on_an_announcement_withdrawn_in_the_same_tick_is_void(withdraw_first):
    env = table_env()
    tick(env, p0=announce(CHATTERFLY, 3))
    order = [0, 1] if withdraw_first else [1, 0]
    _, _, _, _, infos = tick(env, order=order, p0=withdraw(N), p1=bid(N, 1, 0, GREEDLE, 3))
    assert infos["player_1"] == ({"void": STALE} if withdraw_first else {})
    assert infos["player_0"] == {}
    assert offers(env) == ({}, {})


def test_withdraw_and_replace_clear_the_bids_but_a_repeat_keeps_them():
    env = table_env()
    tick(env, p0=announce(CHATTERFLY, 3))
    tick(env, p1=bid(N, 1, 0, GREEDLE, 3), p2=bid(N, 2, 0, SOCKTOPUS, 2), p3=announce(BIOHIPPO, 4))
    tick(env, p0=announce(CHATTERFLY, 3))
    assert offers(env) == ({0: (CHATTERFLY, 3), 3: (BIOHIPPO, 4)}, {1: (0, GREEDLE, 3), 2: (0, SOCKTOPUS, 2)})
    tick(env, p0=announce(CHATTERFLY, 2), p1=bid(N, 1, 3, GREEDLE, 1))
    assert offers(env) == ({0: (CHATTERFLY, 2), 3: (BIOHIPPO, 4)}, {1: (3, GREEDLE, 1)})
    tick(env, p2=bid(N, 2, 0, SOCKTOPUS, 1))
    tick(env, p0=withdraw(N))
    assert offers(env) == ({3: (BIOHIPPO, 4)}, {1: (3, GREEDLE, 1)})
    assert hands(env) == MIXED_HANDS


def test_an_offer_its_owner_can_no_longer_cover_is_removed():
    env = table_env()
    tick(env, p0=announce(CHATTERFLY, 3), p1=announce(GREEDLE, 1))
    tick(env, p1=bid(N, 1, 0, GREEDLE, 3), p2=bid(N, 2, 1, SOCKTOPUS, 1))
    tick(env, p0=exchange(N, CHATTERFLY), p1=exchange(N, GREEDLE))
    # p0 has 2 Chatterfly left, p1 2 Greedle: p0's announcement and p1's bid are gone.
    assert offers(env) == ({1: (GREEDLE, 1)}, {2: (1, SOCKTOPUS, 1)})


def test_an_action_made_impossible_earlier_in_the_tick_is_void():
    env = table_env()
    tick(env, p0=announce(CHATTERFLY, 3))
    tick(env, p1=bid(N, 1, 0, GREEDLE, 3))
    # p0 takes p1's 3 Greedle first; p1's EXCHANGE of Greedle then finds none left.
    _, _, _, _, infos = tick(env, order=[0, 1], p0=take(N, 0, 1), p1=exchange(N, GREEDLE))
    assert infos["player_1"] == {"void": STALE}
    assert hands(env)[1][GREEDLE] == 0 and env.table.states["exchange"][0] == SOCKTOPUS


def test_an_illegal_submission_is_void_in_the_parallel_env():
    env = table_env()
    _, _, _, _, infos = tick(env, p0=withdraw(N), p1=announce(SLINKO, 2))
    assert infos["player_0"]["void"] == "the action was illegal when it was submitted"
    assert infos["player_1"]["void"] == "the action was illegal when it was submitted"
    assert offers(env) == ({}, {})


@pytest.mark.parametrize("first_caller", [0, 2])
def test_stonks_ends_the_round_midway_through_the_tick(first_caller):
    env = table_env(EXAMPLE_HANDS, EXAMPLE_EXCHANGE)
    order = [0, 2, 3] if first_caller == 0 else [2, 0, 3]
    _, _, _, _, infos = tick(env, order=order, p0=stonks(N), p2=exchange(N, CHATTERFLY), p3=exchange(N, SLINKO))
    s = env.table.states[0]
    if first_caller == 0:
        # Nothing moved before the call: the rule text's example, exactly.
        assert s["last_scores"][:N].tolist() == [37, 16, 7, 14]
        assert infos["player_2"] == {"void": ROUND_OVER}
    else:
        # p2 swapped a Chatterfly for the Socktopus first: Chatterfly is now the Exchange suit.
        assert s["last_scores"][:N].tolist() == [37, 16, 14 + 8 - 1, 10 - 5]
        assert infos["player_2"] == {}
    assert infos["player_3"] == {"void": ROUND_OVER}
    assert infos["player_0"] == {}
    assert s["totals"][:N].tolist() == s["last_scores"][:N].tolist()
    assert s["round"] == 1 and s["tick"] == 0
    assert s["hand"][:N].sum(axis=1).tolist() == [15] * N


def test_a_false_stonks_in_play_scores_the_caller_zero():
    env = table_env(EXAMPLE_HANDS, EXAMPLE_EXCHANGE)
    tick(env, p1=stonks(N))
    assert env.table.states["last_scores"][0, :N].tolist() == [32, 0, 7, 14]


def test_the_first_of_two_stonks_calls_is_the_caller():
    env = table_env(EXAMPLE_HANDS, EXAMPLE_EXCHANGE)
    _, _, _, _, infos = tick(env, order=[1, 0], p0=stonks(N), p1=stonks(N))
    assert env.table.states["last_scores"][0, :N].tolist() == [32, 0, 7, 14]
    assert infos["player_0"] == {"void": ROUND_OVER}


def test_the_tick_cap_scores_the_round_with_no_caller():
    env = table_env(EXAMPLE_HANDS, EXAMPLE_EXCHANGE, tick_cap=3)
    tick(env)
    tick(env, p1=announce(GLITCH, 1))
    s = env.table.states[0]
    assert (s["round"], s["tick"]) == (0, 2)
    obs, _, _, _, _ = tick(env)
    assert s["last_scores"][:N].tolist() == [32, 16, 7, 14]
    assert (s["round"], s["tick"]) == (1, 0)
    assert s["ann_count"][:N].tolist() == [0] * N
    assert obs["player_0"]["observation"][154:157].tolist() == [1, 0, 3]  # round, tick, left (memory follows)


def test_three_rounds_carry_the_totals_and_pay_the_winner():
    env = table_env(EXAMPLE_HANDS, EXAMPLE_EXCHANGE, tick_cap=1)
    for round_index in range(3):
        if round_index:
            set_table(env, EXAMPLE_HANDS, EXAMPLE_EXCHANGE)
        _, rewards, terms, _, infos = tick(env, p3=stonks(N) if round_index == 2 else 0)
        assert all(terms.values()) == (round_index == 2)
    s = env.table.states[0]
    # p3 (player D) holds 1 of 5 Glitch & Co.: a false call in the last round.
    assert s["totals"][:N].tolist() == [96, 48, 21, 28]
    assert [rewards[f"player_{p}"] for p in range(N)] == pytest.approx([1, -1 / 3, -1 / 3, -1 / 3])
    assert [infos[f"player_{p}"]["score"] for p in range(N)] == [96, 48, 21, 28]
    assert env.agents == []


def test_reward_modes():
    env = table_env(EXAMPLE_HANDS, EXAMPLE_EXCHANGE, tick_cap=1, num_rounds=2, reward_mode="round_diff")
    _, rewards, _, _, _ = tick(env)
    # Round scores 32, 16, 7, 14: mean 17.25, scale 20.
    assert [rewards[f"player_{p}"] for p in range(N)] == pytest.approx([0.7375, -0.0625, -0.5125, -0.1625])
    env = table_env(EXAMPLE_HANDS, EXAMPLE_EXCHANGE, tick_cap=1, num_rounds=1, reward_mode="score_diff")
    _, rewards, _, _, _ = tick(env)
    assert [rewards[f"player_{p}"] for p in range(N)] == pytest.approx([0.7375, -0.0625, -0.5125, -0.1625])


def test_round_diff_close_pays_the_result_for_a_last_round_ended_in_its_first_tick():
    # Round scores 32, 16, 7, 14 (mean 17.25, scale 20); as the only round they are the totals.
    margins, result = [0.7375, -0.0625, -0.5125, -0.1625], [1, -1 / 3, -1 / 3, -1 / 3]
    env = table_env(EXAMPLE_HANDS, EXAMPLE_EXCHANGE, tick_cap=1, num_rounds=2, reward_mode="round_diff_close")
    _, rewards, _, _, _ = tick(env)
    assert [rewards[f"player_{p}"] for p in range(N)] == pytest.approx(margins)  # not the last round
    env = table_env(EXAMPLE_HANDS, EXAMPLE_EXCHANGE, tick_cap=1, num_rounds=1, reward_mode="round_diff_close")
    _, rewards, _, _, _ = tick(env)
    assert [rewards[f"player_{p}"] for p in range(N)] == pytest.approx(result)  # last, ended in tick 0
    env = table_env(EXAMPLE_HANDS, EXAMPLE_EXCHANGE, tick_cap=2, num_rounds=1, reward_mode="round_diff_close")
    _, rewards, terms, _, _ = tick(env)
    assert not any(terms.values()) and set(rewards.values()) == {0.0}
    _, rewards, terms, _, _ = tick(env)
    assert all(terms.values())
    assert [rewards[f"player_{p}"] for p in range(N)] == pytest.approx(margins)  # last, ended in tick 1


def test_close_weight_scales_the_result_of_a_closed_last_round():
    env = table_env(
        EXAMPLE_HANDS, EXAMPLE_EXCHANGE, tick_cap=1, num_rounds=1, reward_mode="round_diff_close", close_weight=0.5
    )
    _, rewards, _, _, _ = tick(env)
    assert [rewards[f"player_{p}"] for p in range(N)] == pytest.approx([0.5, -1 / 6, -1 / 6, -1 / 6])
    env = table_env(
        EXAMPLE_HANDS, EXAMPLE_EXCHANGE, tick_cap=2, num_rounds=1, reward_mode="round_diff_close", close_weight=0.5
    )
    tick(env)
    _, rewards, _, _, _ = tick(env)
    assert [rewards[f"player_{p}"] for p in range(N)] == pytest.approx([0.7375, -0.0625, -0.5125, -0.1625])


def test_a_tie_for_first_is_a_shared_win():
    tied = [
        [0, 0, 0, 0, 0, 0, 0, 9, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 9],
        [3, 2, 3, 4, 3, 4, 3, 0, 0],
        [2, 3, 2, 3, 4, 3, 3, 0, 0],
    ]
    env = table_env(tied, GREEDLE, tick_cap=1, num_rounds=1)
    _, rewards, _, _, _ = tick(env)
    assert env.table.states["totals"][0, :N].tolist() == [18, 18, 3 + 3 + 4 + 4 - 3, 3 + 4 - 3]
    assert [rewards[f"player_{p}"] for p in range(N)] == pytest.approx([1 / 3, 1 / 3, -1 / 3, -1 / 3])


def test_a_wait_after_stonks_in_the_same_tick_is_not_void():
    env = table_env(EXAMPLE_HANDS, EXAMPLE_EXCHANGE)
    _, _, _, _, infos = tick(env, order=[0, 1, 2, 3], p0=stonks(N), p2=exchange(N, CHATTERFLY))
    assert env.table.states["round"][0] == 1
    assert infos["player_1"] == {} and infos["player_3"] == {}  # their WAITs did nothing
    assert infos["player_2"] == {"void": ROUND_OVER}
