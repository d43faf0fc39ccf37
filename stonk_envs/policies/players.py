"""Resolving a player spec (a built-in player's name or a saved file) to a :class:`Policy`."""

from __future__ import annotations

import importlib
from pathlib import Path

from stonk_envs.policies.base import Policy, RandomPolicy
from stonk_envs.registry import GAME_MODULES

BUILTIN_PLAYERS = {
    "stockpile": {
        "heuristic": "stonk_envs.policies.stockpile_heuristic:StockpileHeuristic",
    },
    "stocks_and_bombs": {
        "heuristic": "stonk_envs.policies.stocks_and_bombs_trader:StocksAndBombsAggressive",
        "steady": "stonk_envs.policies.stocks_and_bombs_trader:StocksAndBombsTrader",
        "cautious": "stonk_envs.policies.stocks_and_bombs_trader:StocksAndBombsCautious",
        "aggressive": "stonk_envs.policies.stocks_and_bombs_trader:StocksAndBombsAggressive",
        "basic": "stonk_envs.policies.stocks_and_bombs_heuristic:StocksAndBombsHeuristic",
    },
    "stonk_market": {
        "heuristic": "stonk_envs.policies.stonk_market_trader:StonkMarketTrader",
        "cautious": "stonk_envs.policies.stonk_market_trader:StonkMarketCautious",
        "aggressive": "stonk_envs.policies.stonk_market_trader:StonkMarketAggressive",
        "closer": "stonk_envs.policies.stonk_market_trader:StonkMarketCloser",
        "basic": "stonk_envs.policies.stonk_market_heuristic:StonkMarketHeuristic",
    },
}
"""Each game's rule-based players by name, as ``module:class``; the class takes ``num_players``.
``heuristic`` is the strongest (in Stocks & Bombs the same player as ``aggressive``); ``basic`` is
the earlier player that hardly trades, kept as a baseline."""

HEURISTICS = {game: players["heuristic"] for game, players in BUILTIN_PLAYERS.items()}
"""Each game's default rule-based player (what ``"heuristic"`` means), as ``module:class``."""


def builtin_player_names(game: str) -> list[str]:
    """The player names ``make_player`` knows for ``game``: ``random`` and its rule-based players."""
    if game not in GAME_MODULES:
        raise ValueError(f"unknown game {game!r}; choose one of {sorted(GAME_MODULES)}")
    return ["random", *BUILTIN_PLAYERS.get(game, {})]


def builtin_player(game: str, name: str, num_players: int) -> Policy:
    """The built-in player ``name`` of ``game`` (``random`` or a rule-based player)."""
    names = builtin_player_names(game)
    if name not in names:
        raise ValueError(f"{game} has no built-in player {name!r}; choose one of {names}")
    if name == "random":
        return RandomPolicy()
    module_name, class_name = BUILTIN_PLAYERS[game][name].split(":")
    return getattr(importlib.import_module(module_name), class_name)(num_players)


def heuristic_player(game: str, num_players: int) -> Policy:
    """The default rule-based player of ``game``."""
    return builtin_player(game, "heuristic", num_players)


def make_player(spec: str | Policy, game: str, num_players: int, trust: bool = False) -> Policy:
    """A :class:`Policy` from a built-in player's name, a saved policy's path, or a Policy.

    A file is loaded by :func:`~stonk_envs.policies.checkpoint.load_policy` (``trust``: see there).
    """
    if isinstance(spec, Policy):
        return spec
    if not isinstance(spec, (str, Path)):
        raise ValueError(f"a player is a built-in player's name, a path or a Policy, got {spec!r}")
    names = builtin_player_names(game)
    if str(spec) in names:
        return builtin_player(game, str(spec), num_players)
    if str(spec) == "":
        raise ValueError(f"a player must not be empty: name one of {names} or a policy file or folder")
    if not Path(spec).exists():
        raise ValueError(
            f"unknown player {str(spec)!r}: not one of {names} for {game} nor an existing policy file or folder"
        )
    from stonk_envs.policies.checkpoint import load_policy

    return load_policy(spec, game=game, num_players=num_players, trust=trust)
