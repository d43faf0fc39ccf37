"""Each game as an RLlib ``MultiAgentEnv``, with observations in RLlib's action-masking layout.

``StonkMultiAgentEnv({"game": "stockpile", "num_players": 4, ...})``: the other keys of the
config are the game's options (and ``max_cycles``, ``illegal_action``), as for ``parallel_env``.

- The agents are the Parallel env's (``player_0`` ...). ``reset`` and ``step`` return
  observations only for the agents that act next, as RLlib expects of a turn-based game: the
  deciding seat in Stockpile, every seat in a tick of the two real-time games. When the game
  ends (or is truncated by ``max_cycles``) every agent gets its final observation.
- Rewards are returned for every agent at every step (RLlib adds up those of an agent that
  has not acted since).
- An observation is ``{"observations": Box, "action_mask": Box(0, 1, float32)}``: the keys and
  mask dtype of RLlib's own masking module (``ActionMaskingTorchRLModule``), not the
  PettingZoo env's ``"observation"`` key.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from stonk_envs.games_index import game_module
from stonk_envs.policies.rllib_policy import MASK_KEY, OBS_KEY


def rllib_observation(observation: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
    """One PettingZoo observation and mask in RLlib's masking layout."""
    return {OBS_KEY: observation, MASK_KEY: mask.astype(np.float32)}


class StonkMultiAgentEnv(MultiAgentEnv):
    """A game's Parallel env, stepped as an RLlib ``MultiAgentEnv``; see the module docstring."""

    def __init__(self, config: dict[str, Any] | None = None):
        super().__init__()
        options = dict(config or {})
        self.game = options.pop("game", "stocks_and_bombs")
        self.parallel = game_module(self.game).parallel_env(**options)
        self.possible_agents = list(self.parallel.possible_agents)
        self.agents = list(self.possible_agents)
        space = self.parallel.observation_space(self.agents[0])
        num_actions = self.parallel.action_space(self.agents[0]).n
        observation_space = spaces.Dict(
            {OBS_KEY: space["observation"], MASK_KEY: spaces.Box(0.0, 1.0, (num_actions,), dtype=np.float32)}
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self.parallel.action_space(self.agents[0]))
        self._observations: dict[str, dict[str, np.ndarray]] = {}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self._observations, infos = self.parallel.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        acting = self.parallel.acting_agents
        return self._obs(acting), {agent: infos[agent] for agent in acting}

    def step(self, action_dict: dict[str, Any]):
        acting = self.parallel.acting_agents
        missing = [agent for agent in acting if agent not in action_dict]
        if missing:
            raise ValueError(f"no action for {missing}, who act this step (acting: {acting})")
        actions = {agent: self.game_pass(agent) for agent in self.parallel.agents}
        actions.update({agent: action_dict[agent] for agent in acting})
        self._observations, rewards, terminations, _, infos = self.parallel.step(actions)
        over = not self.parallel.agents
        reported = self.possible_agents if over else self.parallel.acting_agents
        terminated = over and any(terminations.values())
        truncated = over and not terminated
        return (
            self._obs(reported),
            dict(rewards),
            {**dict.fromkeys(self.possible_agents, terminated), "__all__": terminated},
            {**dict.fromkeys(self.possible_agents, truncated), "__all__": truncated},
            {agent: infos[agent] for agent in reported},
        )

    def game_pass(self, agent: str) -> int:
        """The no-op of a seat that does not act this step (its only legal action)."""
        return int(self._observations[agent]["action_mask"].argmax())

    def render(self):
        return self.parallel.render()

    def _obs(self, agents: list[str]) -> dict[str, dict[str, np.ndarray]]:
        return {
            agent: rllib_observation(self._observations[agent]["observation"], self._observations[agent]["action_mask"])
            for agent in agents
        }
