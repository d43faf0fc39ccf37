"""The engine backend of the learner's view: every game of the run in one batched engine.

:class:`EngineSelfPlayVecEnv` has the semantics of :class:`~stonk_envs.training.selfplay.SelfPlayVecEnv`
(see :mod:`stonk_envs.training.selfplay`) and runs on :func:`stonk_envs.vector.make`'s
:class:`~stonk_envs.vector.engine.BatchEngine` through its single-seat view,
:class:`~stonk_envs.vector.selfplay.SelfPlay`: the learner seats rotate at each new game, and
each league member holding opponent seats is one of the view's opponent policies. The engine's
games are seeded from the run's random stream, so they differ from the PettingZoo backend's,
but a run is as reproducible and resumes as exactly.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from stonk_envs import vector
from stonk_envs.training.league.opponents import League
from stonk_envs.training.selfplay import LeagueVecEnv
from stonk_envs.vector.engine import BatchEngine
from stonk_envs.vector.selfplay import SelfPlay


class _LeagueSelfPlay(SelfPlay):
    """The engine's single-seat view, telling its ``VecEnv`` when games end and start."""

    def __init__(self, engine: BatchEngine, venv: EngineSelfPlayVecEnv):
        super().__init__(engine, rotate_seats=True)
        self.venv = venv
        self.dealt = False

    def deal_again(self, engine_seed: int) -> None:
        """New games in every slot (after the first deal the learner seats move on, as at any new game)."""
        if self.dealt:
            self._rotate(np.ones(self.engine.num_envs, np.bool_))
        self.dealt = True
        self.deal(engine_seed)

    def _games_ended(self, ended: np.ndarray) -> None:
        for i in np.flatnonzero(ended):
            self.venv._record_end(i, self.engine.game.scores(self.engine.final_states, i), self.seats[i])

    def _games_started(self, started: np.ndarray) -> None:
        self.venv._new_games(np.flatnonzero(started))


class EngineSelfPlayVecEnv(LeagueVecEnv):
    """The engine backend: ``num_envs`` games in a :class:`BatchEngine`; observations are the learner seats'."""

    def __init__(
        self,
        game: str,
        num_players: int,
        env_config: dict[str, Any],
        num_envs: int,
        league: League,
        seed: int,
    ):
        # the view reads only the observations of seats that act
        engine = vector.make(game, num_envs, num_players=num_players, observe="actors", **env_config)
        self.selfplay = _LeagueSelfPlay(engine, self)
        self._keys: list[str] = []
        """The league members at opponent seats of the games in play, in the order of the view's policies."""
        low, high = engine.game.observation_bounds
        super().__init__(num_envs, num_players, spaces.Box(low, high, dtype=np.float32), engine.num_actions,
                         league, seed)
        self.selfplay.rng = self.rng

    # the view keeps the learner seats, the episode statistics and the counts
    learner_seat = property(lambda self: self.selfplay.seats, lambda self, value: self._set_seats(value))
    episode_return = property(lambda self: self.selfplay.episode_return,
                              lambda self, value: setattr(self.selfplay, "episode_return", value))
    episode_length = property(lambda self: self.selfplay.episode_length,
                              lambda self, value: setattr(self.selfplay, "episode_length", value))
    steps_played = property(lambda self: self.selfplay.steps_played,
                            lambda self, value: setattr(self.selfplay, "steps_played", value),
                            doc="Engine game steps taken in all games (learner and opponent decisions alike).")
    opponent_calls = property(lambda self: self.selfplay.opponent_calls,
                              lambda self, value: setattr(self.selfplay, "opponent_calls", value),
                              doc="League member calls made (one per member per step, however many seats it holds).")

    @property
    def engine(self) -> BatchEngine:
        return self.selfplay.engine

    # ------------------------------------------------------------------ VecEnv API
    def reset(self) -> np.ndarray:
        """Start a fresh game in every env (the learner seats rotate as usual)."""
        self.selfplay.deal_again(int(self.rng.integers(2**62)))
        return self.current_obs()

    def step_wait(self):
        actions, self._actions = self._actions, None
        self.selfplay.policies = [self.league.player(key) for key in self._keys]  # as the league has them now
        rewards, dones, final_obs = self.selfplay.step(actions)
        infos = self._end_infos(dones, final_obs)
        self.selfplay.pop_episodes(dones)
        return self.current_obs(), rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """The learner seats' masks, shape (num_envs, num_actions) (MaskablePPO reads these)."""
        return self.selfplay.learner_obs()[1].astype(bool)

    def close(self) -> None:
        pass

    def _targets(self, indices) -> list[Any]:
        return [self.engine for _ in self._get_indices(indices)]

    # ------------------------------------------------------------------ state
    def current_obs(self) -> np.ndarray:
        return self.selfplay.learner_obs()[0]

    def _games_state(self) -> dict[str, Any]:
        return {"engine": self.engine.get_state(), "dealt": self.selfplay.dealt}

    def _set_games_state(self, state: dict[str, Any]) -> None:
        if "engine" not in state:
            raise ValueError("saved self-play state is not of the engine backend")
        self.engine.set_state(state["engine"])
        self.selfplay.dealt = state["dealt"]

    def set_state(self, state: dict[str, Any]) -> None:
        super().set_state(state)
        self._seat_opponents()

    # ------------------------------------------------------------------ internals
    def _set_seats(self, seats: np.ndarray) -> None:
        view = self.selfplay
        view.seats = np.asarray(seats, dtype=np.int64).copy()
        view.is_opponent[:] = True
        view.is_opponent[view.rows, view.seats] = False

    def _new_games(self, envs: np.ndarray) -> None:
        """Fresh league members for the new games in ``envs``, before anyone acts in them."""
        for i in envs:
            self._draw_members(i)
        self.league.forget_unused(self.members_in_use())
        self._seat_opponents()

    def _seat_opponents(self) -> None:
        """Make the league members at the opponent seats the view's opponent policies (the
        learner seats' entries of the table are not used)."""
        self._keys = sorted(self.members_in_use())
        index = {key: k for k, key in enumerate(self._keys)}
        table = np.array([[index.get(key, 0) for key in row] for row in self.members], dtype=np.int64)
        self.selfplay.set_opponents([self.league.player(key) for key in self._keys], table)
