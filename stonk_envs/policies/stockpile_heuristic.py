"""A rule-based Stockpile player that reads only its observation vector (default rules).

It values each company's share by where its price is expected to be after this round's
movement: the forecast it knows (its own pair, the public pair, pairs already shown), or the
average of the forecasts it does not know; a split doubles the card, a bankruptcy makes it
worthless, a dividend adds $2K. From that:

- **Supply:** its more valuable card goes face-down on the pile that looks best, the other
  face-up on the pile that looks worst.
- **Demand:** piles are valued from their face-up cards, its own face-down cards, and an
  average card for each unknown one; it takes the track with the largest margin between
  value and the lowest legal bid, bidding at most ``BID_SHARE`` of the value.
- **Action:** Stock Boom! on the company it holds most of; Stock Bust! on the one where
  others are publicly known to hold the most relative to itself.
- **Selling:** sells regular and split cards whose expected value is below their sale value
  now, else DONE.
- **Dividends:** reveals every card (the income is certain, the information is cheap).

Ties go to the first candidate (lowest pile, company or action). The kernel is compiled with
numba and loops over the batch, about a microsecond per seat; it keeps the arithmetic of the
first (pure-Python) version, down to the average unknown card's value held in float32, so that
it takes exactly that version's actions (``tests/stockpile/sp_reference_heuristic.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from stonk_envs.games.stockpile import actions as act
from stonk_envs.games.stockpile import state as st
from stonk_envs.games.stockpile.config import MAX_PLAYERS, MIN_PLAYERS, StockpileConfig
from stonk_envs.games.stockpile.market import move_price
from stonk_envs.games.stockpile.memory import memory_size
from stonk_envs.games.stockpile.observe import COMPANY_BLOCK, obs_size, observation_layout, pile_block
from stonk_envs.policies.base import CompiledPlayer

BID_SHARE = 0.6
"""The most it bids for a pile, as a share of the pile's estimated value."""
ACTION_CARD_VALUE = 2.0
"""$K a Stock Boom! or Stock Bust! card is worth to its holder."""
FORECAST_MOVES = np.array(st.FORECAST_MOVES, np.int64)
K = st.NUM_KINDS
C = st.NUM_COMPANIES
FEE_KIND = C
"""Card kinds: the six companies, the three fees, then Stock Boom! and Stock Bust!"""
PHASE, PRICES, KNOWN, PILES, HAND, REGULAR, SEAT_COMPANY = range(7)
"""Indices of the observation sections in the kernel's ``offsets``."""
SECTIONS = ("phase", "prices", "known_forecasts", "stockpiles", "my_hand", "my_regular", "seat_company")


@njit(cache=True)
def _share_values(o, offsets, rules, out):
    """``out[c]``: expected value after this round's movement of one regular share of company c."""
    max_price, split_reset, start_price, dividend = rules[0], rules[1], rules[2], rules[3]
    known = offsets[KNOWN]
    for company in range(C):
        row_known = False
        for f in range(C):
            row_known |= o[known + C * company + f] != 0
        total, count = 0.0, 0
        for f in range(C):
            if row_known:
                use = o[known + C * company + f] != 0
            else:  # the average over the forecasts known for no company
                use = True
                for other in range(C):
                    if o[known + C * other + f] != 0:
                        use = False
            if not use:
                continue
            new, splits, bankrupt = move_price(
                int(o[offsets[PRICES] + company]), FORECAST_MOVES[f], max_price, split_reset, start_price
            )
            value = 0.0 if bankrupt else float(new * 2**splits)
            if f == st.DIVIDEND:
                value += dividend
            total += value
            count += 1
        out[company] = total / max(count, 1)


@njit(cache=True)
def _pile_values(o, n, offsets, card_counts, card_value, out):
    """``out[t]``: value of pile t, an average card standing for each face-down card it has not seen."""
    total, cards = 0.0, 0.0
    for k in range(K):
        total += card_counts[k] * card_value[k]
        cards += card_counts[k]
    # float32: the first version multiplied it by float32 card counts. Its sums ran in BLAS's
    # order, not this one; the last bit that can change has not changed an action in 590,800
    # compared decisions.
    unknown_card = np.float32(total / cards)
    width = pile_block(n)
    for t in range(n):
        pile = offsets[PILES] + t * width
        up, mine, seen = 0.0, 0.0, 0.0
        for k in range(K):
            up += o[pile + k] * card_value[k]
            mine += o[pile + K + 1 + k] * card_value[k]
            seen += o[pile + K + 1 + k]
        out[t] = up + mine + np.float32(o[pile + K] - seen) * unknown_card


@njit(cache=True)
def _supply(o, n, offsets, bases, card_value, piles):
    """The more valuable card face-down on the best pile, the other face-up on the worst."""
    hand = offsets[HAND]
    kinds = np.argmax(o[hand : hand + K]), np.argmax(o[hand + K : hand + 2 * K])
    best, worst = np.argmax(piles), np.argmin(piles)
    up = 1 if card_value[kinds[0]] >= card_value[kinds[1]] else 0
    if best == worst:
        worst = (best + 1) % n
    return bases[act.BLOCK_SUPPLY] + up * n * n + worst * n + best


