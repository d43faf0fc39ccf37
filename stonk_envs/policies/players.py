"""Resolving a player spec (``"random"``, ``"heuristic"`` or a saved file) to a :class:`Policy`."""

from __future__ import annotations

import importlib
from pathlib import Path

from stonk_envs.policies.base import Policy, RandomPolicy
from stonk_envs.registry import GAME_MODULES

HEURISTICS = {
    "stockpile": "stonk_envs.policies.stockpile_heuristic:StockpileHeuristic",
    "stocks_and_bombs": "stonk_envs.policies.stocks_and_bombs_heuristic:StocksAndBombsHeuristic",
    "stonk_market": "stonk_envs.policies.stonk_market_heuristic:StonkMarketHeuristic",
}
"""Each game's rule-based player, as ``module:class``; the class takes ``num_players``."""


def heuristic_player(game: str, num_players: int) -> Policy:
    """The rule-based player of ``game``."""
    if game not in GAME_MODULES:
        raise ValueError(f"unknown game {game!r}; choose one of {sorted(GAME_MODULES)}")
    if game not in HEURISTICS:
        raise ValueError(f"{game} has no heuristic player yet; games with one: {sorted(HEURISTICS)}")
    module_name, class_name = HEURISTICS[game].split(":")
    return getattr(importlib.import_module(module_name), class_name)(num_players)


def make_player(spec: str | Policy, game: str, num_players: int) -> Policy:
    """A :class:`Policy` from ``"random"``, ``"heuristic"``, a saved policy's path, or a Policy."""
    if isinstance(spec, Policy):
        return spec
    if not isinstance(spec, (str, Path)):
        raise ValueError(f"a player is 'random', 'heuristic', a path or a Policy, got {spec!r}")
    if spec == "random":
        return RandomPolicy()
    if spec == "heuristic":
        return heuristic_player(game, num_players)
    if not Path(spec).exists():
        raise ValueError(f"unknown player {str(spec)!r}: not 'random', 'heuristic' or an existing policy file")
    from stonk_envs.policies.checkpoint import load_policy

    return load_policy(spec, game=game, num_players=num_players)
