"""The PettingZoo face of Stonk Market: API tests, spaces, observations, errors, rendering."""

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, render_test, seed_test
from stonk_market_helpers import (
    BIOHIPPO,
    BLAMMO,
    CHATTERFLY,
    EXAMPLE_EXCHANGE,
    EXAMPLE_HANDS,
    GLITCH,
    GREEDLE,
    NOBBLE,
    SLINKO,
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

import stonk_envs
from stonk_envs import stonk_market_v1 as sm

PLAYERS = [3, 4, 5, 6]


@pytest.mark.parametrize("n", PLAYERS)
def test_pettingzoo_api_tests(n):
    api_test(sm.env(num_players=n))
    api_test(sm.raw_env(num_players=n))
    parallel_api_test(sm.parallel_env(num_players=n))
    seed_test(lambda: sm.env(num_players=n))
    parallel_seed_test(lambda: sm.parallel_env(num_players=n))
    render_test(lambda render_mode=None: sm.env(num_players=n, render_mode=render_mode))


@pytest.mark.parametrize(
    ("n", "actions", "obs", "with_memory"),
    [(3, 257, 166, 503), (4, 339, 207, 643), (5, 421, 250, 789), (6, 503, 295, 941)],
)
def test_space_sizes(n, actions, obs, with_memory):
    for memory, size in ((False, obs), (True, with_memory)):
        env = sm.parallel_env(num_players=n, memory=memory)
        assert env.action_space("player_0").n == actions
        assert env.observation_space("player_0")["observation"].shape == (size,)
        assert env.state_space.shape == (n * n + 92 * n + 38,)
        env.reset(seed=0)
        assert env.state().shape == (n * n + 92 * n + 38,)


TIMES = "\N{MULTIPLICATION SIGN}"


def test_action_layout_ends_with_exchange_and_stonks():
    n = 6
    env = sm.raw_env(num_players=n)
    game = env.table.game
    assert announce(BIOHIPPO, 9) == 81 and bid(n, 0, 1, GLITCH, 1) == 82
    assert take(n, 0, 5) == 82 + 405 + 4 and withdraw(n) == 492
    assert exchange(n, BIOHIPPO) == 501 and stonks(n) == 502
    assert game.describe_action(2, bid(n, 2, 1, GREEDLE, 3)) == f"bid 3 {TIMES} Greedle on player_1's announcement"
    assert game.describe_action(2, take(n, 2, 0)) == "take player_0's bid"
    assert game.describe_action(0, announce(CHATTERFLY, 4)) == f"announce 4 {TIMES} Chatterfly"
    assert game.describe_action(0, exchange(n, SOCKTOPUS)) == f"exchange 1 {TIMES} Socktopus Ltd. for the Exchange card"
    assert [game.describe_action(0, a) for a in (0, withdraw(n), stonks(n))] == [
        "wait",
        "withdraw my announcement",
        "call STONKS",
    ]


def test_registry_ids():
    assert stonk_envs.stonk_market_v1 is sm
    env = pettingzoo.make("parallel", "stonk_envs/stonk_market-v1", num_players=5)
    observations, _ = env.reset(seed=1)
    assert len(observations) == 5


def test_observation_layout_from_the_observers_seat():
    n = 4
    env = table_env()
    tick(env, p0=announce(CHATTERFLY, 3))
    tick(env, p1=bid(n, 1, 0, GREEDLE, 3))
    tick(env, p0=take(n, 0, 1))
    tick(env, p2=announce(BIOHIPPO, 2))
    observations, _, _, _, _ = tick(env, p3=bid(n, 3, 2, GLITCH, 1))
    obs = observations["player_1"]["observation"]
    expected = np.zeros(207, np.float32)
    expected[0:9] = [1, 1, 2, 2, 4, 2, 0, 2, 1]  # my hand after the deal
    expected[9 + SOCKTOPUS] = 1  # the Exchange card
    expected[18:22] = 15  # hand sizes of me, p2, p3, p0
    expected[22 + 0 * 9 + CHATTERFLY] = 3  # I am known to hold the 3 Chatterfly I received
    expected[22 + 3 * 9 + GREEDLE] = 3  # p0 (relative seat 3) received 3 Greedle
    expected[58 + 1 * 9 + BIOHIPPO] = 2  # p2 (relative 1) announces 2 BioHippo
    expected[94 + 2 * 4 + 1] = 1  # p3 (relative 2) bids on relative seat 1's announcement
    expected[110 + 2 * 9 + GLITCH] = 1  # ... offering 1 Glitch & Co.
    expected[154:157] = [0, 5, 295]  # round, tick, ticks left
    expected[157 + CHATTERFLY] = 1  # the hand summary: 4 of 7 Chatterfly is my one majority ...
    expected[166:175] = [1, 1, 1, 1, 0, 1, 0, 1, 1]  # ... every other suit I hold is a stray
    expected[175:177] = [0, 4 - 2]  # so no valid call; +4 Chatterfly, -2 for the Exchange's Socktopus
    # the move previews. EXCHANGE(s) takes in a Socktopus (3 of 9: 0 points, a stray) and makes s the
    # Exchange's suit: -1 for a last Nobble, SweetBee or Blammo, -3 for three Chatterfly; Greedle and
    # Socktopus are not open (my hand as it is); a last Glitch, Slinko or BioHippo leaves a stray fewer
    expected[177:186] = [4, 4, 3, 3, -3, 3, 2, 2, 4]
    expected[186:195] = [6, 6, 7, 7, 8, 7, 7, 7, 6]
    expected[195:201] = [2, 2, 2, 7, 7, 7]  # TAKE: I have no announcement, so my hand as it is
    expected[201:207] = [2, 2, 2, 7, 7, 7]  # getting p2's 2 BioHippo: 3 of 9, still a stray
    assert obs[:207].tolist() == expected.tolist()  # the public memory follows (test_stonk_market_memory.py)
    assert observations["player_1"]["action_mask"][take(n, 1, 0)] == 0
    assert env.observation_space("player_1").contains(observations["player_1"])


def test_public_knowledge_drops_when_cards_leave():
    n = 4
    env = table_env()
    tick(env, p0=announce(CHATTERFLY, 3))
    tick(env, p1=bid(n, 1, 0, GREEDLE, 3))
    tick(env, p0=take(n, 0, 1))
    # p1 is known to hold 3 Chatterfly; it gives 2 of its 4 away in a deal with p2.
    tick(env, p1=announce(CHATTERFLY, 2))
    tick(env, p2=bid(n, 2, 1, BIOHIPPO, 1))
    tick(env, p1=take(n, 1, 2))
    k = env.table.states["known"][0]
    assert k[1].tolist() == [0, 0, 0, 0, 1, 0, 0, 0, 1]
    assert k[2].tolist() == [0, 0, 0, 0, 2, 0, 0, 0, 0]
    # p1 puts one of its 2 Chatterfly into the Exchange; its known count cannot go below 0.
    tick(env, p1=exchange(n, CHATTERFLY))
    tick(env, p1=exchange(n, CHATTERFLY))
    assert k[1].tolist() == [0, 0, 0, 0, 1, 0, 0, 1, 1]
    assert env.table.states["exchange"][0] == CHATTERFLY


def test_illegal_actions_through_raw_env_raise_and_change_nothing():
    n = 4
    env = sm.raw_env(num_players=n)
    env.reset(seed=0)
    set_table(env, EXAMPLE_HANDS, EXAMPLE_EXCHANGE)
    before = env.table.states.copy()
    cases = [
        (withdraw(n), "player_0: action 328 \\(withdraw my announcement\\) is illegal: player_0 has no open"),
        (announce(GLITCH, 1), "player_0 holds 0 Glitch & Co., fewer than 1"),
        (bid(n, 0, 1, GREEDLE, 1), "player_1 has no open announcement"),
        (take(n, 0, 2), "player_0 has no open announcement"),
        (exchange(n, SOCKTOPUS), "player_0 holds 0 Socktopus Ltd., fewer than 1"),
        (339, "outside the action space 0..338"),
        ("3", "must be an integer"),
    ]
    for action, message in cases:
        with pytest.raises(ValueError, match=message):
            env.step(action)
        assert env.agent_selection == "player_0"
        assert env.table.states.tobytes() == before.tobytes()
    env.step(announce(GREEDLE, 7))
    assert env.agent_selection == "player_1"


def test_bidding_the_announced_suit_is_illegal():
    n = 4
    env = table_env(EXAMPLE_HANDS, EXAMPLE_EXCHANGE)
    tick(env, p3=announce(CHATTERFLY, 5))
    mask = env.table.observe(2)["action_mask"]
    assert mask[bid(n, 2, 3, CHATTERFLY, 1)] == 0 and mask[bid(n, 2, 3, BLAMMO, 7)] == 1
    raw = sm.raw_env(num_players=n)
    raw.reset(seed=0)
    raw.table.states[:] = env.table.states
    raw.table.state_edited()
    raw.step(0)
    raw.step(0)
    with pytest.raises(ValueError, match=r"player_2: .* a bid cannot offer the announced suit Chatterfly"):
        raw.step(bid(n, 2, 3, CHATTERFLY, 2))


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ({"num_players": 2}, "num_players must be 3..6"),
        ({"num_players": 7}, "num_players must be 3..6"),
        ({"tick_cap": 0}, "tick_cap"),
        ({"num_rounds": 0}, "num_rounds"),
        ({"reward_mode": "money"}, "reward_mode"),
        ({"stonks_bonus": -1}, "stonks_bonus"),
        ({"colour": 1}, "unknown option"),
    ],
)
def test_bad_config_is_named(option, message):
    with pytest.raises(ValueError, match=message):
        sm.parallel_env(**option)


