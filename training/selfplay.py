"""The learner's view of self-play: an SB3 ``VecEnv`` over N games of any stonk_envs game.

Each game runs through the game's PettingZoo Parallel env, in which every seat whose action
mask is non-zero decides in a step. One seat per game is the learner; the others are played
by league members drawn when the game starts. The learner's seat moves one seat on at every
new game of an env.

A learner transition runs from one learner decision to the next: in a real-time game (every
seat decides every tick) that is exactly one tick; in a turn-based game the opponents' turns
in between are played out inside the transition. Its reward is the learner's reward summed
over those steps. Opponents act in batches: at every step one call per league member over all
the seats it holds in all games that are waiting for an action.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from stonk_envs.games_index import game_module
from training.league import League


class SelfPlayVecEnv(VecEnv):
    """``num_envs`` games; observations are the learner seats' observation vectors."""

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
        self.num_players = num_players
        obs_box = first.observation_space(self.agents[0])["observation"]
        self.league = league
        self.rng = np.random.default_rng(seed)
        size, num_actions = obs_box.shape[0], first.action_space(self.agents[0]).n
        self.obs = np.zeros((num_envs, num_players, size), dtype=np.float32)
        self.masks = np.zeros((num_envs, num_players, num_actions), dtype=np.int8)
        self.learner_seat = np.arange(num_envs, dtype=np.int64) % num_players
        self.members: list[list[str]] = [["current"] * num_players for _ in range(num_envs)]
        self.episode_return = np.zeros(num_envs, dtype=np.float64)
        self.episode_length = np.zeros(num_envs, dtype=np.int64)
        self.steps_played = 0
        """Parallel-env steps taken in all games (learner and opponent decisions alike)."""
        self.opponent_calls = 0
        """League member calls made (one per member per step, however many seats it holds)."""
        self._actions: np.ndarray | None = None
        self._started = np.zeros(num_envs, dtype=bool)
        self.render_mode = None
        super().__init__(num_envs, obs_box, spaces.Discrete(num_actions))

    # ------------------------------------------------------------------ VecEnv API
    def reset(self) -> np.ndarray:
        """Start a fresh game in every env (the learner seats rotate as usual)."""
        self._start_games(list(range(self.num_envs)))
        return self._learner_obs()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self):
        actions, self._actions = self._actions, None
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=bool)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        every = list(range(self.num_envs))
        self._play(every, actions, rewards, dones, infos)
        self._play_until_learner_acts([i for i in every if not dones[i]], rewards, dones, infos)
        self.episode_return += rewards
        self.episode_length += 1
        finished = [i for i in every if dones[i]]
        for i in finished:
            seat = self.learner_seat[i]
            infos[i]["terminal_observation"] = self.obs[i, seat].copy()
            infos[i]["episode"] = {"r": float(self.episode_return[i]), "l": int(self.episode_length[i])}
        if finished:
            self._start_games(finished)
        return self._learner_obs(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """The learner seats' masks, shape (num_envs, num_actions) (MaskablePPO reads these)."""
        return self.masks[np.arange(self.num_envs), self.learner_seat].astype(bool)

    def close(self) -> None:
        for env in self.envs:
            env.close()

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        if attr_name == "render_mode":
            return [None for _ in self._get_indices(indices)]
        return [getattr(self.envs[i], attr_name) for i in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        for i in self._get_indices(indices):
            setattr(self.envs[i], attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in self._get_indices(indices)]
        return [getattr(self.envs[i], method_name)(*method_args, **method_kwargs) for i in self._get_indices(indices)]

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or hasattr(self.envs[0], attr_name)

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def seed(self, seed: int | None = None):
        """Reseed the game and league draws (takes effect from the next game started)."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        return [seed] * self.num_envs

    # ------------------------------------------------------------------ state
    def current_obs(self) -> np.ndarray:
        """The learner seats' observations now (what the last step or reset returned)."""
        return self._learner_obs()

    def members_in_use(self) -> set[str]:
        """League member keys held by some opponent seat of a game in play."""
        return {
            key for i, row in enumerate(self.members) for p, key in enumerate(row) if p != self.learner_seat[i]
        }

    def get_state(self) -> dict[str, Any]:
        """Everything needed to continue these games exactly (for checkpoints)."""
        return {
            "envs": self.envs,
            "obs": self.obs,
            "masks": self.masks,
            "learner_seat": self.learner_seat,
            "members": self.members,
            "episode_return": self.episode_return,
            "episode_length": self.episode_length,
            "rng": self.rng.bit_generator.state,
            "steps_played": self.steps_played,
            "opponent_calls": self.opponent_calls,
        }

    def set_state(self, state: dict[str, Any]) -> None:
        """Restore what :meth:`get_state` saved (same game, player count and env count)."""
        if len(state["envs"]) != self.num_envs or state["obs"].shape != self.obs.shape:
            raise ValueError(
                f"saved self-play state has {len(state['envs'])} games of shape {state['obs'].shape}, "
                f"this run has {self.num_envs} of shape {self.obs.shape}"
            )
        for name in ("envs", "obs", "masks", "learner_seat", "members", "episode_return", "episode_length"):
            setattr(self, name, state[name])
        self.rng.bit_generator.state = state["rng"]
        self._started[:] = True
        self.steps_played = state["steps_played"]
        self.opponent_calls = state["opponent_calls"]

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
                seat = self.learner_seat[i]
                self.members[i] = [
                    "current" if p == seat else self.league.draw(self.rng) for p in range(self.num_players)
                ]
                observations, _ = self.envs[i].reset(seed=int(self.rng.integers(2**63)))
                self._store(i, observations)
                self.episode_return[i] = 0.0
                self.episode_length[i] = 0
            self.league.forget_unused(self.members_in_use())
            dones = np.zeros(self.num_envs, dtype=bool)
            rewards = np.zeros(self.num_envs, dtype=np.float32)
            infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
            self._play_until_learner_acts(envs, rewards, dones, infos)
            envs = [i for i in envs if dones[i]]  # over before the learner's first decision: deal again

    def _play_until_learner_acts(self, envs: list[int], rewards, dones, infos) -> None:
        """Step the opponents of ``envs`` until the learner may act there or the game ends."""
        waiting = [i for i in envs if not self.masks[i, self.learner_seat[i]].any()]
        while waiting:
            self._play(waiting, None, rewards, dones, infos)
            waiting = [i for i in waiting if not dones[i] and not self.masks[i, self.learner_seat[i]].any()]

    def _play(self, envs: list[int], learner_actions: np.ndarray | None, rewards, dones, infos) -> None:
        """One Parallel-env step in each of ``envs``; opponents' actions batched per league member."""
        joint: dict[int, dict[str, int]] = {i: {} for i in envs}
        groups: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for i in envs:
            seat = self.learner_seat[i]
            for p in np.flatnonzero(self.masks[i].any(axis=1)):
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
                infos[i]["score"] = step_infos[seat_agent].get("score")
                scores = [info["score"] for info in step_infos.values()]
                infos[i]["win"] = bool(step_infos[seat_agent]["score"] >= max(scores))

    def _store(self, i: int, observations: dict[str, dict[str, np.ndarray]]) -> None:
        for p, agent in enumerate(self.agents):
            self.obs[i, p] = observations[agent]["observation"]
            self.masks[i, p] = observations[agent]["action_mask"]
