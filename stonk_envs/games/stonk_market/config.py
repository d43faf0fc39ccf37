"""Stonk Market settings: the defaults are the rules of docs/stonk_market.md."""

from __future__ import annotations

from dataclasses import dataclass

from stonk_envs.core.rewards import REWARD_MODES
from stonk_envs.core.validation import INT32_MAX, check_bool, check_choice, check_int, check_number, check_product

MIN_PLAYERS, MAX_PLAYERS = 3, 6

SUIT_NAMES = (
    "Glitch & Co.",
    "Slinko Logistics",
    "Nobble & Grasp",
    "SweetBee Naturals",
    "Chatterfly",
    "Blammo!",
    "Greedle",
    "Socktopus Ltd.",
    "BioHippo",
)
"""The nine suits, in index order."""

SUIT_COUNTS = (5, 5, 5, 7, 7, 7, 7, 9, 9)
"""Cards of each suit; 61 in all. Each player is dealt 60 // n of them: 20, 15, 12 or 10
for 3-6 players, and the last card goes to the Exchange."""

MAX_CARD_POINTS = 2 * sum(SUIT_COUNTS)
"""Above the highest round score without the STONKS bonus, for the int32 totals' range."""


@dataclass(frozen=True)
class StonkMarketConfig:
    """Options of a Stonk Market game."""

    num_players: int = 4
    """Players, 3-6."""
    tick_cap: int = 300
    """Ticks per round before it is scored with no caller."""
    num_rounds: int = 3
    """Rounds in a game, each dealt afresh."""
    stonks_bonus: int = 5
    """Points a valid STONKS call adds to the caller's round score."""
    reward_mode: str = "win_loss"
    """One of ``win_loss``, ``score_diff``, ``round_diff``, ``round_diff_close`` (see stonk_envs.core.rewards)."""
    reward_scale: int = 20
    """Points that make one unit of reward in the ``score_diff``, ``round_diff`` and ``round_diff_close`` modes."""
    close_weight: float = 1.0
    """Weight of the result that ``round_diff_close`` pays for a last round closed at its first
    tick; below 1 it weighs a closing call's result less against playing the round out for its
    margin."""
    memory: bool = True
    """Append the public memory to the observation; False gives the table as it
    stands only (the observation before the memory existed, same size and entries)."""

    def __post_init__(self):
        checked = {
            "num_players": check_int("num_players", self.num_players, MIN_PLAYERS, MAX_PLAYERS),
            "tick_cap": check_int("tick_cap", self.tick_cap, 1, INT32_MAX),
            "num_rounds": check_int("num_rounds", self.num_rounds, 1, INT32_MAX),
            "stonks_bonus": check_int("stonks_bonus", self.stonks_bonus, 0, INT32_MAX - MAX_CARD_POINTS),
            "reward_mode": check_choice("reward_mode", self.reward_mode, REWARD_MODES),
            "reward_scale": check_int("reward_scale", self.reward_scale, 1, INT32_MAX),
            "close_weight": check_number("close_weight", self.close_weight, 0.0),
            "memory": check_bool("memory", self.memory),
        }
        for name, value in checked.items():
            object.__setattr__(self, name, value)
        check_product(
            f"num_rounds * ({MAX_CARD_POINTS} + stonks_bonus), the highest running total,",
            self.num_rounds * (MAX_CARD_POINTS + self.stonks_bonus),
        )
