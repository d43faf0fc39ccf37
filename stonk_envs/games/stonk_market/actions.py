"""Stonk Market's action layout (compiled helpers) and which actions are legal.

Action layout for n players (A = 82(n - 1) + 93; 503 at n = 6), suit s in 0..8, count k in
1..9, relative seat j in 1..n-1:

=============================  ============================================================
index                          action
=============================  ============================================================
0                              WAIT
1 + 9s + (k - 1)               ANNOUNCE: "I give k cards of suit s"
82 + 81(j - 1) + 9s + (k - 1)  BID on j's announcement: "for it I give k cards of suit s"
82 + 81(n - 1) + (j - 1)       TAKE: accept j's bid on my announcement
82 + 82(n - 1)                 WITHDRAW my announcement
83 + 82(n - 1) + s             EXCHANGE: give one card of suit s for the Exchange card
92 + 82(n - 1)                 STONKS
=============================  ============================================================

"""

from numba import njit

from stonk_envs.games.stonk_market.state import MAX_COUNT, NUM_SUITS

WAIT, ANNOUNCE, BID, TAKE, WITHDRAW, EXCHANGE, STONKS = 0, 1, 2, 3, 4, 5, 6
ACTION_KINDS = ("WAIT", "ANNOUNCE", "BID", "TAKE", "WITHDRAW", "EXCHANGE", "STONKS")
BID_BASE = 1 + NUM_SUITS * MAX_COUNT
PER_SEAT = NUM_SUITS * MAX_COUNT


@njit(cache=True)
def take_base(n):
    return BID_BASE + PER_SEAT * (n - 1)


@njit(cache=True)
def withdraw_action(n):
    return take_base(n) + n - 1


@njit(cache=True)
def exchange_base(n):
    return withdraw_action(n) + 1


@njit(cache=True)
def stonks_action(n):
    return exchange_base(n) + NUM_SUITS


@njit(cache=True)
def num_actions(n):
    return stonks_action(n) + 1


@njit(cache=True)
def decode(action, n):
    """``(kind, relative seat, suit, count)`` of an action index; unused parts are 0."""
    if action == 0:
        return WAIT, 0, 0, 0
    if action < BID_BASE:
        x = action - 1
        return ANNOUNCE, 0, x // MAX_COUNT, x % MAX_COUNT + 1
    if action < take_base(n):
        x = action - BID_BASE
        y = x % PER_SEAT
        return BID, x // PER_SEAT + 1, y // MAX_COUNT, y % MAX_COUNT + 1
    if action < withdraw_action(n):
        return TAKE, action - take_base(n) + 1, 0, 0
    if action == withdraw_action(n):
        return WITHDRAW, 0, 0, 0
    if action < stonks_action(n):
        return EXCHANGE, 0, action - exchange_base(n), 0
    return STONKS, 0, 0, 0


@njit(cache=True)
def legal_mask(s, seat, out):
    """Write ``seat``'s action mask into ``out``."""
    out[:] = 0
    if s.game_over:
        return
    n = s.n
    out[0] = 1
    for suit in range(NUM_SUITS):
        for k in range(1, s.hand[seat, suit] + 1):
            out[1 + suit * MAX_COUNT + k - 1] = 1
    for jr in range(1, n):
        j = (seat + jr) % n
        if s.ann_count[j] == 0:
            continue
        base = BID_BASE + (jr - 1) * PER_SEAT
        for suit in range(NUM_SUITS):
            if suit != s.ann_suit[j]:
                for k in range(1, s.hand[seat, suit] + 1):
                    out[base + suit * MAX_COUNT + k - 1] = 1
    if s.ann_count[seat] > 0:
        for jr in range(1, n):
            if s.bid_to[(seat + jr) % n] == seat:
                out[take_base(n) + jr - 1] = 1
        out[withdraw_action(n)] = 1
    for suit in range(NUM_SUITS):
        if s.hand[seat, suit] > 0:
            out[exchange_base(n) + suit] = 1
    out[stonks_action(n)] = 1
