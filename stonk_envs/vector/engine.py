"""The batched engine: N games of one kind stepped in lockstep by compiled kernels.

State is one structured record per game (``states`` has shape (N,)); every buffer has the
game index first and the seat second. Each step runs, for every game, the same compiled core
functions the PettingZoo env runs, then writes every seat's observation and action mask in
the env's own encoding. A game that ends is started again in the same step (auto-reset):
``terminated[i]`` is True, ``rewards[i]`` holds the rewards of its last step,
``final_obs[i]`` its last observations, ``final_states[i]`` its last state record (for its
scores: ``engine.game.scores(engine.final_states, i)``), and ``obs[i]``/``masks[i]`` already
belong to the next game.

Seeding: after ``reset(seed=s)`` slot ``i`` plays exactly the games that the PettingZoo env
plays after ``reset(seed=s + i)`` followed by plain ``reset()`` calls.

Options: ``parallel`` (None: numba's threads for batches of :data:`PARALLEL_FROM` games or
more) and ``observe`` (``"all"``: every seat's observation after every step; ``"actors"``:
only the seats that act next, the others all zero, which saves most of the work of a
turn-based game). Masks are always written for every seat.

The arrays returned by :meth:`BatchEngine.reset` and :meth:`BatchEngine.step` are the
engine's own buffers, overwritten by the next call: copy what you keep. ``obs`` and ``states``
are read-only views: a game may rewrite only the parts of its rows that the last step changed,
so the rows must keep exactly what the engine wrote, and the records may change only through
the engine (:meth:`BatchEngine.set_state` to start from other ones).
"""

from __future__ import annotations

import os

import numpy as np
from gymnasium.utils import seeding
from numba.np.ufunc.parallel import _launch_threads  # starts the threading layer once per process

from stonk_envs.core.game import Game
from stonk_envs.core.validation import check_choice, check_int, check_optional_bool, check_seed
from stonk_envs.vector import kernels
from stonk_envs.vector.batch_ops import RNG_DTYPE, actor_actions_parallel, actor_actions_serial, first_illegal

PARALLEL_FROM = 256
"""Batches of at least this many games use the multi-threaded kernels by default."""
PARALLEL_DRAW_FROM = 2**18
"""Mask entries the acting seats of a batch hold (games x acting seats x actions; one acting
seat per game in a turn-based game) from which a threaded engine also draws
:meth:`BatchEngine.random_actions` on threads: below, starting the threads costs more than
the draw (measured on 2 cores: Stockpile at batch 1024, 119,808 entries, 54 µs on one thread
against 73-87 µs on two)."""
OBSERVE_MODES = ("all", "actors")
MAX_NUM_ENVS = 2**24
"""Most games one engine holds (several GiB of state and buffers for the largest game)."""
_STATE_ARRAYS = ("states", "obs", "masks", "actors", "rewards", "voids", "terminated", "final_obs", "final_states",
                 "_joint", "_next_seeds", "_action_streams")
"""The buffers :meth:`BatchEngine.get_state` saves: all that the next steps or their readers depend on."""
TOUCHED_FIELD = "touched"
"""A state record's bit set of the observation sections changed since its rows were last written,
where its game keeps one (Stockpile: ``games/stockpile/touched.py``); all bits set means "check
every section"."""


def start_kernel_threads() -> None:
    """Start numba's threads for the parallel kernels, as sleepers when idle unless the user chose.

    OpenMP threads that spin between kernel calls starve the Python thread on a busy machine
    (measured: 4x slower than one thread), and sleeping ones cost little at these batch sizes.
    So ``OMP_WAIT_POLICY=PASSIVE`` is set (unless set already) only while numba's OpenMP runtime
    starts and reads it. torch runs its own OpenMP runtime, which would read it too when loaded
    later: its threads then sleep between the many small operations of a training step, and
    training ran 1.5x slower.
    """
    if "OMP_WAIT_POLICY" in os.environ:
        _launch_threads()
        return
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    try:
        _launch_threads()
    finally:
        del os.environ["OMP_WAIT_POLICY"]


BIT_GENERATORS = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")


def _generators(saved: object, num_envs: int) -> list[np.random.Generator]:
    """The generators of a saved engine state (one per game), or ``ValueError`` naming the problem."""
    if not isinstance(saved, list) or len(saved) != num_envs:
        raise ValueError(f"saved engine state needs {num_envs} generator states, got {type(saved).__name__}")
    generators = []
    for entry in saved:
        name = entry.get("bit_generator") if isinstance(entry, dict) else None
        if name not in BIT_GENERATORS:
            raise ValueError(f"saved engine state has an unknown bit generator {name!r}")
        bit_generator = getattr(np.random, name)()
        try:
            bit_generator.state = entry
        except (TypeError, ValueError, KeyError) as err:
            raise ValueError(f"saved engine state has a bad {name} state: {err}") from None
        generators.append(np.random.Generator(bit_generator))
    return generators