def test_stonks_is_always_legal_and_the_mask_is_empty_after_the_game():
    env = table_env(EXAMPLE_HANDS, EXAMPLE_EXCHANGE, num_rounds=1)
    assert env.table.observe(1)["action_mask"][stonks(4)] == 1
    observations, _, terms, _, _ = tick(env, p1=stonks(4))
    assert all(terms.values())
    assert not observations["player_0"]["action_mask"].any()


def test_render_hides_other_hands_but_shows_what_is_known():
    n = 4
    env = sm.parallel_env(num_players=n, render_mode="ansi", render_seat=1)
    env.reset(seed=0)
    set_table(env, EXAMPLE_HANDS, EXAMPLE_EXCHANGE)
    tick(env, p2=exchange(n, CHATTERFLY), p1=announce(SWEETBEE, 6))
    text = env.render()
    assert text.splitlines()[0] == "Stonk Market  round 1/3  tick 1/300  Exchange: Chatterfly"
    mine = "player_1 (you): total   0 (last round   0)  13 cards  hand 2 Glitch & Co., 5 Nobble & Grasp, 6 SweetBee"
    assert mine in text
    assert "announces 6 SweetBee Naturals" in text
    assert "player_2: total   0 (last round   0)  18 cards  known 1 Socktopus Ltd." in text
    assert "Blammo" not in text
    full = sm.parallel_env(num_players=n, render_mode="ansi")
    full.reset(seed=0)
    full.table.states[:] = env.table.states
    full.table.state_edited()
    assert "7 Blammo!" in full.render()


