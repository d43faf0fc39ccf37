"""A replayed record as a list of moments: the table after the deal and after every step."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from stonk_envs.core.game import NO_ACTION, Game
from stonk_envs.records import GameRecord, replay_steps


@dataclass
class Moment:
    """The table after step ``index`` (-1: the deal) and the moves that led to it."""

    index: int
    states: np.ndarray
    """A copy of the state record, shape (1,)."""
    moves: list[str]
    """``player_2: bid $6K on pile 2``, one per seat that acted (waits left out)."""
    rewards: np.ndarray
    """Rewards summed so far, per seat."""
    game_over: bool

    @property
    def quiet(self) -> bool:
        """True for a step in which every seat only waited."""
        return self.index >= 0 and not self.moves

    def title(self, total: int) -> str:
        return "the deal" if self.index < 0 else f"step {self.index + 1}/{total}"


def named_moves(game: Game, states: np.ndarray, joint: list[int], viewer: int | None = None) -> list[str]:
    """The actions of a joint action in words, as seen on the table before it resolves.

    Seen from ``viewer``, other seats' moves are named without the hidden cards they move.
    """
    moves = []
    for seat, action in enumerate(joint):
        if action == NO_ACTION:
            continue
        name = game.name_action(states, 0, seat, int(action), public=viewer is not None and viewer != seat)
        if name != "wait":
            moves.append(f"player_{seat}: {name}")
    return moves


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
        moves = named_moves(game, before, step.joint, viewer) if before is not None else []
        moments.append(Moment(step.index, states.copy(), moves, step.rewards, step.game_over))
        before = states.copy()
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
