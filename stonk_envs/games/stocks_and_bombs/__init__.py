"""Stocks & Bombs: turnless trading of pieces against secret targets."""

from stonk_envs.games.stocks_and_bombs.config import StocksAndBombsConfig
from stonk_envs.games.stocks_and_bombs.game import StocksAndBombs
from stonk_envs.games.stocks_and_bombs.scoring import score_round

__all__ = ["StocksAndBombs", "StocksAndBombsConfig", "score_round"]
