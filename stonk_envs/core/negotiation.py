"""The tick mechanism shared by the two real-time games (rulings M2 and B3).

Real time is a sequence of ticks. In each tick every seat submits one action at once; the
actions then resolve one by one in a uniformly random order drawn fresh for the tick ("who
reacted first"). An action that has become impossible by the time it resolves does nothing
and is reported as void; once the round-ending call (STONKS, STOP) resolves, every later
action of that tick is void too. A round that reaches its tick cap ends with no caller.

A game's state record carries the fields ``rng`` (uint64), ``tick`` and ``round_over``. Its
tick step calls :func:`begin_tick`, resolves each seat of the order unless
:func:`round_ended` says the call came first, and then calls :func:`end_tick`.
"""

from numba import njit

from stonk_envs.core.rng import permutation

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
def begin_tick(s, n, order, voids):
    """Draw this tick's resolution order into ``order[:n]`` and clear the void flags."""
    permutation(s, order, n)
    for p in range(n):
        voids[p] = VOID_NONE
    s.round_over = False


@njit(cache=True)
def round_ended(s, seat, voids):
    """True, marking ``seat`` void, when a round-ending call resolved earlier this tick."""
    if s.round_over:
        voids[seat] = VOID_ROUND_OVER
        return True
    return False


@njit(cache=True)
def end_tick(s, tick_cap):
    """Count the tick; True when the round must now be scored (a call, or the cap)."""
    s.tick += 1
    if s.tick >= tick_cap:
        s.round_over = True
    return s.round_over
