"""Evaluating players: tournaments with rotated seats, Wilson intervals, ratings, reports, plots.

The heavy modules (scipy, OpenSkill, tqdm) load on first use, so that the command line starts
quickly and ``stonk-envs --help`` works without the ``evaluation`` extra.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from stonk_envs.core.validation import SEED_MAX, OptionTypeError, check_int
from stonk_envs.policies.games import make_game

if TYPE_CHECKING:
    from stonk_envs.evaluation.report import EvaluationReport
    from stonk_envs.policies import Policy


def __getattr__(name: str):
    if name in ("EvaluationReport", "PlayerResult"):
        from stonk_envs.evaluation import report

        return getattr(report, name)
    raise AttributeError(f"module 'stonk_envs.evaluation' has no attribute {name!r}")


MAX_GAMES = 10**9
MAX_WORKERS = 1024


def _settings(
    game: str, players: Sequence, num_games: int, num_players: int | None, env_config: dict | None, seed: int,
    workers: int,
) -> tuple[int, int, dict, int, int]:
    """The checked ``(num_games, num_players, env_config, seed, workers)`` of a tournament."""
    num_games = check_int("num_games", num_games, 1, MAX_GAMES)
    seed = check_int("seed", seed, 0, SEED_MAX)
    workers = check_int("workers", workers, 1, MAX_WORKERS)
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise OptionTypeError(f"players must be a list of player specs or Policy objects, got {players!r}")
    if env_config is not None and not isinstance(env_config, Mapping):
        raise OptionTypeError(f"env_config must be a dict of game options, got {env_config!r}")
    env_config = dict(env_config or {})
    num_players = make_game(game, num_players, env_config).num_players
    env_config.pop("num_players", None)
    return num_games, num_players, env_config, seed, workers


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
    num_games, num_players, env_config, seed, workers = _settings(
        game, players, num_games, num_players, env_config, seed, workers
    )
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
    num_games, num_players, env_config, seed, workers = _settings(
        game, players, num_games, num_players, env_config, seed, workers
    )
    if len(players) < num_players:
        raise ValueError(f"a league of {game} at {num_players} players needs at least {num_players} entries")
    from stonk_envs.evaluation.runner import league_seatings, run_tournament

    seatings = league_seatings(num_games, len(players), num_players, seed)
    return run_tournament(
        game, players, seatings, num_players, env_config, seed, workers, progress, extra={"league": True}, save=save
    )


__all__ = ["EvaluationReport", "PlayerResult", "evaluate", "league"]
