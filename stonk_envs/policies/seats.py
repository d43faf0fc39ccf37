"""Who holds a seat: one type for every kind of seat holder, and the two forms it is stored in.

A :class:`SeatHolder` is a kind and, where the kind needs one, a number: the step a past member
(a snapshot of the learner, or an exploiter) is kept under, or a built-in player's place in the
list of fixed players at hand (``ppo.league.heuristic_players`` in the batched trainer, the
``opponents`` or league players of the Gymnasium vector env). Every league of the package speaks
it: the batched rollouts keep one integer per seat (:attr:`SeatHolder.code`, the table below), as
does the single-seat self-play view (:class:`~stonk_envs.vector.selfplay.SelfPlay`) that the
vector env, the sb3 trainer and the sb3 best response step; the sb3 trainer's checkpoints keep one
string per seat (:attr:`SeatHolder.key`), and RLlib names its modules after the holders. Codes and
keys are saved in checkpoints, so neither may change.

=================  ====================================  ===================
kind               code                                  key
=================  ====================================  ===================
``learner``        -1                                    ``current``
``random``         -2                                    ``random``
``built_in`` i     -3 - 100 i                            ``heuristic`` (i=0)
``frozen``         -4                                    (none)
``past`` at step   step (>= 0)                           ``past:<step>``
=================  ====================================  ===================
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np


class SeatKind(enum.Enum):
    """The kinds of seat holder."""

    LEARNER = "learner"
    """The policy being trained: its decisions are the samples."""
    PAST = "past"
    """A frozen snapshot of the learner, or an exploiter, by the step it is kept under."""
    BUILT_IN = "built_in"
    """A fixed player, by its place in the list of fixed players at hand."""
    RANDOM = "random"
    """The uniform random player."""
    FROZEN = "frozen"
    """The fixed player a best response trains against."""


_FIXED_CODES = {SeatKind.LEARNER: -1, SeatKind.RANDOM: -2, SeatKind.FROZEN: -4}
_BUILT_IN_FIRST = -3
BUILT_IN_STRIDE = 100
"""Codes of successive built-in players are this far apart (the first's, -3, predates the others)."""
_KEYS = {SeatKind.LEARNER: "current", SeatKind.RANDOM: "random"}


@dataclass(frozen=True)
class SeatHolder:
    """One seat holder: its kind and, for ``past`` and ``built_in``, its number (else 0)."""

    kind: SeatKind
    number: int = 0

    def __post_init__(self):
        if self.number < 0 or (self.number and self.kind not in (SeatKind.PAST, SeatKind.BUILT_IN)):
            raise ValueError(f"a {self.kind.value} seat holder has no number {self.number}")

    @property
    def code(self) -> int:
        """The integer the batched rollouts keep for this holder."""
        if self.kind is SeatKind.PAST:
            return self.number
        if self.kind is SeatKind.BUILT_IN:
            return _BUILT_IN_FIRST - BUILT_IN_STRIDE * self.number
        return _FIXED_CODES[self.kind]

    @classmethod
    def from_code(cls, code: int) -> SeatHolder:
        code = int(code)
        if code >= 0:
            return cls(SeatKind.PAST, code)
        for kind, fixed in _FIXED_CODES.items():
            if code == fixed:
                return cls(kind)
        number, rest = divmod(_BUILT_IN_FIRST - code, BUILT_IN_STRIDE)
        if rest:
            raise ValueError(f"no seat holder has code {code}")
        return cls(SeatKind.BUILT_IN, number)

    @property
    def key(self) -> str:
        """The string the sb3 league and single-seat self-play keep for this holder."""
        if self.kind is SeatKind.PAST:
            return f"past:{self.number}"
        if self.kind is SeatKind.BUILT_IN and self.number == 0:
            return "heuristic"
        if self.kind in _KEYS:
            return _KEYS[self.kind]
        raise ValueError(f"the sb3 league has no key for a {self.kind.value} seat holder {self.number}")

    @classmethod
    def from_key(cls, key: str) -> SeatHolder:
        if key.startswith("past:") and key[5:].isdigit():
            return cls(SeatKind.PAST, int(key[5:]))
        if key == "heuristic":
            return cls(SeatKind.BUILT_IN)
        for kind, name in _KEYS.items():
            if key == name:
                return cls(kind)
        raise ValueError(f"unknown league member {key!r}")


LEARNER = SeatHolder(SeatKind.LEARNER).code
RANDOM = SeatHolder(SeatKind.RANDOM).code
FROZEN = SeatHolder(SeatKind.FROZEN).code
KIND_HOLDERS = {
    "current": SeatHolder(SeatKind.LEARNER),
    "heuristic": SeatHolder(SeatKind.BUILT_IN),
    "random": SeatHolder(SeatKind.RANDOM),
}
"""The holder each league weight's kind names (``past`` draws among the past members, and the batched
rollouts' ``heuristic`` among ``ppo.league.heuristic_players``)."""


def is_past(codes: np.ndarray) -> np.ndarray:
    """Where the codes name a past member (a snapshot or an exploiter)."""
    return codes >= 0


def built_in_codes(numbers: np.ndarray | int) -> np.ndarray | int:
    """The codes of the built-in players at these places of ``ppo.league.heuristic_players``."""
    return _BUILT_IN_FIRST - BUILT_IN_STRIDE * numbers
