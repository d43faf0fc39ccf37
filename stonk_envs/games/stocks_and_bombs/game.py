"""Stocks & Bombs behind the shared adapter."""

from __future__ import annotations

import numpy as np

from stonk_envs.core.game import Game
from stonk_envs.core.rewards import reward_mode_code
from stonk_envs.games.stocks_and_bombs import core
from stonk_envs.games.stocks_and_bombs.config import StocksAndBombsConfig
from stonk_envs.games.stocks_and_bombs.observe import observation_bounds

SIZE_NAMES = ("S", "M", "L")


def piece_name(piece: int) -> str:
    """``c2L`` is colour 2's Large piece."""
    return f"c{piece // 3}{SIZE_NAMES[piece % 3]}"


class StocksAndBombs(Game):
    """Turnless trading of Icehouse pieces against secret targets (rulings B1-B8)."""

    name = "stocks_and_bombs"
    simultaneous = True
    core = core

    def __init__(self, config: StocksAndBombsConfig):
        super().__init__(config)
        n = self.num_players
        self.num_actions = int(core.num_actions(n))
        self.observation_bounds = observation_bounds(config)
        self.state_size = int(core.state_size(n))
        self._reward_mode = reward_mode_code(config.reward_mode)

    def init_args(self):
        c = self.config
        return (c.num_players, c.tick_cap, c.round_cap, c.points_to_win, self._reward_mode, c.memory)

    def scores(self, states, i):
        return states["totals"][i, : self.num_players].astype(np.float64)

    # text ------------------------------------------------------------------
    def decode(self, seat: int, action: int) -> tuple[str, int, int]:
        """``(kind, a, b)``: the absolute pieces of a PROPOSE, the seat of an ACCEPT."""
        n = self.num_players
        m = 3 * n
        if action == 0:
            return "WAIT", -1, -1
        if action <= m * m:
            give = int(core.to_absolute_piece((action - 1) // m, seat, n))
            receive = int(core.to_absolute_piece((action - 1) % m, seat, n))
            return "PROPOSE", give, receive
        if action < m * m + n:
            return "ACCEPT", (seat + action - m * m) % n, -1
        return "STOP", -1, -1

    def describe_action(self, seat, action):
        kind, a, b = self.decode(seat, action)
        if kind == "PROPOSE":
            return f"propose: give {piece_name(a)}, get {piece_name(b)}"
        if kind == "ACCEPT":
            return f"accept player_{a}'s proposal"
        return {"WAIT": "wait", "STOP": "call STOP (end the round)"}[kind]

    def name_action(self, states, i, seat, action, public=False):
        kind, a, b = self.decode(seat, action)
        s = states[i]
        if kind == "PROPOSE":
            return f"propose to player_{s['holder'][b]}: give {piece_name(a)}, get {piece_name(b)}"
        if kind == "ACCEPT" and s["prop_give"][a] != core.NONE:
            give, get = piece_name(s["prop_recv"][a]), piece_name(s["prop_give"][a])
            return f"accept player_{a}'s proposal: give {give}, get {get}"
        return self.describe_action(seat, action)

    def why_illegal(self, states, i, seat, action):
        s = states[i]
        if s["game_over"]:
            return "the game is over"
        kind, a, b = self.decode(seat, action)
        if kind == "PROPOSE":
            if s["holder"][a] != seat:
                return f"player_{seat} does not hold {piece_name(a)}"
            return f"player_{seat} already holds {piece_name(b)}"
        if s["prop_give"][a] == core.NONE:
            return f"player_{a} has no open proposal"
        if s["prop_to"][a] != seat:
            return f"player_{a}'s proposal is addressed to player_{s['prop_to'][a]}"
        return f"player_{a}'s proposal is no longer valid"

    def render(self, states, i, seat):
        s = states[i]
        n = self.num_players
        over = bool(s["game_over"])
        head = f"game over after round {s['round']}" if over else f"round {s['round'] + 1}"
        lines = [f"Stocks & Bombs  {head}" + ("" if over else f"  tick {s['tick']}/{s['tick_cap']}")]
        for p in range(n):
            held = " ".join(piece_name(x) for x in range(3 * n) if s["holder"][x] == p)
            secret = seat is None or seat == p
            target = f"target c{s['target'][p]}" if secret else "target ?"
            prop = ""
            if s["prop_give"][p] != core.NONE and not over:  # open proposals end with the game
                prop = (
                    f"  offers {piece_name(s['prop_give'][p])} to player_{s['prop_to'][p]}"
                    f" for {piece_name(s['prop_recv'][p])}"
                )
            me = " (you)" if seat == p else ""
            lines.append(f"player_{p}{me}: total {s['totals'][p]:>2}  {target}  holds {held}{prop}")
        return "\n".join(lines)
