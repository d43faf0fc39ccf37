"""The trading Stonk Market players: legal, never a false STONKS, and their choices in constructed positions."""

import numpy as np
import pytest
from stonk_market_helpers import (
    BIOHIPPO,
    CHATTERFLY,
    EXAMPLE_EXCHANGE,
    EXAMPLE_HANDS,
    GLITCH,
    SWEETBEE,
    announce,
    bid,
    exchange,
    stonks,
    table_env,
    take,
    tick,
)

from stonk_envs import stonk_market_v1 as sm
from stonk_envs.core.game import NO_ACTION
from stonk_envs.policies import RandomPolicy, make_player
from stonk_envs.policies.games import make_game
from stonk_envs.policies.stonk_market_trader import (
    StonkMarketAggressive,
    StonkMarketCautious,
    StonkMarketCloser,
    StonkMarketTrader,
)

N = 4
STYLES = (StonkMarketTrader, StonkMarketCautious, StonkMarketAggressive)
# p0 holds 3 of 5 Glitch & Co. only: a valid call worth 3 + 5 = 8; the Exchange holds a BioHippo
SMALL_HAND = [[3, 0, 0, 0, 0, 0, 0, 0, 0], [2, 5, 5, 7, 0, 0, 0, 0, 0], [0, 0, 0, 0, 7, 7, 0, 0, 0],
              [0, 0, 0, 0, 0, 0, 7, 9, 8]]


def choose(env, seat, style=StonkMarketTrader):
    view = env.table.observe(seat)
    player = style(env.table.game.num_players)
    action = int(player.act(view["observation"][None], view["action_mask"][None], np.random.default_rng(0))[0])
    assert view["action_mask"][action]
    return action


@pytest.mark.parametrize("style", STYLES)
def test_calls_stonks_only_when_the_call_is_valid(style):
    env = table_env(EXAMPLE_HANDS, EXAMPLE_EXCHANGE)
    assert choose(env, 0, style) == stonks(N)  # 7 Greedle and 9 BioHippo: all majorities, 32 + 5
    assert choose(env, 1, style) != stonks(N)  # 2 of 5 Glitch & Co. is no majority
    assert choose(env, 3, style) != stonks(N)


def test_the_cautious_player_waits_for_a_bigger_call():
    env = table_env(SMALL_HAND, BIOHIPPO)
    assert choose(env, 0, StonkMarketTrader) == stonks(N)  # 8 >= 0
    assert choose(env, 0, StonkMarketAggressive) == stonks(N)
    assert choose(env, 0, StonkMarketCautious) != stonks(N)  # 8 < 12


def at_last_round(env, totals, tick=0):
    states = env.table.states
    states["round"][0] = 2  # the last of the default three
    states["tick"][0] = tick
    states["totals"][0, :N] = totals
    env.table.state_edited()
    return env


@pytest.mark.parametrize(
    ("totals", "tick", "closes"),
    [
        ([40, 37, 20, 10], 0, True),  # leads by 3 > 2 at the last round's first tick
        ([40, 38, 20, 10], 0, False),  # by 2: plays on
        ([40, 37, 20, 10], 1, False),  # the first tick has passed
    ],
)
def test_the_closer_ends_the_last_round_at_once_with_a_lead(totals, tick, closes):
    env = at_last_round(table_env(), totals, tick)  # p0's mixed hand has no valid call
    assert (choose(env, 0, StonkMarketCloser) == stonks(N)) is closes
    assert choose(env, 0, StonkMarketTrader) != stonks(N)


def test_the_closer_plays_on_before_the_last_round():
    env = table_env()
    env.table.states["totals"][0, :N] = [40, 0, 0, 0]
    env.table.state_edited()
    assert choose(env, 0, StonkMarketCloser) != stonks(N)


def test_takes_the_bid_that_completes_a_majority():
    env = table_env()
    # p0 holds 3 of 7 Chatterfly; p2's 2 Chatterfly make it 5, a majority worth 5. p1's single
    # BioHippo would only add a stray.
    tick(env, p0=announce(GLITCH, 2))
    tick(env, p1=bid(N, 1, 0, BIOHIPPO, 1), p2=bid(N, 2, 0, CHATTERFLY, 2))
    assert choose(env, 0) == take(N, 0, 2)


def test_moves_the_penalty_onto_a_suit_opponents_hold():
    env = table_env()
    # p3 holds 2 Socktopus, the Exchange's suit (-2). Putting in a single card of a 7-card suit
    # takes the penalty off it and puts it on a suit whose 6 other cards are all out there;
    # SweetBee is the first such suit.
    assert choose(env, 3) == exchange(N, SWEETBEE)
    assert choose(env, 3, StonkMarketAggressive) == exchange(N, SWEETBEE)


@pytest.mark.parametrize("num_players", [3, 4, 5, 6])
def test_every_style_is_legal_and_never_calls_a_false_stonks(num_players):
    game = make_game("stonk_market", num_players)
    players = [style(num_players) for style in STYLES]
    stonks_action = stonks(num_players)
    rng = np.random.default_rng(num_players)
    states = np.zeros(6, game.state_dtype)
    obs = np.zeros((num_players, game.observation_bounds[0].shape[0]), np.float32)
    masks = np.zeros((num_players, game.num_actions), np.int8)
    rewards, voids = np.zeros(num_players, np.float32), np.zeros(num_players, np.int8)
    checked = calls = 0
    for i in range(len(states)):
        game.reset(states, i, 200 + i)
        for step in range(200):
            game.observe_all(states, i, obs)
            for seat in range(num_players):
                game.legal_mask(states, i, seat, masks[seat])
            for player in players:
                actions = player.act(obs, masks, rng)
                assert masks[np.arange(num_players), actions].all()
                for row, action in zip(obs, actions, strict=True):
                    if action == stonks_action:
                        calls += 1
                        assert sm.is_all_majorities(row[:9].astype(int))
                checked += num_players
            # traders in half the seats, random players (who call false STONKS) in the rest
            joint = RandomPolicy().act(obs, masks, rng)
            joint[::2] = players[step % 3].act(obs[::2], masks[::2], rng)
            joint[1::2] = np.where(joint[1::2] == stonks_action, 0, joint[1::2])
            if game.step(states, i, np.where(masks.any(axis=1), joint, NO_ACTION), rewards, voids):
                break
    assert checked > 1000 and calls > 0


def test_built_in_names_resolve_to_the_styles():
    assert type(make_player("heuristic", "stonk_market", 5)) is StonkMarketTrader
    assert type(make_player("cautious", "stonk_market", 3)) is StonkMarketCautious
    assert type(make_player("aggressive", "stonk_market", 6)) is StonkMarketAggressive
    assert type(make_player("closer", "stonk_market", 4)) is StonkMarketCloser


def test_rejects_observations_of_another_player_count():
    with pytest.raises(ValueError, match="for 4 players"):
        StonkMarketTrader(4).act(np.zeros((1, 120), np.float32), np.zeros((1, 257), np.int8), None)
    with pytest.raises(ValueError, match="3-6 players"):
        StonkMarketTrader(2)
