"""The PettingZoo adapter shared by all three games: one AEC env and one Parallel env.

Both run any :class:`~stonk_envs.core.game.Game`. Each step of the game has a set of
acting seats: one seat in a turn-based phase, every seat in a tick of a real-time game.

- **Parallel**: one ``step`` is one game step; the actions of seats that may not act are
  ignored (their masks are all zero).
- **AEC**: the acting seats of a step are selected one by one in seat order; their actions
  are held until the last of them has acted, and then the step resolves. For a real-time
  game this is PettingZoo's usual conversion of a simultaneous game; for a turn-based game
  it is the plain turn order.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from stonk_envs.core.config import build_config
from stonk_envs.core.game import NO_ACTION, Game
from stonk_envs.core.negotiation import VOID_ILLEGAL, VOID_NONE, VOID_REASONS
from stonk_envs.core.validation import OptionTypeError, check_choice, check_optional_int, check_seed, is_int

RENDER_MODES = ("ansi", "human")
ILLEGAL_ACTION_POLICIES = ("raise", "void")


class GameTable:
    """One game in play: its state record, buffers, spaces and seeding."""

    def __init__(self, game: Game, render_mode: str | None, render_seat: int | None):
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        render_seat = check_optional_int("render_seat", render_seat, 0, game.num_players - 1)
        self.game = game
        self.render_mode = render_mode
        self.render_seat = render_seat
        n = game.num_players
        self.agents = [f"player_{p}" for p in range(n)]
        self.seat_of = {agent: p for p, agent in enumerate(self.agents)}
        self.states = np.zeros(1, dtype=game.state_dtype)
        self.actor_flags = np.zeros(n, dtype=np.bool_)
        self.joint = np.full(n, NO_ACTION, dtype=np.int64)
        self.rewards = np.zeros(n, dtype=np.float32)
        self.voids = np.zeros(n, dtype=np.int8)
        self.np_random: np.random.Generator | None = None
        low, high = game.observation_bounds
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (game.num_actions,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(game.num_actions)
        self.state_space = spaces.Box(-np.inf, np.inf, (game.state_size,), dtype=np.float32)
        self.game_over = False
        self.started = False
        self._masks: list[np.ndarray | None] = [None] * n

    def reset(self, seed: int | None) -> None:
        """Start a new game; a given seed makes the whole game reproducible."""
        seed = check_seed("seed", seed)
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        self.game.reset(self.states, 0, int(self.np_random.integers(2**63)))
        self.game_over = False
        self.started = True
        self._masks = [None] * self.game.num_players
        self.refresh_actors()

    def state_edited(self) -> None:
        """Forget the masks computed from the state; call after writing into ``states`` directly."""
        self._masks = [None] * self.game.num_players

    def refresh_actors(self) -> list[int]:
        """Recompute and return the seats that act in the next step."""
        self.game.actors(self.states, 0, self.actor_flags)
        return [int(p) for p in np.flatnonzero(self.actor_flags)]

    def _mask(self, seat: int) -> np.ndarray:
        """``seat``'s mask, computed once per state (do not modify)."""
        out = self._masks[seat]
        if out is None:
            out = np.zeros(self.game.num_actions, dtype=np.int8)
            if not self.game_over:
                self.game.legal_mask(self.states, 0, seat, out)
            self._masks[seat] = out
        return out

    def mask(self, seat: int) -> np.ndarray:
        return self._mask(seat).copy()

    def seat(self, agent: Any) -> int:
        """The seat of ``agent``; ``ValueError`` for a name that is not one of the agents."""
        try:
            return self.seat_of[agent]
        except (KeyError, TypeError):
            raise ValueError(f"no agent {agent!r}; the agents are {self.agents}") from None

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        obs = np.zeros(self.observation_space["observation"].shape, dtype=np.float32)
        self.game.observe(self.states, 0, seat, obs)
        return {"observation": obs, "action_mask": self.mask(seat)}

    def observe_every_seat(self) -> dict[str, dict[str, np.ndarray]]:
        """:meth:`observe` of every agent, from one call of the game's ``observe_all``."""
        obs = np.zeros((self.game.num_players, *self.observation_space["observation"].shape), dtype=np.float32)
        self.game.observe_all(self.states, 0, obs)
        return {agent: {"observation": obs[p], "action_mask": self.mask(p)} for p, agent in enumerate(self.agents)}

    def illegal_reason(self, seat: int, action: Any) -> str | None:
        """None when ``action`` is legal for ``seat`` now, else a message naming the problem."""
        agent = self.agents[seat]
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            return f"{agent}: action must be an integer, got {action!r}"
        if not 0 <= action < self.game.num_actions:
            return f"{agent}: action {action} is outside 0..{self.game.num_actions - 1}"
        if self._mask(seat)[action]:
            return None
        why = self.game.why_illegal(self.states, 0, seat, int(action))
        return f"{agent}: action {action} ({self.game.describe_action(seat, int(action))}) is illegal: {why}"

    def resolve(self, joint: np.ndarray) -> None:
        """Apply a joint action whose used entries are all legal."""
        self.rewards[:] = 0.0
        self._masks = [None] * self.game.num_players
        self.game_over = bool(self.game.step(self.states, 0, joint, self.rewards, self.voids))

    def info(self, seat: int, submitted_void: int = VOID_NONE) -> dict[str, Any]:
        code = submitted_void or int(self.voids[seat])
        info: dict[str, Any] = {}
        if code != VOID_NONE:
            info["void"] = VOID_REASONS[code]
        if self.game_over:
            info["score"] = float(self.game.scores(self.states, 0)[seat])
        return info

    def check_started(self, call: str) -> None:
        """Raise ``ValueError`` when ``call`` comes before the first ``reset()``."""
        if not self.started:
            raise ValueError(f"{call} called before reset()")

    def state(self) -> np.ndarray:
        self.check_started("state()")
        out = np.zeros(self.game.state_size, dtype=np.float32)
        self.game.state_vector(self.states, 0, out)
        return out

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        self.check_started("render()")
        text = self.game.render(self.states, 0, self.render_seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


class StonkAECEnv(AECEnv):
    """AEC env over a game; illegal actions raise ``ValueError`` and change nothing."""

    def __init__(self, game: Game, metadata: dict, render_mode: str | None = None, render_seat: int | None = None):
        super().__init__()
        self.metadata = metadata
        self.table = GameTable(game, render_mode, render_seat)
        self.render_mode = render_mode
        self.possible_agents = list(self.table.agents)
        self.state_space = self.table.state_space
        self._queue: list[int] = []

    def observation_space(self, agent: str) -> spaces.Space:
        """The same space object for every agent and every call."""
        return self.table.observation_space

    def action_space(self, agent: str) -> spaces.Space:
        """The same space object for every agent and every call."""
        return self.table.action_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.table.joint[:] = NO_ACTION
        self._queue = self.table.refresh_actors()
        self.agent_selection = self.agents[self._queue[0]]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self.check_in_play("observe()")
        return self.table.observe(self.table.seat(agent))

    def check_in_play(self, call: str) -> None:
        """Raise ``ValueError`` when ``call`` comes before ``reset()`` or after every agent is done."""
        self.table.check_started(call)
        if not self.agents:
            raise ValueError(f"{call} called after the game ended and every agent was removed; call reset() first")

    def check_action_type(self, action: Any) -> None:
        """Raise :class:`OptionTypeError` unless ``action`` is None or an integer (not a bool)."""
        if action is not None and not is_int(action):
            raise OptionTypeError(f"{self.agent_selection}: action must be an integer or None, got {action!r}")

    def last(self, observe: bool = True):
        self.check_in_play("last()")
        return super().last(observe)

    def step(self, action: Any) -> None:
        self.check_in_play("step()")
        self.check_action_type(action)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.table.seat_of[agent]
        problem = self.table.illegal_reason(seat, action)
        if problem is not None:
            raise ValueError(problem)
        self._cumulative_rewards[agent] = 0.0
        self.table.joint[seat] = int(action)
        self._queue.pop(0)
        if self._queue:
            self._clear_rewards()
            self.agent_selection = self.agents[self._queue[0]]
        else:
            self._resolve()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _resolve(self) -> None:
        table = self.table
        table.resolve(table.joint)
        table.joint[:] = NO_ACTION
        for p, agent in enumerate(self.agents):
            self.rewards[agent] = float(table.rewards[p])
            self.infos[agent] = table.info(p)
        if table.game_over:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            self._queue = table.refresh_actors()
            self.agent_selection = self.agents[self._queue[0]]

    def state(self) -> np.ndarray:
        return self.table.state()

    def render(self) -> str | None:
        return self.table.render()

    def close(self) -> None:
        pass


class StonkParallelEnv(ParallelEnv):
    """Parallel env over a game.

    Actions of seats that may not act are ignored. An illegal action of a seat that may act
    raises ``ValueError`` (``illegal_action="raise"``) or is void and reported in ``info``
    (``"void"``, the default, the same treatment as an action that has become impossible).
    """

    def __init__(
        self,
        game: Game,
        metadata: dict,
        render_mode: str | None = None,
        render_seat: int | None = None,
        illegal_action: str = "void",
    ):
        if illegal_action not in ILLEGAL_ACTION_POLICIES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_POLICIES}, got {illegal_action!r}")
        self.metadata = metadata
        self.table = GameTable(game, render_mode, render_seat)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.possible_agents = list(self.table.agents)
        self.agents: list[str] = []
        self.state_space = self.table.state_space

    def observation_space(self, agent: str) -> spaces.Space:
        """The same space object for every agent and every call."""
        return self.table.observation_space

    def action_space(self, agent: str) -> spaces.Space:
        """The same space object for every agent and every call."""
        return self.table.action_space

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        observations = self.table.observe_every_seat()
        return observations, {agent: {} for agent in self.agents}

    def step(self, actions: dict[str, Any]):
        table = self.table
        table.check_started("step()")
        if not self.agents:
            raise ValueError("step() called after the game ended; call reset() first")
        if not isinstance(actions, dict):
            raise OptionTypeError(f"actions must be a dict from agent name to action, got {actions!r}")
        unknown = [agent for agent in actions if agent not in table.seat_of]
        if unknown:
            raise ValueError(f"actions name no agent of this game: {unknown}; the agents are {self.agents}")
        joint = np.full(table.game.num_players, NO_ACTION, dtype=np.int64)
        submitted_void = np.zeros(table.game.num_players, dtype=np.int8)
        for seat in np.flatnonzero(table.actor_flags):
            agent = self.agents[seat]
            if agent not in actions:
                raise ValueError(f"{agent} may act this step but no action was given for it")
            problem = table.illegal_reason(int(seat), actions[agent])
            if problem is None:
                joint[seat] = int(actions[agent])
            elif self.illegal_action == "raise":
                raise ValueError(problem)
            else:
                submitted_void[seat] = VOID_ILLEGAL
        table.resolve(joint)
        agents = self.agents
        observations = table.observe_every_seat()
        rewards = {agent: float(table.rewards[p]) for p, agent in enumerate(agents)}
        infos = {agent: table.info(p, int(submitted_void[p])) for p, agent in enumerate(agents)}
        terminations = dict.fromkeys(agents, table.game_over)
        truncations = dict.fromkeys(agents, False)
        if table.game_over:
            self.agents = []
        else:
            table.refresh_actors()
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def state(self) -> np.ndarray:
        return self.table.state()

    def render(self) -> str | None:
        return self.table.render()

    def close(self) -> None:
        pass


