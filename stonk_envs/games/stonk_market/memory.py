"""The public memory appended to a Stonk Market observation (M9, compiled).


==========================  =========  ==================================================
entries                     size       meaning
==========================  =========  ==================================================
proven by announcements     n * 9      largest count of each suit j announced this round
proven by bids              n * 9      largest count of each suit j offered in a bid
last announcement           n * 9      count k at the suit of j's latest announcement this
                                       round, open, replaced, withdrawn or taken (0: none)
last bid                    n * 9      count k at the suit of j's latest bid this round
bids on suit                n * 9      bids j made on announcements of each suit (wants)
cards gained                n * 9      cards of each suit j received in deals and from the
                                       Exchange this round
cards given                 n * 9      cards of each suit j gave in deals and to the
                                       Exchange this round
last round's hands          n * 9      every hand when the last round was scored
last bid target             n * n      j's latest bid was on relative seat t's announcement
activity                    n * 6      j's announcements, bids, withdrawals, bids taken,
                                       bids of j's taken, Exchange trades this round
last round's caller         n          one-hot relative seat that called STONKS
valid calls, invalid calls  2n         each seat's STONKS calls this game
Exchange intake             9          cards of each suit put into the Exchange this round
first Exchange card         9          one-hot suit of the card the round's deal put there
last round's Exchange       9          one-hot suit of the Exchange card at the last scoring
last call valid             1          1 when the last round's call was valid
recent Exchange trades      4(9 + n)   newest first: suit put in (one-hot), relative seat
                                       that put it in (one-hot); zero where fewer happened
bids on seat                n * n      bids j made on relative seat t's announcements this
                                       round, replaced ones too
==========================  =========  ==================================================

The last section was appended on 2026-12-02 (every earlier offset is kept, so the observation
version did not move): with "last bid target" alone, a replaced bid's addressee was lost.

An announcement or bid counts when it posts something new (repeating the open one does
nothing). Upper bounds (lower bounds are 0), with T a suit's cards and C the tick cap:
counts of a suit T; bids on a suit C - 1; cards gained or given T * C (a seat moves at
most T cards of a suit each way within one tick); activity C, C - 1, C // 2,
(C + 1) // 3, C - 2, C (see :func:`activity_bounds`); calls the number of rounds;
Exchange intake n * C; one-hots 1, and 0 for a bid on one's own announcement.

The public knowledge of a hand (M9) is a lower bound per suit: cards seen going into it
(deals and Exchange trades, M4) since the deal. Giving away m cards of a suit lowers it to
max(0, known - m).
"""

import numpy as np
from numba import njit

from stonk_envs.games.stonk_market.state import (
    ANNOUNCED,
    BID_MADE,
    EXCHANGED,
    NONE,
    NUM_ACTIVITIES,
    NUM_SUITS,
    RECENT_EXCHANGES,
    SUIT_TOTALS,
    TAKEN,
    TOOK,
    WITHDRAWN,
)


@njit(cache=True)
def memory_size(n):
    """The public memory appended to the observation: 2n^2 + 85n + 64 entries."""
    per_seat = 8 * NUM_SUITS + n + NUM_ACTIVITIES + 3
    return n * per_seat + 3 * NUM_SUITS + 1 + RECENT_EXCHANGES * (NUM_SUITS + n) + n * n


