"""Resolving a player spec (a built-in player's name, ``champion`` or a saved file) to a :class:`Policy`.

A game's built-in players are ``random`` and the rule-based players its spec names
(:attr:`stonk_envs.registry.GameSpec.players`), ``heuristic`` the default one. ``champion`` is the
trained policy that ships with the package for the games that have one (:mod:`stonk_envs.champions`).
"""

from __future__ import annotations

from pathlib import Path

from stonk_envs import champions, registry
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


def champion_player(game: str, num_players: int) -> Policy:
    """The champion of ``game`` (``ValueError`` naming the games with one, or the counts it plays)."""
    from stonk_envs.policies.checkpoint import load_policy

    policy = load_policy(champions.champion_file(game, num_players), game=game, num_players=num_players)
    policy.name = champions.NAME
    return policy


def policy_file(spec: str, game: str | None) -> Path | None:
    """The saved policy a spec names: the champion's file for ``champion`` (which needs ``game``), the path of an
    existing file or folder, else None (a built-in player or an unknown name)."""
    if spec == champions.NAME:
        if game is None:
            raise ValueError(f"{champions.NAME} needs a game (--game): the games with one: "
                             f"{', '.join(champions.games()) or 'none'}")
        return champions.champion_file(game)
    return Path(spec) if Path(spec).exists() else None


def make_player(spec: str | Policy, game: str, num_players: int, trust: bool = False) -> Policy:
    """A :class:`Policy` from a built-in player's name, ``champion``, a saved policy's path, or a Policy.

    A file is loaded by :func:`~stonk_envs.policies.checkpoint.load_policy` (``trust``: see there).
    """
    if isinstance(spec, Policy):
        return spec
    if not isinstance(spec, (str, Path)):
        raise ValueError(f"a player is a built-in player's name, a path or a Policy, got {spec!r}")
    names = builtin_player_names(game)
    if str(spec) in names:
        return builtin_player(game, str(spec), num_players)
    if str(spec) == champions.NAME:
        return champion_player(game, num_players)
    if str(spec) == "":
        raise ValueError(f"a player must not be empty: name one of {names} or a policy file or folder")
    if not Path(spec).exists():
        raise ValueError(
            f"unknown player {str(spec)!r}: not one of {[*names, champions.NAME]} for {game} nor an existing "
            "policy file or folder"
        )
    from stonk_envs.policies.checkpoint import load_policy

    return load_policy(spec, game=game, num_players=num_players, trust=trust)
