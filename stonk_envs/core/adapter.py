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

from stonk_envs.core import pictures
from stonk_envs.core.config import build_config
from stonk_envs.core.game import NO_ACTION, Game
from stonk_envs.core.negotiation import VOID_ILLEGAL, VOID_NONE, VOID_REASONS
from stonk_envs.core.validation import (
    OptionTypeError,
    check_choice,
    check_optional_int,
    check_reset_options,
    check_seed,
    is_int,
)
from stonk_envs.registry import OBSERVATION_VERSION

RENDER_MODES = ("ansi", "human", "rgb_array")
ILLEGAL_ACTION_POLICIES = ("raise", "void")
WRAPPED_ILLEGAL_ACTION_POLICIES = ("terminate", "void")


class GameTable:
    """One game in play: its state record, buffers, spaces and seeding."""

    def __init__(self, game: Game, render_mode: str | None, render_seat: int | None, max_cycles: int | None = None):
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        render_seat = check_optional_int("render_seat", render_seat, 0, game.num_players - 1)
        self.game = game
        self.render_mode = render_mode
        self.max_cycles = check_optional_int("max_cycles", max_cycles, 1)
        self.cycles = 0
        """Game steps resolved since the reset (a cycle: every acting seat acted once)."""
        self.truncated = False
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
        self.closed = False
        self._masks: list[np.ndarray | None] = [None] * n
        self.recorder = None
        """A :class:`stonk_envs.records.Recorder` told of every reset and step, or None."""
        self._window = None
        self.last_step: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        """The table before the last step, its joint action and void codes (kept when rendering)."""

    def reset(self, seed: int | None) -> None:
        """Start a new game; a given seed makes the whole game reproducible."""
        seed = check_seed("seed", seed)
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        deal_seed = int(self.np_random.integers(2**63))
        self.game.reset(self.states, 0, deal_seed)
        if self.recorder is not None:
            self.recorder.start(self.game, deal_seed, seed)
        self.game_over = False
        self.cycles = 0
        self.truncated = False
        self.last_step = None
        self.started = True
        self.closed = False
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
        """:meth:`observe` of every agent, from one call of the game's ``observe_all``.

        While the game is on, a seat that does not act next gets a mask with the game's
        single ``pass_action`` instead of an empty one (Parallel env only).
        """
        obs = np.zeros((self.game.num_players, *self.observation_space["observation"].shape), dtype=np.float32)
        self.game.observe_all(self.states, 0, obs)
        return {agent: {"observation": obs[p], "action_mask": self._parallel_mask(p)} for p, agent in
                enumerate(self.agents)}

    def _parallel_mask(self, seat: int) -> np.ndarray:
        mask = self.mask(seat)
        if not self.game_over and not self.actor_flags[seat]:
            mask[self.game.pass_action] = 1
        return mask

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
        before = self.states.copy() if self.render_mode is not None else None
        self.game_over = bool(self.game.step(self.states, 0, joint, self.rewards, self.voids))
        if before is not None:
            self.last_step = (before, joint.copy(), self.voids.copy())
        self.cycles += 1
        self.truncated = not self.game_over and self.max_cycles is not None and self.cycles >= self.max_cycles
        if self.recorder is not None:
            self.recorder.step(joint, self.rewards, self.game.scores(self.states, 0) if self.game_over else None)

    def info(self, seat: int, submitted_void: int = VOID_NONE) -> dict[str, Any]:
        code = submitted_void or int(self.voids[seat])
        info: dict[str, Any] = {}
        if code != VOID_NONE:
            info["void"] = VOID_REASONS[code]
        if self.game_over:
            info["score"] = float(self.game.scores(self.states, 0)[seat])
        return info

    def check_started(self, call: str) -> None:
        """Raise ``ValueError`` when ``call`` comes before the first ``reset()``, or after ``close()``."""
        if self.closed:
            raise ValueError(f"{call} called after close(); call reset() to play again")
        if not self.started:
            raise ValueError(f"{call} called before reset()")

    def state(self) -> np.ndarray:
        self.check_started("state()")
        out = np.zeros(self.game.state_size, dtype=np.float32)
        self.game.state_vector(self.states, 0, out)
        return out

    def render(self) -> str | np.ndarray | None:
        """The table as ``render_seat`` sees it, with the last step's moves (void ones with why)
        and what it scored: a picture with them in its event strip, or text with them below."""
        if self.render_mode is None:
            return None
        self.check_started("render()")
        drawer = pictures.registered()
        events, summary = [], []
        if self.last_step is not None:
            before, joint, voids = self.last_step
            events, summary = drawer.story(self.game, before, self.states, joint, voids, self.render_seat)
        if self.render_mode == "rgb_array":
            return drawer.draw(self.game, self.states, 0, self.render_seat, events, summary)
        text = "\n".join([self.game.render(self.states, 0, self.render_seat), *events, *summary])
        if self.render_mode == "human":
            if self._window is None:
                self._window = drawer.open_window(self.game.name)
            frame = None
            if not self._window.fallback:
                frame = drawer.draw(self.game, self.states, 0, self.render_seat, events, summary)
            self._window.show(frame, text)
            return None
        return text

    def close(self) -> None:
        self.closed = True
        if self._window is not None:
            self._window.close()
            self._window = None


