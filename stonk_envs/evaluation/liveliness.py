"""Liveliness: whether a player plays the game at a table of its own copies, or stalls.

A table of copies can settle into a stall that is an equilibrium among them (in Stocks & Bombs,
nobody trades and every round ends 0-0), which a best response at that table cannot break. Two
numbers show it, beside the same for the heuristic's table:

- **points per game**: each seat's final score, averaged over seats and games;
- **decided share**: the share of games that a player won outright. Where the game ends at a
  points target (Stocks & Bombs' ``points_to_win``), a game counts only if a seat reached it,
  not if the game ran out of rounds; elsewhere a game counts if one seat alone has the top score.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from stonk_envs.evaluation.tournament import play_batch
from stonk_envs.policies import Policy, make_player
from stonk_envs.policies.games import make_game


def decided(game, scores: np.ndarray) -> np.ndarray:
    """Per game (rows of ``scores``), whether a player won it outright (see the module docstring)."""
    top = scores.max(axis=1)
    target = getattr(game.config, "points_to_win", None)
    if target is not None:
        return top >= target
    return (scores == top[:, None]).sum(axis=1) == 1


def liveliness(
    game: str,
    player: str | Policy,
    num_games: int,
    num_players: int | None = None,
    env_config: dict | None = None,
    seed: int = 0,
) -> dict:
    """``num_games`` games of ``player`` in every seat: points per game and decided share, JSON ready."""
    game_obj = make_game(game, num_players, dict(env_config or {}))
    n = game_obj.num_players
    policy = make_player(player, game, n) if not isinstance(player, Policy) else player
    seeds = np.random.default_rng([seed, 7]).integers(0, 2**63, size=num_games)
    seatings = np.zeros((num_games, n), np.int64)
    scores = play_batch(game_obj, [policy], seatings, seeds, np.random.default_rng(seed)).scores
    sole = decided(game_obj, scores)
    label = policy.name if not isinstance(player, str) else Path(player).name if Path(player).exists() else player
    return {
        "player": label,
        "games": int(num_games),
        "num_players": n,
        "points_per_game": float(scores.mean()),
        "decided_share": float(sole.mean()),
        "decided_by": "points_to_win" if hasattr(game_obj.config, "points_to_win") else "a sole top score",
        "tied_share": float(((scores == scores.max(axis=1, keepdims=True)).sum(axis=1) > 1).mean()),
    }


def compare(game: str, player: str | Policy, num_games: int, num_players: int | None = None,
            env_config: dict | None = None, seed: int = 0, reference: str = "heuristic") -> dict:
    """The liveliness of ``player``'s table beside ``reference``'s, and ``player``'s points as a share of it."""
    mine = liveliness(game, player, num_games, num_players, env_config, seed)
    theirs = liveliness(game, reference, num_games, num_players, env_config, seed)
    ratio = mine["points_per_game"] / theirs["points_per_game"] if theirs["points_per_game"] else None
    return {"player": mine, "reference": theirs, "points_ratio": ratio}


def format_table(result: dict) -> str:
    """A plain-text table of :func:`compare`'s result."""
    rows = [result["player"], result["reference"]]
    lines = [f"{'table of copies of':<32} {'games':>6} {'points/game':>12} {'decided':>8} {'tied':>6}"]
    for row in rows:
        lines.append(f"{row['player'][-32:]:<32} {row['games']:>6} {row['points_per_game']:>12.2f} "
                     f"{row['decided_share']:>8.3f} {row['tied_share']:>6.3f}")
    ratio = result["points_ratio"]
    lines.append(f"(decided: won by {rows[0]['decided_by']}; points against the reference's: "
                 f"{'n/a' if ratio is None else f'{ratio:.2f}'})")
    return "\n".join(lines)
