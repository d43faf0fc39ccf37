"""Stonk Market: real-time set collection by card deals and the Stonk Exchange."""

from stonk_envs.games.stonk_market.config import SUIT_COUNTS, SUIT_NAMES, StonkMarketConfig
from stonk_envs.games.stonk_market.game import StonkMarket
from stonk_envs.games.stonk_market.scoring import is_all_majorities, score_round

__all__ = ["SUIT_COUNTS", "SUIT_NAMES", "StonkMarket", "StonkMarketConfig", "is_all_majorities", "score_round"]
