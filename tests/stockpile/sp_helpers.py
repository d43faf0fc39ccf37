"""A Stockpile table driven through the Game interface, for constructed and scripted positions."""

from __future__ import annotations

import numpy as np

from stonk_envs.core.game import NO_ACTION
from stonk_envs.games.stockpile import Stockpile, StockpileConfig
from stonk_envs.games.stockpile import actions as act

CC, BB, LL, AA, SS, EE = range(6)
FEE1, FEE2, FEE3, BOOM, BUST = 6, 7, 8, 9, 10
PLUS4, PLUS2, PLUS1, DIV, MINUS2, MINUS3 = range(6)


class Table:
    """One game in a state array; fields are read and written by name."""

    def __init__(self, n: int = 4, seed: int = 0, **config):
        self.game = Stockpile(StockpileConfig(num_players=n, **config))
        self.n = n
        self.states = np.zeros(1, self.game.state_dtype)
        self.game.reset(self.states, 0, seed)
        self.rewards = np.zeros(n, np.float32)
        self.total_rewards = np.zeros(n, np.float64)
        self.voids = np.zeros(n, np.int8)
        self.bases = np.zeros(7, np.int64)
        act.block_bases(n, len(self.game.config.bid_values), self.game.config.stock_per_company, self.bases)

    def __getitem__(self, name):
        return self.states[name][0]

    def __setitem__(self, name, value):
        self.states[name][0] = value

    def mask(self, seat: int) -> np.ndarray:
        out = np.zeros(self.game.num_actions, np.int8)
        self.game.legal_mask(self.states, 0, seat, out)
        return out

    def observe(self, seat: int) -> np.ndarray:
        out = np.zeros(self.game.observation_bounds[0].shape, np.float32)
        self.game.observe(self.states, 0, seat, out)
        return out

    @property
    def actor(self) -> int:
        return int(self["actor"])

    def act(self, action: int) -> bool:
        """Play a legal action of the deciding seat; returns True when the game is over."""
        seat = self.actor
        assert self.mask(seat)[action], self.game.why_illegal(self.states, 0, seat, action)
        joint = np.full(self.n, NO_ACTION, np.int64)
        joint[seat] = action
        over = self.game.step(self.states, 0, joint, self.rewards, self.voids)
        self.total_rewards += self.rewards
        return bool(over)

    # action encoders -------------------------------------------------------
    def supply_action(self, up: int, pile_up: int, pile_down: int) -> int:
        return int(self.bases[act.BLOCK_SUPPLY]) + up * self.n * self.n + pile_up * self.n + pile_down

    def bid_action(self, track: int, value: int) -> int:
        v = self.game.config.bid_values.index(value)
        return int(self.bases[act.BLOCK_BID]) + track * len(self.game.config.bid_values) + v

    def play_action(self, bust: bool, company: int) -> int:
        return int(self.bases[act.BLOCK_PLAY]) + int(bust) * 6 + company

    def sell_action(self, what: int, company: int = 0) -> int:
        """``what``: act.SELL_REGULAR, SELL_SPLIT, UNSPLIT (plus company) or SELL_DONE."""
        return int(self.bases[act.BLOCK_SELL]) + what + (company if what != act.SELL_DONE else 0)

    def reveal_action(self, count: int, split: bool = False) -> int:
        return int(self.bases[act.BLOCK_REVEAL_SPLIT if split else act.BLOCK_REVEAL_REGULAR]) + count

    def done(self) -> bool:
        return self.act(self.sell_action(act.SELL_DONE))

    # constructed positions -------------------------------------------------
    def clear_portfolios(self) -> None:
        self["regular"] = 0
        self["split"] = 0

    def set_debts(self, seat: int, amounts: list[int]) -> None:
        self["debt"][seat] = 0
        self["debt"][seat][: len(amounts)] = amounts
        self["debt_len"][seat] = len(amounts)

    def set_pairs(self, companies: list[int], forecasts: list[int]) -> None:
        self["pair_comp"] = companies
        self["pair_fc"] = forecasts

    def to_last_sale(self) -> None:
        """Jump to the last seat's turn of the selling phase (its DONE starts the movement)."""
        n = self.n
        self["phase"] = 3
        self["turn_k"] = n - 1
        self["actor"] = (self["first"] + n - 1) % n
        self["booms"] = 0
        self["busts"] = 0

    def to_selling(self) -> None:
        """Jump to the first seat's turn of the selling phase."""
        self["phase"] = 3
        self["turn_k"] = 0
        self["actor"] = self["first"]
        self["booms"] = 0
        self["busts"] = 0