class StonkAECEnv(AECEnv):
    """AEC env over a game.

    An illegal action raises ``ValueError`` and changes nothing (``illegal_action="raise"``),
    or is void like in the Parallel env (``"void"``: the seat's action is not used and
    ``info["void"]`` says so). With ``max_cycles``, every agent is truncated once that many
    game steps (cycles: every acting seat acted once) have resolved.
    """

    def __init__(
        self,
        game: Game,
        metadata: dict,
        render_mode: str | None = None,
        render_seat: int | None = None,
        illegal_action: str = "raise",
        max_cycles: int | None = None,
    ):
        super().__init__()
        self.metadata = metadata
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_POLICIES)
        self.table = GameTable(game, render_mode, render_seat, max_cycles)
        self._submitted_void = np.zeros(game.num_players, dtype=np.int8)
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
        check_reset_options(options)
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.table.joint[:] = NO_ACTION
        self._submitted_void[:] = VOID_NONE
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

    def check_action(self, action: Any) -> None:
        """Raise for an action the selected agent may never take, whatever ``illegal_action`` says.

        ``OptionTypeError`` unless ``action`` is None or an integer (not a bool); ``ValueError``
        for an integer outside the action space, and for None from an agent that is still in
        play (None is only the step of an agent that is done, as in PettingZoo).
        """
        agent = self.agent_selection
        if action is None:
            if not (self.terminations[agent] or self.truncations[agent]):
                raise ValueError(f"{agent}: action None is only for an agent that is done; {agent} is in play "
                                 f"and must act with an integer of the action space")
            return
        if not is_int(action):
            raise OptionTypeError(f"{agent}: action must be an integer or None, got {action!r}")
        n = self.table.game.num_actions
        if not 0 <= action < n:  # outside the space is a caller's error, never a void move
            raise ValueError(f"{agent}: action {action} is outside the action space 0..{n - 1}")

    def last(self, observe: bool = True):
        self.check_in_play("last()")
        return super().last(observe)

    def step(self, action: Any) -> None:
        self.check_in_play("step()")
        self.check_action(action)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.table.seat_of[agent]
        problem = self.table.illegal_reason(seat, action)
        if problem is not None and self.illegal_action == "raise":
            raise ValueError(problem)
        self._cumulative_rewards[agent] = 0.0
        if problem is None:
            self.table.joint[seat] = int(action)
        else:
            self._submitted_void[seat] = VOID_ILLEGAL
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
            self.infos[agent] = table.info(p, int(self._submitted_void[p]))
        self._submitted_void[:] = VOID_NONE
        if table.game_over or table.truncated:
            self.terminations = dict.fromkeys(self.agents, table.game_over)
            self.truncations = dict.fromkeys(self.agents, table.truncated)
            self.agent_selection = self.agents[0]
        else:
            self._queue = table.refresh_actors()
            self.agent_selection = self.agents[self._queue[0]]

    def state(self) -> np.ndarray:
        return self.table.state()

    def render(self) -> str | np.ndarray | None:
        return self.table.render()

    def close(self) -> None:
        self.table.close()


