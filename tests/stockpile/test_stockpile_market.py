"""The public pure functions: price movement (S13) and the end score (S14)."""

import pytest

from stonk_envs import stockpile_v1
from stonk_envs.games.stockpile import final_scores, move_price


def test_rule_text_split_example():
    # Epic Electric at 9 with +4: 10, split back to 6, then 7, 8.
    assert move_price(9, 4) == (8, 1, False)


@pytest.mark.parametrize(
    ("price", "steps", "expected"),
    [
        (10, 1, (6, 1, False)),  # landing exactly on the split space resets to 6
        (8, 2, (10, 0, False)),  # reaching 10 is not a split
        (5, 0, (5, 0, False)),
        (6, -3, (3, 0, False)),
        (1, -1, (5, 0, True)),
        (2, -3, (5, 0, True)),  # bankrupt on the second step; the third is lost
        (3, -3, (5, 0, True)),
        (4, -3, (1, 0, False)),
    ],
)
def test_move_price_steps(price, steps, expected):
    assert move_price(price, steps) == expected


def test_two_splits_in_one_move_with_a_short_track():
    # Track 1..4 with reset 2: 3, 4, split->2, 3, 4, split->2, 3.
    assert move_price(2, 7, max_price=4, split_reset=2, start_price=3) == (3, 2, False)


def test_bankruptcy_ends_the_movement_at_the_start_price():
    assert move_price(1, -5, start_price=7) == (7, 0, True)


def test_move_price_is_exported_by_the_env_module():
    assert stockpile_v1.move_price(9, 4) == (8, 1, False)
    assert stockpile_v1.final_scores is final_scores


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 1), "price"),
        ((11, 1), "price"),
        ((5.0, 1), "price must be an integer"),
        ((5, "2"), "steps must be an integer"),
        ((True, 1), "price must be an integer"),
    ],
)
def test_move_price_rejects_bad_input(args, message):
    with pytest.raises(ValueError, match=message):
        move_price(*args)


def test_move_price_rejects_a_reset_off_the_track():
    with pytest.raises(ValueError, match="split_reset"):
        move_price(5, 1, split_reset=11)


ZERO = [0] * 6


def test_sole_majority_sell_back_and_debt():
    prices = [4, 5, 6, 7, 8, 9]
    regular = [[3, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 2], ZERO]
    split = [ZERO, ZERO, [0, 0, 0, 0, 0, 1]]
    # CC: p0 holds 3, p1 1 -> p0 alone, $10K. EE: p1's 2 regular tie p2's split card (counts 2).
    # p0: 10 + 10 + 3*4 = 32; p1: 0 + 5 + 1*4 + 2*9 - 3 = 24; p2: 1 + 5 + 2*9 = 24.
    assert final_scores(prices, regular, split, [10, 0, 1], [0, 3, 0]) == [32, 24, 24]


def test_majority_ties():
    prices = [5] * 6
    regular = [[2, 0, 0, 0, 0, 0], [0] * 6, [2, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]]
    split = [ZERO, [1, 0, 0, 0, 0, 0], ZERO, ZERO]
    # CC: 2, 2 (one split card), 2 -> a three-way tie, $5K each; BB: p3 alone, $10K.
    scores = final_scores(prices, regular, split, [0, 0, 0, 0], [0, 0, 0, 0])
    assert scores == [5 + 10, 5 + 10, 5 + 10, 10 + 5]


def test_no_bonus_for_a_company_nobody_holds():
    assert final_scores([5] * 6, [ZERO, ZERO, ZERO], [ZERO, ZERO, ZERO], [7, 8, 9], [0, 0, 0]) == [7, 8, 9]


def test_majority_bonus_values_are_options():
    regular = [[1, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0], ZERO]
    scores = final_scores([1] * 6, regular, [ZERO] * 3, [0, 0, 0], [0, 0, 0], majority_bonus=7, majority_tie_bonus=3)
    assert scores == [1 + 3, 2 + 3 + 7, 0]


def test_debt_larger_than_cash_gives_a_negative_worth():
    assert final_scores([5] * 6, [ZERO] * 3, [ZERO] * 3, [1, 0, 0], [6, 0, 0]) == [-5, 0, 0]


def test_debts_may_be_given_as_lists_of_fees():
    assert final_scores([5] * 6, [ZERO] * 3, [ZERO] * 3, [4, 0, 2], [[3, 2], [], 1]) == [-1, 0, 1]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"prices": [5] * 5}, "prices must have 6"),
        ({"prices": [5, 5, 5, 5, 5, 0]}, "prices"),
        ({"regular": [ZERO, ZERO]}, "regular must have one row per player"),
        ({"split": [ZERO, ZERO, [0] * 5]}, r"split\[2\] must have 6"),
        ({"regular": [ZERO, ZERO, [0, -1, 0, 0, 0, 0]]}, r"regular\[2\]\[1\]"),
        ({"cash": [1, -2, 0]}, r"cash\[1\]"),
        ({"debts": [0, 0]}, "debts must have one entry per player"),
        ({"debts": [0, 0, -1]}, r"debts\[2\]"),
        ({"debts": [0, [1, -2], 0]}, r"debts\[1\]\[1\]"),
    ],
)
def test_final_scores_rejects_bad_input(kwargs, message):
    args = {"prices": [5] * 6, "regular": [ZERO] * 3, "split": [ZERO] * 3, "cash": [0, 0, 0], "debts": [0, 0, 0]}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        final_scores(**args)