def hand_summary(observation, n=4):
    """The hand summary of an observation: majority flags, stray flags, valid call, round score."""
    o = observation[n * n + 30 * n + 21 : n * n + 30 * n + 41].astype(int).tolist()
    return o[:9], o[9:18], o[18], o[19]


def test_hand_summary_of_the_rule_texts_scoring_example():
    env = table_env()
    set_table(env, EXAMPLE_HANDS, EXAMPLE_EXCHANGE)
    observations, _, _, _, _ = tick(env)
    summaries = [hand_summary(observations[f"player_{p}"]["observation"]) for p in range(4)]

    def flags(*suits):
        return [int(suit in suits) for suit in range(9)]

    # A: all 7 Greedle and all 9 BioHippo, a valid call worth 37 with the bonus
    assert summaries[0] == (flags(GREEDLE, BIOHIPPO), flags(), 1, 32)
    # B: 5 of 5 Nobble & Grasp and 6 of 7 SweetBee, but 2 of 5 Glitch & Co. is a stray
    assert summaries[1] == (flags(NOBBLE, SWEETBEE), flags(GLITCH), 0, 16)
    # C: 7 of 9 Socktopus is a majority that scores -7 (the Exchange's suit), with 14 for Blammo!
    assert summaries[2] == (flags(BLAMMO, SOCKTOPUS), flags(GLITCH, CHATTERFLY), 0, 7)
    # D: 5 Slinko (all of them, 10) and 5 Chatterfly (5), 1 Socktopus (-1); three strays
    assert summaries[3] == (flags(SLINKO, CHATTERFLY), flags(GLITCH, SWEETBEE, SOCKTOPUS), 0, 14)


