"""Stonk Market players that trade every tick toward a valid STONKS call.

Each seat's decision reads only its observation (the player is relative seat 0). It values a
hand with the round score (M6) plus what it is worth on the way to a better one:

- a suit held in majority scores its cards (a full suit twice, the Exchange's suit minus);
- a suit short of a majority is worth ``reach`` x cards x (cards / majority), unless an
  opponent is publicly known to hold so many that a majority is out of reach;
- every suit held short of a majority (a **stray**) costs ``stray_cost``, since it makes a
  STONKS call false; a hand without strays is worth ``ready`` more.

Each tick, the first that applies:

0. (``close_lead`` set) STONKS at the first tick of the game's last round (``num_rounds``) when
   its total leads every other total by more than ``close_lead``: it scores 0 for the round and
   the others score their dealt hands, which are worth little, so the lead ends the game a win;
1. STONKS, when every suit held is a majority (a valid call) and the round score with the
   bonus is at least ``call_at``;
2. the TAKE of a bid on its announcement, or the EXCHANGE of one card for the Exchange card,
   that raises the hand's value most (an EXCHANGE also counts, at ``spite``, the publicly
   unseen cards of the suit it makes the Exchange's, which opponents are likely to hold);
3. a BID on another player's announcement whose cards it wants, offering the cards that it
   values least (strays first), unless that is already its open bid;
4. ANNOUNCE all its cards of its largest stray suit, unless that is already its announcement;
5. WAIT.

The kernel is compiled with numba and loops over the batch, a few microseconds per seat. It
finds its entries where the game's observation table puts them (:func:`section_starts`), and
its actions in the game's action layout (:mod:`stonk_envs.games.stonk_market.actions`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from stonk_envs.games.stonk_market.actions import (
    BID_BASE,
    PER_SEAT,
    decode,
    exchange_base,
    num_actions,
    stonks_action,
    take_base,
)
from stonk_envs.games.stonk_market.config import MAX_PLAYERS, MIN_PLAYERS, SUIT_COUNTS
from stonk_envs.games.stonk_market.core import all_majorities, base_obs_size, hand_score, is_stray
from stonk_envs.games.stonk_market.observe import OBSERVATION
from stonk_envs.games.stonk_market.state import MAX_COUNT
from stonk_envs.policies.base import CompiledPlayer

TOTALS = np.array(SUIT_COUNTS, dtype=np.int64)
NEEDED = TOTALS // 2 + 1
"""Cards of each suit that make a majority."""
SECTIONS = ("hand", "exchange", "known", "announcements", "bid targets", "bid cards", "totals", "round, tick, left")
"""The observation sections the Stonk Market players read."""
HAND, EXCHANGE, KNOWN, ANNOUNCEMENTS, BID_TARGETS, BID_CARDS, RUNNING_TOTALS, ROUND = range(len(SECTIONS))
"""Indices of :data:`SECTIONS` in :func:`section_starts`."""


def section_starts(n: int) -> tuple[int, ...]:
    """Where each of :data:`SECTIONS` starts in the observation at ``n`` players."""
    spans = OBSERVATION.spans(n)
    return tuple(spans[name][0] for name in SECTIONS)


@njit(cache=True)
def hand_value(hand, exchange, blocked, reach, stray_cost, ready):
    """The score of ``hand`` plus what its partial suits are worth, less its strays' cost."""
    value = float(hand_score(hand, exchange))
    strays = 0
    for s in range(9):
        c = hand[s]
        if is_stray(c, s):
            strays += 1
            if s != exchange and not blocked[s]:
                value += reach * c * c / NEEDED[s]
    if strays == 0:
        value += ready
    return value - stray_cost * strays


