"""One seat of a game as a single-agent ``gymnasium.Env``, the other seats played by given players.

Registered with Gymnasium as ``stonk_envs/Stockpile-v1``, ``stonk_envs/StonkMarket-v1`` and
``stonk_envs/StocksAndBombs-v1``::

    import gymnasium
    import stonk_envs  # registers the ids

    env = gymnasium.make("stonk_envs/StocksAndBombs-v1", opponents="heuristic", num_players=4)
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(env.unwrapped.action_masks().argmax())

- The observation is the seat's ``"observation"`` vector (a ``Box``); its legal actions are
  ``action_masks()`` (bool, the sb3-contrib convention) and ``info["action_mask"]``.
- One ``step`` is one decision of the seat. In a turn-based game the other seats' turns up to
  its next decision are played inside the step, and the seat's rewards over them are added.
- An illegal action is void (``illegal_action="void"``, the default): the seat does nothing
  this step, exactly as in the Parallel env, and ``info["void"]`` says so; in a turn-based
  game nothing moves and the same decision comes again. ``illegal_action="raise"`` raises
  ``ValueError`` instead, before anything changes.
- ``opponents`` is one player spec for every other seat, or one per other seat in seat order:
  ``"random"``, ``"heuristic"``, a saved policy file, or a
  :class:`~stonk_envs.policies.base.Policy`. ``seat=None`` draws the seat for each game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np

from stonk_envs.core.validation import check_reset_options
from stonk_envs.games_index import game_module
from stonk_envs.policies.base import Policy
from stonk_envs.policies.players import make_player


class SingleAgentEnv(gymnasium.Env):
    """One seat of ``game`` against ``opponents``; see the module docstring."""

    metadata: ClassVar[dict] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: str = "stocks_and_bombs",
        opponents: str | Policy | Sequence[str | Policy] = "random",
        seat: int | None = 0,
        illegal_action: str = "void",
        render_mode: str | None = None,
        **config,
    ):
        self.parallel = game_module(game).parallel_env(render_mode=render_mode, illegal_action=illegal_action, **config)
        self.agents = list(self.parallel.possible_agents)
        n = len(self.agents)
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"seat must be None or an integer in 0..{n - 1}, got {seat!r}")
        specs = [opponents] * (n - 1) if isinstance(opponents, (str, Policy)) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(f"opponents must be one player or {n - 1} (one per other seat), got {len(specs)}")
        self.opponents = [make_player(spec, game, n) for spec in specs]
        self.game = game
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.render_mode = render_mode
        space = self.parallel.observation_space(self.agents[0])
        self.observation_space = space["observation"]
        self.action_space = self.parallel.action_space(self.agents[0])
        self._observations: dict[str, dict[str, np.ndarray]] = {}
        self._truncated = False

    @property
    def agent(self) -> str:
        """The agent name of the seat played through this env."""
        return self.agents[self.seat]

    def action_masks(self) -> np.ndarray:
        """The seat's legal actions now, as bools."""
        return self._observations[self.agent]["action_mask"].astype(bool)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        check_reset_options(options)
        super().reset(seed=seed)
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(len(self.agents)))
        self._observations, _ = self.parallel.reset(seed=int(self.np_random.integers(2**63)))
        _, over, infos = self._play_until_seat_acts(0.0)
        if over:  # over before the seat's first decision (possible only with odd configs): deal again
            return self.reset(options=options)
        return self._obs(), self._info(infos.get(self.agent, {}))

    def step(self, action):
        actions = self._opponent_actions()
        actions[self.agent] = action
        reward, over, infos = self._step(actions, 0.0)
        if not over:
            reward, over, infos = self._play_until_seat_acts(reward, infos)
        terminated = over and not self._truncated
        return self._obs(), float(reward), terminated, over and self._truncated, self._info(infos[self.agent])

    def render(self):
        return self.parallel.render()

    def close(self) -> None:
        self.parallel.close()

    # ---------------------------------------------------------------- internals
    def _obs(self) -> np.ndarray:
        return self._observations[self.agent]["observation"]

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        return {**info, "action_mask": self._observations[self.agent]["action_mask"]}

    def _step(self, actions: dict[str, Any], reward: float) -> tuple[float, bool, dict]:
        self._observations, rewards, terminations, truncations, infos = self.parallel.step(actions)
        self._truncated = truncations[self.agent]
        return reward + rewards[self.agent], terminations[self.agent] or truncations[self.agent], infos

    def _play_until_seat_acts(self, reward: float, infos: dict | None = None) -> tuple[float, bool, dict]:
        infos = infos or {}
        while self.agent not in self.parallel.acting_agents:
            reward, over, infos = self._step(self._opponent_actions(), reward)
            if over:
                return reward, True, infos
        return reward, False, infos

    def _opponent_actions(self) -> dict[str, int]:
        """An action for every other seat: its player's when it acts, else its one legal no-op.

        Each player is called once for all the seats it plays that act.
        """
        acting = set(self.parallel.acting_agents)
        others = [agent for agent in self.agents if agent != self.agent]
        actions: dict[str, int] = {}
        batches: dict[int, tuple[Policy, list[str]]] = {}
        for policy, agent in zip(self.opponents, others, strict=True):
            if agent in acting:
                batches.setdefault(id(policy), (policy, []))[1].append(agent)
            else:
                actions[agent] = int(self._observations[agent]["action_mask"].argmax())
        for policy, agents in batches.values():
            obs = np.stack([self._observations[agent]["observation"] for agent in agents])
            masks = np.stack([self._observations[agent]["action_mask"] for agent in agents])
            actions.update(zip(agents, (int(a) for a in policy.act(obs, masks, self.np_random)), strict=True))
        return actions
