"""Stocks & Bombs settings: the defaults are the rules of docs/stocks_and_bombs.md."""

from __future__ import annotations

from dataclasses import dataclass

from stonk_envs.core.rewards import REWARD_MODES
from stonk_envs.core.validation import INT32_MAX, check_bool, check_choice, check_int

MIN_PLAYERS, MAX_PLAYERS = 4, 6
ROUND_POINTS_HEADROOM = 100
"""Above the most points one round can add (9), so the int32 totals never overflow."""


@dataclass(frozen=True)
class StocksAndBombsConfig:
    """Options of a Stocks & Bombs game."""

    num_players: int = 4
    """Players, 4-6."""
    tick_cap: int = 100
    """Ticks per round before it is scored with no caller."""
    round_cap: int = 30
    """Rounds before the game ends regardless of totals."""
    points_to_win: int = 12
    """The game ends after the round in which any total reaches this."""
    reward_mode: str = "win_loss"
    """One of ``win_loss``, ``score_diff``, ``round_diff``, ``round_diff_close`` (see stonk_envs.core.rewards)."""
    memory: bool = True
    """Append the public memory to observations; False gives the layout without it."""

    def __post_init__(self):
        checked = {
            "num_players": check_int("num_players", self.num_players, MIN_PLAYERS, MAX_PLAYERS),
            "tick_cap": check_int("tick_cap", self.tick_cap, 1, INT32_MAX),
            "round_cap": check_int("round_cap", self.round_cap, 1, INT32_MAX),
            "points_to_win": check_int("points_to_win", self.points_to_win, 1, INT32_MAX - ROUND_POINTS_HEADROOM),
            "reward_mode": check_choice("reward_mode", self.reward_mode, REWARD_MODES),
            "memory": check_bool("memory", self.memory),
        }
        for name, value in checked.items():
            object.__setattr__(self, name, value)
