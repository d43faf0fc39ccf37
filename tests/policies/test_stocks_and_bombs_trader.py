"""The trading Stocks & Bombs players: legal everywhere, and their choices in constructed positions."""

import numpy as np
import pytest

from stonk_envs.core.game import NO_ACTION
from stonk_envs.games.stocks_and_bombs import core
from stonk_envs.policies import RandomPolicy, make_player
from stonk_envs.policies.games import make_game
from stonk_envs.policies.stocks_and_bombs_trader import (
    StocksAndBombsAggressive,
    StocksAndBombsCautious,
    StocksAndBombsTrader,
)

N = 4
ACCEPT = 9 * N * N  # + relative seat
STOP = 9 * N * N + N
STYLES = (StocksAndBombsTrader, StocksAndBombsCautious, StocksAndBombsAggressive)


def piece(colour, size):
    """Piece id of a colour's Small (1), Medium (2) or Large (3)."""
    return colour * 3 + size - 1


def position(targets, moves=(), proposals=(), tick=0):
    """A 4-player state: own pieces, then ``moves`` (piece, new holder), proposals and tick."""
    states = np.zeros(1, dtype=core.STATE_DTYPE)
    core.init(states[0], 7, N, 100, 30, 12, 0)
    s = states[0]
    s["target"][:N] = targets
    for p, holder in moves:
        s["holder"][p] = holder
    for proposer, give, receive in proposals:
        s["prop_give"][proposer] = give
        s["prop_recv"][proposer] = receive
        s["prop_to"][proposer] = s["holder"][receive]
    s["tick"] = tick
    return states


def decide(states, seat, player_class=StocksAndBombsTrader):
    obs = np.zeros(core.obs_size(N), np.float32)
    mask = np.zeros(core.num_actions(N), np.int8)
    core.observe(states[0], seat, obs)
    core.legal_mask(states[0], seat, mask)
    action = player_class(N).act(obs[None], mask[None], np.random.default_rng(0))[0]
    assert mask[action]
    return int(action)


def propose_action(give_rel, receive_rel):
    return 1 + give_rel * 3 * N + receive_rel


def test_opens_with_equal_swaps_of_own_pieces_rotating_every_three_ticks():
    # Seat 0 targets colour 2. An equal swap of own pieces changes no score for anyone, and
    # gives both sides a piece others may pay for; with the target's owner it gains nothing.
    # Six such swaps tie (S, M, L with players 1 and 3); it walks them in index order.
    assert decide(position([2, 3, 1, 0]), 0) == propose_action(piece(0, 1), piece(1, 1))
    assert decide(position([2, 3, 1, 0], tick=3), 0) == propose_action(piece(0, 1), piece(3, 1))
    assert decide(position([2, 3, 1, 0], tick=6), 0) == propose_action(piece(0, 2), piece(1, 2))


def test_accepts_a_neutral_swap_that_gives_it_currency():
    offer = (1, piece(1, 2), piece(0, 2))  # player 1 offers c1M for my c0M: scores unchanged
    assert decide(position([2, 3, 1, 0], proposals=[offer]), 0) == ACCEPT + 1


def test_accepts_the_proposal_that_brings_its_target_and_refuses_one_that_costs_it():
    # I hold c1S (from an earlier swap); player 2 offers c2L, my target's colour, for it: +3
    moves = [(piece(1, 1), 0), (piece(0, 1), 1)]
    good = (2, piece(2, 3), piece(1, 1))
    assert decide(position([2, 3, 1, 0], moves=moves, proposals=[good]), 0) == ACCEPT + 2
    # c2S for my c0L would put 3 of my pips with my target's owner: 1 - 3 = -2, refused
    bad = (2, piece(2, 1), piece(0, 3))
    assert decide(position([2, 3, 1, 0], moves=moves, proposals=[bad]), 0) != ACCEPT + 2


def test_stops_when_nobody_can_beat_its_score():
    # I hold c2L and c2M and player 2 holds none of my pieces: 5 points. The best anyone else
    # can have under any target is player 1's 3 (holding my c0L, if it targets colour 0).
    moves = [(piece(2, 3), 0), (piece(2, 2), 0), (piece(0, 3), 1), (piece(1, 3), 2), (piece(0, 2), 3), (piece(3, 2), 0)]
    for style in STYLES:
        assert decide(position([2, 3, 1, 0], moves=moves), 0, style) == STOP


def test_waits_for_a_lead_before_stop_and_ends_a_stalled_round():
    # I hold c2S: 1 point; player 1 may score 3 with my c0L: no STOP yet, it trades on
    moves = [(piece(2, 1), 0), (piece(0, 1), 2), (piece(0, 3), 1), (piece(1, 3), 0)]
    assert decide(position([2, 3, 1, 0], moves=moves), 0) != STOP
    # nobody has anything: it keeps trading until ``stall`` ticks (30), then ends the round
    assert decide(position([2, 3, 1, 0], tick=29), 0) != STOP
    assert decide(position([2, 3, 1, 0], tick=30), 0) == STOP


@pytest.mark.parametrize("num_players", [4, 5, 6])
def test_every_style_is_legal_in_random_positions(num_players):
    game = make_game("stocks_and_bombs", num_players)
    players = [style(num_players) for style in STYLES]
    rng = np.random.default_rng(num_players)
    states = np.zeros(8, game.state_dtype)
    obs = np.zeros((num_players, game.observation_bounds[0].shape[0]), np.float32)
    masks = np.zeros((num_players, game.num_actions), np.int8)
    rewards, voids = np.zeros(num_players, np.float32), np.zeros(num_players, np.int8)
    checked = 0
    for i in range(len(states)):
        game.reset(states, i, 100 + i)
        for _ in range(150):
            game.observe_all(states, i, obs)
            for seat in range(num_players):
                game.legal_mask(states, i, seat, masks[seat])
            for player in players:
                actions = player.act(obs, masks, rng)
                assert masks[np.arange(num_players), actions].all()
                checked += num_players
            # mostly random play (so positions vary), with the trader in seat 0
            joint = RandomPolicy().act(obs, masks, rng)
            joint[0] = players[0].act(obs[:1], masks[:1], rng)[0]
            if game.step(states, i, np.where(masks.any(axis=1), joint, NO_ACTION), rewards, voids):
                break
    assert checked > 1000


def test_built_in_names_resolve_to_the_styles():
    assert type(make_player("heuristic", "stocks_and_bombs", 5)) is StocksAndBombsAggressive
    assert type(make_player("steady", "stocks_and_bombs", 5)) is StocksAndBombsTrader
    assert type(make_player("cautious", "stocks_and_bombs", 4)) is StocksAndBombsCautious
    assert type(make_player("aggressive", "stocks_and_bombs", 6)) is StocksAndBombsAggressive


def test_rejects_bad_settings_and_observations():
    with pytest.raises(ValueError, match="4-6 players"):
        StocksAndBombsTrader(3)
    with pytest.raises(ValueError, match="rotate must be >= 1 tick, got 0"):
        StocksAndBombsTrader(4, rotate=0)
    with pytest.raises(ValueError, match="observations of size 163 and masks of size 149 for 4 players"):
        StocksAndBombsTrader(4).act(np.zeros((1, 10), np.float32), np.ones((1, 149), np.int8), None)
