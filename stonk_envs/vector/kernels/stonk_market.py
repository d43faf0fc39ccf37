"""Batch kernels of Stonk Market: its compiled core (``init``, ``actors``, ``legal_mask``,
``observe``, ``step``) run over ``states[i]`` for every game of a batch."""

from numba import njit, prange

from stonk_envs.core.rewards import reward_mode_code
from stonk_envs.games.stonk_market import StonkMarket, StonkMarketConfig, core

GAME = StonkMarket
CONFIG = StonkMarketConfig


def init_args(c: StonkMarketConfig) -> tuple:
    """The arguments ``core.init`` takes after the seed, as the game's ``reset`` passes them."""
    return (c.num_players, c.tick_cap, c.num_rounds, c.stonks_bonus, reward_mode_code(c.reward_mode), c.reward_scale)


@njit(cache=True)
def _init(s, seed, args):
    core.init(s, seed, *args)


@njit(cache=True)
def _views(s, i, obs, masks, actors, every_seat):
    if not every_seat:  # only the last actors' rows are non-zero: clear them
        for p in range(obs.shape[1]):
            if actors[i, p]:
                obs[i, p] = 0.0
    core.actors(s, actors[i])
    for p in range(obs.shape[1]):
        if every_seat or actors[i, p]:
            core.observe(s, p, obs[i, p])
        core.legal_mask(s, p, masks[i, p])


@njit(cache=True)
def _step_one(states, i, active, actions, joint, args, next_seeds, every_seat, rewards, voids, terminated, final_obs,
              obs, masks, actors):
    if not active[i]:
        rewards[i] = 0.0
        voids[i] = 0
        terminated[i] = False
        return
    s = states[i]
    for p in range(obs.shape[1]):
        joint[i, p] = actions[i, p] if actors[i, p] else -1
    over = core.step(s, joint[i], rewards[i], voids[i])
    terminated[i] = over
    if over:
        for p in range(obs.shape[1]):
            core.observe(s, p, final_obs[i, p])
        _init(s, next_seeds[i], args)
    _views(s, i, obs, masks, actors, every_seat)


@njit(cache=True)
def reset_serial(states, seeds, args, every_seat, obs, masks, actors):
    for i in range(states.shape[0]):
        _init(states[i], seeds[i], args)
        _views(states[i], i, obs, masks, actors, every_seat)


@njit(cache=True, parallel=True)
def reset_parallel(states, seeds, args, every_seat, obs, masks, actors):
    for i in prange(states.shape[0]):
        _init(states[i], seeds[i], args)
        _views(states[i], i, obs, masks, actors, every_seat)


@njit(cache=True)
def step_serial(states, active, actions, joint, args, next_seeds, every_seat, out):
    """Step every active game; ``out`` is (rewards, voids, terminated, final_obs, obs, masks, actors)."""
    rewards, voids, terminated, final_obs, obs, masks, actors = out
    for i in range(states.shape[0]):
        _step_one(states, i, active, actions, joint, args, next_seeds, every_seat, rewards, voids, terminated,
                  final_obs, obs, masks, actors)


@njit(cache=True, parallel=True)
def step_parallel(states, active, actions, joint, args, next_seeds, every_seat, out):
    """:func:`step_serial` over threads."""
    rewards, voids, terminated, final_obs, obs, masks, actors = out
    for i in prange(states.shape[0]):
        _step_one(states, i, active, actions, joint, args, next_seeds, every_seat, rewards, voids, terminated,
                  final_obs, obs, masks, actors)


@njit(cache=True)
def state_vectors(states, out):
    """Every game's full state vector into the rows of ``out``."""
    for i in range(states.shape[0]):
        core.state_vector(states[i], out[i])
