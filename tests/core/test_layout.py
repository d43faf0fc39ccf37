"""Layouts as tables of named sections: formulas, spans, start tables, bounds and Markdown."""

import numpy as np
import pytest

from stonk_envs.core.layout import Layout, Section, at, evaluate
from stonk_envs.games.stockpile.memory import MEMORY as STOCKPILE_MEMORY
from stonk_envs.games.stockpile.observe import OBSERVATION as STOCKPILE
from stonk_envs.games.stocks_and_bombs.observe import MEMORY as STOCKS_AND_BOMBS_MEMORY
from stonk_envs.games.stocks_and_bombs.observe import OBSERVATION as STOCKS_AND_BOMBS
from stonk_envs.games.stonk_market.memory import MEMORY as STONK_MARKET_MEMORY
from stonk_envs.games.stonk_market.observe import OBSERVATION as STONK_MARKET


def first_seat(values):
    """1 for me, 0 for the others"""
    return np.eye(values["n"])[0]


TOY = Layout([
    Section("hand", "9", "my cards", "T"),
    Section("seats", "2", "one block per seat", ("cash", 1), repeat="n"),
    Section("mine", "n", "who I am", first_seat, low=-1),
])  # fmt: skip


def test_formulas_evaluate_with_the_named_values():
    assert evaluate("min(W - 1 + X, R * X)", {"W": 40, "X": 9, "R": 3}) == 27
    assert evaluate("2 * (n - 1) + n // 2 - -1", {"n": 5}) == 11
    assert evaluate(7, {}) == 7


@pytest.mark.parametrize(("formula", "problem"), [("n ** 2", "is not"), ("open('x')", "is not"), ("q + 1", "'q'")])
def test_a_formula_outside_the_arithmetic_is_refused_by_name(formula, problem):
    with pytest.raises(ValueError, match=problem):
        evaluate(formula, {"n": 3})


def test_spans_and_sizes_follow_the_sections():
    assert TOY.spans(3) == {"hand": (0, 9), "seats": (9, 6), "mine": (15, 3)}
    assert TOY.spans(3, start=100)["mine"] == (115, 3)
    assert TOY.size(3) == 18
    assert TOY.block(3, "seats") == 2
    assert TOY.index("mine") == 2


def test_quadratics_give_the_starts_and_blocks_for_compiled_code():
    counts = range(1, 7)
    mine = TOY.quadratic("mine", counts)
    assert mine == (9, 2, 0)
    assert [at(mine, n) for n in counts] == [TOY.spans(n)["mine"][0] for n in counts]
    assert TOY.quadratic(None, counts) == (9, 3, 0)
    assert TOY.quadratic("seats", counts, block=True) == (2, 0, 0)
    assert TOY.quadratics(counts, "hand", "seats") == ((0, 0, 0), (9, 0, 0))
    steps = Layout([Section("rows", "(12 - n) // n", ""), Section("after", "1", "")])
    with pytest.raises(ValueError, match="'after' is no quadratic"):
        steps.quadratic("after", counts)
    with pytest.raises(ValueError, match="three player counts"):
        TOY.quadratic("mine", [3, 4])


def test_bounds_take_formulas_tuples_per_block_and_functions():
    low, high = TOY.bounds(2, {"T": 5, "cash": 80})
    assert low.dtype == high.dtype == np.float32
    assert high.tolist() == [5] * 9 + [80, 1, 80, 1] + [1, 0]
    assert low.tolist() == [0] * 13 + [-1, -1]


def test_the_markdown_table_shows_every_section():
    assert TOY.markdown().split("\n") == [
        "| entries | size | meaning | bounds |",
        "| --- | --- | --- | --- |",
        "| hand | 9 | my cards | T |",
        "| seats | n * 2 | one block per seat | cash, 1 |",
        "| mine | n | who I am | -1 to 1 for me, 0 for the others |",
    ]


def test_bounds_of_the_wrong_length_are_refused_by_section():
    wrong = Layout([Section("seats", "3", "", ("cash", 1), repeat="n"), Section("mine", "n", "", first_seat)])
    with pytest.raises(ValueError, match=r"'seats'.*high.*2 values for blocks of 3"):
        wrong.bounds(2, {"cash": 1})
    with pytest.raises(ValueError, match=r"'mine'.*high.*2 values for 4 entries"):
        Layout([Section("mine", "2 * n", "", first_seat)]).bounds(2, {})


def test_a_section_named_twice_or_missing_is_refused():
    with pytest.raises(ValueError, match="twice"):
        Layout([Section("a", 1, ""), Section("a", 2, "")])
    with pytest.raises(KeyError, match="no section 'b'"):
        TOY.index("b")


@pytest.mark.parametrize(
    ("layout", "counts", "closed_form"),
    [
        (STONK_MARKET, range(3, 7), lambda n: n * n + 34 * n + 55),
        (STONK_MARKET_MEMORY, range(3, 7), lambda n: 2 * n * n + 85 * n + 64),
        (STOCKS_AND_BOMBS, range(4, 7), lambda n: 9 * n * n + 4 * n + 3),
        (STOCKS_AND_BOMBS_MEMORY, range(4, 7), lambda n: 23 * n * n + 76 * n + 19),
        (STOCKPILE, range(3, 6), lambda n: 123 + 104 * n + n * n),
        (STOCKPILE_MEMORY, range(3, 6), lambda n: {3: 858, 4: 850, 5: 900}[n]),
    ],
)
def test_each_games_layout_has_the_documented_size(layout, counts, closed_form):
    for n in counts:
        assert layout.size(n) == closed_form(n)
