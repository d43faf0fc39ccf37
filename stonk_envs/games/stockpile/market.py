"""Prices, splits, bankruptcies, money and debts, and the end-of-game settlement (compiled).

Price steps (S13): a movement is applied one space at a time. Stepping above ``max_price``
is a split: the price resets to ``split_reset`` and the movement goes on from there.
Stepping below 1 is a bankruptcy: the price resets to ``start_price`` and the rest of the
movement is lost.
"""

import numpy as np
from numba import njit

from stonk_envs.games.stockpile.state import (
    EV_BANKRUPTCIES,
    EV_SPLITS,
    FEE_KIND,
    LED_FEES,
    LED_SETTLEMENT,
    LED_SPLIT_BONUS,
    MEM_BANKRUPT_LOST,
    MEM_KNOWN,
    MEM_SPLIT_REVEALED,
    NUM_COMPANIES,
    SPLIT_SALE_FACTOR,
)

STEP_PLAIN, STEP_SPLIT, STEP_BANKRUPT = 0, 1, 2


@njit(cache=True)
def step_price(price, direction, max_price, split_reset, start_price):
    """One space of movement: ``(new price, STEP_PLAIN | STEP_SPLIT | STEP_BANKRUPT)``."""
    price += direction
    if price > max_price:
        return split_reset, STEP_SPLIT
    if price < 1:
        return start_price, STEP_BANKRUPT
    return price, STEP_PLAIN


@njit(cache=True)
def move_price(price, steps, max_price, split_reset, start_price):
    """``(new price, splits, bankrupt)`` after moving ``steps`` spaces (negative: down)."""
    direction = 1 if steps > 0 else -1
    splits = 0
    for _ in range(abs(steps)):
        price, event = step_price(price, direction, max_price, split_reset, start_price)
        if event == STEP_SPLIT:
            splits += 1
        elif event == STEP_BANKRUPT:
            return price, splits, True
    return price, splits, False


# ---------------------------------------------------------------------------- money
@njit(cache=True)
def debt_total(s, p):
    total = 0
    for k in range(s.debt_len[p]):
        total += s.debt[p, k]
    return total


@njit(cache=True)
def pay_debts(s, p):
    """Pay p's debts oldest first while cash covers the oldest one (S10); paid fees are discarded."""
    while s.debt_len[p] > 0 and s.cash[p] >= s.debt[p, 0]:
        amount = s.debt[p, 0]
        s.cash[p] -= amount
        s.ledger[p, LED_FEES] += amount
        s.discard[FEE_KIND - 1 + amount] += 1
        for k in range(1, s.debt_len[p]):
            s.debt[p, k - 1] = s.debt[p, k]
        s.debt_len[p] -= 1
        s.debt[p, s.debt_len[p]] = 0


@njit(cache=True)
def earn(s, p, amount, ledger_line):
    """Pay p an income from the bank, then any debts it now covers."""
    s.cash[p] += amount
    s.ledger[p, ledger_line] += amount
    pay_debts(s, p)


@njit(cache=True)
def take_fee(s, p, amount):
    """A trading fee won in a stockpile: paid at once if cash allows, else held as a debt (S10)."""
    if s.cash[p] >= amount:
        s.cash[p] -= amount
        s.ledger[p, LED_FEES] += amount
        s.discard[FEE_KIND - 1 + amount] += 1
    else:
        s.debt[p, s.debt_len[p]] = amount
        s.debt_len[p] += 1


# ---------------------------------------------------------------------------- events
@njit(cache=True)
def split_company(s, c):
    """S13 split: each card already split pays its holder; every regular share becomes split."""
    s.company_events[c, EV_SPLITS] += 1
    for p in range(s.n):
        held = s.split[p, c]
        moved = s.regular[p, c]
        s.split[p, c] = held + moved
        s.regular[p, c] = 0
        s.memory[p, c, MEM_SPLIT_REVEALED] += moved
        s.memory[p, c, MEM_KNOWN] = 0
        if held > 0:
            earn(s, p, held * s.split_bonus, LED_SPLIT_BONUS)


@njit(cache=True)
def bankrupt_company(s, c):
    """S13 bankruptcy: every share of c, regular and split, is discarded."""
    s.company_events[c, EV_BANKRUPTCIES] += 1
    for p in range(s.n):
        lost = s.regular[p, c] + s.split[p, c]
        s.discard[c] += lost
        s.memory[p, c, MEM_BANKRUPT_LOST] += lost
        s.memory[p, c, MEM_KNOWN] = 0
        s.regular[p, c] = 0
        s.split[p, c] = 0


@njit(cache=True)
def move_company(s, c, steps):
    """Move company c ``steps`` spaces one at a time, applying splits and bankruptcy."""
    direction = 1 if steps > 0 else -1
    for _ in range(abs(steps)):
        price, event = step_price(s.price[c], direction, s.max_price, s.split_reset, s.start_price)
        s.price[c] = price
        if event == STEP_SPLIT:
            split_company(s, c)
        elif event == STEP_BANKRUPT:
            bankrupt_company(s, c)
            return


# ---------------------------------------------------------------------------- settlement
@njit(cache=True)
def majority_bonuses(regular, split, n, bonus_sole, bonus_tie, out):
    """Add each seat's S14 majority bonuses (split cards count 2, at least one share) to ``out``."""
    for c in range(NUM_COMPANIES):
        best = 0
        for p in range(n):
            best = max(best, regular[p, c] + SPLIT_SALE_FACTOR * split[p, c])
        if best == 0:
            continue
        tied = 0
        for p in range(n):
            if regular[p, c] + SPLIT_SALE_FACTOR * split[p, c] == best:
                tied += 1
        for p in range(n):
            if regular[p, c] + SPLIT_SALE_FACTOR * split[p, c] == best:
                out[p] += bonus_sole if tied == 1 else bonus_tie


@njit(cache=True)
def sell_back(regular, split, price, n, out):
    """Add each seat's S14 sell-back value (split cards count 2) to ``out``."""
    for p in range(n):
        for c in range(NUM_COMPANIES):
            out[p] += (regular[p, c] + SPLIT_SALE_FACTOR * split[p, c]) * price[c]


@njit(cache=True)
def final_worth(price, regular, split, cash, debt, n, bonus_sole, bonus_tie, out):
    """S14 net worth of plain holdings: cash + bonuses + sell-back - unpaid debt."""
    for p in range(n):
        out[p] = cash[p] - debt[p]
    majority_bonuses(regular, split, n, bonus_sole, bonus_tie, out)
    sell_back(regular, split, price, n, out)


@njit(cache=True)
def settle(s):
    """Carry out S14 on the table: bonuses, sell-back (cards to the discard), then debts."""
    n = s.n
    income = np.zeros(n, np.int64)
    majority_bonuses(s.regular, s.split, n, s.bonus_sole, s.bonus_tie, income)
    sell_back(s.regular, s.split, s.price, n, income)
    for p in range(n):
        for c in range(NUM_COMPANIES):
            s.discard[c] += s.regular[p, c] + s.split[p, c]
            s.regular[p, c] = 0
            s.split[p, c] = 0
        earn(s, p, income[p], LED_SETTLEMENT)
