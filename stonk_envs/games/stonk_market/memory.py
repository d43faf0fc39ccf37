"""The public memory appended to a Stonk Market observation (M9, compiled).

Its sections are the table :data:`MEMORY` (entries, sizes, meanings, bounds), from which
the writer's offsets, the size and the bounds come. "Bids on seat" was appended on
2026-12-02 (every earlier offset is kept, so the observation version did not move): with
"last bid target" alone, a replaced bid's addressee was lost.

An announcement or bid counts when it posts something new (repeating the open one does
nothing). Within one tick a seat gains (and gives) at most T cards of a suit of T: its two
deals of a tick (its own take, a take of its bid) move different suits each way, and an
Exchange trade moves one card; hence T * tick_cap. The activity bounds are derived at
:func:`activity_bounds`.

The public knowledge of a hand (M9) is a lower bound per suit: cards seen going into it
(deals and Exchange trades, M4) since the deal. Giving away m cards of a suit lowers it to
max(0, known - m).
"""

import numpy as np
from numba import njit

from stonk_envs.core.layout import Layout, Section, at
from stonk_envs.games.stonk_market.state import (
    ANNOUNCED,
    BID_MADE,
    EXCHANGED,
    MAX_PLAYERS,
    NONE,
    NUM_ACTIVITIES,
    NUM_SUITS,
    RECENT_EXCHANGES,
    SUIT_TOTALS,
    TAKEN,
    TOOK,
    WITHDRAWN,
)


def suit_cards(values):
    """T (the suit's cards)"""
    return np.tile(SUIT_TOTALS, values["n"])


def suit_moves(values):
    """T * tick_cap"""
    return np.tile(SUIT_TOTALS * values["tick_cap"], values["n"])


def other_seat(values):
    """1 (0 at t = j)"""
    return 1 - np.eye(values["n"])


def bids_on_other_seat(values):
    """max(0, tick_cap - 1) (0 at t = j)"""
    return other_seat(values) * max(0, values["tick_cap"] - 1)


def activities(values):
    """tick_cap, tick_cap - 1, tick_cap // 2, (tick_cap + 1) // 3, tick_cap - 2, tick_cap (at least 0)"""
    most = np.zeros(NUM_ACTIVITIES)
    activity_bounds(values["tick_cap"], most)
    return np.tile(most, values["n"])


MEMORY = Layout([
    Section("proven by announcements", "n * 9", "largest count of each suit j announced this round", suit_cards),
    Section("proven by bids", "n * 9", "largest count of each suit j offered in a bid this round", suit_cards),
    Section("last announcement", "n * 9", "count k at the suit of j's latest announcement this round, whether "
            "open, replaced, withdrawn or taken (0: none)", suit_cards),
    Section("last bid", "n * 9", "count k at the suit of j's latest bid this round", suit_cards),
    Section("bids on suit", "n * 9", "bids j made on announcements of each suit this round (what j wants)",
            "max(0, tick_cap - 1)"),
    Section("cards gained", "n * 9", "cards of each suit j received in deals and from the Exchange this round",
            suit_moves),
    Section("cards given", "n * 9", "cards of each suit j gave in deals and to the Exchange this round", suit_moves),
    Section("last round's hands", "n * 9", "every hand when the last round was scored", suit_cards),
    Section("last bid target", "n * n", "1 at [j, t] when j's latest bid was on relative seat t's announcement",
            other_seat),
    Section("activity", "n * 6", "j's announcements, bids, withdrawals, bids j took, bids of j's taken, Exchange "
            "trades, this round", activities),
    Section("last round's caller", "n", "one-hot relative seat that called STONKS (all 0: the tick cap ended it)"),
    Section("valid calls", "n", "each seat's valid STONKS calls this game", "num_rounds"),
    Section("invalid calls", "n", "each seat's invalid STONKS calls this game", "num_rounds"),
    Section("Exchange intake", "9", "cards of each suit put into the Exchange this round", "n * tick_cap"),
    Section("first Exchange card", "9", "one-hot suit of the card the deal put into the Exchange"),
    Section("last round's Exchange", "9", "one-hot suit of the Exchange card when the last round was scored"),
    Section("last call valid", "1", "1 when the last round's STONKS call was valid"),
    Section("recent Exchange trades", "9 + n", "the last 4 trades, newest first: suit put in (one-hot), relative "
            "seat that put it in (one-hot); 0 where fewer happened", repeat=RECENT_EXCHANGES),
    Section("bids on seat", "n * n", "bids j made on relative seat t's announcements this round, replaced ones too",
            bids_on_other_seat),
])
"""The public memory's sections in order; relative seats j, t (0 = the observer)."""