@njit(cache=True)
def observe_memory(s, seat, out, base):
    """Write ``seat``'s public memory (layout in the module docstring) from ``out[base]`` on."""
    n = s.n
    per_seat_suits = base  # eight blocks of n * 9: [block][jr][suit]
    block = n * NUM_SUITS
    target_base = base + 8 * block
    activity_base = target_base + n * n
    caller_base = activity_base + n * NUM_ACTIVITIES
    table = caller_base + 3 * n
    out[base + 2 * block : base + 4 * block] = 0.0  # last announcement, last bid
    out[target_base:activity_base] = 0.0
    out[table + NUM_SUITS : table + 3 * NUM_SUITS] = 0.0
    out[table + 3 * NUM_SUITS + 1 : table + 3 * NUM_SUITS + 1 + RECENT_EXCHANGES * (NUM_SUITS + n)] = 0.0
    for jr in range(n):
        j = (seat + jr) % n
        k = per_seat_suits + jr * NUM_SUITS
        for suit in range(NUM_SUITS):
            out[k + suit] = s.ann_max[j, suit]
            out[k + block + suit] = s.bid_max[j, suit]
            out[k + 4 * block + suit] = s.wanted[j, suit]
            out[k + 5 * block + suit] = s.gained[j, suit]
            out[k + 6 * block + suit] = s.given[j, suit]
            out[k + 7 * block + suit] = s.last_hand[j, suit]
        if s.last_ann_count[j] > 0:
            out[k + 2 * block + s.last_ann_suit[j]] = s.last_ann_count[j]
        if s.last_bid_count[j] > 0:
            out[k + 3 * block + s.last_bid_suit[j]] = s.last_bid_count[j]
            out[target_base + jr * n + (s.last_bid_to[j] - seat) % n] = 1.0
        for a in range(NUM_ACTIVITIES):
            out[activity_base + jr * NUM_ACTIVITIES + a] = s.activity[j, a]
        out[caller_base + jr] = 1.0 if s.last_caller == j else 0.0
        out[caller_base + n + jr] = s.valid_calls[j]
        out[caller_base + 2 * n + jr] = s.invalid_calls[j]
    for suit in range(NUM_SUITS):
        out[table + suit] = s.exchange_in[suit]
    out[table + NUM_SUITS + s.first_exchange] = 1.0
    if s.last_exchange != NONE:
        out[table + 2 * NUM_SUITS + s.last_exchange] = 1.0
    out[table + 3 * NUM_SUITS] = 1.0 if s.last_valid else 0.0
    k = table + 3 * NUM_SUITS + 1
    for i in range(min(s.exchanges, RECENT_EXCHANGES)):
        slot = (s.exchanges - 1 - i) % RECENT_EXCHANGES
        out[k + i * (NUM_SUITS + n) + s.recent_suit[slot]] = 1.0
        out[k + i * (NUM_SUITS + n) + NUM_SUITS + (s.recent_seat[slot] - seat) % n] = 1.0
    k += RECENT_EXCHANGES * (NUM_SUITS + n)
    for jr in range(n):
        for tr in range(n):
            out[k + jr * n + tr] = s.bids_to[(seat + jr) % n, (seat + tr) % n]


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


@njit(cache=True)
def memory_bounds(n, tick_cap, num_rounds, high):
    """Write the upper bounds of the public memory (all lower bounds are 0).

    Within one tick a seat gains (and gives) at most T cards of a suit of T: its two deals
    of a tick (its own take, a take of its bid) move different suits each way, and an
    Exchange trade moves one card.
    """
    block = n * NUM_SUITS
    activity = np.zeros(NUM_ACTIVITIES)
    activity_bounds(tick_cap, activity)
    for jr in range(n):
        for suit in range(NUM_SUITS):
            total = SUIT_TOTALS[suit]
            k = jr * NUM_SUITS + suit
            high[k] = total
            high[block + k] = total
            high[2 * block + k] = total
            high[3 * block + k] = total
            high[4 * block + k] = max(0, tick_cap - 1)
            high[5 * block + k] = total * tick_cap
            high[6 * block + k] = total * tick_cap
            high[7 * block + k] = total
    k = 8 * block
    for jr in range(n):
        for t in range(n):
            high[k + jr * n + t] = 0.0 if t == jr else 1.0
    k += n * n
    for jr in range(n):
        for a in range(NUM_ACTIVITIES):
            high[k + jr * NUM_ACTIVITIES + a] = activity[a]
    k += n * NUM_ACTIVITIES
    for jr in range(n):
        high[k + jr] = 1.0
        high[k + n + jr] = num_rounds
        high[k + 2 * n + jr] = num_rounds
    k += 3 * n
    for suit in range(NUM_SUITS):
        high[k + suit] = n * tick_cap
    k += NUM_SUITS
    for i in range(2 * NUM_SUITS + 1 + RECENT_EXCHANGES * (NUM_SUITS + n)):
        high[k + i] = 1.0
    k += 2 * NUM_SUITS + 1 + RECENT_EXCHANGES * (NUM_SUITS + n)
    for jr in range(n):
        for tr in range(n):
            high[k + jr * n + tr] = 0.0 if tr == jr else max(0, tick_cap - 1)
