"""The basic Stocks & Bombs player (the earlier heuristic): scoring, choices in constructed positions, strength."""

import numpy as np
import pytest

from stonk_envs.evaluation import evaluate
from stonk_envs.games.stocks_and_bombs import core
from stonk_envs.policies import make_player
from stonk_envs.policies.stocks_and_bombs_heuristic import StocksAndBombsHeuristic, pips_held, score_table
from stonk_envs.policies.stocks_and_bombs_trader import round_score

N = 4
STOP = 9 * N * N + N


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


def decide(states, seat):
    obs = np.zeros(core.obs_size(N), np.float32)
    mask = np.zeros(core.num_actions(N), np.int8)
    core.observe(states[0], seat, obs)
    core.legal_mask(states[0], seat, mask)
    action = StocksAndBombsHeuristic(N).act(obs[None], mask[None], np.random.default_rng(0))[0]
    assert mask[action]
    return int(action)


def propose_action(give_rel, receive_rel):
    return 1 + give_rel * 3 * N + receive_rel


def test_score_table_and_round_score_match_the_rules_on_random_tables():
    rng = np.random.default_rng(3)
    for n in (4, 5, 6):
        for _ in range(100):
            holder = np.full(core.MAX_PIECES, core.NONE, np.int8)
            holder[: 3 * n] = rng.permutation(np.repeat(np.arange(n), 3))
            targets = rng.permutation(n).astype(np.int8)
            expected = np.zeros(n, np.int32)
            core.round_scores(holder, targets, n, expected)
            pips = pips_held(holder[: 3 * n].astype(np.int64), n)
            table = score_table(pips)
            assert table[np.arange(n), targets].tolist() == expected.tolist()
            assert [[round_score(pips, n, q, t) for t in range(n)] for q in range(n)] == table.tolist()


def test_score_table_on_the_rule_texts_example():
    # Blue (0) targets Yellow (1) and holds Yellow S, M and Green L; Yellow holds Blue M: 1 point
    holdings = [[(1, 1), (1, 2), (2, 3)], [(3, 1), (0, 2), (3, 3)], [(0, 1), (2, 2), (1, 3)], [(2, 1), (0, 3), (3, 2)]]
    holder = np.zeros(12, np.int64)
    for p, pieces in enumerate(holdings):
        for colour, size in pieces:
            holder[piece(colour, size)] = p
    table = score_table(pips_held(holder, 4))
    assert table[0, 1] == 1
    assert table[1, 0] == 2 - 3  # Yellow targeting Blue: Blue M, minus Yellow S + M held by Blue
    assert table[2, 2] == (1 - 3) + (3 - 0)  # Green targeting itself: Blue S vs Green L, Yellow L vs nothing


def test_opening_asks_its_targets_large_for_its_own_small():
    # seat 0 targets colour 2: giving c0S (to player 2, -1) for c2L (+3) gains 2, the best swap
    assert decide(position([2, 3, 1, 0]), 0) == propose_action(0, piece(2, 3))
    # the same position from seat 1 (target colour 3, relative colour 2) gives the same relative action
    assert decide(position([2, 3, 1, 0]), 1) == propose_action(0, piece(2, 3))


def test_accepts_the_proposal_that_helps_it_and_ignores_neutral_ones():
    helpful = (2, piece(2, 2), piece(0, 1))  # player 2 gives c2M (+2) for my c0S (-1): gain 1
    neutral = (1, piece(1, 3), piece(0, 3))  # player 1 gives c1L for my c0L: gain 0
    assert decide(position([2, 3, 1, 0], proposals=[neutral, helpful]), 0) == 9 * N * N + 2
    assert decide(position([2, 3, 1, 0], proposals=[neutral]), 0) == propose_action(0, piece(2, 3))


def test_stops_when_ahead_of_what_it_can_see():
    # I hold c2L, c2M, c0L; player 2 holds c0S, c0M, c2S: my score 5 - 3 = 2, the others' at most 0 expected
    moves = [(piece(2, 3), 0), (piece(2, 2), 0), (piece(0, 1), 2), (piece(0, 2), 2)]
    assert decide(position([2, 3, 1, 0], moves=moves), 0) == STOP


def test_keeps_trading_at_zero_and_stops_a_stalled_round_after_its_patience():
    assert decide(position([2, 3, 1, 0], tick=4), 0) == propose_action(0, piece(2, 3))
    assert decide(position([2, 3, 1, 0], tick=5), 0) == STOP  # nobody can be ahead of 0 yet: no penalty


def test_rejects_a_wrong_player_count_or_observation_size():
    with pytest.raises(ValueError, match="4-6 players"):
        StocksAndBombsHeuristic(3)
    with pytest.raises(ValueError, match="observations of size 163"):
        StocksAndBombsHeuristic(4).act(np.zeros((1, 10), np.float32), np.ones((1, 149), np.int8), None)


@pytest.mark.parametrize("num_players", [5, 6])
def test_plays_legally_at_every_player_count(num_players):
    players = ["basic"] + ["random"] * (num_players - 1)
    report = evaluate("stocks_and_bombs", players, 10, num_players=num_players, progress=False)
    assert report.player("basic").games == 10  # the runner raises on any illegal action


def test_beats_three_random_players_clearly():
    report = evaluate("stocks_and_bombs", ["basic", "random", "random", "random"], 100, seed=11, progress=False)
    heuristic = report.player("basic")
    assert heuristic.win_rate >= 0.5
    assert heuristic.ci_low > 0.25


def test_is_the_games_basic_player():
    assert isinstance(make_player("basic", "stocks_and_bombs", 4), StocksAndBombsHeuristic)


def test_every_opening_swap_it_accepts_puts_it_ahead_and_it_stops_at_once():
    # Why no player can win a round against three basic players: from the opening, every swap
    # with seat 0 that the partner accepts (its score strictly rises) leaves seat 0 at 0 or below
    # and the partner strictly ahead, and the partner calls STOP in the very next tick.
    from itertools import permutations

    observations, masks = [], []
    for targets in permutations(range(N)):
        for partner in range(1, N):
            for give_size in (1, 2, 3):
                for receive_size in (1, 2, 3):
                    moves = [(piece(0, give_size), partner), (piece(partner, receive_size), 0)]
                    states = position(list(targets), moves=moves, tick=1)
                    scores = np.zeros(N, np.int32)
                    core.round_scores(states[0]["holder"], states[0]["target"], N, scores)
                    if scores[partner] <= 0:
                        continue  # the partner refuses: its score does not strictly rise
                    assert scores[0] <= 0 < scores[partner]
                    observations.append(np.zeros(core.obs_size(N), np.float32))
                    masks.append(np.zeros(core.num_actions(N), np.int8))
                    core.observe(states[0], partner, observations[-1])
                    core.legal_mask(states[0], partner, masks[-1])
    actions = StocksAndBombsHeuristic(N).act(np.array(observations), np.array(masks), np.random.default_rng(0))
    assert len(actions) > 0
    assert (actions == STOP).all()
