"""Compiled entry points shared by every game, chosen by the type of the state record.

Each game's core module registers itself (:func:`register_core`); the generic functions
``game_init``, ``game_actors``, ``game_legal_mask``, ``game_observe``, ``game_step`` and
``game_state_vector`` then compile, for a record of that game's dtype, into a call of the
core's own ``init``, ``actors``, ``legal_mask``, ``observe``, ``step`` and
``state_vector``. ``game_observe_all`` writes every seat's observation at once: with the
core's ``observe_all`` where it has one (a game whose seats share most of what they see can
write the shared part once), else by calling ``observe`` for each seat. The batched engine's
kernels are written once over them.

The ``*_at(states, i, ...)`` functions run the same on ``states[i]``. The adapter calls these:
numba dispatches a call with an array argument in about 1 µs, but one with a record
argument (``states[i]`` from Python) in 5-18 µs.
"""

from __future__ import annotations

from types import ModuleType

from numba import from_dtype, njit
from numba.extending import overload

_CORES: dict = {}


def register_core(core: ModuleType) -> None:
    """Make ``core`` (with ``STATE_DTYPE`` and the six core functions) the core of its dtype."""
    _CORES[from_dtype(core.STATE_DTYPE)] = core


def _core_of(record_type) -> ModuleType:
    if record_type not in _CORES:
        raise TypeError(f"no game core is registered for the record type {record_type}")
    return _CORES[record_type]


def game_init(s, seed, args):
    """Start a new game in record ``s``; ``args`` are the core's ``init`` arguments after the seed."""


def game_actors(s, out):
    """Mark in ``out`` the seats that act next."""


def game_legal_mask(s, seat, out):
    """Write ``seat``'s action mask into ``out``."""


def game_observe(s, seat, out):
    """Write ``seat``'s observation into ``out``."""


def game_observe_all(s, out):
    """Write every seat's observation into the rows of ``out`` (shape (P, O))."""


def game_step(s, actions, rewards, voids):
    """Apply one joint action; True when the game is over."""


def game_state_vector(s, out):
    """Write the full state into ``out``."""


@overload(game_init)
def _game_init(s, seed, args):
    init = _core_of(s).init
    return lambda s, seed, args: init(s, seed, *args)


@overload(game_actors)
def _game_actors(s, out):
    actors = _core_of(s).actors
    return lambda s, out: actors(s, out)


@overload(game_legal_mask)
def _game_legal_mask(s, seat, out):
    legal_mask = _core_of(s).legal_mask
    return lambda s, seat, out: legal_mask(s, seat, out)


@overload(game_observe)
def _game_observe(s, seat, out):
    observe = _core_of(s).observe
    return lambda s, seat, out: observe(s, seat, out)


@overload(game_observe_all)
def _game_observe_all(s, out):
    core = _core_of(s)
    if hasattr(core, "observe_all"):
        observe_all = core.observe_all
        return lambda s, out: observe_all(s, out)
    observe = core.observe

    def every_seat(s, out):
        for seat in range(out.shape[0]):
            observe(s, seat, out[seat])

    return every_seat


@overload(game_step)
def _game_step(s, actions, rewards, voids):
    step = _core_of(s).step
    return lambda s, actions, rewards, voids: step(s, actions, rewards, voids)


@overload(game_state_vector)
def _game_state_vector(s, out):
    state_vector = _core_of(s).state_vector
    return lambda s, out: state_vector(s, out)


@njit(cache=True)
def init_at(states, i, seed, args):
    game_init(states[i], seed, args)


@njit(cache=True)
def actors_at(states, i, out):
    game_actors(states[i], out)


@njit(cache=True)
def legal_mask_at(states, i, seat, out):
    game_legal_mask(states[i], seat, out)


@njit(cache=True)
def observe_at(states, i, seat, out):
    game_observe(states[i], seat, out)


@njit(cache=True)
def observe_all_at(states, i, out):
    game_observe_all(states[i], out)


@njit(cache=True)
def step_at(states, i, actions, rewards, voids):
    return game_step(states[i], actions, rewards, voids)


@njit(cache=True)
def state_vector_at(states, i, out):
    game_state_vector(states[i], out)