class StonkParallelEnv(ParallelEnv):
    """Parallel env over a game.

    Every live agent has a legal action: a seat that does not act this step (in a turn-based
    phase) gets a mask with the single legal no-op ``game.pass_action``, and its action is
    ignored. An illegal action of a seat that may act raises ``ValueError``
    (``illegal_action="raise"``) or is void and reported in ``info`` (``"void"``, the default,
    the same treatment as an action that has become impossible). A value that is not None or
    an integer of the action space is refused with an error under either policy, and so is a
    missing action or None for a seat that may act (a seat that does not act may be left out
    or given None). With ``max_cycles``, every agent is truncated after that many steps.
    """

    def __init__(
        self,
        game: Game,
        metadata: dict,
        render_mode: str | None = None,
        render_seat: int | None = None,
        illegal_action: str = "void",
        max_cycles: int | None = None,
    ):
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_POLICIES)
        self.metadata = metadata
        self.table = GameTable(game, render_mode, render_seat, max_cycles)
        self.render_mode = render_mode
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
        check_reset_options(options)
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        observations = self.table.observe_every_seat()
        return observations, {agent: {} for agent in self.agents}

    @property
    def acting_agents(self) -> list[str]:
        """The agents whose actions the next step uses (the others are offered only the no-op)."""
        if not self.agents:
            return []
        return [self.agents[p] for p in np.flatnonzero(self.table.actor_flags)]

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
        n = table.game.num_actions
        for agent, action in actions.items():  # outside the space is a caller's error, never a void move
            if action is not None and not is_int(action):
                raise OptionTypeError(f"{agent}: action must be an integer or None, got {action!r}")
            if action is not None and not 0 <= action < n:
                raise ValueError(f"{agent}: action {action} is outside the action space 0..{n - 1}")
        for seat in np.flatnonzero(table.actor_flags):
            agent = self.agents[seat]
            if agent not in actions:
                raise ValueError(f"{agent} may act this step but no action was given for it")
            if actions[agent] is None:
                raise ValueError(f"{agent} may act this step but its action is None; give an integer of the "
                                 f"action space (None is only for a seat that does not act)")
        joint = np.full(table.game.num_players, NO_ACTION, dtype=np.int64)
        submitted_void = np.zeros(table.game.num_players, dtype=np.int8)
        for seat in np.flatnonzero(table.actor_flags):
            agent = self.agents[seat]
            problem = table.illegal_reason(int(seat), actions[agent])
            if problem is None:
                joint[seat] = int(actions[agent])
            elif self.illegal_action == "raise":
                raise ValueError(problem)
            else:
                submitted_void[seat] = VOID_ILLEGAL
        table.resolve(joint)
        table.refresh_actors()
        agents = self.agents
        observations = table.observe_every_seat()
        rewards = {agent: float(table.rewards[p]) for p, agent in enumerate(agents)}
        infos = {agent: table.info(p, int(submitted_void[p])) for p, agent in enumerate(agents)}
        terminations = dict.fromkeys(agents, table.game_over)
        truncations = dict.fromkeys(agents, table.truncated)
        if table.game_over or table.truncated:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def state(self) -> np.ndarray:
        return self.table.state()

    def render(self) -> str | np.ndarray | None:
        return self.table.render()

    def close(self) -> None:
        self.table.close()


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
        base.check_action(action)
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


def default_illegal_action(game_cls: type[Game]) -> str:
    """What ``env()`` does with an illegal action unless told: ``"void"`` in a real-time game,
    ``"terminate"`` in a turn-based one.

    A real-time game's AEC env is the standard conversion of its Parallel env, whose ticks
    treat a void action as part of play (the seat does nothing that tick), so the AEC env
    voids it too. A turn-based game keeps PettingZoo's ``TerminateIllegalWrapper``.
    """
    return "void" if game_cls.simultaneous else "terminate"


def env_constructors(game_cls: type[Game], config_cls: type) -> tuple[Callable, Callable, Callable]:
    """The ``env``, ``raw_env`` and ``parallel_env`` functions of one game module."""
    metadata = {
        "name": f"{game_cls.name}_v{OBSERVATION_VERSION}",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": True,
        "render_fps": 2,
    }

    def raw_env(
        render_mode: str | None = None,
        render_seat: int | None = None,
        illegal_action: str = "raise",
        max_cycles: int | None = None,
        **config,
    ) -> StonkAECEnv:
        """The AEC env without wrappers; see :class:`StonkAECEnv` for ``illegal_action`` and ``max_cycles``."""
        game = game_cls(build_config(config_cls, config))
        return StonkAECEnv(game, metadata, render_mode, render_seat, illegal_action, max_cycles)

    def env(
        render_mode: str | None = None,
        render_seat: int | None = None,
        illegal_action: str | None = None,
        max_cycles: int | None = None,
        **config,
    ) -> AECEnv:
        """The AEC env with PettingZoo's standard wrappers.

        An illegal move is void and reported in ``info["void"]`` (``"void"``, as in the Parallel
        env), or ends the game with reward -1 for the offender (``"terminate"``, PettingZoo's
        ``TerminateIllegalWrapper``). The default is the game's :func:`default_illegal_action`.
        """
        if illegal_action is None:
            illegal_action = default_illegal_action(game_cls)
        check_choice("illegal_action", illegal_action, WRAPPED_ILLEGAL_ACTION_POLICIES)
        raw_policy = "void" if illegal_action == "void" else "raise"
        wrapped = raw_env(render_mode, render_seat, raw_policy, max_cycles, **config)
        if illegal_action == "terminate":
            wrapped = _TerminateIllegal(wrapped, illegal_reward=-1)
        wrapped = _AssertOutOfBounds(wrapped)
        return _OrderEnforcing(wrapped)

    def parallel_env(
        render_mode: str | None = None,
        render_seat: int | None = None,
        illegal_action: str = "void",
        max_cycles: int | None = None,
        **config,
    ) -> StonkParallelEnv:
        """The Parallel env; see :class:`StonkParallelEnv` for ``illegal_action`` and ``max_cycles``."""
        game = game_cls(build_config(config_cls, config))
        return StonkParallelEnv(game, metadata, render_mode, render_seat, illegal_action, max_cycles)

    return env, raw_env, parallel_env
