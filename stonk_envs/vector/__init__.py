"""Batched engines: ``make(name, num_envs, **config)`` steps N games of one kind in lockstep.

Adapters over an engine: :class:`~stonk_envs.vector.selfplay.SelfPlayVecEnv` (SB3) and
:class:`~stonk_envs.vector.selfplay.SelfPlayGymVectorEnv` (Gymnasium), the single-seat
self-play views.
"""

from __future__ import annotations

import importlib

from stonk_envs.core.config import build_config
from stonk_envs.core.game import Game
from stonk_envs.vector.engine import BatchEngine

GAMES = {
    "stockpile": ("stonk_envs.games.stockpile", "Stockpile", "StockpileConfig"),
    "stocks_and_bombs": ("stonk_envs.games.stocks_and_bombs", "StocksAndBombs", "StocksAndBombsConfig"),
    "stonk_market": ("stonk_envs.games.stonk_market", "StonkMarket", "StonkMarketConfig"),
}
"""The per-game table: game name to (package, ``Game`` subclass, config dataclass)."""


def game_class(name: str) -> type[Game]:
    """The ``Game`` subclass of a game name."""
    if name not in GAMES:
        raise ValueError(f"no batched engine for game {name!r}; available: {sorted(GAMES)}")
    package, game_name, _ = GAMES[name]
    return getattr(importlib.import_module(package), game_name)


def make(name: str, num_envs: int, *, parallel: bool | None = None, observe: str = "all", **config) -> BatchEngine:
    """A :class:`BatchEngine` of ``num_envs`` games of ``name``; ``config`` as for the env.

    ``parallel`` and ``observe`` are the engine's options (see :mod:`stonk_envs.vector.engine`).
    """
    game_cls = game_class(name)
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
    package, _, config_name = GAMES[name]
    config_cls = getattr(importlib.import_module(package), config_name)
    return BatchEngine(game_cls(build_config(config_cls, config)), num_envs, parallel, observe)


__all__ = ["GAMES", "BatchEngine", "game_class", "make"]