@pytest.mark.parametrize("n", [3, 6])
def test_hand_summary_scores_each_seats_own_hand_through_random_play(n):
    env = sm.parallel_env(num_players=n, memory=False, tick_cap=30)
    observations, _ = env.reset(seed=n)
    rng = np.random.default_rng(n)
    checked = 0
    while env.agents:
        states = env.table.states[0]
        for seat, agent in enumerate(env.possible_agents):
            if agent not in observations:
                continue
            hand = states["hand"][seat].tolist()
            majorities, strays, valid, score = hand_summary(observations[agent]["observation"], n)
            assert valid == sm.is_all_majorities(hand)
            assert majorities == [int(2 * c > t) for c, t in zip(hand, sm.SUIT_COUNTS, strict=True)]
            assert strays == [int(0 < 2 * c <= t) for c, t in zip(hand, sm.SUIT_COUNTS, strict=True)]
            hands = [[0] * 9] * n
            hands[seat] = hand
            assert score == sm.score_round(hands, int(states["exchange"]), stonks_bonus=0)[seat]
            checked += 1
        actions = {a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in env.agents}
        observations, *_ = env.step(actions)
    assert checked >= 3 * n  # every seat, in each of the three rounds


def previews(observation, n):
    """The move previews of an observation: (scores, strays) after EXCHANGE, TAKE and getting."""
    o = observation[n * n + 30 * n + 41 : n * n + 34 * n + 55].astype(int).tolist()
    m = n - 1
    return (o[0:9], o[9:18]), (o[18 : 18 + m], o[18 + m : 18 + 2 * m]), (o[18 + 2 * m : 18 + 3 * m], o[18 + 3 * m :])


def score_and_strays(hand, exchange_suit, n):
    hands = [[0] * 9] * n
    hands[0] = hand
    strays = sum(0 < 2 * c <= t for c, t in zip(hand, sm.SUIT_COUNTS, strict=True))
    return sm.score_round(hands, exchange_suit, stonks_bonus=0)[0], strays


@pytest.mark.parametrize("n", [3, 6])
def test_move_previews_score_each_move_through_random_play(n):
    env = sm.parallel_env(num_players=n, memory=False, tick_cap=30)
    observations, _ = env.reset(seed=n)
    rng = np.random.default_rng(n)
    checked = {"exchange": 0, "take": 0, "get": 0}
    while env.agents:
        st = env.table.states[0]
        for seat, agent in enumerate(env.possible_agents):
            if agent not in observations:
                continue
            hand, ex = st["hand"][seat].tolist(), int(st["exchange"])
            now = score_and_strays(hand, ex, n)
            (ex_scores, ex_strays), (take_scores, take_strays), (get_scores, get_strays) = previews(
                observations[agent]["observation"], n
            )
            for suit in range(9):
                expected = now
                if suit != ex and hand[suit] > 0:
                    trial = list(hand)
                    trial[suit] -= 1
                    trial[ex] += 1
                    expected = score_and_strays(trial, suit, n)
                    checked["exchange"] += 1
                assert (ex_scores[suit], ex_strays[suit]) == expected
            for jr in range(1, n):
                j = (seat + jr) % n
                expected = now
                if st["ann_count"][seat] > 0 and st["bid_to"][j] == seat and st["bid_count"][j] > 0:
                    trial = list(hand)
                    trial[st["ann_suit"][seat]] -= st["ann_count"][seat]
                    trial[st["bid_suit"][j]] += st["bid_count"][j]
                    expected = score_and_strays(trial, ex, n)
                    checked["take"] += 1
                assert (take_scores[jr - 1], take_strays[jr - 1]) == expected
                expected = now
                if st["ann_count"][j] > 0:
                    trial = list(hand)
                    trial[st["ann_suit"][j]] += st["ann_count"][j]
                    expected = score_and_strays(trial, ex, n)
                    checked["get"] += 1
                assert (get_scores[jr - 1], get_strays[jr - 1]) == expected
            assert env.observation_space(agent)["observation"].contains(observations[agent]["observation"])
        actions = {a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in env.agents}
        observations, *_ = env.step(actions)
    assert min(checked.values()) > 0  # every kind of preview was open at least once
