"""True bounds of every Stockpile observation entry, derived from the config.

Every entry is at least 0. The high bounds below are the largest values a game can reach,
with ``R`` rounds, ``n`` players, ``S = stock_per_company``, ``F = fee_copies``,
``A = action_copies``, ``M = action_move``, ``P = max_price``, ``B`` the top bid value:

- **Cards.** A company has ``S`` stock cards, so a seat holds at most ``S`` of one company
  (regular plus split) and sells, loses or reveals at most ``S`` of it at once. A pile holds
  its opening card plus at most one face-up and one face-down card per seat, so a seat wins at
  most ``2n + 1`` cards a round and holds at most ``min(6S, 1 + R(2n + 1))`` shares. A kind
  appears face-up on one pile at most ``min(n + 1, copies)`` times. The deck is largest right
  after the first deal: ``deck_size - 4n``.
- **Splits.** Each company moves up at most 4 a round (its forecast) plus ``A·M`` in total
  (every Stock Boom!). A split needs ``d = P + 1 - max(start_price, split_reset)`` up steps
  from the last reset, so company c splits at most ``Kc = (4R + A·M) // d`` times, and all
  companies together at most ``K = (7R + A·M) // d`` times (the up forecasts +4, +2, +1).
  Regular shares revealed at splits and split cards turned back are each at most ``S`` per
  split (and ``S`` per selling phase for unsplits): ``S·min(Kc, R)`` for unsplits, ``S·Kc``
  revealed.
- **Bankruptcies.** Each needs ``min(start_price, split_reset)`` down steps from its last
  reset; a company moves down at most 3 a round plus ``A·M``.
- **Cash.** Start cash plus every income a single seat can collect: one dividend a round on
  at most ``S`` cards (``R·S·max(div_regular, div_split)``); split bonuses on at most ``S``
  cards per split (``K·S·split_bonus``); turning split cards back (``min(6R, K)·S·P``); the
  sale or final sell-back of each of the ``6S`` stock cards once (at most ``2P``); and a
  majority bonus per company (``6·max(majority_bonus, majority_tie_bonus)``).
- **Debt.** At most every trading fee card: ``F·(1 + 2 + 3)`` $K in ``3F`` cards.
- **Bids.** A track's bid only rises, so a round holds at most ``n·len(bid_values)`` bids;
  a seat pays at most ``B`` a round.
- **Every round's record.** Rows of rounds after the ``R``-th are always 0; the codes are at
  most: a forecast 6, a holder ``n + 2`` (``n + 1`` at 5 players: no pair lies face-down), a kind 11, a pile ``n``.
"""

from __future__ import annotations

import numpy as np

from stonk_envs.games.stockpile.config import StockpileConfig
from stonk_envs.games.stockpile.memory import MEMORY
from stonk_envs.games.stockpile.observe import OBSERVATION
from stonk_envs.games.stockpile.state import BOOM, BUST, FEE_KIND, FEE_VALUES, NUM_COMPANIES, NUM_KINDS

MAX_UP_FORECAST, UP_FORECASTS_PER_ROUND, MAX_DOWN_FORECAST = 4, 4 + 2 + 1, 3


def kind_copies(c: StockpileConfig) -> np.ndarray:
    """Cards of each kind in the whole game (stock, fees, action cards)."""
    copies = np.zeros(NUM_KINDS, np.int64)
    copies[:NUM_COMPANIES] = c.stock_per_company
    copies[FEE_KIND : FEE_KIND + 3] = c.fee_copies
    copies[BOOM] = copies[BUST] = c.action_copies
    return copies


def limits(c: StockpileConfig) -> dict[str, int]:
    """The largest values of the quantities the observation shows (derivation above)."""
    n, r, s, p = c.num_players, c.num_rounds, c.stock_per_company, c.max_price
    boom_steps = c.action_copies * c.action_move
    d = p + 1 - max(c.start_price, c.split_reset)
    splits_company = (MAX_UP_FORECAST * r + boom_steps) // d
    splits = (UP_FORECASTS_PER_ROUND * r + boom_steps) // d
    cash = c.starting_cash + r * s * max(c.dividend_regular, c.dividend_split)
    cash += splits * s * c.split_bonus + min(NUM_COMPANIES * r, splits) * s * p
    cash += NUM_COMPANIES * s * 2 * p + NUM_COMPANIES * max(c.majority_bonus, c.majority_tie_bonus)
    return {
        "cash": cash,
        "debt": c.fee_copies * sum(FEE_VALUES),
        "debt_cards": 3 * c.fee_copies,
        "shares": min(NUM_COMPANIES * s, 1 + r * (2 * n + 1)),
        "splits_company": splits_company,
        "bankruptcies": (MAX_DOWN_FORECAST * r + boom_steps) // min(c.start_price, c.split_reset),
        "unsplit": s * min(splits_company, r),
        "split_revealed": s * splits_company,
        "top_bid": c.bid_values[-1],
        "bids": n * len(c.bid_values),
    }


def observation_bounds(c: StockpileConfig) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` float32 vectors of a seat's observation under config ``c``: the bounds of
    the layout tables' sections, with the config's values and the limits above."""
    values = {
        **limits(c),
        "rounds": c.num_rounds,
        "max_price": c.max_price,
        "deck_size": c.deck_size,
        "stock_per_company": c.stock_per_company,
        "action_copies": c.action_copies,
        "copies": kind_copies(c),
    }
    low, high = OBSERVATION.bounds(c.num_players, values)
    if c.memory:
        memory_low, memory_high = MEMORY.bounds(c.num_players, values)
        low, high = np.concatenate([low, memory_low]), np.concatenate([high, memory_high])
    return low, high
