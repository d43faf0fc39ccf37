"""Public pure functions over the compiled core: price movement and the end score."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from stonk_envs.games.stockpile import market
from stonk_envs.games.stockpile.state import NUM_COMPANIES


def _int(name: str, value, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{name} must be in {low}..{'' if high is None else high}, got {value}")
    return int(value)


def move_price(
    price: int, steps: int, *, max_price: int = 10, split_reset: int = 6, start_price: int = 5
) -> tuple[int, int, bool]:
    """Move a price ``steps`` spaces one at a time (negative: down), with splits and bankruptcy.

    Returns ``(new_price, splits, bankrupt)``. Stepping above ``max_price`` is a split: the
    price resets to ``split_reset`` and the movement continues. Stepping below 1 is a
    bankruptcy: the price resets to ``start_price`` and the rest of the movement is lost.

    >>> move_price(9, 4)   # 10, split to 6, 7, 8 (docs/stockpile.md)
    (8, 1, False)
    >>> move_price(2, -3)
    (5, 0, True)
    """
    max_price = _int("max_price", max_price, 1)
    split_reset = _int("split_reset", split_reset, 1, max_price)
    start_price = _int("start_price", start_price, 1, max_price)
    price = _int("price", price, 1, max_price)
    steps = _int("steps", steps)
    new, splits, bankrupt = market.move_price(price, steps, max_price, split_reset, start_price)
    return int(new), int(splits), bool(bankrupt)


def _table(name: str, rows, n: int) -> np.ndarray:
    if len(rows) != n:
        raise ValueError(f"{name} must have one row per player ({n}), got {len(rows)}")
    out = np.zeros((n, NUM_COMPANIES), np.int64)
    for p, row in enumerate(rows):
        if len(row) != NUM_COMPANIES:
            raise ValueError(f"{name}[{p}] must have {NUM_COMPANIES} counts, one per company, got {len(row)}")
        for c, v in enumerate(row):
            out[p, c] = _int(f"{name}[{p}][{c}]", v, 0)
    return out


def _debt(p: int, value) -> int:
    if isinstance(value, (list, tuple, np.ndarray)):
        return sum(_int(f"debts[{p}][{k}]", v, 0) for k, v in enumerate(value))
    return _int(f"debts[{p}]", value, 0)


def final_scores(
    prices: Sequence[int],
    regular: Sequence[Sequence[int]],
    split: Sequence[Sequence[int]],
    cash: Sequence[int],
    debts: Sequence[int],
    *,
    majority_bonus: int = 10,
    majority_tie_bonus: int = 5,
) -> list[int]:
    """Each player's net worth in $K after the end-of-game settlement.

    ``prices`` has the six final prices (in company index order); ``regular[p][c]`` and
    ``split[p][c]`` are player p's regular and split cards of company c; ``cash[p]`` is p's
    cash and ``debts[p]`` its unpaid trading fees, $K (a total, or a list of the fees). The settlement adds majority
    bonuses (split cards count 2; a sole holder gets ``majority_bonus``, tied holders
    ``majority_tie_bonus`` each), sells every share back at its final price (split cards
    count 2) and subtracts the debts.

    >>> final_scores([5, 5, 5, 5, 5, 10], [[1, 0, 0, 0, 0, 0], [0] * 6, [0] * 6],
    ...              [[0] * 6, [0] * 6, [0, 0, 0, 0, 0, 1]], [3, 0, 2], [0, 0, 4])
    [18, 0, 28]
    """
    if len(prices) != NUM_COMPANIES:
        raise ValueError(f"prices must have {NUM_COMPANIES} entries, one per company, got {len(prices)}")
    price = np.array([_int(f"prices[{c}]", v, 1) for c, v in enumerate(prices)], np.int64)
    n = len(cash)
    if n < 1:
        raise ValueError("cash must list at least one player")
    reg = _table("regular", regular, n)
    spl = _table("split", split, n)
    money = np.array([_int(f"cash[{p}]", v, 0) for p, v in enumerate(cash)], np.int64)
    if len(debts) != n:
        raise ValueError(f"debts must have one entry per player ({n}), got {len(debts)}")
    debt = np.array([_debt(p, v) for p, v in enumerate(debts)], np.int64)
    sole = _int("majority_bonus", majority_bonus, 0)
    tie = _int("majority_tie_bonus", majority_tie_bonus, 0)
    out = np.zeros(n, np.int64)
    market.final_worth(price, reg, spl, money, debt, n, sole, tie, out)
    return [int(x) for x in out]
