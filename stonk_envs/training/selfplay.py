"""The learner's view of self-play: an SB3 ``VecEnv`` over N games of any stonk_envs game.

One seat per game is the learner; the others are played by league members drawn when the
game starts. The learner's seat moves one seat on at every new game of an env.

A learner transition runs from one learner decision to the next: in a real-time game (every
seat decides every tick) that is exactly one tick; in a turn-based game the opponents' turns
in between are played out inside the transition. Its reward is the learner's reward summed
over those steps. Opponents act in batches: at every step one call per league member over all
the seats it holds in all games that are waiting for an action.

Two backends run the games with these semantics: :class:`SelfPlayVecEnv` (here) steps each
game's PettingZoo Parallel env, in which the env's ``acting_agents`` decide in a step;
:class:`~stonk_envs.training.engine_selfplay.EngineSelfPlayVecEnv` steps all of them at once in a
batched engine. :class:`LeagueVecEnv` is what they share.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from stonk_envs.games_index import game_module
from stonk_envs.training.league.opponents import League


class LeagueVecEnv(VecEnv):
    """The backends' common part: league members per game, the learner's infos, state, SB3 plumbing.

    A backend keeps :attr:`learner_seat`, ``episode_return``, ``episode_length``,
    ``steps_played`` and ``opponent_calls`` up to date, calls :meth:`_draw_members` for each
    new game and :meth:`_record_end` for each ended one, and implements ``reset``,
    ``step_wait``, ``action_masks``, :meth:`current_obs`, :meth:`_targets` and the state of
    its games (:meth:`_games_state`, :meth:`_set_games_state`).
    """

    STATE_KEYS = ("learner_seat", "members", "episode_return", "episode_length", "steps_played", "opponent_calls")
    """Attributes saved by :meth:`get_state` besides the random stream and the games."""

    learner_seat: np.ndarray
    """Each game's learner seat."""

    def __init__(self, num_envs: int, num_players: int, observation_space: spaces.Box, num_actions: int,
                 league: League, seed: int):
        self.num_players = num_players
        self.league = league
        self.rng = np.random.default_rng(seed)
        """The stream of the league draws, the game seeds and the random players."""
        self.members: list[list[str]] = [["current"] * num_players for _ in range(num_envs)]
        """Each game's member key per seat (``"current"`` at the learner's)."""
        self.final_score = np.zeros(num_envs, dtype=np.float64)
        self.final_win = np.zeros(num_envs, dtype=bool)
        self._actions: np.ndarray | None = None
        self.render_mode = None
        super().__init__(num_envs, observation_space, spaces.Discrete(num_actions))

    # ------------------------------------------------------------------ VecEnv API
    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def _targets(self, indices) -> list[Any]:
        """The objects that ``get_attr``, ``set_attr`` and ``env_method`` reach for ``indices``."""
        raise NotImplementedError

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        if attr_name == "render_mode":
            return [None for _ in self._get_indices(indices)]
        return [getattr(target, attr_name) for target in self._targets(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        for target in self._targets(indices):
            setattr(target, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in self._get_indices(indices)]
        return [getattr(target, method_name)(*method_args, **method_kwargs) for target in self._targets(indices)]

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or hasattr(self._targets([0])[0], attr_name)

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def seed(self, seed: int | None = None):
        """Reseed the game and league draws (takes effect from the next game started)."""
        if seed is not None:
            self.rng.bit_generator.state = np.random.default_rng(seed).bit_generator.state
        return [seed] * self.num_envs

    # ------------------------------------------------------------------ state
    def current_obs(self) -> np.ndarray:
        """The learner seats' observations now (what the last step or reset returned)."""
        raise NotImplementedError

    def members_in_use(self) -> set[str]:
        """League member keys held by some opponent seat of a game in play."""
        return {
            key for i, row in enumerate(self.members) for p, key in enumerate(row) if p != self.learner_seat[i]
        }

    def get_state(self) -> dict[str, Any]:
        """Everything needed to continue these games exactly (for checkpoints)."""
        state = {name: copy.deepcopy(getattr(self, name)) for name in self.STATE_KEYS}
        return {**state, "rng": self.rng.bit_generator.state, **self._games_state()}

    def set_state(self, state: dict[str, Any]) -> None:
        """Restore what :meth:`get_state` saved (same backend, game, player count and env count)."""
        self._set_games_state(state)
        for name in self.STATE_KEYS:
            setattr(self, name, state[name])
        self.rng.bit_generator.state = state["rng"]

    def _games_state(self) -> dict[str, Any]:
        raise NotImplementedError

    def _set_games_state(self, state: dict[str, Any]) -> None:
        """Restore the games (or raise ``ValueError`` before changing anything)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ games
    def _draw_members(self, i: int) -> None:
        """League members for the opponent seats of the new game of env ``i``."""
        seat = self.learner_seat[i]
        self.members[i] = ["current" if p == seat else self.league.draw(self.rng) for p in range(self.num_players)]

    def _record_end(self, i: int, scores, seat: int) -> None:
        """The game of env ``i`` ended with ``scores``: keep its learner's score and whether it won."""
        self.final_score[i] = scores[seat]
        self.final_win[i] = scores[seat] >= max(scores)

    def _end_infos(self, dones: np.ndarray, terminal_obs: np.ndarray) -> list[dict[str, Any]]:
        """A step's infos: for each ended game its learner's last observation, episode, score and win."""
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i] = {
                "terminal_observation": terminal_obs[i],
                "episode": {"r": float(self.episode_return[i]), "l": int(self.episode_length[i])},
                "score": float(self.final_score[i]),
                "win": bool(self.final_win[i]),
            }
        return infos


class SelfPlayVecEnv(LeagueVecEnv):
    """The PettingZoo backend: ``num_envs`` Parallel envs; observations are the learner seats'."""

    def __init__(
        self,
        game: str,
        num_players: int,
        env_config: dict[str, Any],
        num_envs: int,
        league: League,
        seed: int,
    ):
        module = game_module(game)
        self.envs = [module.parallel_env(num_players=num_players, **env_config) for _ in range(num_envs)]
        first = self.envs[0]
        self.agents = list(first.possible_agents)
        obs_box = first.observation_space(self.agents[0])["observation"]
        size, num_actions = obs_box.shape[0], first.action_space(self.agents[0]).n
        self.obs = np.zeros((num_envs, num_players, size), dtype=np.float32)
        self.masks = np.zeros((num_envs, num_players, num_actions), dtype=np.int8)
        self.learner_seat = np.arange(num_envs, dtype=np.int64) % num_players
        self.episode_return = np.zeros(num_envs, dtype=np.float64)
        self.episode_length = np.zeros(num_envs, dtype=np.int64)
        self.steps_played = 0
        """Parallel-env steps taken in all games (learner and opponent decisions alike)."""
        self.opponent_calls = 0
        """League member calls made (one per member per step, however many seats it holds)."""
        self._started = np.zeros(num_envs, dtype=bool)
        super().__init__(num_envs, num_players, obs_box, num_actions, league, seed)

    # ------------------------------------------------------------------ VecEnv API
    def reset(self) -> np.ndarray:
        """Start a fresh game in every env (the learner seats rotate as usual)."""
        self._start_games(list(range(self.num_envs)))
        return self._learner_obs()

    def step_wait(self):
        actions, self._actions = self._actions, None
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=bool)
        every = list(range(self.num_envs))
        self._play(every, actions, rewards, dones)
        self._play_until_learner_acts([i for i in every if not dones[i]], rewards, dones)
        self.episode_return += rewards
        self.episode_length += 1
        infos = self._end_infos(dones, self._learner_obs())
        finished = [i for i in every if dones[i]]
        if finished:
            self._start_games(finished)
        return self._learner_obs(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """The learner seats' masks, shape (num_envs, num_actions) (MaskablePPO reads these)."""
        return self.masks[np.arange(self.num_envs), self.learner_seat].astype(bool)

    def close(self) -> None:
        for env in self.envs:
            env.close()

    def _targets(self, indices) -> list[Any]:
        return [self.envs[i] for i in self._get_indices(indices)]

    # ------------------------------------------------------------------ state
    def current_obs(self) -> np.ndarray:
        return self._learner_obs()

    def _games_state(self) -> dict[str, Any]:
        """The games as arrays and plain values (a checkpoint loads without unpickling objects)."""
        games = [{"table": env.table.snapshot(), "agents": list(env.agents)} for env in self.envs]
        return {"games": games, "obs": self.obs.copy(), "masks": self.masks.copy()}

    def _set_games_state(self, state: dict[str, Any]) -> None:
        if "envs" in state and "games" not in state:  # saved whole before 0.3 (read only with --trust-file)
            state = {**state, "games": [{"table": env.table.snapshot(), "agents": list(env.agents)}
                                        for env in state["envs"]]}
        if "games" not in state:
            raise ValueError("saved self-play state is not of the pettingzoo backend")
        if len(state["games"]) != self.num_envs or state["obs"].shape != self.obs.shape:
            raise ValueError(
                f"saved self-play state has {len(state['games'])} games of shape {state['obs'].shape}, "
                f"this run has {self.num_envs} of shape {self.obs.shape}"
            )
        for env, saved in zip(self.envs, state["games"], strict=True):
            env.table.restore(saved["table"])
            env.agents = list(saved["agents"])
        self.obs[...], self.masks[...] = state["obs"], state["masks"]
        self._started[:] = True

    # ------------------------------------------------------------------ internals
    def _learner_obs(self) -> np.ndarray:
        return self.obs[np.arange(self.num_envs), self.learner_seat].copy()

    def _start_games(self, envs: list[int]) -> None:
        """New games in ``envs``: next learner seat, fresh opponents, played up to the learner's decision."""
        while envs:
            for i in envs:
                if self._started[i]:
                    self.learner_seat[i] = (self.learner_seat[i] + 1) % self.num_players
                self._started[i] = True
                self._draw_members(i)
                observations, _ = self.envs[i].reset(seed=int(self.rng.integers(2**63)))
                self._store(i, observations)
                self.episode_return[i] = 0.0
                self.episode_length[i] = 0
            self.league.forget_unused(self.members_in_use())
            dones = np.zeros(self.num_envs, dtype=bool)
            self._play_until_learner_acts(envs, np.zeros(self.num_envs, dtype=np.float32), dones)
            envs = [i for i in envs if dones[i]]  # over before the learner's first decision: deal again

    def _play_until_learner_acts(self, envs: list[int], rewards, dones) -> None:
        """Step the opponents of ``envs`` until the learner may act there or the game ends."""
        waiting = [i for i in envs if not self._acts(i, self.learner_seat[i])]
        while waiting:
            self._play(waiting, None, rewards, dones)
            waiting = [i for i in waiting if not dones[i] and not self._acts(i, self.learner_seat[i])]

    def _acts(self, i: int, seat: int) -> bool:
        """Seat ``seat`` of game ``i`` decides in the next step (a waiting seat is offered only a no-op)."""
        return self.agents[seat] in self.envs[i].acting_agents

    def _play(self, envs: list[int], learner_actions: np.ndarray | None, rewards, dones) -> None:
        """One Parallel-env step in each of ``envs``; opponents' actions batched per league member."""
        joint: dict[int, dict[str, int]] = {i: {} for i in envs}
        groups: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for i in envs:
            seat = self.learner_seat[i]
            for p in (self.agents.index(agent) for agent in self.envs[i].acting_agents):
                if p == seat and learner_actions is not None:
                    joint[i][self.agents[p]] = int(learner_actions[i])
                else:
                    groups[self.members[i][p]].append((i, int(p)))
        for key, seats in groups.items():
            rows, cols = np.array(seats).T
            chosen = self.league.act(key, self.obs[rows, cols], self.masks[rows, cols], self.rng)
            self.opponent_calls += 1
            for (i, p), action in zip(seats, chosen, strict=True):
                joint[i][self.agents[p]] = int(action)
        for i in envs:
            observations, step_rewards, terminations, _, step_infos = self.envs[i].step(joint[i])
            self.steps_played += 1
            seat_agent = self.agents[self.learner_seat[i]]
            rewards[i] += step_rewards[seat_agent]
            self._store(i, observations)
            if terminations[seat_agent]:
                dones[i] = True
                self._record_end(i, [step_infos[agent]["score"] for agent in self.agents], self.learner_seat[i])

    def _store(self, i: int, observations: dict[str, dict[str, np.ndarray]]) -> None:
        for p, agent in enumerate(self.agents):
            self.obs[i, p] = observations[agent]["observation"]
            self.masks[i, p] = observations[agent]["action_mask"]