@njit(cache=True)
def _act_batch(obs, masks, n, params, out):
    reach, stray_cost, ready, call_at, spite, bonus, close_lead, last_round, starts = params
    take_at, exchange_at, stonks = take_base(n), exchange_base(n), stonks_action(n)
    k_hand, k_exchange, k_known, k_ann = starts[HAND], starts[EXCHANGE], starts[KNOWN], starts[ANNOUNCEMENTS]
    k_bid_to, k_bid, k_totals, k_round = starts[BID_TARGETS], starts[BID_CARDS], starts[RUNNING_TOTALS], starts[ROUND]
    hand = np.zeros(9, np.int64)
    trial = np.zeros(9, np.int64)
    blocked = np.zeros(9, np.bool_)
    unseen = np.zeros(9, np.int64)
    for b in range(obs.shape[0]):
        o = obs[b]
        exchange = 0
        for s in range(9):
            hand[s] = int(o[k_hand + s] + 0.5)
            if o[k_exchange + s] > 0.5:
                exchange = s
        for s in range(9):
            most = 0
            seen = 0
            for q in range(1, n):
                known = int(o[k_known + 9 * q + s] + 0.5)
                most = max(most, known)
                seen += known
            blocked[s] = most > TOTALS[s] - NEEDED[s]
            unseen[s] = TOTALS[s] - hand[s] - seen - (1 if s == exchange else 0)
        # 0. end the last round at once with the lead
        if o[k_round] == last_round and o[k_round + 1] == 0:
            best_other = o[k_totals + 1]
            for j in range(2, n):
                best_other = max(best_other, o[k_totals + j])
            if o[k_totals] - best_other > close_lead:
                out[b] = stonks
                continue
        here = hand_value(hand, exchange, blocked, reach, stray_cost, ready)
        # 1. a valid STONKS call worth making
        if all_majorities(hand) and hand_score(hand, exchange) + bonus >= call_at:
            out[b] = stonks
            continue
        # 2. the best TAKE or EXCHANGE
        best_action, best_gain = -1, 1e-6
        ann_suit, ann_count = -1, 0
        for s in range(9):
            if o[k_ann + s] > 0.5:
                ann_suit, ann_count = s, int(o[k_ann + s] + 0.5)
        for j in range(1, n):
            if masks[b, take_at + j - 1] == 0:
                continue
            for s in range(9):
                trial[s] = hand[s]
            trial[ann_suit] -= ann_count
            for s in range(9):
                trial[s] += int(o[k_bid + 9 * j + s] + 0.5)
            gain = hand_value(trial, exchange, blocked, reach, stray_cost, ready) - here
            if gain > best_gain:
                best_action, best_gain = take_at + j - 1, gain
        for s in range(9):
            if s == exchange or masks[b, exchange_at + s] == 0:
                continue
            for t in range(9):
                trial[t] = hand[t]
            trial[s] -= 1
            trial[exchange] += 1
            gain = hand_value(trial, s, blocked, reach, stray_cost, ready) - here
            gain += spite * (unseen[s] - unseen[exchange])
            if gain > best_gain:
                best_action, best_gain = exchange_at + s, gain
        if best_action >= 0:
            out[b] = best_action
            continue
        # 3. a BID on a wanted announcement
        best_bid, best_gain = -1, 1e-6
        for j in range(1, n):
            suit, count = -1, 0
            for s in range(9):
                if o[k_ann + 9 * j + s] > 0.5:
                    suit, count = s, int(o[k_ann + 9 * j + s] + 0.5)
            if suit < 0:
                continue
            for give in range(9):
                if give == suit:
                    continue
                for m in range(1, hand[give] + 1):
                    action = BID_BASE + PER_SEAT * (j - 1) + MAX_COUNT * give + m - 1
                    if masks[b, action] == 0:
                        continue
                    for t in range(9):
                        trial[t] = hand[t]
                    trial[suit] += count
                    trial[give] -= m
                    gain = hand_value(trial, exchange, blocked, reach, stray_cost, ready) - here
                    if gain > best_gain + 1e-9:
                        best_bid, best_gain = action, gain
        if best_bid >= 0:
            _, j, give, m = decode(best_bid, n)
            standing = o[k_bid_to + n * 0 + j] > 0.5 and int(o[k_bid + give] + 0.5) == m
            if not standing:
                out[b] = best_bid
                continue
        # 4. ANNOUNCE the largest stray
        stray, most = -1, 0
        for s in range(9):
            if is_stray(hand[s], s) and hand[s] > most:
                stray, most = s, hand[s]
        if stray >= 0 and not (ann_suit == stray and ann_count == most):
            out[b] = 1 + MAX_COUNT * stray + most - 1
            continue
        out[b] = 0


class StonkMarketTrader(CompiledPlayer):
    """Values hands on the way to majorities; takes, exchanges, bids and announces toward them."""

    name = "heuristic"
    kernel = staticmethod(_act_batch)

    def __init__(
        self,
        num_players: int,
        reach: float = 0.5,
        stray_cost: float = 0.5,
        ready: float = 2.0,
        call_at: float = 0.0,
        spite: float = 0.1,
        stonks_bonus: int = 5,
        close_lead: float | None = None,
        num_rounds: int = 3,
    ):
        n = int(num_players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"Stonk Market has {MIN_PLAYERS}-{MAX_PLAYERS} players, got {num_players!r}")
        self.n = n
        self.obs_size = base_obs_size(n)  # it reads no further: not the public memory
        self.num_actions = int(num_actions(n))
        close = float("inf") if close_lead is None else float(close_lead)
        self.params = (
            float(reach), float(stray_cost), float(ready), float(call_at), float(spite), float(stonks_bonus),
            close, float(num_rounds - 1), section_starts(n),
        )


class StonkMarketCautious(StonkMarketTrader):
    """Calls STONKS only on a hand worth 12 or more with the bonus, and sheds strays harder."""

    name = "cautious"

    def __init__(self, num_players: int):
        super().__init__(num_players, stray_cost=1.0, call_at=12.0)


class StonkMarketAggressive(StonkMarketTrader):
    """Uses the Exchange to push the penalty onto suits opponents hold, and races to a valid call."""

    name = "aggressive"

    def __init__(self, num_players: int):
        super().__init__(num_players, spite=0.5, ready=4.0, call_at=0.0)


class StonkMarketCloser(StonkMarketTrader):
    """The trader that also ends the last round at its first tick when its total leads by more than 2."""

    name = "closer"

    def __init__(self, num_players: int):
        super().__init__(num_players, close_lead=2.0)
