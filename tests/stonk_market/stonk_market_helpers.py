"""Scripting Stonk Market positions: action indices, constructed tables, a chosen order."""

from __future__ import annotations

import numpy as np

from stonk_envs import stonk_market_v1 as sm
from stonk_envs.core.rng import permutation
from stonk_envs.games.stonk_market import core

GLITCH, SLINKO, NOBBLE, SWEETBEE, CHATTERFLY, BLAMMO, GREEDLE, SOCKTOPUS, BIOHIPPO = range(9)

# The rule text's scoring example, players A-D; the Exchange holds a Socktopus Ltd. card.
EXAMPLE_HANDS = [
    [0, 0, 0, 0, 0, 0, 7, 0, 9],
    [2, 0, 5, 6, 0, 0, 0, 0, 0],
    [2, 0, 0, 0, 2, 7, 0, 7, 0],
    [1, 5, 0, 1, 5, 0, 0, 1, 0],
]
EXAMPLE_EXCHANGE = SOCKTOPUS

# A mixed four-player table of 15 cards each; the Exchange holds a Socktopus Ltd. card.
MIXED_HANDS = [
    [2, 2, 1, 2, 3, 1, 2, 1, 1],
    [1, 1, 2, 2, 1, 2, 3, 2, 1],
    [1, 1, 1, 2, 2, 2, 1, 3, 2],
    [1, 1, 1, 1, 1, 2, 1, 2, 5],
]
MIXED_EXCHANGE = SOCKTOPUS


# ---------------------------------------------------------------------------- actions
def announce(suit: int, count: int) -> int:
    return 1 + 9 * suit + count - 1


def bid(n: int, seat: int, announcer: int, suit: int, count: int) -> int:
    rel = (announcer - seat) % n
    return 82 + 81 * (rel - 1) + 9 * suit + count - 1


def take(n: int, seat: int, bidder: int) -> int:
    return 82 + 81 * (n - 1) + (bidder - seat) % n - 1


def withdraw(n: int) -> int:
    return 82 + 82 * (n - 1)


def exchange(n: int, suit: int) -> int:
    return 83 + 82 * (n - 1) + suit


def stonks(n: int) -> int:
    return 92 + 82 * (n - 1)


# ---------------------------------------------------------------------------- positions
def table_env(hands=MIXED_HANDS, exchange_suit=MIXED_EXCHANGE, **config):
    """A reset Parallel env whose table is replaced by ``hands`` and the Exchange card."""
    env = sm.parallel_env(num_players=len(hands), **config)
    env.reset(seed=0)
    set_table(env, hands, exchange_suit)
    return env


def set_table(env, hands, exchange_suit: int) -> None:
    """Replace the hands and the Exchange card of ``env``'s game; no knowledge, no offers, no memory
    of the round (the last round's record stays)."""
    states = env.table.states
    table = np.asarray(hands)
    counts = table.sum(axis=0)
    counts[exchange_suit] += 1
    assert counts.tolist() == list(sm.SUIT_COUNTS), "a constructed table must hold all 61 cards"
    states["hand"][0] = 0
    states["hand"][0, : len(hands)] = table
    states["known"][0] = 0
    states["exchange"][0] = exchange_suit
    for field in ("ann_suit", "bid_to", "bid_suit"):
        states[field][0] = -1
    for field in ("ann_count", "bid_count"):
        states[field][0] = 0
    core.clear_round_memory(states[0])  # the round's record starts with this table
    env.table.state_edited()


def force_order(states: np.ndarray, seats) -> list[int]:
    """Seed the next tick so that ``seats`` resolve in this relative order; returns the order."""
    n = int(states["n"][0])
    probe = states.copy()
    order = np.empty(n, np.int64)
    for value in range(100_000):
        probe["rng"][0] = value
        permutation(probe[0], order, n)
        if [p for p in order if p in seats] == list(seats):
            states["rng"][0] = value
            return order.tolist()
    raise AssertionError(f"no seed gives the order {seats}")


def tick(env, order=None, **actions):
    """One Parallel step: ``p0=action`` etc., every other seat WAITs; ``order`` forces the order."""
    if order is not None:
        force_order(env.table.states, order)
    joint = {agent: 0 for agent in env.agents}
    for agent, action in actions.items():
        joint[agent.replace("p", "player_")] = action
    return env.step(joint)


def hands(env) -> list[list[int]]:
    n = env.table.game.num_players
    return env.table.states["hand"][0, :n].tolist()


def known(env) -> list[list[int]]:
    n = env.table.game.num_players
    return env.table.states["known"][0, :n].tolist()
