"""Stonk Market behind the shared adapter."""

from __future__ import annotations

import numpy as np

from stonk_envs.core.game import Game
from stonk_envs.core.rewards import reward_mode_code
from stonk_envs.games.stonk_market import core
from stonk_envs.games.stonk_market.config import SUIT_NAMES, StonkMarketConfig

TIMES = "\N{MULTIPLICATION SIGN}"


def cards(count: int, suit: int) -> str:
    """``3 Chatterfly``."""
    return f"{count} {SUIT_NAMES[suit]}"


def hand_text(hand) -> str:
    """The non-empty suits of a hand, e.g. ``3 Chatterfly, 1 Greedle``."""
    return ", ".join(cards(int(c), suit) for suit, c in enumerate(hand) if c > 0) or "-"


class StonkMarket(Game):
    """Real-time set collection with card deals and the Stonk Exchange (rulings M1-M9)."""

    name = "stonk_market"
    simultaneous = True
    core = core

    def __init__(self, config: StonkMarketConfig):
        super().__init__(config)
        n = self.num_players
        self.num_actions = int(core.num_actions(n))
        self.observation_bounds = core.observation_bounds(config)
        self.state_size = int(core.state_size(n))
        self._reward_mode = reward_mode_code(config.reward_mode)

    def init_args(self):
        c = self.config
        return (
            c.num_players,
            c.tick_cap,
            c.num_rounds,
            c.stonks_bonus,
            self._reward_mode,
            c.reward_scale,
            c.close_weight,
            c.memory,
        )

    def scores(self, states, i):
        return states["totals"][i, : self.num_players].astype(np.float64)

    # text ------------------------------------------------------------------
    def decode(self, seat: int, action: int) -> tuple[str, int, int, int]:
        """``(kind, absolute seat, suit, count)`` of ``action`` taken from ``seat``."""
        kind, jr, suit, count = (int(x) for x in core.decode(action, self.num_players))
        return core.ACTION_KINDS[kind], (seat + jr) % self.num_players, suit, count

    def describe_action(self, seat, action):
        kind, j, suit, count = self.decode(seat, action)
        if kind == "ANNOUNCE":
            return f"announce {count} {TIMES} {SUIT_NAMES[suit]}"
        if kind == "BID":
            return f"bid {count} {TIMES} {SUIT_NAMES[suit]} on player_{j}'s announcement"
        if kind == "TAKE":
            return f"take player_{j}'s bid"
        if kind == "EXCHANGE":
            return f"exchange 1 {TIMES} {SUIT_NAMES[suit]} for the Exchange card"
        return {"WAIT": "wait", "WITHDRAW": "withdraw my announcement", "STONKS": "call STONKS"}[kind]

    def name_action(self, states, i, seat, action, public=False):
        """The move in words from the table ``states[i]``; a move that would change nothing says so."""
        kind, j, suit, count = self.decode(seat, action)
        s = states[i]
        name = self.describe_action(seat, action)
        if kind == "BID" and s["ann_count"][j] > 0:
            wanted = f"{s['ann_count'][j]} {TIMES} {SUIT_NAMES[s['ann_suit'][j]]}"
            name = f"bid {count} {TIMES} {SUIT_NAMES[suit]} on player_{j}'s {wanted}"
            if (s["bid_to"][seat], s["bid_suit"][seat], s["bid_count"][seat]) == (j, suit, count):
                name += " - changes nothing, the bid is open already"
        elif kind == "ANNOUNCE" and (s["ann_suit"][seat], s["ann_count"][seat]) == (suit, count):
            name += " - changes nothing, the announcement is open already"
        elif kind == "TAKE" and s["bid_count"][j] > 0:
            name = f"take player_{j}'s bid of {s['bid_count'][j]} {TIMES} {SUIT_NAMES[s['bid_suit'][j]]}"
        elif kind == "EXCHANGE":
            name = f"exchange 1 {TIMES} {SUIT_NAMES[suit]} for the Exchange card ({SUIT_NAMES[s['exchange']]})"
            name += " - changes nothing, the same suit" if suit == s["exchange"] else ""
        return name

    def why_illegal(self, states, i, seat, action):
        s = states[i]
        if s["game_over"]:
            return "the game is over"
        kind, j, suit, count = self.decode(seat, action)
        held = int(s["hand"][seat, suit])
        if kind == "BID":
            if s["ann_count"][j] == 0:
                return f"player_{j} has no open announcement"
            if s["ann_suit"][j] == suit:
                return f"a bid cannot offer the announced suit {SUIT_NAMES[suit]}"
        if kind in ("ANNOUNCE", "BID", "EXCHANGE"):
            return f"player_{seat} holds {held} {SUIT_NAMES[suit]}, fewer than {max(count, 1)}"
        if s["ann_count"][seat] == 0:
            return f"player_{seat} has no open announcement"
        return f"player_{j} has no open bid on player_{seat}'s announcement"

    def render(self, states, i, seat):
        s = states[i]
        n = self.num_players
        rounds = s["num_rounds"]
        shown_round = min(int(s["round"]) + 1, int(rounds))
        lines = [
            f"Stonk Market  round {shown_round}/{rounds}  tick {s['tick']}/{s['tick_cap']}"
            f"  Exchange: {SUIT_NAMES[s['exchange']]}"
        ]
        for p in range(n):
            hand = s["hand"][p]
            me = " (you)" if seat == p else ""
            shown = seat is None or seat == p
            held = f"hand {hand_text(hand)}" if shown else f"known {hand_text(s['known'][p])}"
            scores = f"total {s['totals'][p]:>3} (last round {s['last_scores'][p]:>3})"
            line = f"player_{p}{me}: {scores}  {int(hand.sum()):>2} cards  {held}"
            if s["ann_count"][p] > 0:
                line += f"  | announces {cards(s['ann_count'][p], s['ann_suit'][p])}"
            if s["bid_count"][p] > 0:
                line += f"  | bids {cards(s['bid_count'][p], s['bid_suit'][p])} to player_{s['bid_to'][p]}"
            lines.append(line)
        if s["game_over"]:
            lines.append("game over")
        return "\n".join(lines)
