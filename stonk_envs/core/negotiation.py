"""The tick mechanism shared by the two real-time games (rulings M2 and B3).

Real time is a sequence of ticks. In each tick every seat submits one action at once; the
actions then resolve one by one in a uniformly random order drawn fresh for the tick ("who
reacted first"). An action that has become impossible by the time it resolves does nothing
and is reported as void; once the round-ending call (STONKS, STOP) resolves, every later
action of that tick that tried to do something is void too (a WAIT did nothing and is never
void). A round that reaches its tick cap ends with no caller.

A game's state record carries the fields ``rng`` (uint64), ``n``, ``tick``, ``tick_cap``,
``round``, ``reward_mode``, ``round_over``, ``game_over``, ``caller``, ``totals`` and
``last_scores``; action 0 is WAIT. Its tick step calls :func:`play_tick` with its own
``resolve_action(s, seat, action) -> bool`` and, when that returns True, :func:`close_round`
with its own scoring. A game starts with :func:`start_game`; numba compiles the mechanism
once for each game's functions. A game hands its functions over as attributes of its own
module (``rules.resolve_action``, where ``rules`` is the core importing itself): numba can
cache the compiled caller only then; a bare global function passed as a value makes it
uncachable ("dynamic globals"), and every process would compile it again.
"""

import numpy as np
from numba import njit

from stonk_envs.core import rewards
from stonk_envs.core.rng import permutation

NONE = -1
WAIT = 0

VOID_NONE = 0
VOID_STALE = 1
VOID_ROUND_OVER = 2
VOID_ILLEGAL = 3

VOID_REASONS = {
    VOID_STALE: "the action was no longer possible when it resolved",
    VOID_ROUND_OVER: "the round ended earlier in this tick",
    VOID_ILLEGAL: "the action was illegal when it was submitted",
}


@njit(cache=True)
def start_game(s, seed, n, reward_mode, deal_round):
    """Common start of a game in record ``s``: seed, seats, zero totals, the first deal."""
    s.rng = np.uint64(seed)
    s.n = n
    s.reward_mode = reward_mode
    s.round = 0
    s.game_over = False
    for p in range(s.totals.shape[0]):
        s.totals[p] = 0
        s.last_scores[p] = 0
    deal_round(s)


@njit(cache=True)
def start_round(s):
    """Reset the per-round tick bookkeeping (after a deal)."""
    s.tick = 0
    s.round_over = False
    s.caller = NONE


@njit(cache=True)
def every_seat_acts(s, out):
    """Every seat acts in every tick until the game is over."""
    for p in range(s.n):
        out[p] = not s.game_over


@njit(cache=True)
def call_round_end(s, seat):
    """``seat`` makes the round-ending call: trading stops at once."""
    s.round_over = True
    s.caller = seat


@njit(cache=True)
def play_tick(s, actions, rewards_out, voids, resolve_action):
    """Resolve one tick of joint actions in a fresh random order; True when the round must be scored.

    ``actions[p] < 0`` means seat p submitted nothing. Rewards are cleared for the tick.
    """
    n = s.n
    order = np.empty(n, np.int64)
    permutation(s, order, n)
    for p in range(n):
        voids[p] = VOID_NONE
        rewards_out[p] = 0.0
    s.round_over = False
    for k in range(n):
        p = order[k]
        action = actions[p]
        if action <= WAIT:
            continue
        if s.round_over:
            voids[p] = VOID_ROUND_OVER
        elif not resolve_action(s, p, action):
            voids[p] = VOID_STALE
    s.tick += 1
    if s.tick >= s.tick_cap:
        s.round_over = True
    return s.round_over


@njit(cache=True)
def close_round(s, scale, rewards_out, score_round_into, game_ends, deal_round, close_weight=1.0):
    """Score the ended round, pay its rewards, then end the game or deal the next round.

    ``score_round_into(s, gains)`` updates the totals and writes each seat's gain;
    ``game_ends(s)`` is asked after the round count went up; ``close_weight`` scales the result a
    closed last round pays (:func:`rewards.game_end`). Returns True when the game is over.
    """
    n = s.n
    gains = np.zeros(n)
    score_round_into(s, gains)
    s.round += 1
    over = game_ends(s)
    result_due = rewards.pays_result(s.reward_mode, over, s.tick <= 1)
    rewards.round_end(s.reward_mode, gains, n, scale, rewards_out, result_due)
    if over:
        s.game_over = True
        rewards.game_end(
            s.reward_mode, s.totals[:n].astype(np.float64), n, scale, rewards_out, result_due, close_weight
        )
    else:
        deal_round(s)
    return s.game_over
