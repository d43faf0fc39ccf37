"""Tournaments: seatings, seeds, chunks of games over worker processes, and the report."""

from __future__ import annotations

import multiprocessing
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from stonk_envs.evaluation.report import EvaluationReport, summarise
from stonk_envs.evaluation.saved_games import GameChoice, save_games
from stonk_envs.evaluation.tournament import play_batch
from stonk_envs.policies import Policy, make_player
from stonk_envs.policies.games import make_game

CHUNK_GAMES = 50
"""Games played in lockstep in one batch (and the unit of work of a worker process)."""

PlayerSpec = str | Policy


def rotated_seatings(num_games: int, num_players: int) -> np.ndarray:
    """Game g seats player e at seat (e - g) mod n: every player visits every seat in turn."""
    return (np.arange(num_players)[None, :] + np.arange(num_games)[:, None]) % num_players


def league_seatings(num_games: int, num_entries: int, num_players: int, seed: int) -> np.ndarray:
    """For each game, a uniformly random ordered choice of ``num_players`` distinct entries."""
    rng = np.random.default_rng([seed, 1])
    return np.array([rng.permutation(num_entries)[:num_players] for _ in range(num_games)], dtype=np.int64)


def player_names(players: Sequence[PlayerSpec]) -> list[str]:
    """A report name per entry; repeated names get ``#1``, ``#2``..."""
    base = [p.name if isinstance(p, Policy) else str(p) for p in players]
    counts = Counter(base)
    seen: Counter = Counter()
    names = []
    for name in base:
        seen[name] += 1
        names.append(f"{name}#{seen[name]}" if counts[name] > 1 else name)
    return names


def resolve_players(players: Sequence[PlayerSpec], game: str, num_players: int) -> list[Policy]:
    """One Policy per entry; entries with the same spec string share one object (one call per step)."""
    cache: dict[str, Policy] = {}
    resolved = []
    for spec in players:
        if isinstance(spec, Policy):
            resolved.append(spec)
        else:
            if str(spec) not in cache:
                cache[str(spec)] = make_player(str(spec), game, num_players)
            resolved.append(cache[str(spec)])
    return resolved


_WORKER_CACHE: dict[tuple, tuple] = {}


def _play_chunk(game_name, num_players, env_config, specs, seatings, seeds, rng_seed, keep_actions=False):
    """Worker entry: play one chunk of games; the game and players are built once per process."""
    key = (game_name, num_players, repr(sorted(env_config.items())), tuple(specs))
    if key not in _WORKER_CACHE:
        _WORKER_CACHE[key] = (
            make_game(game_name, num_players, env_config),
            resolve_players(specs, game_name, num_players),
        )
    game, players = _WORKER_CACHE[key]
    result = play_batch(game, players, seatings, seeds, np.random.default_rng(rng_seed), keep_actions=keep_actions)
    return result.scores, result.rewards, result.actions


def _init_worker() -> None:
    import torch

    torch.set_num_threads(1)


def run_tournament(
    game: str,
    players: Sequence[PlayerSpec],
    seatings: np.ndarray,
    num_players: int,
    env_config: dict,
    seed: int,
    workers: int,
    progress: bool,
    extra: dict | None = None,
    save: tuple[GameChoice, Path] | None = None,
) -> EvaluationReport:
    """Play one game per row of ``seatings`` (entries per seat) and summarise.

    ``save=(choice, folder)`` writes the records of the chosen games into ``folder``.
    """
    played = play_seatings(game, players, seatings, num_players, env_config, seed, workers, progress,
                           keep_actions=save is not None)
    if save is not None:
        choice, folder = save
        chosen = choice.select(played.scores, seatings)
        save_games(folder, chosen, make_game(game, num_players, env_config), player_names(players), seatings,
                   played.seeds, played.actions, played.scores, played.rewards)
        extra = {**(extra or {}), "records": {"folder": str(folder), "games": chosen}}
    return summarise(
        player_names(players),
        seatings,
        played.scores,
        played.rewards,
        game=game,
        num_players=num_players,
        num_games=len(seatings),
        seed=seed,
        env_config=env_config,
        seconds=played.seconds,
        extra={"workers": workers, **(extra or {})},
    )


@dataclass(frozen=True)
class Played:
    """The games of a tournament: per game its seed, final scores and summed rewards (per seat), and its actions
    when kept; the seconds they took."""

    seeds: np.ndarray
    scores: np.ndarray
    rewards: np.ndarray
    actions: list
    seconds: float


def play_seatings(
    game: str,
    players: Sequence[PlayerSpec],
    seatings: np.ndarray,
    num_players: int,
    env_config: dict,
    seed: int,
    workers: int,
    progress: bool,
    keep_actions: bool = False,
) -> Played:
    """Play one game per row of ``seatings`` (entries per seat), in chunks, over ``workers`` processes."""
    num_games = len(seatings)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    if workers > 1 and any(isinstance(p, Policy) for p in players):
        raise ValueError("Policy objects can only be played with workers=1; pass specs (paths) for workers > 1")
    resolved = resolve_players(players, game, num_players)
    game_obj = make_game(game, num_players, env_config)
    seeds = np.random.default_rng(seed).integers(0, 2**63, size=num_games)
    chunks = [range(start, min(start + CHUNK_GAMES, num_games)) for start in range(0, num_games, CHUNK_GAMES)]
    scores = np.zeros((num_games, num_players))
    rewards = np.zeros((num_games, num_players))
    actions: list = [None] * num_games
    started = time.perf_counter()
    with tqdm(total=num_games, disable=not progress, unit="game", desc=f"{game}") as bar:
        if workers == 1:
            for k, chunk in enumerate(chunks):
                result = play_batch(
                    game_obj, resolved, seatings[chunk], seeds[chunk], np.random.default_rng([seed, k]), bar.update,
                    keep_actions=keep_actions,
                )
                scores[chunk], rewards[chunk] = result.scores, result.rewards
                actions[chunk.start : chunk.stop] = result.actions or [None] * len(chunk)
        else:
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker) as pool:
                futures = {
                    pool.submit(
                        _play_chunk, game, num_players, env_config, [str(p) for p in players],
                        seatings[chunk], seeds[chunk], [seed, k], keep_actions,
                    ): chunk
                    for k, chunk in enumerate(chunks)
                }
                for future in as_completed(futures):
                    chunk = futures[future]
                    scores[chunk], rewards[chunk], kept = future.result()
                    actions[chunk.start : chunk.stop] = kept or [None] * len(chunk)
                    bar.update(len(chunk))
    return Played(seeds, scores, rewards, actions, time.perf_counter() - started)