_FORWARDED = ("agents", "agent_selection", "terminations", "truncations", "rewards", "infos", "_cumulative_rewards")
"""Attributes read on every AEC step, which the wrappers below read from the base env directly."""
_GUARDED = frozenset(_FORWARDED) - {"_cumulative_rewards"}


def _forwarded(name: str, guarded: bool) -> property:
    doc = f"``{name}`` of the unwrapped env."
    if not guarded:
        return property(operator.attrgetter(f"_base.{name}"), doc=doc)

    def get(self):
        if not self.__dict__["_has_reset"]:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.__dict__["_base"], name)

    return property(get, doc=doc)


class _DirectReads:
    """Reads :data:`_FORWARDED` from the unwrapped env in one step.

    PettingZoo's wrappers find these attributes through one ``__getattr__`` per wrapper
    layer, which costs more than a whole game step; the values are the same.
    """

    def _set_base(self, env: AECEnv) -> None:
        self.__dict__["_base"] = env.unwrapped


class _TerminateIllegal(_DirectReads, wrappers.TerminateIllegalWrapper):
    def __init__(self, env: AECEnv, illegal_reward: float):
        self._set_base(env)
        super().__init__(env, illegal_reward)


class _AssertOutOfBounds(_DirectReads, wrappers.AssertOutOfBoundsWrapper):
    def __init__(self, env: AECEnv):
        self._set_base(env)
        super().__init__(env)


