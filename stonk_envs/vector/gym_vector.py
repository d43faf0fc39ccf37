"""The single-agent env of every game, N at once on the batched engine: what ``gymnasium.make_vec`` returns.

Each Gymnasium id (``stonk_envs/StocksAndBombs-v1`` ...) has this class as its
``vector_entry_point``, so ``gymnasium.make_vec(id, num_envs=N, **kwargs)`` steps N games in
one :class:`~stonk_envs.vector.engine.BatchEngine` instead of N Python envs::

    envs = gymnasium.make_vec("stonk_envs/StocksAndBombs-v1", num_envs=256, opponents="heuristic")
    obs, info = envs.reset(seed=0)
    masks = envs.call("action_masks")  # one bool mask per game

- Each game has one learning seat (``seat``: that seat in every game; None: seat ``i mod P``
  in slot ``i``, moved one seat on at every new game). The other seats are played by
  ``opponents`` (one player spec for all, or one per other seat in seat order, as for
  :class:`~stonk_envs.single_agent.SingleAgentEnv`), or, after :meth:`EngineVectorEnv.set_league`,
  by league members drawn per seat (again at each new game).
- One step is one decision of each learning seat; the other seats' turns up to its next
  decision are played inside the step and its rewards over them added.
- ``layout="box"``: the observation is the seat's vector (a ``Box``, as the single env), the
  mask is ``info["action_mask"]`` and ``action_masks()``. ``layout="rllib"``: a ``Dict`` of
  ``observations`` and a float32 ``action_mask``, RLlib's masking layout. ``layout="flat"``: one
  ``Box``, the seat's vector followed by its mask as float32 0/1 (the info is empty), which RLlib
  batches in one array operation where a ``Dict`` costs a walk over its keys per game
  (:class:`~stonk_envs.integrations.rllib_modules.FlatMaskingTorchRLModule` reads it).
- ``autoreset_mode``: ``NextStep`` (Gymnasium's default, and what RLlib expects): the step that
  ends a game returns its last observation, and the next step ignores that slot's action and
  returns the first observation of its next game; ``SameStep``: the ending step returns the
  next game's first observation, the last one in ``info["final_obs"]``. Either way the masks
  (``action_masks()``, ``info["action_mask"]``) are always those of the observation returned,
  and a slot waiting for its reset step reports its next game's mask, never an all-zero one.
- An illegal action raises ``ValueError`` naming the game and seat, before anything moves
  (``illegal_action="void"`` is the single env's alone: use ``vectorization_mode="sync"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from stonk_envs import vector
from stonk_envs.core.validation import check_choice, check_optional_int, check_reset_options
from stonk_envs.policies.base import Policy
from stonk_envs.policies.players import make_player
from stonk_envs.policies.seats import built_in_codes
from stonk_envs.vector.selfplay import SelfPlay

LAYOUTS = ("box", "rllib", "flat")
AUTORESET_MODES = (AutoresetMode.NEXT_STEP.value, AutoresetMode.SAME_STEP.value)


class LeagueSelfPlay(SelfPlay):
    """:class:`SelfPlay` whose non-learner seats are filled at each new game: from a fixed assignment
    (one player per other seat, in seat order) or drawn from a league with weights.

    The players are the built-in seat holders of :mod:`~stonk_envs.policies.seats`, numbered in the
    order given.
    """

    def configure(self, policies: Sequence[Policy], per_other_seat: list[int] | None,
                  weights: np.ndarray | None) -> None:
        """``per_other_seat[k]``: the player of the learner's k-th other seat; or ``weights``: draw each seat."""
        self.codes = built_in_codes(np.arange(len(policies)))
        self.per_other_seat = None if per_other_seat is None else self.codes[per_other_seat]
        self.weights = weights
        e = self.engine
        players = dict(zip(self.codes.tolist(), policies, strict=True))
        self.seat_players(np.full((e.num_envs, e.num_players), self.codes[0]), players)
        self._games_started(np.ones(e.num_envs, np.bool_))

    def _games_started(self, started: np.ndarray) -> None:
        if not hasattr(self, "per_other_seat"):
            return  # the first deal of SelfPlay.__init__, before configure()
        slots = np.flatnonzero(started)
        p = self.engine.num_players
        if self.weights is not None:
            drawn = self.rng.choice(len(self.codes), size=(len(slots), p), p=self.weights)
            self.holders[slots] = self.codes[drawn]
        elif self.per_other_seat is not None:
            for slot in slots:
                others = [seat for seat in range(p) if seat != self.seats[slot]]
                self.holders[slot, others] = self.per_other_seat


