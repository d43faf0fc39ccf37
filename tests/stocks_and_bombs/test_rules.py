"""Rulings B1-B7a played out from scripted positions, with exact numbers."""

import numpy as np
import pytest

from tests.stocks_and_bombs.scripting import WAIT, accept, place, play, propose, resolution_order, stop, table

OWN = [[(p, 1), (p, 2), (p, 3)] for p in range(4)]


def totals(states, n=4):
    return [int(x) for x in states["totals"][0, :n]]


def test_setup_gives_everyone_their_own_pieces_and_a_permutation_of_targets():
    for seed in range(20):
        _env, states = table(num_players=5, seed=seed)
        assert [int(h) for h in states["holder"][0, :15]] == [p // 3 for p in range(15)]
        assert sorted(int(t) for t in states["target"][0, :5]) == [0, 1, 2, 3, 4]


def test_targets_may_be_the_own_colour_and_are_dealt_afresh_each_round():
    own, dealt = 0, set()
    for seed in range(200):
        _env, states = table(seed=seed)
        own += int(sum(states["target"][0, p] == p for p in range(4)))
        dealt.add(tuple(int(t) for t in states["target"][0, :4]))
    assert own > 0
    assert len(dealt) == 24  # every permutation of four targets occurs


def test_trade_swaps_pieces_after_propose_then_accept():
    env, states = table()
    play(env, [propose(0, (0, 1), (1, 3), 4), WAIT, WAIT, WAIT])
    assert (states["prop_give"][0, 0], states["prop_recv"][0, 0], states["prop_to"][0, 0]) == (0, 5, 1)
    _obs, *_ = play(env, [WAIT, accept(1, 0, 4), WAIT, WAIT])
    assert states["holder"][0, 0] == 1 and states["holder"][0, 5] == 0
    assert states["prop_give"][0, 0] == -1  # the proposal is used up


def test_proposal_replaced_and_accept_needs_the_proposal_as_seen():
    env, states = table()
    play(env, [propose(0, (0, 1), (1, 3), 4), WAIT, WAIT, WAIT])
    # In one tick player 0 replaces its offer while player 1 accepts the old one.
    _, _, _, _, infos = play(env, [propose(0, (0, 2), (1, 3), 4), accept(1, 0, 4), WAIT, WAIT])
    if states["holder"][0, 0] == 1:  # the accept resolved first and carried out the old offer
        assert infos["player_0"] == {"void": "the action was no longer possible when it resolved"}
    else:  # the offer was replaced first: the accept is void
        assert infos["player_1"] == {"void": "the action was no longer possible when it resolved"}
        assert states["prop_give"][0, 0] == 1


@pytest.mark.parametrize("seed", range(12))
def test_two_accepts_of_the_same_piece_resolve_in_the_drawn_order(seed):
    env, states = table(seed=seed)
    # Player 0 offers 0S for 1L (to player 1); player 2 offers 2S for 0S (to player 0).
    play(env, [propose(0, (0, 1), (1, 3), 4), WAIT, propose(2, (2, 1), (0, 1), 4), WAIT])
    order = resolution_order(states, 4)
    _, _, _, _, infos = play(env, [accept(0, 2, 4), accept(1, 0, 4), WAIT, WAIT])
    void = "the action was no longer possible when it resolved"
    if order.index(0) < order.index(1):  # player 0 takes 2S for its 0S first
        assert states["holder"][0, 0] == 2 and states["holder"][0, 6] == 0 and states["holder"][0, 5] == 1
        assert infos["player_1"] == {"void": void} and infos["player_0"] == {}
    else:  # player 1 takes 0S for its 1L first
        assert states["holder"][0, 0] == 1 and states["holder"][0, 5] == 0 and states["holder"][0, 6] == 2
        assert infos["player_0"] == {"void": void} and infos["player_1"] == {}
    counts = np.bincount(states["holder"][0, :12], minlength=4)
    assert counts.tolist() == [3, 3, 3, 3]


def test_a_proposal_whose_piece_moved_is_withdrawn_and_cannot_be_accepted():
    env, states = table()
    play(env, [propose(0, (0, 1), (1, 3), 4), propose(1, (1, 3), (2, 1), 4), WAIT, WAIT])
    obs, *_ = play(env, [WAIT, WAIT, accept(2, 1, 4), WAIT])  # 1L goes to player 2
    assert states["holder"][0, 5] == 2
    assert states["prop_give"][0, 0] == -1  # player 0's offer for 1L is no longer valid
    assert obs["player_1"]["action_mask"][accept(1, 0, 4)] == 0


def test_stop_scores_the_round_with_the_penalty_for_a_caller_not_on_top():
    env, states = table()
    holdings = [[(1, 3), (0, 2), (0, 3)], [(0, 1), (1, 1), (1, 2)], OWN[2], OWN[3]]
    place(env, holdings, [1, 0, 2, 3])
    # Round scores: p0 3 - 1 = 2; p1 1 - 3 = -2; p2 and p3 hold only their own colour: 0.
    _, _rewards, *_ = play(env, [WAIT, WAIT, stop(4), WAIT])
    assert totals(states) == [2, 0, 0, 0]  # p1 floored at 0; the caller p2 (0 < 2) floored too
    assert [int(x) for x in states["last_scores"][0, :4]] == [2, -2, 0, 0]
    states["totals"][0, :4] = [5, 5, 5, 5]
    place(env, holdings, [1, 0, 2, 3])
    play(env, [WAIT, WAIT, stop(4), WAIT])
    assert totals(states) == [7, 3, 4, 5]  # the caller p2 loses one point


def scored_after_stop_by_player_0(holdings, targets):
    env, states = table()
    states["totals"][0, :4] = [3, 3, 3, 3]
    place(env, holdings, targets)
    play(env, [stop(4), WAIT, WAIT, WAIT])
    return totals(states)


def test_stop_penalty_depends_on_the_callers_round_score_with_ties():
    targets = [1, 0, 3, 2]
    # Sole top: p0 3 - 1 = 2; p1 1 - 3 = -2; p2 2 - 1 = 1; p3 1 - 2 = -1.
    sole = [[(1, 3), (0, 2), (0, 3)], [(0, 1), (1, 1), (1, 2)], [(3, 2), (2, 2), (2, 3)], [(2, 1), (3, 1), (3, 3)]]
    assert scored_after_stop_by_player_0(sole, targets) == [5, 1, 4, 2]
    # Tied top: p0 2 and p2 3 - 1 = 2; p3 1 - 3 = -2. No penalty.
    tied = [[(1, 3), (0, 2), (0, 3)], [(0, 1), (1, 1), (1, 2)], [(3, 3), (2, 2), (2, 3)], [(2, 1), (3, 1), (3, 2)]]
    assert scored_after_stop_by_player_0(tied, targets) == [5, 1, 5, 1]
    # Below the top: p0 3 - 2 = 1 against p2's 2; p1 2 - 3 = -1; p3 -2. The caller loses one.
    below = [[(1, 3), (0, 1), (0, 3)], [(0, 2), (1, 1), (1, 2)], [(3, 3), (2, 2), (2, 3)], [(2, 1), (3, 1), (3, 2)]]
    assert scored_after_stop_by_player_0(below, targets) == [3, 2, 5, 1]


def test_stop_ends_the_tick_midway_and_later_actions_are_void():
    env, states = table(seed=3)
    order = resolution_order(states, 4)
    _, _, _, _, infos = play(env, [stop(4), propose(1, (1, 1), (0, 1), 4), WAIT, WAIT])
    if order.index(0) < order.index(1):
        assert infos["player_1"]["void"] == "the round ended earlier in this tick"
    else:
        assert "void" not in infos["player_1"]
    assert states["round"][0] == 1 and states["tick"][0] == 0  # a new round was dealt
    assert [int(h) for h in states["holder"][0, :12]] == [p // 3 for p in range(12)]
    assert states["prop_give"][0, 1] == -1


def test_tick_cap_scores_the_round_without_a_caller():
    env, states = table(tick_cap=3)
    holdings = [[(1, 3), (0, 2), (0, 3)], [(0, 1), (1, 1), (1, 2)], OWN[2], OWN[3]]
    place(env, holdings, [1, 0, 2, 3])
    for _ in range(2):
        play(env, [WAIT] * 4)
        assert states["round"][0] == 0
    play(env, [WAIT] * 4)
    assert states["round"][0] == 1
    assert totals(states) == [2, 0, 0, 0]


def test_game_ends_after_the_round_in_which_a_total_reaches_twelve():
    env, states = table()
    states["totals"][0, :4] = [10, 11, 0, 0]
    holdings = [[(1, 3), (0, 2), (0, 3)], [(0, 1), (1, 1), (1, 2)], OWN[2], OWN[3]]
    place(env, holdings, [1, 0, 2, 3])
    _obs, rewards, terms, truncs, infos = play(env, [stop(4), WAIT, WAIT, WAIT])
    assert totals(states) == [12, 9, 0, 0]
    assert all(terms.values()) and not any(truncs.values())
    assert rewards == {"player_0": 1.0, "player_1": pytest.approx(-1 / 3), "player_2": pytest.approx(-1 / 3),
                       "player_3": pytest.approx(-1 / 3)}
    assert [infos[f"player_{p}"]["score"] for p in range(4)] == [12.0, 9.0, 0.0, 0.0]
    assert env.agents == []


def test_tied_winners_share_the_reward():
    env, states = table()
    states["totals"][0, :4] = [10, 14, 0, 0]
    holdings = [[(1, 3), (0, 2), (0, 3)], [(0, 1), (1, 1), (1, 2)], OWN[2], OWN[3]]
    place(env, holdings, [1, 0, 2, 3])
    # p0 scores 2 and p1 -2: both end on 12. Winners get (4 - 2) / (2 * 3), losers -1/3.
    _, rewards, terms, *_ = play(env, [stop(4), WAIT, WAIT, WAIT])
    assert totals(states) == [12, 12, 0, 0] and all(terms.values())
    assert rewards["player_0"] == rewards["player_1"] == pytest.approx(1 / 3)
    assert rewards["player_2"] == rewards["player_3"] == pytest.approx(-1 / 3)


def test_round_cap_ends_the_game():
    env, states = table(round_cap=2)
    _, _, terms, *_ = play(env, [stop(4), WAIT, WAIT, WAIT])
    assert not any(terms.values())
    _, rewards, terms, *_ = play(env, [stop(4), WAIT, WAIT, WAIT])
    assert all(terms.values()) and states["round"][0] == 2
    assert sum(rewards.values()) == pytest.approx(0)


@pytest.mark.parametrize("mode", ["score_diff", "round_diff"])
def test_other_reward_modes_are_zero_sum_and_scaled_by_points_to_win(mode):
    env, states = table(reward_mode=mode)
    holdings = [[(1, 3), (0, 2), (0, 3)], [(0, 1), (1, 1), (1, 2)], OWN[2], OWN[3]]
    place(env, holdings, [1, 0, 2, 3])
    states["totals"][0, :4] = [10, 4, 4, 4]
    _, rewards, terms, *_ = play(env, [stop(4), WAIT, WAIT, WAIT])
    assert all(terms.values()) and totals(states) == [12, 2, 4, 4]
    if mode == "score_diff":  # (total - mean 5.5) / 12
        expected = [(12 - 5.5) / 12, (2 - 5.5) / 12, (4 - 5.5) / 12, (4 - 5.5) / 12]
    else:  # round gains 2, -2, 0, 0 with mean 0, over 12
        expected = [2 / 12, -2 / 12, 0.0, 0.0]
    assert [rewards[f"player_{p}"] for p in range(4)] == pytest.approx(expected)


@pytest.mark.parametrize("seed", range(12))
def test_a_proposal_for_a_piece_that_changed_hands_earlier_in_the_tick_is_void(seed):
    env, states = table(seed=seed)
    # Player 1 offers 1S for 0S (to player 0).
    play(env, [WAIT, propose(1, (1, 1), (0, 1), 4), WAIT, WAIT])
    order = resolution_order(states, 4)
    # Player 0 accepts, moving 0S to player 1, while player 2 asks player 0 for 0S.
    _, _, _, _, infos = play(env, [accept(0, 1, 4), WAIT, propose(2, (2, 1), (0, 1), 4), WAIT])
    assert states["holder"][0, 0] == 1 and states["holder"][0, 3] == 0
    if order.index(0) < order.index(2):  # 0S moved first: the proposal is stale, not re-addressed to player 1
        assert infos["player_2"] == {"void": "the action was no longer possible when it resolved"}
    else:  # addressed to player 0, then withdrawn when 0S left player 0
        assert infos["player_2"] == {}
    assert states["prop_give"][0, 2] == -1 and states["prop_to"][0, 2] == -1
    assert infos["player_0"] == {}


@pytest.mark.parametrize("seed", range(8))
def test_a_wait_after_stop_in_the_same_tick_is_not_void(seed):
    env, states = table(seed=seed)
    order = resolution_order(states, 4)
    _, _, _, _, infos = play(env, [WAIT, stop(4), WAIT, propose(3, (3, 1), (0, 1), 4)])
    assert states["round"][0] == 1
    assert infos["player_0"] == {} and infos["player_2"] == {}
    after_stop = order.index(1) < order.index(3)
    assert infos["player_3"] == ({"void": "the round ended earlier in this tick"} if after_stop else {})
