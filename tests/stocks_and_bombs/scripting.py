"""Helpers to script Stocks & Bombs positions through the Parallel env."""

import numpy as np

from stonk_envs import stocks_and_bombs_v1
from stonk_envs.games.stocks_and_bombs import core


def table(num_players=4, seed=0, **config):
    """A reset Parallel env that raises on illegal actions, and its state array."""
    env = stocks_and_bombs_v1.parallel_env(num_players=num_players, illegal_action="raise", **config)
    env.reset(seed=seed)
    return env, env.table.states


def place(env, holdings, targets):
    """Set who holds each piece (``holdings[p]`` lists (colour, size)) and the targets."""
    states = env.table.states
    for p, pieces in enumerate(holdings):
        for colour, size in pieces:
            states["holder"][0, colour * 3 + size - 1] = p
    states["target"][0, : len(targets)] = targets
    env.table.state_edited()


def propose(seat, give, receive, n):
    """The PROPOSE action index of ``seat`` for absolute pieces (colour, size)."""
    m = 3 * n
    g = core.to_relative_piece(give[0] * 3 + give[1] - 1, seat, n)
    r = core.to_relative_piece(receive[0] * 3 + receive[1] - 1, seat, n)
    return 1 + g * m + r


def accept(seat, proposer, n):
    """The ACCEPT action index of ``seat`` for ``proposer``'s proposal."""
    return 9 * n * n + (proposer - seat) % n


def stop(n):
    return 9 * n * n + n


WAIT = 0


def play(env, actions):
    """One tick from a list of actions by seat."""
    return env.step({f"player_{p}": a for p, a in enumerate(actions)})


def resolution_order(states, n):
    """The order the next tick will resolve in (drawn from a copy of the record's stream)."""
    copy = states.copy()
    order = np.empty(n, np.int64)
    from stonk_envs.core.rng import permutation

    permutation(copy[0], order, n)
    return [int(x) for x in order]