@njit(cache=True)
def _bid(mask, n, bases, bid_values, piles, first_legal):
    """The track with the largest margin between its value and its lowest legal bid, else ``first_legal``."""
    nb = len(bid_values)
    best_action, best_margin = -1, -np.inf
    for t in range(n):
        for v in range(nb):
            a = bases[act.BLOCK_BID] + t * nb + v
            if mask[a] == 0:
                continue
            price = bid_values[v]
            if price > 0 and price > BID_SHARE * piles[t]:
                break
            if piles[t] - price > best_margin:
                best_action, best_margin = a, piles[t] - price
            break  # the lowest legal bid on a track is the one worth making
    return best_action if best_action >= 0 else first_legal


@njit(cache=True)
def _play(o, mask, n, offsets, bases):
    """Boom the company it holds most of, else bust the one others hold most of relative to it."""
    mine = np.zeros(C, np.float64)
    others = np.zeros(C, np.float64)
    for c in range(C):
        mine[c] = o[offsets[REGULAR] + c] + 2 * o[offsets[SEAT_COMPANY] + c * COMPANY_BLOCK]
        for q in range(1, n):
            row = offsets[SEAT_COMPANY] + (q * C + c) * COMPANY_BLOCK
            others[c] += 2 * o[row] + o[row + 1 + st.MEM_KNOWN]
    base = bases[act.BLOCK_PLAY]
    if mask[base : base + C].any():
        return base + np.argmax(mine)
    return base + C + np.argmax(others - 2 * mine)


@njit(cache=True)
def _sell(o, mask, offsets, bases, values):
    """Sell the first company whose share is expected to fall below its price now, else DONE."""
    base = bases[act.BLOCK_SELL]
    for company in range(C):
        if values[company] < o[offsets[PRICES] + company]:
            if mask[base + act.SELL_REGULAR + company]:
                return base + act.SELL_REGULAR + company
            if mask[base + act.SELL_SPLIT + company]:
                return base + act.SELL_SPLIT + company
    return base + act.SELL_DONE


@njit(cache=True)
def _act_batch(obs, masks, n, params, out):
    """One action per row into ``out``; -1 where the mask is all zeros."""
    offsets, bases, bid_values, card_counts, rules = params
    values = np.zeros(C)
    card_value = np.zeros(K)
    piles = np.zeros(n)
    for b in range(obs.shape[0]):
        o, mask = obs[b], masks[b]
        first, last = -1, -1
        for a in range(mask.shape[0]):
            if mask[a] != 0:
                last = a
                if first < 0:
                    first = a
        if first < 0:
            out[b] = -1
            continue
        phase = np.argmax(o[offsets[PHASE] : offsets[PHASE] + st.NUM_DECISION_PHASES])
        _share_values(o, offsets, rules, values)
        card_value[:C] = values
        for k in range(3):
            card_value[FEE_KIND + k] = -st.FEE_VALUES[k]
        card_value[K - 2 :] = ACTION_CARD_VALUE
        if phase == st.SUPPLY or phase == st.DEMAND:
            _pile_values(o, n, offsets, card_counts, card_value, piles)
        if phase == st.SUPPLY:
            out[b] = _supply(o, n, offsets, bases, card_value, piles)
        elif phase == st.DEMAND:
            out[b] = _bid(mask, n, bases, bid_values, piles, first)
        elif phase == st.ACTION:
            out[b] = _play(o, mask, n, offsets, bases)
        elif phase == st.SELLING:
            out[b] = _sell(o, mask, offsets, bases, values)
        else:
            out[b] = last  # dividend: reveal every card


class StockpileHeuristic(CompiledPlayer):
    """Values shares by the forecasts it knows, buys cheap piles, sells what will fall."""

    name = "heuristic"
    kernel = staticmethod(_act_batch)

    def __init__(self, num_players: int):
        n = int(num_players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"Stockpile has {MIN_PLAYERS}-{MAX_PLAYERS} players, got {num_players!r}")
        c = StockpileConfig(num_players=n)
        self.n = n
        self.obs_size = int(obs_size(n))
        # it reads only the entries before the memory, so it plays with the memory on or off
        self.obs_sizes = (self.obs_size, self.obs_size + int(memory_size(n)))
        bases = np.zeros(7, np.int64)
        act.block_bases(n, len(c.bid_values), c.stock_per_company, bases)
        self.num_actions = int(bases[6])
        layout = observation_layout(n)
        card_counts = [c.stock_per_company] * C + [c.fee_copies] * 3 + [c.action_copies] * 2
        self.params = (
            tuple(layout[name][0] for name in SECTIONS),
            tuple(int(x) for x in bases),
            np.array(c.bid_values, np.float64),
            np.array(card_counts, np.float64),
            (c.max_price, c.split_reset, c.start_price, c.dividend_regular),
        )

    def act(self, observations, masks, rng):
        if observations.shape[1] not in self.obs_sizes or masks.shape[1:] != (self.num_actions,):
            raise ValueError(
                f"expected observations of size {' or '.join(map(str, self.obs_sizes))} and masks of size "
                f"{self.num_actions} "
                f"for {self.n} players, got {observations.shape} and {masks.shape}"
            )
        actions = super().act(observations, masks, rng)
        if (actions < 0).any():
            raise ValueError("no legal action: the mask is all zeros")
        return actions
