"""Single-seat self-play on a batched engine: the stepping logic that every single-seat view shares.

Slot ``i`` of the view is game ``i`` of the engine seen from one learner seat (by default
seat ``i mod P``, so every seat position is trained; with ``rotate_seats`` it moves one seat
on at every new game of the slot). The other seats are played by opponent
:class:`~stonk_envs.policies.base.Policy` objects (random by default; give a frozen copy of
the learner for self-play, or several league members with :meth:`SelfPlay.seat_players`, each
seat of each game held by one :class:`~stonk_envs.policies.seats.SeatHolder`). One view step is
one learner decision: in a turn-based game the opponents' turns in between are played inside the
step, and their rewards to the learner seat are added up.

The views read only the observations of seats that act, so an engine made with
``observe="actors"`` serves them with less work.

The views over it: ``gymnasium.make_vec``'s :class:`~stonk_envs.vector.gym_vector.EngineVectorEnv`,
the SB3 ``VecEnv`` :class:`~stonk_envs.vector.sb3_selfplay.SelfPlayVecEnv` (it needs the
``training`` extra) and the sb3 trainer's league view,
:class:`~stonk_envs.training.sb3_league_env.LeagueVecEnv`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

import numpy as np

from stonk_envs.core.game import NO_ACTION
from stonk_envs.core.validation import check_bool, check_optional_int, check_seed
from stonk_envs.policies.base import Policy, RandomPolicy
from stonk_envs.policies.seats import SeatHolder, SeatKind
from stonk_envs.vector.engine import BatchEngine


class SelfPlay:
    """The stepping logic shared by every single-seat view: learner seats, opponents, episode stats.

    A subclass may act at each game's end and start through :meth:`_games_ended` and
    :meth:`_games_started` (the trainer draws league members there).
    """

    def __init__(
        self,
        engine: BatchEngine,
        opponent: Policy | None = None,
        learner_seat: int | None = None,
        seed: int | None = None,
        rotate_seats: bool = False,
    ):
        n, p = engine.num_envs, engine.num_players
        learner_seat = check_optional_int("learner_seat", learner_seat, 0, p - 1)
        self.engine = engine
        self.rotate_seats = check_bool("rotate_seats", rotate_seats)
        self.rng = np.random.default_rng(check_seed("seed", seed))
        self.pending_seed = seed
        """Deals the first games when the first :meth:`reset` names no seed."""
        self.rows = np.arange(n)
        self.set_seats(np.arange(n) % p if learner_seat is None else np.full(n, learner_seat))
        self.episode_return = np.zeros(n, np.float64)
        self.episode_length = np.zeros(n, np.int64)
        self.steps_played = 0
        """Game steps taken (one per game per engine step that moves it; learner and opponent turns alike)."""
        self.opponent_calls = 0
        """Opponent policy calls (one per policy per engine step, however many seats it plays)."""
        self.set_opponent(opponent if opponent is not None else RandomPolicy())

    def set_seats(self, seats: np.ndarray) -> None:
        """Make ``seats[i]`` the learner seat of slot ``i`` (the other seats are the opponents')."""
        e = self.engine
        self.seats = np.asarray(seats, dtype=np.int64).copy()
        self.is_opponent = np.ones((e.num_envs, e.num_players), np.bool_)
        self.is_opponent[self.rows, self.seats] = False

    def set_opponent(self, opponent: Policy) -> None:
        """Play every non-learner seat with ``opponent`` from the next step on."""
        e = self.engine
        holder = SeatHolder(SeatKind.BUILT_IN).code
        self.seat_players(np.full((e.num_envs, e.num_players), holder, np.int64), {holder: opponent})

    def seat_players(self, holders: np.ndarray, players: Mapping[int, Policy]) -> None:
        """Play seat ``p`` of game ``i`` with ``players[holders[i, p]]`` from the next step on.

        ``holders`` is an integer array (N, P) of seat-holder codes
        (:attr:`~stonk_envs.policies.seats.SeatHolder.code`); its entries at the learner seats are
        not used. Each player is called once per step for all its seats, in the order of ``players``.
        """
        e = self.engine
        table = np.asarray(holders)
        if table.shape != (e.num_envs, e.num_players) or table.dtype.kind not in "iu":
            raise ValueError(f"holders must be an integer array of shape {(e.num_envs, e.num_players)}")
        if not players:
            raise ValueError("players must name at least one Policy")
        unplayed = set(np.unique(table[self.is_opponent]).tolist()) - set(players)
        if unplayed:
            raise ValueError(f"no player for the seat holder codes {sorted(unplayed)}")
        self.players = dict(players)
        self.holders = table.astype(np.int64)

    def learner_obs(self) -> tuple[np.ndarray, np.ndarray]:
        """Each slot's learner observation (N, O) and mask (N, A), copied."""
        e = self.engine
        return e.obs[self.rows, self.seats], e.masks[self.rows, self.seats]

    def reset(self, seed: int | None = None) -> None:
        """New games in every slot; a seed also reseeds the opponents' random stream.

        Without a seed, the first reset deals from the seed the view was made with (so two
        views made with one seed play identical games); later ones deal fresh games.
        """
        if seed is None:
            seed, self.pending_seed = self.pending_seed, None
        else:
            self.pending_seed = None
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.deal(seed)

    def deal(self, engine_seed: int | None) -> None:
        """``engine.reset(engine_seed)``, then each slot's opponents play up to its learner's first decision."""
        e = self.engine
        e.reset(engine_seed)
        self.episode_return[:] = 0.0
        self.episode_length[:] = 0
        everyone = np.ones(e.num_envs, np.bool_)
        self._games_started(everyone)
        ignored = np.zeros((e.num_envs, e.obs_size), np.float32)
        self._play_opponents_until_learner_acts(np.zeros(e.num_envs, np.float64), ignored, everyone)

    def step(self, actions: np.ndarray, active: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """One learner decision per slot; returns ``(rewards, terminated, final_obs)``.

        ``active`` (bool, shape (N,); None: all) steps only the slots marked True; the others
        keep their games, ignore their actions and get zero rewards.

        ``final_obs`` (N, O) holds each ended game's last learner observation (zeros elsewhere).
        The next game of a slot counts from its learner's first decision: what happens before
        it (opponents' rewards to the learner seat, or a game over before then, which is dealt
        again) is not reported.
        """
        e = self.engine
        actions = np.asarray(actions).reshape(-1)
        if actions.shape != (e.num_envs,):
            raise ValueError(f"expected {e.num_envs} actions, got shape {np.shape(actions)}")
        joint = self._opponent_actions(e.actors if active is None else e.actors & active[:, None])
        joint[self.rows, self.seats] = actions
        e.step(joint, active)
        self.steps_played += e.num_envs if active is None else int(active.sum())
        rewards = e.rewards[self.rows, self.seats].astype(np.float64)
        done = np.zeros(e.num_envs, np.bool_)
        final_obs = np.zeros((e.num_envs, e.obs_size), np.float32)
        self._end_games(e.terminated.copy(), final_obs, done)
        self._play_opponents_until_learner_acts(rewards, final_obs, done)
        self.episode_return += rewards
        self.episode_length += 1 if active is None else active
        return rewards, done, final_obs

    def pop_episodes(self, done: np.ndarray) -> dict[int, dict[str, float]]:
        """Return and clear the ``{"r", "l", "t"}`` stats of the slots whose games ended."""
        stats = {}
        for i in np.flatnonzero(done):
            stats[int(i)] = {"r": float(self.episode_return[i]), "l": int(self.episode_length[i]), "t": time.time()}
            self.episode_return[i] = 0.0
            self.episode_length[i] = 0
        return stats

    def _games_ended(self, ended: np.ndarray) -> None:
        """Hook: the games marked in ``ended`` ended in the last engine step; ``engine.final_states``
        and ``engine.final_obs`` hold their last states and :attr:`seats` still their learner seats."""

    def _games_started(self, started: np.ndarray) -> None:
        """Hook: new games begin in the slots marked in ``started`` (learner seats already moved on);
        nobody has acted in them yet."""

    def _end_games(self, now: np.ndarray, final_obs: np.ndarray, ended: np.ndarray) -> None:
        """Book the games in ``now``, which ended in the last engine step (the engine dealt the next).

        Slots already in ``ended`` ended earlier in this view step; their game now over is the
        next one, over before its learner's first decision, so it is not reported.
        """
        if not now.any():
            return
        first = now & ~ended
        final_obs[first] = self.engine.final_obs[first, self.seats[first]]
        self._games_ended(first)
        ended |= now
        self._rotate(now)
        self._games_started(now)

    def _rotate(self, ended: np.ndarray) -> None:
        """With ``rotate_seats``, move the learner of each slot whose game ended one seat on."""
        if self.rotate_seats and ended.any():
            self.is_opponent[ended, self.seats[ended]] = True
            self.seats[ended] = (self.seats[ended] + 1) % self.engine.num_players
            self.is_opponent[ended, self.seats[ended]] = False

    def _opponent_actions(self, acting: np.ndarray) -> np.ndarray:
        e = self.engine
        joint = np.full((e.num_envs, e.num_players), NO_ACTION, np.int64)
        playing = acting & self.is_opponent
        for code, policy in self.players.items():
            seats = np.nonzero(playing if len(self.players) == 1 else playing & (self.holders == code))
            if len(seats[0]):
                joint[seats] = policy.act(e.obs[seats], e.masks[seats], self.rng)
                self.opponent_calls += 1
        return joint

    def _play_opponents_until_learner_acts(self, rewards: np.ndarray, final_obs: np.ndarray, ended: np.ndarray) -> None:
        """Step the games whose learner may not act yet; adds the learner's rewards of the games
        not in ``ended`` to ``rewards`` and marks in ``ended`` (with ``final_obs``) the games that end."""
        e = self.engine
        waiting = ~e.actors[self.rows, self.seats]
        while waiting.any():
            e.step(self._opponent_actions(e.actors & waiting[:, None]), active=waiting)
            self.steps_played += int(waiting.sum())
            counted = waiting & ~ended
            rewards[counted] += e.rewards[counted, self.seats[counted]]
            self._end_games(e.terminated & waiting, final_obs, ended)
            waiting = ~e.actors[self.rows, self.seats]
