"""Stonk Market rules core (compiled): the entry points the adapter and the batched engine call.

The state record is :data:`STATE_DTYPE` (see :mod:`.state`); the action layout and its
legality are in :mod:`.actions`, a hand's score in :mod:`.hands`, announcements and bids in
:mod:`.offers`, one action's effect in :mod:`.ticks`, deals and scoring of a round in
:mod:`.rounds`, the observation in :mod:`.observe` and its public memory in :mod:`.memory`.
Every seat acts in every tick (``actors``).
"""

from numba import njit

from stonk_envs.core import negotiation
from stonk_envs.games.stonk_market import core as rules  # this module; see core/negotiation.py
from stonk_envs.games.stonk_market.actions import (
    ACTION_KINDS,
    decode,
    exchange_base,
    legal_mask,
    num_actions,
    stonks_action,
)
from stonk_envs.games.stonk_market.hands import all_majorities, hand_score, is_stray, round_score_bounds, round_scores
from stonk_envs.games.stonk_market.memory import activity_bounds, memory_size
from stonk_envs.games.stonk_market.observe import (
    base_obs_size,
    obs_size,
    observation_bounds,
    observe,
    state_size,
    state_vector,
)
from stonk_envs.games.stonk_market.rounds import (
    clear_game_memory,
    clear_round_memory,
    deal_round,
    game_ends,
    score_round_into,
)
from stonk_envs.games.stonk_market.state import DECK_SIZE, NONE, NUM_SUITS, STATE_DTYPE, SUIT_TOTALS
from stonk_envs.games.stonk_market.ticks import resolve_action

__all__ = [
    "ACTION_KINDS",
    "DECK_SIZE",
    "NONE",
    "NUM_SUITS",
    "STATE_DTYPE",
    "SUIT_TOTALS",
    "activity_bounds",
    "actors",
    "all_majorities",
    "base_obs_size",
    "clear_round_memory",
    "deal_round",
    "decode",
    "exchange_base",
    "game_ends",
    "hand_score",
    "init",
    "is_stray",
    "legal_mask",
    "memory_size",
    "num_actions",
    "obs_size",
    "observation_bounds",
    "observe",
    "resolve_action",
    "round_score_bounds",
    "round_scores",
    "score_round_into",
    "state_size",
    "state_vector",
    "step",
    "stonks_action",
]


@njit(cache=True)
def init(s, seed, n, tick_cap, num_rounds, stonks_bonus, reward_mode, reward_scale, close_weight, memory):
    """Start a new game in record ``s``; ``memory`` appends the public memory to observations."""
    s.memory = memory
    clear_game_memory(s)
    s.tick_cap = tick_cap
    s.num_rounds = num_rounds
    s.stonks_bonus = stonks_bonus
    s.reward_scale = reward_scale
    s.close_weight = close_weight
    negotiation.start_game(s, seed, n, reward_mode, rules.deal_round)


@njit(cache=True)
def step(s, actions, rewards_out, voids):
    """Resolve one tick of joint actions; returns True when the game is over."""
    n = s.n
    for p in range(n):
        s.seen_ann_suit[p] = s.ann_suit[p]
        s.seen_ann_count[p] = s.ann_count[p]
        s.seen_bid_to[p] = s.bid_to[p]
        s.seen_bid_suit[p] = s.bid_suit[p]
        s.seen_bid_count[p] = s.bid_count[p]
    if negotiation.play_tick(s, actions, rewards_out, voids, rules.resolve_action):
        scale = float(s.reward_scale)
        negotiation.close_round(
            s, scale, rewards_out, rules.score_round_into, rules.game_ends, rules.deal_round, s.close_weight
        )
    return s.game_over


actors = negotiation.every_seat_acts
