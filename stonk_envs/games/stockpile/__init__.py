"""Stockpile: auctions of stockpiles, insider forecasts, splits and bankruptcies."""

from stonk_envs.games.stockpile.config import StockpileConfig
from stonk_envs.games.stockpile.game import Stockpile
from stonk_envs.games.stockpile.scoring import final_scores, move_price

__all__ = ["Stockpile", "StockpileConfig", "final_scores", "move_price"]