class EngineVectorEnv(gymnasium.vector.VectorEnv):
    """N games of ``game`` on the batched engine, one learning seat each; see the module docstring."""

    def __init__(
        self,
        num_envs: int = 1,
        game: str = "stocks_and_bombs",
        opponents: str | Policy | Sequence[str | Policy] = "random",
        seat: int | None = None,
        layout: str = "box",
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        illegal_action: str = "raise",
        parallel: bool | None = None,
        render_mode: str | None = None,
        **config,
    ):
        if illegal_action != "raise":
            raise ValueError(f"illegal_action={illegal_action!r}: the batched vector env raises on an illegal action; "
                             "for void actions use gymnasium.make_vec(..., vectorization_mode='sync')")
        if render_mode is not None:
            raise ValueError("the batched vector env does not render; use vectorization_mode='sync' to render")
        self.layout = check_choice("layout", layout, LAYOUTS)
        mode = autoreset_mode.value if isinstance(autoreset_mode, AutoresetMode) else autoreset_mode
        self.autoreset_mode = AutoresetMode(check_choice("autoreset_mode", mode, AUTORESET_MODES))
        self.metadata = {"autoreset_mode": self.autoreset_mode}
        engine = vector.make(game, num_envs, parallel=parallel, observe="actors", **config)
        p = engine.num_players
        seat = check_optional_int("seat", seat, 0, p - 1)
        self.game = game
        self.num_envs = engine.num_envs
        self.selfplay = LeagueSelfPlay(engine, learner_seat=seat, rotate_seats=seat is None)
        self.set_opponents(opponents)
        low, high = engine.game.observation_bounds
        box = spaces.Box(low, high, dtype=np.float32)
        if self.layout == "box":
            self.single_observation_space = box
        elif self.layout == "flat":
            a = engine.num_actions
            self.single_observation_space = spaces.Box(np.concatenate([low, np.zeros(a, np.float32)]),
                                                       np.concatenate([high, np.ones(a, np.float32)]), dtype=np.float32)
        else:
            mask = spaces.Box(0.0, 1.0, (engine.num_actions,), dtype=np.float32)
            self.single_observation_space = spaces.Dict({"observations": box, "action_mask": mask})
        self.single_action_space = spaces.Discrete(engine.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._needs_reset = np.zeros(self.num_envs, np.bool_)
        """NextStep mode: slots whose game ended in the last step (their next step is the reset step)."""
        self._final_obs = np.zeros((self.num_envs, engine.obs_size), np.float32)

    # ------------------------------------------------------------------ opponents
    def set_opponents(self, opponents: str | Policy | Sequence[str | Policy]) -> None:
        """From the next step on, play the other seats with ``opponents`` (one spec, or one per other seat in
        seat order)."""
        p = self.selfplay.engine.num_players
        specs = [opponents] if isinstance(opponents, (str, Policy)) else list(opponents)
        if len(specs) not in (1, p - 1):
            raise ValueError(f"opponents must be one player or {p - 1} (one per other seat), got {len(specs)}")
        policies = [make_player(spec, self.game, p) for spec in specs]
        self.selfplay.configure(policies, list(range(len(policies))) * (p - 1 if len(policies) == 1 else 1), None)

    def set_league(self, players: Sequence[str | Policy], weights: Sequence[float] | None = None) -> None:
        """Draw each other seat's player from ``players`` by ``weights`` (None: equal): now for the games in
        play, and again at each new game."""
        if not players:
            raise ValueError("set_league needs at least one player")
        w = np.ones(len(players)) if weights is None else np.asarray(weights, np.float64)
        if w.shape != (len(players),) or not np.all(w >= 0) or w.sum() <= 0:
            raise ValueError(f"weights must be {len(players)} numbers >= 0 with a positive sum, got {weights}")
        p = self.selfplay.engine.num_players
        policies = [make_player(spec, self.game, p) for spec in players]
        self.selfplay.configure(policies, None, w / w.sum())

    # ------------------------------------------------------------------ stepping
    def action_masks(self) -> np.ndarray:
        """Each slot's learner mask as bools (N, A): that of the observation last returned, or of its next game
        while a slot waits for its reset step."""
        return self.selfplay.learner_obs()[1].astype(np.bool_)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        check_reset_options(options)
        super().reset(seed=seed)
        self.selfplay.reset(seed)
        self._needs_reset[:] = False
        return self._observations(), self._info()

    def step(self, actions):
        actions = np.asarray(actions).reshape(-1)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"expected {self.num_envs} actions, got shape {np.shape(actions)}")
        resetting = self._needs_reset.copy()
        if resetting.any():
            actions = actions.copy()
            actions[resetting] = self.action_masks()[resetting].argmax(axis=1)  # ignored: those slots do not move
        rewards, done, final_obs = self.selfplay.step(actions, None if not resetting.any() else ~resetting)
        self.selfplay.pop_episodes(done)
        truncated = np.zeros(self.num_envs, np.bool_)
        obs = self._observations()
        info = self._info()
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            self._needs_reset = done.copy()
            if done.any():
                obs = self._with_final(obs, done, final_obs)
        elif done.any():
            last = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(done):
                last[i] = self._in_layout(final_obs[i], np.zeros(self.single_action_space.n, np.int8))
            info.update({"final_obs": last, "_final_obs": done.copy(),
                         "final_info": np.full(self.num_envs, None, dtype=object), "_final_info": done.copy()})
        return obs, rewards.astype(np.float32), done, truncated, info

    def call(self, name: str, *args, **kwargs) -> tuple[Any, ...]:
        """As ``SyncVectorEnv.call``: one result per slot (an array with one row per slot is split by slot)."""
        result = getattr(self, name)
        if callable(result):
            result = result(*args, **kwargs)
        if isinstance(result, np.ndarray) and result.shape[:1] == (self.num_envs,):
            return tuple(result)
        return tuple(result for _ in range(self.num_envs))

    def get_attr(self, name: str) -> tuple[Any, ...]:
        return self.call(name)

    # ------------------------------------------------------------------ internals
    def _observations(self):
        return self._in_layout(*self.selfplay.learner_obs())

    def _in_layout(self, obs: np.ndarray, masks: np.ndarray):
        """Observations and their masks (one row each, or one of each) in the env's layout."""
        if self.layout == "box":
            return obs
        masks = masks.astype(np.float32)
        if self.layout == "flat":
            return np.concatenate([obs, masks], axis=-1)
        return {"observations": obs, "action_mask": masks}

    def _with_final(self, obs, done: np.ndarray, final_obs: np.ndarray):
        """``obs`` with the ended slots' last observations (NextStep mode); their masks stay the next game's."""
        if self.layout in ("box", "flat"):
            obs = obs.copy()
            obs[done, :final_obs.shape[1]] = final_obs[done]
            return obs
        obs["observations"] = obs["observations"].copy()
        obs["observations"][done] = final_obs[done]
        return obs

    def _info(self) -> dict[str, np.ndarray]:
        if self.layout == "flat":
            return {}  # the masks are the observations' last entries
        masks = self.selfplay.learner_obs()[1]
        return {"action_mask": masks, "_action_mask": np.ones(self.num_envs, np.bool_)}