class _OrderEnforcing(_DirectReads, wrappers.OrderEnforcingWrapper):
    def __init__(self, env: AECEnv):
        self._set_base(env)
        super().__init__(env)

    def step(self, action: Any) -> None:
        base = self.__dict__["_base"]
        base.check_in_play("step()")
        base.check_action_type(action)
        super().step(action)

    def last(self, observe: bool = True):
        self.__dict__["_base"].check_in_play("last()")
        return super().last(observe)

    def __str__(self) -> str:
        return str(self.env)


for _name in _FORWARDED:
    setattr(_TerminateIllegal, _name, _forwarded(_name, False))
    setattr(_AssertOutOfBounds, _name, _forwarded(_name, False))
    setattr(_OrderEnforcing, _name, _forwarded(_name, _name in _GUARDED))


def env_constructors(game_cls: type[Game], config_cls: type) -> tuple[Callable, Callable, Callable]:
    """The ``env``, ``raw_env`` and ``parallel_env`` functions of one game module."""
    metadata = {
        "name": f"{game_cls.name}_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": True,
        "render_fps": 2,
    }

    def raw_env(render_mode: str | None = None, render_seat: int | None = None, **config) -> StonkAECEnv:
        """The AEC env without wrappers; an illegal action raises ``ValueError``."""
        game = game_cls(build_config(config_cls, config))
        return StonkAECEnv(game, metadata, render_mode, render_seat)

    def env(render_mode: str | None = None, render_seat: int | None = None, **config) -> AECEnv:
        """The AEC env with PettingZoo's standard wrappers (an illegal move ends the game)."""
        wrapped = raw_env(render_mode, render_seat, **config)
        wrapped = _TerminateIllegal(wrapped, illegal_reward=-1)
        wrapped = _AssertOutOfBounds(wrapped)
        return _OrderEnforcing(wrapped)

    def parallel_env(
        render_mode: str | None = None,
        render_seat: int | None = None,
        illegal_action: str = "void",
        **config,
    ) -> StonkParallelEnv:
        """The Parallel env; see :class:`StonkParallelEnv` for ``illegal_action``."""
        game = game_cls(build_config(config_cls, config))
        return StonkParallelEnv(game, metadata, render_mode, render_seat, illegal_action)

    return env, raw_env, parallel_env