_COUNTS = range(1, MAX_PLAYERS + 1)
_SIZE = MEMORY.quadratic(None, _COUNTS)
(
    _ANN_MAX, _BID_MAX, _LAST_ANNOUNCEMENT, _LAST_BID, _BIDS_ON_SUIT, _GAINED, _GIVEN, _LAST_HANDS, _TARGET, _ACTIVITY,
    _CALLER, _VALID_CALLS, _INVALID_CALLS, _EXCHANGE_INTAKE, _FIRST_EXCHANGE, _LAST_EXCHANGE, _LAST_VALID, _RECENT,
    _BIDS_ON_SEAT,
) = MEMORY.quadratics(
    _COUNTS, "proven by announcements", "proven by bids", "last announcement", "last bid", "bids on suit",
    "cards gained", "cards given", "last round's hands", "last bid target", "activity", "last round's caller",
    "valid calls", "invalid calls", "Exchange intake", "first Exchange card", "last round's Exchange",
    "last call valid", "recent Exchange trades", "bids on seat",
)  # fmt: skip


@njit(cache=True)
def memory_size(n):
    """Entries of the public memory at ``n`` players."""
    return at(_SIZE, n)


@njit(cache=True)
def observe_memory(s, seat, out, base):
    """Write ``seat``'s public memory (:data:`MEMORY`) from ``out[base]`` on."""
    n = s.n
    ann_max, bid_max, wanted = base + at(_ANN_MAX, n), base + at(_BID_MAX, n), base + at(_BIDS_ON_SUIT, n)
    last_ann, last_bid, target = base + at(_LAST_ANNOUNCEMENT, n), base + at(_LAST_BID, n), base + at(_TARGET, n)
    gained, given, last_hands = base + at(_GAINED, n), base + at(_GIVEN, n), base + at(_LAST_HANDS, n)
    activity, caller = base + at(_ACTIVITY, n), base + at(_CALLER, n)
    valid, invalid = base + at(_VALID_CALLS, n), base + at(_INVALID_CALLS, n)
    intake, first = base + at(_EXCHANGE_INTAKE, n), base + at(_FIRST_EXCHANGE, n)
    last_exchange = base + at(_LAST_EXCHANGE, n)
    last_valid, recent, bids_on_seat = base + at(_LAST_VALID, n), base + at(_RECENT, n), base + at(_BIDS_ON_SEAT, n)
    out[last_ann:wanted] = 0.0  # last announcement, last bid
    out[target:activity] = 0.0
    out[first:last_valid] = 0.0
    out[recent:bids_on_seat] = 0.0
    for jr in range(n):
        j = (seat + jr) % n
        k = jr * NUM_SUITS
        for suit in range(NUM_SUITS):
            out[ann_max + k + suit] = s.ann_max[j, suit]
            out[bid_max + k + suit] = s.bid_max[j, suit]
            out[wanted + k + suit] = s.wanted[j, suit]
            out[gained + k + suit] = s.gained[j, suit]
            out[given + k + suit] = s.given[j, suit]
            out[last_hands + k + suit] = s.last_hand[j, suit]
        if s.last_ann_count[j] > 0:
            out[last_ann + k + s.last_ann_suit[j]] = s.last_ann_count[j]
        if s.last_bid_count[j] > 0:
            out[last_bid + k + s.last_bid_suit[j]] = s.last_bid_count[j]
            out[target + jr * n + (s.last_bid_to[j] - seat) % n] = 1.0
        for a in range(NUM_ACTIVITIES):
            out[activity + jr * NUM_ACTIVITIES + a] = s.activity[j, a]
        out[caller + jr] = 1.0 if s.last_caller == j else 0.0
        out[valid + jr] = s.valid_calls[j]
        out[invalid + jr] = s.invalid_calls[j]
    for suit in range(NUM_SUITS):
        out[intake + suit] = s.exchange_in[suit]
    out[first + s.first_exchange] = 1.0
    if s.last_exchange != NONE:
        out[last_exchange + s.last_exchange] = 1.0
    out[last_valid] = 1.0 if s.last_valid else 0.0
    for i in range(min(s.exchanges, RECENT_EXCHANGES)):
        slot = (s.exchanges - 1 - i) % RECENT_EXCHANGES
        k = recent + i * (NUM_SUITS + n)
        out[k + s.recent_suit[slot]] = 1.0
        out[k + NUM_SUITS + (s.recent_seat[slot] - seat) % n] = 1.0
    for jr in range(n):
        for tr in range(n):
            out[bids_on_seat + jr * n + tr] = s.bids_to[(seat + jr) % n, (seat + tr) % n]


@njit(cache=True)
def activity_bounds(tick_cap, out):
    """The most of each activity a seat can do in a round of ``tick_cap`` ticks (one action a tick).

    A bid needs an announcement seen at the start of its tick (not before tick 1); a take
    needs the bid seen (tick 2 on); a withdrawal needs its own announcement seen (every
    other tick); taking a bid needs a fresh announcement each time (every third tick).
    """
    out[ANNOUNCED] = tick_cap
    out[BID_MADE] = max(0, tick_cap - 1)
    out[WITHDRAWN] = tick_cap // 2
    out[TOOK] = (tick_cap + 1) // 3
    out[TAKEN] = max(0, tick_cap - 2)
    out[EXCHANGED] = tick_cap
