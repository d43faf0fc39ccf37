"""Stocks & Bombs settings: the defaults are the rulings B1-B7a."""

from __future__ import annotations

from dataclasses import dataclass

from stonk_envs.core.config import check_int_range
from stonk_envs.core.rewards import reward_mode_code

MIN_PLAYERS, MAX_PLAYERS = 4, 6


@dataclass(frozen=True)
class StocksAndBombsConfig:
    """Options of a Stocks & Bombs game."""

    num_players: int = 4
    """Players, 4-6 (B1)."""
    tick_cap: int = 100
    """Ticks per round before it is scored with no caller (B7a)."""
    round_cap: int = 30
    """Rounds before the game ends regardless of totals (B7a)."""
    points_to_win: int = 12
    """The game ends after the round in which any total reaches this (B7)."""
    reward_mode: str = "win_loss"
    """One of ``win_loss``, ``score_diff``, ``round_diff`` (see stonk_envs.core.rewards)."""

    def __post_init__(self):
        check_int_range("num_players", self.num_players, MIN_PLAYERS, MAX_PLAYERS)
        check_int_range("tick_cap", self.tick_cap, 1)
        check_int_range("round_cap", self.round_cap, 1)
        check_int_range("points_to_win", self.points_to_win, 1)
        reward_mode_code(self.reward_mode)
