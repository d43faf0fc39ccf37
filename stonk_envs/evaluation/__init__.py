"""Evaluating players: tournaments with rotated seats, Wilson intervals, ratings, reports, plots.

The heavy modules (scipy, OpenSkill, tqdm) load on first use, so that the command line starts
quickly and ``stonk-envs --help`` works without the ``evaluation`` extra.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from stonk_envs.policies.games import make_game

if TYPE_CHECKING:
    from stonk_envs.evaluation.report import EvaluationReport
    from stonk_envs.policies import Policy


def __getattr__(name: str):
    if name in ("EvaluationReport", "PlayerResult"):
        from stonk_envs.evaluation import report

        return getattr(report, name)
    raise AttributeError(f"module 'stonk_envs.evaluation' has no attribute {name!r}")


def _settings(game: str, num_games: int, num_players: int | None, env_config: dict | None) -> tuple[int, dict]:
    if isinstance(num_games, bool) or not isinstance(num_games, int) or num_games < 1:
        raise ValueError(f"num_games must be a positive integer, got {num_games!r}")
    env_config = dict(env_config or {})
    num_players = make_game(game, num_players, env_config).num_players
    env_config.pop("num_players", None)
    return num_players, env_config


def evaluate(
    game: str,
    players: Sequence[str | Policy],
    num_games: int,
    num_players: int | None = None,
    env_config: dict | None = None,
    seed: int = 0,
    workers: int = 1,
    progress: bool = True,
    save: tuple | None = None,
) -> EvaluationReport:
    """Play ``num_games`` games with one entry of ``players`` per seat, seats rotated game by game.

    ``players`` are specs (``"random"``, ``"heuristic"``, a saved policy's path) or
    :class:`~stonk_envs.policies.Policy` objects (only with ``workers=1``); there must be one per
    seat (``num_players``, by default the game's default). Rotation makes each entry play each
    seat equally often when ``num_games`` is a multiple of the player count. ``save`` is
    ``(GameChoice, folder)``: the records of the chosen games are written there.
    """
    num_players, env_config = _settings(game, num_games, num_players, env_config)
    if len(players) != num_players:
        raise ValueError(f"{game} with {num_players} players needs {num_players} players, got {len(players)}")
    from stonk_envs.evaluation.runner import rotated_seatings, run_tournament

    seatings = rotated_seatings(num_games, num_players)
    return run_tournament(game, players, seatings, num_players, env_config, seed, workers, progress, save=save)


def league(
    game: str,
    players: Sequence[str | Policy],
    num_games: int,
    num_players: int | None = None,
    env_config: dict | None = None,
    seed: int = 0,
    workers: int = 1,
    progress: bool = True,
    save: tuple | None = None,
) -> EvaluationReport:
    """Rate a league of at least ``num_players`` entries: each game seats a random choice of them."""
    num_players, env_config = _settings(game, num_games, num_players, env_config)
    if len(players) < num_players:
        raise ValueError(f"a league of {game} at {num_players} players needs at least {num_players} entries")
    from stonk_envs.evaluation.runner import league_seatings, run_tournament

    seatings = league_seatings(num_games, len(players), num_players, seed)
    return run_tournament(
        game, players, seatings, num_players, env_config, seed, workers, progress, extra={"league": True}, save=save
    )


__all__ = ["EvaluationReport", "PlayerResult", "evaluate", "league"]
