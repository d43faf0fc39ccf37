"""The rule-based Stonk Market player: legal, calls only valid STONKS, beats random players."""

import numpy as np
import pytest
from stonk_market_helpers import (
    BIOHIPPO,
    EXAMPLE_EXCHANGE,
    EXAMPLE_HANDS,
    GLITCH,
    GREEDLE,
    MIXED_HANDS,
    SOCKTOPUS,
    announce,
    bid,
    exchange,
    stonks,
    table_env,
    take,
    tick,
)

from stonk_envs import stonk_market_v1 as sm
from stonk_envs.policies import RandomPolicy, make_player
from stonk_envs.policies.stonk_market_heuristic import StonkMarketHeuristic

N = 4


def choose(env, seat):
    view = env.table.observe(seat)
    player = StonkMarketHeuristic(env.table.game.num_players)
    return int(player.act(view["observation"][None], view["action_mask"][None], np.random.default_rng(0))[0])


def play(n, games, heuristic_seats, seed, **config):
    """Play seeded games; returns the heuristic seats' wins and STONKS calls, checking each action."""
    heuristic, random_player = StonkMarketHeuristic(n), RandomPolicy()
    rng = np.random.default_rng(seed)
    env = sm.parallel_env(num_players=n, **config)
    wins, calls = 0, [0]
    for g in range(games):
        mine = heuristic_seats(g)
        observations, _ = env.reset(seed=seed + g)
        while env.agents:
            obs = np.stack([observations[a]["observation"] for a in env.agents])
            masks = np.stack([observations[a]["action_mask"] for a in env.agents])
            actions = random_player.act(obs, masks, rng)
            smart = heuristic.act(obs[mine], masks[mine], rng)
            assert masks[mine, smart].all()
            for row, action in zip(obs[mine], smart, strict=True):
                calls[0] += action == heuristic.stonks
                assert action != heuristic.stonks or sm.is_all_majorities(row[:9].astype(int))
            actions[mine] = smart
            observations, rewards, _, _, infos = env.step(dict(zip(env.agents, actions.tolist(), strict=True)))
            assert all(infos[f"player_{p}"].get("void") != "the action was illegal when it was submitted" for p in mine)
        wins += sum(rewards[f"player_{p}"] > 0 for p in mine)
    return wins, calls[0]


@pytest.mark.parametrize("n", [3, 5, 6])
def test_every_action_is_legal_in_self_play(n):
    # Heuristic players never call a false STONKS, so a short tick cap keeps the games short.
    _, calls = play(n, 10, lambda g: list(range(n)), seed=100 * n, tick_cap=40)
    assert calls > 0


def test_beats_three_random_players_clearly():
    games = 300
    wins, _ = play(N, games, lambda g: [g % N], seed=7)
    print(f"heuristic win rate against three random players: {wins / games:.3f}")
    # Measured 0.73 (one in four would be chance); the bound leaves room for other seeds.
    assert wins / games > 0.55


def test_calls_stonks_only_when_the_call_is_valid():
    env = table_env(EXAMPLE_HANDS, EXAMPLE_EXCHANGE)
    assert choose(env, 0) == stonks(N)  # 7 Greedle and 9 BioHippo: all majorities
    assert choose(env, 1) != stonks(N)  # 2 of 5 Glitch & Co. is no majority
    assert choose(env, 3) != stonks(N)


def test_takes_the_bid_of_cards_it_keeps():
    env = table_env()
    # p0 keeps Greedle (2 of 7: half a majority); 1 BioHippo of 9 is a stray.
    tick(env, p0=announce(GLITCH, 2))
    tick(env, p1=bid(N, 1, 0, BIOHIPPO, 1), p2=bid(N, 2, 0, GREEDLE, 1))
    assert choose(env, 0) == take(N, 0, 2)


def test_sheds_a_stray_for_an_exchange_card_it_keeps():
    hands = [row[:] for row in MIXED_HANDS]
    hands[1][GREEDLE] -= 1
    hands[1][SOCKTOPUS] += 1
    env = table_env(hands, GREEDLE)
    # p1 keeps Greedle (2) and sheds a single Glitch & Co., the stray of the smallest suit.
    assert choose(env, 1) == exchange(N, GLITCH)


def test_moves_the_penalty_off_a_suit_it_holds():
    env = table_env()
    # p3 holds 2 Socktopus, the Exchange's suit, and is no keeper of it: it puts in a single
    # Glitch & Co. so that the penalty suit becomes one it no longer holds.
    assert choose(env, 3) == exchange(N, GLITCH)


def test_rejects_observations_of_another_player_count():
    player = StonkMarketHeuristic(4)
    with pytest.raises(ValueError, match="for 4 players"):
        player.act(np.zeros((1, 120), np.float32), np.zeros((1, 257), np.int8), np.random.default_rng(0))
    with pytest.raises(ValueError, match="3-6 players"):
        StonkMarketHeuristic(2)


def test_is_the_games_basic_player():
    player = make_player("basic", "stonk_market", 5)
    assert isinstance(player, StonkMarketHeuristic) and player.n == 5
