"""Choosing which games of a tournament to save as game records, and saving them.

A choice is ``first:N`` (the first N games), ``losses:N`` (the first N games that the first
listed player took part in and did not win) or ``all``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from stonk_envs.core.game import Game
from stonk_envs.records import batch_record

KINDS = ("first", "losses", "all")


@dataclass(frozen=True)
class GameChoice:
    """Which games to save: ``kind`` (first, losses, all) and at most ``count`` of them."""

    kind: str
    count: int | None = None

    @classmethod
    def parse(cls, text: str) -> GameChoice:
        """``first:N``, ``losses:N`` or ``all``; ValueError naming the problem otherwise."""
        kind, _, count = text.partition(":")
        if kind not in KINDS:
            raise ValueError(f"records to save must be first:N, losses:N or all, got {text!r}")
        if kind == "all":
            if count:
                raise ValueError(f"'all' takes no count, got {text!r}")
            return cls("all")
        if not count.isdigit() or int(count) < 1:
            raise ValueError(f"{kind}:N needs a positive whole number N, got {text!r}")
        return cls(kind, int(count))

    def select(self, scores: np.ndarray, seatings: np.ndarray) -> list[int]:
        """Indices of the chosen games, in play order."""
        games = np.arange(len(scores))
        if self.kind == "losses":
            seated = seatings == 0
            lost = seated & (scores < scores.max(axis=1, keepdims=True))
            games = games[lost.any(axis=1)]
        return [int(g) for g in games[: self.count]]


def save_games(
    folder: Path,
    chosen: list[int],
    game: Game,
    names: list[str],
    seatings: np.ndarray,
    seeds: np.ndarray,
    actions: list[np.ndarray],
    scores: np.ndarray,
    rewards: np.ndarray,
) -> list[Path]:
    """Write one record per chosen game as ``game_<index>.json`` into ``folder``."""
    paths = []
    for g in chosen:
        players = [names[e] for e in seatings[g]]
        record = batch_record(game, int(seeds[g]), actions[g], rewards[g], scores[g], players)
        paths.append(record.save(folder / f"game_{g:05d}.json"))
    return paths
