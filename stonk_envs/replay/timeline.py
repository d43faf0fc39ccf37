"""A replayed record as a list of moments: the table after the deal and after every step."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from stonk_envs.core.game import Game
from stonk_envs.games.story import step_lines, summary_lines
from stonk_envs.records import GameRecord, replay_steps


@dataclass
class Moment:
    """The table after step ``index`` (-1: the deal) and the moves that led to it."""

    index: int
    states: np.ndarray
    """A copy of the state record, shape (1,)."""
    moves: list[str]
    """``player_2: bid $6K on pile 2``, one per seat that acted (waits left out); a void move says
    ``- VOID: <why>``."""
    rewards: np.ndarray
    """Rewards summed so far, per seat."""
    game_over: bool
    summary: list[str] = field(default_factory=list)
    """What the step scored: the round's breakdown, and the winners at the end (empty otherwise)."""

    @property
    def quiet(self) -> bool:
        """True for a step in which every seat only waited."""
        return self.index >= 0 and not self.moves

    def title(self, total: int) -> str:
        return "the deal" if self.index < 0 else f"step {self.index + 1}/{total}"


def timeline(
    record: GameRecord, allow_other_version: bool = False, viewer: int | None = None
) -> tuple[Game, list[Moment]]:
    """Replay ``record`` (checked as :func:`stonk_envs.records.replay` checks it) into its moments.

    The moves are named as ``viewer`` may know them (None: everything).
    """
    moments: list[Moment] = []
    before = None
    game = None
    for game, states, step in replay_steps(record, allow_other_version):
        after = states.copy()
        moves, summary = [], []
        if before is not None:
            moves = step_lines(game, before, after, step.joint, step.voids, viewer)
            summary = summary_lines(game, before, after, step.joint)
        moments.append(Moment(step.index, after, moves, step.rewards, step.game_over, summary))
        before = after
    return game, moments


def choose(moments: list[Moment], stride: int = 1, skip_quiet: bool = False) -> list[Moment]:
    """The moments to show: every ``stride``-th, without waits-only steps when ``skip_quiet``; the deal and the
    end always."""
    if stride < 1:
        raise ValueError(f"stride must be a positive integer, got {stride}")
    kept = [m for m in moments if not (skip_quiet and m.quiet) or m is moments[-1]]
    chosen = kept[::stride]
    if kept and chosen[-1] is not kept[-1]:
        chosen.append(kept[-1])
    return chosen
