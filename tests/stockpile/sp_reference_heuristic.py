"""The pure-Python Stockpile heuristic, the reference the compiled player must match action for action.

The strategy is described in :mod:`stonk_envs.policies.stockpile_heuristic`.
"""

from __future__ import annotations

import numpy as np

from stonk_envs.games.stockpile import actions as act
from stonk_envs.games.stockpile import state as st
from stonk_envs.games.stockpile.config import MAX_PLAYERS, MIN_PLAYERS, StockpileConfig
from stonk_envs.games.stockpile.market import move_price
from stonk_envs.games.stockpile.memory import memory_size
from stonk_envs.games.stockpile.observe import obs_size, observation_layout
from stonk_envs.policies.base import Policy

BID_SHARE = 0.6
"""The most it bids for a pile, as a share of the pile's estimated value."""
FEE_VALUES = np.array(st.FEE_VALUES, np.float64)
ACTION_CARD_VALUE = 2.0
"""$K a Stock Boom! or Stock Bust! card is worth to its holder."""


class ReferenceStockpileHeuristic(Policy):
    """One observation at a time, with numpy."""

    name = "reference heuristic"

    def __init__(self, num_players: int):
        n = int(num_players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"Stockpile has {MIN_PLAYERS}-{MAX_PLAYERS} players, got {num_players!r}")
        config = StockpileConfig(num_players=n)
        self.n = n
        self.config = config
        self.layout = observation_layout(n)
        self.obs_size = int(obs_size(n))
        # it reads only the entries before the memory, so it plays with the memory on or off
        self.obs_sizes = (self.obs_size, self.obs_size + int(memory_size(n)))
        self.bases = np.zeros(7, np.int64)
        act.block_bases(n, len(config.bid_values), config.stock_per_company, self.bases)
        self.num_actions = int(self.bases[6])
        self.bid_values = np.array(config.bid_values, np.float64)

    def act(self, observations, masks, rng):
        if observations.shape[1] not in self.obs_sizes or masks.shape[1:] != (self.num_actions,):
            raise ValueError(
                f"expected observations of size {' or '.join(map(str, self.obs_sizes))} and masks of size "
                f"{self.num_actions} "
                f"for {self.n} players, got {observations.shape} and {masks.shape}"
            )
        return np.array([self.act_one(o, m) for o, m in zip(observations, masks, strict=True)], np.int64)

    # reading the observation -------------------------------------------------
    def part(self, obs: np.ndarray, name: str) -> np.ndarray:
        start, size = self.layout[name]
        return obs[start : start + size]

    def share_values(self, obs: np.ndarray) -> np.ndarray:
        """Expected value after this round's movement of one regular share of each company."""
        c = self.config
        prices = self.part(obs, "prices").astype(np.int64)
        known = self.part(obs, "known_forecasts").reshape(6, 6)
        unknown = np.ones(6, bool)
        unknown[np.flatnonzero(known.any(axis=0))] = False
        values = np.zeros(6)
        for company in range(6):
            forecasts = np.flatnonzero(known[company]) if known[company].any() else np.flatnonzero(unknown)
            total = 0.0
            for f in forecasts:
                new, splits, bankrupt = move_price(
                    prices[company], st.FORECAST_MOVES[f], c.max_price, c.split_reset, c.start_price
                )
                value = 0.0 if bankrupt else float(new * 2**splits)
                if f == st.DIVIDEND:
                    value += c.dividend_regular
                total += value
            values[company] = total / max(len(forecasts), 1)
        return values

    def card_values(self, values: np.ndarray) -> np.ndarray:
        """Value to its holder of each of the 11 card kinds."""
        return np.concatenate([values, -FEE_VALUES, [ACTION_CARD_VALUE, ACTION_CARD_VALUE]])

    def unknown_card_value(self, card_value: np.ndarray) -> float:
        c = self.config
        counts = np.array([c.stock_per_company] * 6 + [c.fee_copies] * 3 + [c.action_copies] * 2, np.float64)
        return float(counts @ card_value / counts.sum())

    def pile_values(self, obs: np.ndarray, card_value: np.ndarray) -> np.ndarray:
        n = self.n
        piles = self.part(obs, "stockpiles").reshape(n, -1)
        k = st.NUM_KINDS
        up, down, mine = piles[:, :k], piles[:, k], piles[:, k + 1 : 2 * k + 1]
        unknown = down - mine.sum(axis=1)
        return up @ card_value + mine @ card_value + unknown * self.unknown_card_value(card_value)

    # choosing -----------------------------------------------------------------
    def act_one(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The action for one observation (see the module docstring)."""
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("no legal action: the mask is all zeros")
        phase = int(np.argmax(self.part(obs, "phase")))
        values = self.share_values(obs)
        card_value = self.card_values(values)
        if phase == st.SUPPLY:
            return self.supply(obs, card_value)
        if phase == st.DEMAND:
            return self.bid(obs, mask, card_value)
        if phase == st.ACTION:
            return self.play(obs, mask)
        if phase == st.SELLING:
            return self.sell(obs, mask, values)
        return int(legal[-1])  # dividend: reveal every card

    def supply(self, obs, card_value) -> int:
        n = self.n
        hand = self.part(obs, "my_hand").reshape(2, st.NUM_KINDS)
        kinds = hand.argmax(axis=1)
        piles = self.pile_values(obs, card_value)
        best, worst = int(np.argmax(piles)), int(np.argmin(piles))
        down = int(np.argmax(card_value[kinds]))
        up = 1 - down
        if n > 1 and best == worst:
            worst = (best + 1) % n
        return int(self.bases[act.BLOCK_SUPPLY]) + up * n * n + worst * n + best

    def bid(self, obs, mask, card_value) -> int:
        piles = self.pile_values(obs, card_value)
        base = int(self.bases[act.BLOCK_BID])
        nb = len(self.bid_values)
        best_action, best_margin = -1, -np.inf
        for t in range(self.n):
            for v in range(nb):
                a = base + t * nb + v
                if not mask[a]:
                    continue
                price = self.bid_values[v]
                if price > 0 and price > BID_SHARE * piles[t]:
                    break
                margin = piles[t] - price
                if margin > best_margin:
                    best_action, best_margin = a, margin
                break  # the lowest legal bid on a track is the one worth making
        if best_action < 0:
            best_action = int(np.flatnonzero(mask)[0])
        return best_action

    def holdings(self, obs) -> tuple[np.ndarray, np.ndarray]:
        """Share counts per company (split cards count 2): mine, and others' public lower bound."""
        n = self.n
        rows = self.part(obs, "seat_company").reshape(n, 6, 1 + st.NUM_MEMORY)
        public = 2 * rows[:, :, 0] + rows[:, :, 1 + st.MEM_KNOWN]
        mine = self.part(obs, "my_regular") + 2 * rows[0, :, 0]
        return mine, public[1:].sum(axis=0)

    def play(self, obs, mask) -> int:
        mine, others = self.holdings(obs)
        base = int(self.bases[act.BLOCK_PLAY])
        if mask[base : base + 6].any():
            return base + int(np.argmax(mine))
        return base + 6 + int(np.argmax(others - 2 * mine))

    def sell(self, obs, mask, values) -> int:
        prices = self.part(obs, "prices")
        base = int(self.bases[act.BLOCK_SELL])
        for company in range(6):
            if values[company] < prices[company]:
                if mask[base + act.SELL_REGULAR + company]:
                    return base + act.SELL_REGULAR + company
                if mask[base + act.SELL_SPLIT + company]:
                    return base + act.SELL_SPLIT + company
        return base + act.SELL_DONE
