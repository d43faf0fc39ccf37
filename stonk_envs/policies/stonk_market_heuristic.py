"""A rule-based Stonk Market player that reads only its observation vector.

It sorts its suits into **keepers** (a majority held, or within reach: at least half of the
cards a majority needs, and no opponent publicly known to hold too many) and **strays** (the
rest). Each tick it takes the first of these that is legal:

1. STONKS, when every suit it holds is a majority (a valid call) and the round score with
   the bonus is positive;
2. TAKE the bid on its announcement that offers the most cards of a keeper;
3. EXCHANGE a stray for the Exchange card when that card is a keeper, or, when it holds
   cards of the Exchange card's suit, put in its last card of some other suit so that the
   penalty suit becomes one it no longer holds;
4. BID all its cards of its largest stray on the largest announcement of a keeper;
5. ANNOUNCE all its cards of its largest stray, unless that is already its announcement;
6. WAIT.

Relative seats are as in the observation: the player is seat 0. It finds its entries where the
game's observation table puts them, and its actions in the game's action layout
(:mod:`stonk_envs.games.stonk_market.actions`).
"""

from __future__ import annotations

import numpy as np

from stonk_envs.games.stonk_market.actions import (
    BID_BASE,
    PER_SEAT,
    exchange_base,
    num_actions,
    stonks_action,
    take_base,
)
from stonk_envs.games.stonk_market.config import MAX_PLAYERS, MIN_PLAYERS, SUIT_COUNTS
from stonk_envs.games.stonk_market.core import base_obs_size, memory_size
from stonk_envs.games.stonk_market.observe import OBSERVATION
from stonk_envs.games.stonk_market.state import MAX_COUNT, NUM_SUITS
from stonk_envs.policies.base import Policy

TOTALS = np.array(SUIT_COUNTS)
NEEDED = TOTALS // 2 + 1
"""Cards of each suit that make a majority."""


class StonkMarketHeuristic(Policy):
    """Trades toward suit majorities, sheds strays through the Exchange, calls only valid STONKS."""

    name = "basic"

    def __init__(self, num_players: int):
        n = int(num_players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"Stonk Market has {MIN_PLAYERS}-{MAX_PLAYERS} players, got {num_players!r}")
        self.n = n
        self.obs_size = base_obs_size(n)
        self.num_actions = int(num_actions(n))
        self.take_base = int(take_base(n))
        self.exchange_base = int(exchange_base(n))
        self.stonks = int(stonks_action(n))
        self.spans = OBSERVATION.spans(n)

    def act(self, observations, masks, rng):
        if observations.shape[1:] == (self.obs_size + memory_size(self.n),):
            observations = observations[:, : self.obs_size]  # it does not read the public memory
        if observations.shape[1:] != (self.obs_size,) or masks.shape[1:] != (self.num_actions,):
            raise ValueError(
                f"expected observations of size {self.obs_size} and masks of size {self.num_actions} "
                f"for {self.n} players, got {observations.shape} and {masks.shape}"
            )
        return np.array([self.act_one(o, m) for o, m in zip(observations, masks, strict=True)], np.int64)

    def act_one(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The action for one observation (the first legal of the rules in the module docstring)."""
        n = self.n
        hand = self.section(obs, "hand").astype(np.int64)
        exchange = int(self.section(obs, "exchange").argmax())
        known = self.section(obs, "known").reshape(n, NUM_SUITS)
        announced = self.section(obs, "announcements").reshape(n, NUM_SUITS).astype(np.int64)
        bid_target = self.section(obs, "bid targets").reshape(n, n)
        bid_cards = self.section(obs, "bid cards").reshape(n, NUM_SUITS).astype(np.int64)

        blocked = known[1:].max(axis=0) > TOTALS - NEEDED
        keeper = (hand >= NEEDED) | ((2 * hand >= NEEDED) & ~blocked)
        stray = (hand > 0) & ~keeper
        for action in self.candidates(hand, exchange, keeper, stray, announced, bid_target, bid_cards):
            if mask[action]:
                return action
        return 0

    def section(self, obs: np.ndarray, name: str) -> np.ndarray:
        """The entries of the observation's section ``name``."""
        start, size = self.spans[name]
        return obs[start : start + size]

    def candidates(self, hand, exchange, keeper, stray, announced, bid_target, bid_cards):
        """The actions worth taking now, best first."""
        n = self.n
        held = hand > 0
        if (hand[held] >= NEEDED[held]).all() and self.hand_score(hand, exchange) > -5:
            yield self.stonks
        offers = [(bid_cards[j][keeper].sum(), j) for j in range(1, n) if bid_target[j, 0] and announced[0].any()]
        offers = [(count, j) for count, j in offers if count > 0]
        if offers:
            yield self.take_base + max(offers)[1] - 1
        strays = [int(s) for s in np.flatnonzero(stray)]
        if strays and keeper[exchange]:
            yield self.exchange_base + min(strays, key=lambda s: (hand[s], TOTALS[s]))
        if hand[exchange] > 0:
            singles = [s for s in range(9) if s != exchange and hand[s] == 1 and not keeper[s]]
            if singles:
                yield self.exchange_base + singles[0]
        if strays:
            largest = max(strays, key=lambda s: hand[s])
            suits = announced.argmax(axis=1)
            wanted = [(announced[j].max(), j) for j in range(1, n) if announced[j].any() and keeper[suits[j]]]
            for _, j in sorted(wanted, reverse=True):
                give = max((s for s in strays if s != suits[j]), key=lambda s: hand[s], default=None)
                standing = bid_target[0, j] and bid_cards[0, give] == hand[give]
                if give is not None and not standing:
                    yield BID_BASE + PER_SEAT * (j - 1) + MAX_COUNT * give + hand[give] - 1
            if announced[0, largest] != hand[largest]:
                yield 1 + MAX_COUNT * largest + hand[largest] - 1

    @staticmethod
    def hand_score(hand: np.ndarray, exchange: int) -> int:
        """The round score of ``hand`` (M6), before any bonus."""
        score = np.where(hand == TOTALS, 2 * hand, np.where(2 * hand > TOTALS, hand, 0))
        score[exchange] = -hand[exchange]
        return int(score.sum())
