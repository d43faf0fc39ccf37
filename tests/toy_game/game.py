"""Two Cards behind the shared adapter, and its config."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from stonk_envs.core.game import Game
from stonk_envs.core.validation import check_int
from tests.toy_game import core

MIN_PLAYERS, MAX_PLAYERS = 2, core.MAX_PLAYERS


@dataclass(frozen=True)
class TwoCardsConfig:
    """Options of a Two Cards game."""

    num_players: int = 2
    """Players, 2-3."""

    def __post_init__(self):
        object.__setattr__(self, "num_players", check_int("num_players", self.num_players, MIN_PLAYERS, MAX_PLAYERS))


class TwoCards(Game):
    """One hidden card each, one betting round, the highest bettor's card takes the pot."""

    name = "two_cards"
    simultaneous = False
    core = core

    def __init__(self, config: TwoCardsConfig):
        super().__init__(config)
        size = core.observation_size(self.num_players)
        self.num_actions = core.NUM_ACTIONS
        self.observation_bounds = (np.zeros(size, np.float32), np.ones(size, np.float32))
        self.state_size = 2 * self.num_players + 1

    def init_args(self):
        return (self.num_players,)

    def scores(self, states, i):
        return states["chips"][i, : self.num_players].astype(np.float64)

    def describe_action(self, seat, action):
        return "bet 1 chip" if action == core.BET else "pass"

    def why_illegal(self, states, i, seat, action):
        if states["game_over"][i]:
            return "the game is over"
        return f"it is player_{states['turn'][i]}'s turn"

    def render(self, states, i, seat):
        s = states[i]
        moves = {core.NOT_YET: "-", core.PASS: "pass", core.BET: "bet"}
        lines = ["Two Cards" + ("  game over" if s["game_over"] else f"  player_{s['turn']} to act")]
        for p in range(self.num_players):
            card = str(s["card"][p]) if seat is None or seat == p or s["game_over"] else "?"
            lines.append(f"player_{p}: card {card}  {moves[int(s['move'][p])]}  chips {s['chips'][p]:+d}")
        return "\n".join(lines)
