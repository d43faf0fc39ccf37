"""Ruling B6 through the public ``score_round``: the rule text's examples and more."""

import pytest

from stonk_envs.stocks_and_bombs_v1 import score_round

BLUE, YELLOW, GREEN, RED, WHITE = range(5)


def test_rule_text_example_target_is_another_colour():
    holdings = [
        [(YELLOW, 1), (YELLOW, 2), (GREEN, 3)],  # Blue
        [(RED, 1), (BLUE, 2), (RED, 3)],  # Yellow
        [(BLUE, 1), (GREEN, 2), (YELLOW, 3)],  # Green
        [(GREEN, 1), (BLUE, 3), (RED, 2)],  # Red
    ]
    assert score_round(holdings, [YELLOW, BLUE, RED, GREEN])[BLUE] == 1


def test_rule_text_example_target_is_own_colour():
    holdings = [
        [(YELLOW, 1), (YELLOW, 2), (GREEN, 3)],  # Blue
        [(YELLOW, 3), (GREEN, 1), (GREEN, 2)],  # Yellow holds no blue
        [(BLUE, 1), (RED, 2), (WHITE, 3)],  # Green
        [(BLUE, 2), (RED, 1), (RED, 3)],  # Red
        [(BLUE, 3), (WHITE, 1), (WHITE, 2)],  # White
    ]
    assert score_round(holdings, [BLUE, RED, GREEN, WHITE, YELLOW])[BLUE] == 5


def test_every_player_of_a_table():
    # 0 targets 1; 1 targets itself; 2 targets 3; 3 targets 0.
    holdings = [
        [(1, 3), (1, 1), (3, 1)],
        [(0, 3), (2, 3), (3, 3)],
        [(0, 1), (0, 2), (2, 2)],
        [(1, 2), (2, 1), (3, 2)],
    ]
    scores = score_round(holdings, [1, 1, 3, 0])
    # p0: holds 4 pips of colour 1 (1L, 1S); player 1 holds 3 pips of colour 0 (0L) -> 1.
    # p1 (own target) holds colours 0, 2 and 3, 3 pips each; of colour 1, player 0 holds 4,
    #   player 2 holds 0 and player 3 holds 2 -> (3 - 4) + (3 - 0) + (3 - 2).
    # p2: holds no colour 3; player 3 holds 1 pip of colour 2 -> -1.
    # p3: holds no colour 0; player 0 holds 1 pip of colour 3 -> -1.
    assert scores == [1, (3 - 4) + (3 - 0) + (3 - 2), -1, -1]


def test_own_target_ignores_own_colour_and_absent_colours():
    holdings = [
        [(0, 1), (0, 2), (0, 3)],
        [(1, 1), (1, 2), (1, 3)],
        [(2, 1), (2, 2), (2, 3)],
        [(3, 1), (3, 2), (3, 3)],
    ]
    assert score_round(holdings, [0, 1, 2, 3]) == [0, 0, 0, 0]


def test_negative_scores_are_reported_unfloored():
    # p0 targets 1 and holds only its Small; player 1 holds all of colour 0 (6 pips).
    holdings = [
        [(1, 1), (2, 2), (3, 3)],  # 1 pip of its target colour
        [(0, 1), (0, 2), (0, 3)],
        [(2, 1), (1, 2), (2, 3)],
        [(3, 1), (3, 2), (1, 3)],
    ]
    assert score_round(holdings, [1, 0, 3, 2])[0] == 1 - 6


@pytest.mark.parametrize(
    ("holdings", "targets", "message"),
    [
        ([[(0, 4)]], [0], "size 1..3"),
        ([[(0, 1), (0, 1)]], [0], "held twice"),
        ([[(0, 1), (0, 2)]], [0], "missing"),
        ([[(0, 1), (0, 2), (0, 3)]], [3], "target of player 0"),
        ([[(0, 1), (0, 2), (0, 3)]], [0, 0], "one target each"),
    ],
)
def test_bad_tables_are_rejected(holdings, targets, message):
    with pytest.raises(ValueError, match=message):
        score_round(holdings, targets)
