"""Who holds each seat of a new game in the batched rollouts, and the fixed players behind the codes.

A seat's holder is drawn when its game starts, from the league weights: ``current`` is the learner
itself, ``past`` a frozen snapshot of it (drawn evenly, or by :class:`~.pfsp.PastResults`),
``heuristic`` one of the built-in players named by ``ppo.league.heuristic_players`` (drawn evenly)
and ``random`` the uniform player; every game has at least one learner seat. With
``ppo.league.mix=game`` all the seats of a game that the learner does not hold go to one kind.
Holders are the codes of :mod:`~stonk_envs.policies.seats`.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from stonk_envs.policies import make_player
from stonk_envs.policies.base import Policy, RandomPolicy
from stonk_envs.policies.seats import (
    KIND_HOLDERS,
    LEARNER,
    RANDOM,
    SeatHolder,
    SeatKind,
    built_in_codes,
    is_past,
)
from stonk_envs.training.league.pfsp import PastResults
from stonk_envs.training.league.snapshots import Snapshots


class Seating(Protocol):
    """What the rollouts ask of the league about seats (:class:`SeatDraw`, or a best response's own)."""

    past_results: PastResults
    """The learner's results against the past members in its games."""

    def draw(self, games: np.ndarray) -> np.ndarray:
        """The holder codes (len(games), num_players) of new games in the slots ``games``."""

    def release(self, holder: np.ndarray) -> None:
        """Let go of what no seat of ``holder`` (every game's codes) holds any longer."""

    def member(self, code: int) -> Policy:
        """The player behind a holder code that is neither the learner nor a past member."""


class SeatDraw:
    """The league's draw of seat holders for new games, with the snapshots and the fixed players it deals."""

    def __init__(
        self,
        league_weights: dict[str, float],
        snapshots: Snapshots,
        game: str,
        num_players: int,
        rng: np.random.Generator,
        mix: str = "seat",
        heuristic_players: tuple[str, ...] = ("heuristic",),
        pfsp_power: float = 0.0,
    ):
        self.kinds = list(league_weights)
        self.probs = np.array([league_weights[k] for k in self.kinds], np.float64)
        self.probs /= self.probs.sum()
        self.mix = mix
        """``seat``: each seat's holder drawn on its own; ``game``: one opponent kind per game (``ppo.league.mix``)."""
        self.snapshots = snapshots
        self.game = game
        self.num_players = num_players
        self.heuristic_players = tuple(heuristic_players)
        """The built-in players that hold the ``heuristic`` seats, one drawn evenly per seat."""
        self._fixed: dict[int, Policy] = {RANDOM: RandomPolicy()}
        self.rng = rng
        self.past_results = PastResults(pfsp_power, num_players)

    def draw(self, games: np.ndarray) -> np.ndarray:
        """The holder codes (len(games), num_players) of new games in the slots ``games``."""
        p = self.num_players
        kinds = self._draw_kinds(len(games), p)
        codes = np.empty((len(games), p), np.int64)
        for k, kind in enumerate(self.kinds):
            chosen = kinds == k
            if kind == "past":
                steps = np.array(self.snapshots.steps or [LEARNER], np.int64)
                probs = self.past_results.probabilities(self.snapshots.steps)
                if probs is None:
                    codes[chosen] = steps[self.rng.integers(len(steps), size=int(chosen.sum()))]
                else:
                    codes[chosen] = steps[self.rng.choice(len(steps), size=int(chosen.sum()), p=probs)]
            elif kind == "heuristic":
                many = len(self.heuristic_players) > 1  # one player draws nothing: the stream stays as before
                drawn = self.rng.integers(len(self.heuristic_players), size=int(chosen.sum())) if many else 0
                codes[chosen] = built_in_codes(drawn)
            else:
                codes[chosen] = KIND_HOLDERS[kind].code
        no_learner = ~(codes == LEARNER).any(axis=1)
        codes[no_learner, self.rng.integers(p, size=int(no_learner.sum()))] = LEARNER
        return codes

    def _draw_kinds(self, num_games: int, p: int) -> np.ndarray:
        """Each seat's holder kind (an index into ``self.kinds``), drawn as ``self.mix`` says."""
        if self.mix == "seat":
            return self.rng.choice(len(self.kinds), size=(num_games, p), p=self.probs)
        current = self.kinds.index("current")
        opponents = self.probs.copy()
        opponents[current] = 0.0
        per_game = self.rng.choice(len(self.kinds), size=num_games, p=opponents / opponents.sum())
        learner = self.rng.random((num_games, p)) < self.probs[current]
        return np.where(learner, current, per_game[:, None])

    def release(self, holder: np.ndarray) -> None:
        """Forget the dropped snapshots, and their results, that no seat of ``holder`` still holds."""
        self.snapshots.forget_unused(set(np.unique(holder[is_past(holder)]).tolist()))
        self.past_results.forget(self.snapshots.steps)

    def member(self, code: int) -> Policy:
        """The fixed player (random or built-in) behind a holder code."""
        if code not in self._fixed:
            holder = SeatHolder.from_code(code)
            if holder.kind is not SeatKind.BUILT_IN:
                raise ValueError(f"a {holder.kind.value} seat holder is not a fixed league player")
            self._fixed[code] = make_player(self.heuristic_players[holder.number], self.game, self.num_players)
        return self._fixed[code]
