"""Resolving a player spec (a built-in player's name or a saved file) to a :class:`Policy`.

A game's built-in players are ``random`` and the rule-based players its spec names
(:attr:`stonk_envs.registry.GameSpec.players`), ``heuristic`` the default one.
"""

from __future__ import annotations

from pathlib import Path

from stonk_envs import registry
from stonk_envs.policies.base import Policy, RandomPolicy


def builtin_player_names(game: str) -> list[str]:
    """The player names ``make_player`` knows for ``game``: ``random`` and its rule-based players."""
    return ["random", *registry.spec(game).players]


def builtin_player(game: str, name: str, num_players: int) -> Policy:
    """The built-in player ``name`` of ``game`` (``random`` or a rule-based player)."""
    names = builtin_player_names(game)
    if name not in names:
        raise ValueError(f"{game} has no built-in player {name!r}; choose one of {names}")
    if name == "random":
        return RandomPolicy()
    return registry.load(registry.spec(game).players[name])(num_players)


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
