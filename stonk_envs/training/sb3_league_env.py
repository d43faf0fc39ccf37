"""The sb3 trainer's view of self-play: an SB3 ``VecEnv`` of N games on one batched engine.

One seat per game is the learner's, and it moves one seat on at every new game. The others are
held by league members (:class:`~stonk_envs.training.league.opponents.League`), drawn when the
game starts. It is the single-seat view :class:`~stonk_envs.vector.sb3_selfplay.SelfPlayVecEnv`
over :class:`~stonk_envs.vector.selfplay.SelfPlay`, with the league's draw at each new game, one
random stream for the draws, the game seeds and the random players, each ended game's score and
win in its info, and a state that a checkpoint saves.

A learner transition runs from one learner decision to the next: in a real-time game (every
seat decides every tick) that is exactly one tick; in a turn-based game the opponents' turns in
between are played out inside the transition. Its reward is the learner's reward summed over
those steps. Opponents act in batches: at every step one call per league member over all the
seats it holds in all games that are waiting for an action.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from stonk_envs import vector
from stonk_envs.policies.seats import LEARNER, SeatHolder
from stonk_envs.training.league.opponents import League
from stonk_envs.vector.engine import BatchEngine
from stonk_envs.vector.sb3_selfplay import SelfPlayVecEnv
from stonk_envs.vector.selfplay import SelfPlay


class _LeagueSelfPlay(SelfPlay):
    """The single-seat view, telling its ``VecEnv`` when games end and start."""

    def __init__(self, engine: BatchEngine, venv: LeagueVecEnv):
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
            self.venv.record_end(i, self.engine.game.scores(self.engine.final_states, i), self.seats[i])

    def _games_started(self, started: np.ndarray) -> None:
        self.venv.draw_members(np.flatnonzero(started))


class LeagueVecEnv(SelfPlayVecEnv):
    """``num_envs`` games of ``game`` in one batched engine, the league at the seats the learner does not hold."""

    STATE_KEYS = ("learner_seat", "episode_return", "episode_length", "steps_played", "opponent_calls")
    """The view's attributes that :meth:`get_state` saves, besides the members, the random stream and the games."""

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
        super().__init__(engine)
        self.num_players = num_players
        self.league = league
        self.rng = np.random.default_rng(seed)
        """The stream of the league draws, the game seeds and the random players."""
        self.final_score = np.zeros(num_envs, np.float64)
        self.final_win = np.zeros(num_envs, np.bool_)
        self.selfplay = _LeagueSelfPlay(engine, self)
        self.selfplay.rng = self.rng
        self.selfplay.holders[:] = LEARNER

    # the view keeps the learner seats, the episode statistics and the counts
    learner_seat = property(lambda self: self.selfplay.seats, lambda self, value: self.selfplay.set_seats(value))
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

    @property
    def members(self) -> list[list[str]]:
        """Each game's member key per seat (``"current"`` at the learner's)."""
        return [[SeatHolder.from_code(code).key for code in row] for row in self.selfplay.holders]

    # ------------------------------------------------------------------ VecEnv API
    def reset(self) -> np.ndarray:
        """Start a fresh game in every env (the learner seats rotate as usual)."""
        self.selfplay.deal_again(int(self.rng.integers(2**62)))
        return self.current_obs()

    def seed(self, seed: int | None = None):
        """Reseed the game and league draws (takes effect from the next game started)."""
        if seed is not None:
            self.rng.bit_generator.state = np.random.default_rng(seed).bit_generator.state
        return [seed] * self.num_envs

    def step_wait(self):
        if self._actions is None:
            raise ValueError("step_wait() called without step_async()")
        actions, self._actions = self._actions, None
        view = self.selfplay
        view.players = {code: self.league.player(code) for code in view.players}  # as the league has them now
        rewards, dones, final_obs = view.step(actions)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i] = {
                "terminal_observation": final_obs[i],
                "episode": {"r": float(self.episode_return[i]), "l": int(self.episode_length[i])},
                "score": float(self.final_score[i]),
                "win": bool(self.final_win[i]),
            }
        view.pop_episodes(dones)
        return self.current_obs(), rewards.astype(np.float32), dones, infos

    # ------------------------------------------------------------------ state
    def current_obs(self) -> np.ndarray:
        """The learner seats' observations now (what the last step or reset returned)."""
        return self.selfplay.learner_obs()[0]

    def members_in_use(self) -> set[int]:
        """The holder codes of the league members at some opponent seat of a game in play."""
        view = self.selfplay
        return set(np.unique(view.holders[view.is_opponent]).tolist())

    def get_state(self) -> dict[str, Any]:
        """Everything needed to continue these games exactly (for checkpoints)."""
        state = {name: copy.deepcopy(getattr(self, name)) for name in self.STATE_KEYS}
        return {**state, "members": self.members, "rng": self.rng.bit_generator.state,
                "engine": self.engine.get_state(), "dealt": self.selfplay.dealt}

    def set_state(self, state: dict[str, Any]) -> None:
        """Restore what :meth:`get_state` saved (same game, player count and env count)."""
        if "engine" not in state:
            raise ValueError("saved self-play state is not of one batched engine (saved by the PettingZoo backend, "
                             "which this version no longer runs)")
        self.engine.set_state(state["engine"])
        self.selfplay.dealt = state["dealt"]
        for name in self.STATE_KEYS:
            setattr(self, name, state[name])
        self.rng.bit_generator.state = state["rng"]
        self.selfplay.holders[:] = [[SeatHolder.from_key(key).code for key in row] for row in state["members"]]
        self._seat_opponents()

    # ------------------------------------------------------------------ games
    def record_end(self, i: int, scores, seat: int) -> None:
        """The game of env ``i`` ended with ``scores``: keep its learner's score and whether it won."""
        self.final_score[i] = scores[seat]
        self.final_win[i] = scores[seat] >= max(scores)

    def draw_members(self, envs: np.ndarray) -> None:
        """League members for the opponent seats of the new games in ``envs``, before anyone acts in them."""
        view = self.selfplay
        for i in envs:
            seat = view.seats[i]
            view.holders[i] = [LEARNER if p == seat else self.league.draw(self.rng) for p in range(self.num_players)]
        self.league.forget_unused(self.members_in_use())
        self._seat_opponents()

    def _seat_opponents(self) -> None:
        """Make the league members at the opponent seats the view's players; each is called in the order of its
        key, as runs have called them since the league was written."""
        in_use = sorted(self.members_in_use(), key=lambda code: SeatHolder.from_code(code).key)
        self.selfplay.seat_players(self.selfplay.holders, {code: self.league.player(code) for code in in_use})
