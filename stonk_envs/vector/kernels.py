"""The batch kernels: every game's compiled core run over ``states[i]`` for each game of a batch.

They are written once for all games over :mod:`stonk_envs.core.dispatch`, and compile for
each game's record type on first use. ``args`` is the tuple the game's core ``init`` takes
after the seed (``Game.init_args()``).

Every seat's rows of ``obs`` are written with the core's ``observe_all_update`` where it has
one: it may leave unchanged the parts of the rows that did not change since its last call on
the same game, so ``obs`` must hold exactly what the kernels last wrote (the engine hands it out
read-only). ``final_obs`` is always written in full.
"""

import numpy as np
from numba import njit, prange
from numba.extending import overload

from stonk_envs.core.dispatch import (
    _core_of,
    game_actors,
    game_init,
    game_legal_mask,
    game_observe,
    game_observe_all,
    game_state_vector,
    game_step,
)


def game_observe_update(s, out):
    """Every seat's observation into ``out``, which holds what this function last wrote for ``s``."""


@overload(game_observe_update)
def _game_observe_update(s, out):
    core = _core_of(s)
    if hasattr(core, "observe_all_update"):
        update = core.observe_all_update
        return lambda s, out: update(s, out)
    return lambda s, out: game_observe_all(s, out)


@njit(cache=True)
def _views(s, i, obs, masks, actors, every_seat):
    """Write game i's actors, observations and masks. A seat that acts neither now nor in the
    step before keeps its mask, all zero already (the contract of ``legal_mask``)."""
    acted = 0
    for p in range(obs.shape[1]):
        if actors[i, p]:
            acted |= 1 << p
            if not every_seat:  # only the last actors' rows are non-zero: clear them
                obs[i, p] = 0.0
    game_actors(s, actors[i])
    if every_seat:
        game_observe_update(s, obs[i])
    for p in range(obs.shape[1]):
        if not every_seat and actors[i, p]:
            game_observe(s, p, obs[i, p])
        if actors[i, p] or acted >> p & 1:
            game_legal_mask(s, p, masks[i, p])


@njit(cache=True)
def _step_one(states, i, active, actions, joint, args, next_seeds, every_seat, rewards, voids, terminated, final_obs,
              final_states, obs, masks, actors):
    if not active[i]:
        rewards[i] = 0.0
        voids[i] = 0
        terminated[i] = False
        return
    s = states[i]
    for p in range(obs.shape[1]):
        joint[i, p] = actions[i, p] if actors[i, p] else -1
    over = game_step(s, joint[i], rewards[i], voids[i])
    terminated[i] = over
    if over:
        game_observe_all(s, final_obs[i])
        final_states[i] = s
        game_init(s, next_seeds[i], args)
    _views(s, i, obs, masks, actors, every_seat)


@njit(cache=True)
def reset_serial(states, seeds, args, every_seat, obs, masks, actors):
    """Start a new game in every slot and write its views."""
    for i in range(states.shape[0]):
        game_init(states[i], seeds[i], args)
        _views(states[i], i, obs, masks, actors, every_seat)


@njit(cache=True, parallel=True)
def reset_parallel(states, seeds, args, every_seat, obs, masks, actors):
    """:func:`reset_serial` over threads."""
    for j in prange(states.shape[0]):
        i = np.int64(j)  # prange counts unsigned: a signed index lets the callees reuse the serial kernel's code
        game_init(states[i], seeds[i], args)
        _views(states[i], i, obs, masks, actors, every_seat)


@njit(cache=True)
def step_serial(states, active, actions, joint, args, next_seeds, every_seat, out):
    """Step every active game; ``out`` is (rewards, voids, terminated, final_obs, final_states, obs, masks,
    actors)."""
    rewards, voids, terminated, final_obs, final_states, obs, masks, actors = out
    for i in range(states.shape[0]):
        _step_one(states, i, active, actions, joint, args, next_seeds, every_seat, rewards, voids, terminated,
                  final_obs, final_states, obs, masks, actors)


@njit(cache=True, parallel=True)
def step_parallel(states, active, actions, joint, args, next_seeds, every_seat, out):
    """:func:`step_serial` over threads."""
    rewards, voids, terminated, final_obs, final_states, obs, masks, actors = out
    for j in prange(states.shape[0]):
        i = np.int64(j)  # as in reset_parallel
        _step_one(states, i, active, actions, joint, args, next_seeds, every_seat, rewards, voids, terminated,
                  final_obs, final_states, obs, masks, actors)


@njit(cache=True)
def state_vectors(states, out):
    """Every game's full state vector into the rows of ``out``."""
    for i in range(states.shape[0]):
        game_state_vector(states[i], out[i])
