"""Which observation sections a step may have changed: the bit set ``s.touched`` (compiled).

The rules set bits as they decide (:mod:`.phases`); the batched engine's observation update
(:func:`.observe.observe_all_update`) compares and rewrites only the sections whose bits are
set, then clears them. A bit is a promise the other way round: a section whose bit is clear
was not changed by the step. So a decision that changes much (a pile bought, a price moved,
a round ended) touches everything.

Bits: the four public sections at the bottom, then per-seat sections as one byte each, bit
``q`` of the byte for seat ``q`` (at most :data:`.state.MAX_PLAYERS` seats).
"""

from numba import njit

MARKET, PAIRS, DECK, ROUNDS, PAST = 1, 2, 4, 8, 16
"""Public sections: rounds and prices, the pairs, deck and discards, the memory's round history,
the memory's record of every past round."""
PILES, HANDS, TIPS, SEATS, SEAT_COMPANY, INPUTS = 8, 16, 24, 32, 40, 48
"""Shifts of the per-seat sections: pile t, seat's hand, seat's tips, seat q's public block,
seat q's seat-company blocks, what seat q's memory block is written from."""
EVERYTHING = -1
MOST = ~PAST
"""Every section but the record of past rounds, which changes only when a round ends (the
rules touch it then) or in records from outside (the engine then sets :data:`EVERYTHING`)."""


@njit(cache=True, inline="always")
def touch(s, bits):
    s.touched |= bits


@njit(cache=True, inline="always")
def touch_seat(s, shift, q):
    s.touched |= 1 << (shift + q)


@njit(cache=True, inline="always")
def is_touched(s, bits):
    return s.touched & bits != 0


@njit(cache=True, inline="always")
def seat_touched(s, shift, q):
    return s.touched >> (shift + q) & 1 != 0