def check_memory(what: str, nbytes: int) -> None:
    """``ValueError`` when ``nbytes`` is more than the memory the system has available now (Linux)."""
    try:
        with open("/proc/meminfo") as handle:
            available = next(int(line.split()[1]) * 1024 for line in handle if line.startswith("MemAvailable:"))
    except (OSError, StopIteration, ValueError):
        return
    if nbytes > available:
        raise ValueError(f"{what} needs about {nbytes / 2**30:,.1f} GiB of memory, more than the "
                         f"{available / 2**30:,.1f} GiB available")


class BatchEngine:
    """N games of one kind in lockstep, with auto-reset; see the module docstring."""

    def __init__(self, game: Game, num_envs: int, parallel: bool | None = None, observe: str = "all"):
        observe = check_choice("observe", observe, OBSERVE_MODES)
        parallel = check_optional_bool("parallel", parallel)
        num_envs = check_int("num_envs", num_envs, 1, MAX_NUM_ENVS)
        self.config = game.config
        self.game = game
        self.num_envs = num_envs
        self.num_players = n = self.game.num_players
        self.num_actions = a = self.game.num_actions
        self.obs_size = o = len(self.game.observation_bounds[0])
        self.agent_names = [f"player_{p}" for p in range(n)]
        self.parallel = num_envs >= PARALLEL_FROM if parallel is None else parallel
        if self.parallel:
            start_kernel_threads()
        acting = n if game.simultaneous else 1
        self._parallel_draw = self.parallel and num_envs * acting * a >= PARALLEL_DRAW_FROM
        self._observe_all = observe == "all"
        per_game = 2 * game.state_dtype.itemsize + n * (8 * o + 2 * a + 40) + 64
        check_memory(f"{num_envs:,} games of {game.name}", num_envs * per_game)
        try:
            self._allocate(num_envs, n, o, a)
        except MemoryError:
            raise ValueError(f"{num_envs:,} games of {game.name} do not fit in memory") from None

    def _allocate(self, num_envs: int, n: int, o: int, a: int) -> None:
        """The state records and buffers of ``num_envs`` games."""
        game = self.game
        self._args = game.init_args()
        self._states = np.zeros(num_envs, dtype=game.state_dtype)
        self.states = self._states.view()
        self.states.flags.writeable = False
        self._obs = np.zeros((num_envs, n, o), np.float32)
        self.obs = self._obs.view()
        self.obs.flags.writeable = False
        self.masks = np.zeros((num_envs, n, a), np.int8)
        self.actors = np.zeros((num_envs, n), np.bool_)
        self.rewards = np.zeros((num_envs, n), np.float32)
        self.voids = np.zeros((num_envs, n), np.int8)
        self.terminated = np.zeros(num_envs, np.bool_)
        self.final_obs = np.zeros((num_envs, n, o), np.float32)
        self.final_states = np.zeros(num_envs, dtype=self.game.state_dtype)
        self._joint = np.zeros((num_envs, n), np.int64)
        self._next_seeds = np.zeros(num_envs, np.int64)
        self._all_active = np.ones(num_envs, np.bool_)
        self._action_streams = np.zeros(num_envs, RNG_DTYPE)
        self._random_actions = np.zeros((num_envs, n), np.int64)
        self._generators: list[np.random.Generator] = []

    @property
    def observe(self) -> str:
        """``"all"`` or ``"actors"``: whose observations each step writes (fixed at creation)."""
        return "all" if self._observe_all else "actors"

    @property
    def nbytes_per_game(self) -> int:
        """Bytes of state and buffers held for each game of the batch."""
        arrays = [getattr(self, name) for name in _STATE_ARRAYS] + [self._all_active, self._random_actions]
        return sum(x.nbytes for x in arrays) // self.num_envs

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Start a new game in every slot; returns ``(obs, masks)``."""
        seed = check_seed("seed", seed)
        if seed is None:
            seed = int(np.random.default_rng().integers(2**62))
        self._generators = [seeding.np_random(int(seed) + i)[0] for i in range(self.num_envs)]
        seeds = np.array([g.integers(2**63) for g in self._generators], np.int64)
        self._next_seeds[:] = [g.integers(2**63) for g in self._generators]
        self._action_streams["rng"] = np.random.default_rng([int(seed), 1]).integers(
            2**63, size=self.num_envs, dtype=np.uint64
        )
        run = kernels.reset_parallel if self.parallel else kernels.reset_serial
        run(self._states, seeds, self._args, self._observe_all, self._obs, self.masks, self.actors)
        self.rewards[:] = 0.0
        self.voids[:] = 0
        self.terminated[:] = False
        return self.obs, self.masks

    def step(
        self, actions: np.ndarray, active: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Apply one joint action per game; returns ``(obs, masks, rewards, terminated)``.

        ``actions`` is int64 of shape (N, P); only the entries of seats in :attr:`actors` are
        used, and each of those must be legal under :attr:`masks` (else ``ValueError`` and
        nothing changes). ``active`` (bool, shape (N,)) steps only the games marked True; the
        others keep their state and get zero rewards.
        """
        if not self._generators:
            raise ValueError("step() called before reset()")
        given = np.asarray(actions)
        if given.shape != self._joint.shape or given.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be an integer array of shape {self._joint.shape}, got {given.dtype} {given.shape}"
            )
        actions = given.astype(np.int64, copy=False)
        if active is None:
            active = self._all_active
        else:
            active = np.asarray(active)
            if active.shape != (self.num_envs,) or active.dtype != np.bool_:
                raise ValueError(f"active must be a bool array of shape ({self.num_envs},), got {active.dtype} "
                                 f"{active.shape}")
        bad = first_illegal(actions, self.masks, self.actors, active)
        if bad >= 0:
            i, p = divmod(bad, self.num_players)
            raise ValueError(
                f"game {i}, {self.agent_names[p]}: action {given[i, p]} is illegal (legal: the seat's mask, "
                f"0..{self.num_actions - 1})"
            )
        run = kernels.step_parallel if self.parallel else kernels.step_serial
        out = (self.rewards, self.voids, self.terminated, self.final_obs, self.final_states, self._obs, self.masks,
               self.actors)
        run(self._states, active, actions, self._joint, self._args, self._next_seeds, self._observe_all, out)
        for i in np.flatnonzero(self.terminated):
            self._next_seeds[i] = self._generators[i].integers(2**63)
        return self.obs, self.masks, self.rewards, self.terminated

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action for every seat that acts next, -1 for the others.

        Returns the engine's own int64 buffer of shape (N, P), ready for :meth:`step`. Each game
        draws from its own stream, seeded by :meth:`reset` and apart from the games' streams, so
        the games played do not depend on whether this is called. Threaded only for large masks
        (:data:`PARALLEL_DRAW_FROM`); the draws are the same either way.
        """
        if not self._generators:
            raise ValueError("random_actions() called before reset()")
        run = actor_actions_parallel if self._parallel_draw else actor_actions_serial
        run(self._action_streams, self.masks, self.actors, self._random_actions)
        return self._random_actions

    def get_state(self) -> dict:
        """Copies of everything the next steps depend on: state records, buffers, seed streams."""
        return {
            "game": self.game.name,
            "config": self.config,
            "num_envs": self.num_envs,
            "arrays": {name: getattr(self, name).copy() for name in _STATE_ARRAYS},
            "generators": [g.bit_generator.state for g in self._generators],
        }

    def set_state(self, state: dict) -> None:
        """Continue exactly where the engine that saved ``state`` (:meth:`get_state`) was.

        The saving engine must have played the same game with the same config and batch size
        (else ``ValueError`` and nothing changes).
        """
        try:
            saved = (state["game"], state["config"].num_players, state["num_envs"])
            missing = [name for name in _STATE_ARRAYS if name not in state["arrays"]]
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"not an engine state saved by get_state(): {type(err).__name__}: {err}") from None
        if missing:
            raise ValueError(f"not an engine state saved by get_state(): no {missing}")
        if saved != (self.game.name, self.num_players, self.num_envs):
            raise ValueError(
                f"saved engine state is of {saved[2]} {saved[0]} games at {saved[1]} players, "
                f"this engine has {self.num_envs} {self.game.name} games at {self.num_players} players"
            )
        if state["config"] != self.config:
            raise ValueError(f"saved engine state has game config {state['config']}, this engine {self.config}")
        generators = _generators(state["generators"], self.num_envs)
        if getattr(state["arrays"]["states"], "dtype", None) != self.states.dtype:
            raise ValueError("saved engine state holds records of another layout (saved by another version of the "
                             "game): start from reset() instead")
        for name in _STATE_ARRAYS:  # every array checked before any is written: a refused state changes nothing
            own, saved_array = getattr(self, name), state["arrays"][name]
            if not isinstance(saved_array, np.ndarray) or (saved_array.shape, saved_array.dtype) != (
                own.shape, own.dtype
            ):
                found = (getattr(saved_array, "shape", None), getattr(saved_array, "dtype", type(saved_array)))
                raise ValueError(f"saved engine state array {name!r} is {found}, this engine's is "
                                 f"{(own.shape, own.dtype)}")
        for name in _STATE_ARRAYS:
            getattr(self, f"_{name}" if name in ("obs", "states") else name)[...] = state["arrays"][name]
        if TOUCHED_FIELD in self._states.dtype.names:
            self._states[TOUCHED_FIELD] = -1  # records from outside: the next update checks every section
        self._generators = generators

    def state_vectors(self) -> np.ndarray:
        """The full state of every game, shape (N, state_size), for centralised critics."""
        if not self._generators:
            raise ValueError("state_vectors() called before reset()")
        out = np.zeros((self.num_envs, self.game.state_size), np.float32)
        kernels.state_vectors(self._states, out)
        return out
