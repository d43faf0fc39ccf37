"""Resolving one Stonk Market action at its place in a tick (compiled)."""

from numba import njit

from stonk_envs.core import negotiation
from stonk_envs.games.stonk_market.actions import ANNOUNCE, BID, EXCHANGE, TAKE, WAIT, WITHDRAW, decode
from stonk_envs.games.stonk_market.offers import (
    clear_announcement,
    clear_uncovered,
    move_cards,
    post_announcement,
    post_bid,
    trade_with_exchange,
)
from stonk_envs.games.stonk_market.state import TAKEN, TOOK, WITHDRAWN


@njit(cache=True)
def announcement_as_seen(s, j):
    """j's announcement is open and is the one it had at the start of the tick."""
    return s.ann_count[j] > 0 and s.ann_suit[j] == s.seen_ann_suit[j] and s.ann_count[j] == s.seen_ann_count[j]


@njit(cache=True)
def bid_as_seen(s, j):
    """j's bid is open and is the one it had at the start of the tick."""
    return (
        s.bid_count[j] > 0
        and s.bid_to[j] == s.seen_bid_to[j]
        and s.bid_suit[j] == s.seen_bid_suit[j]
        and s.bid_count[j] == s.seen_bid_count[j]
    )


@njit(cache=True)
def resolve_action(s, seat, action):
    """Carry out one action at its place in the order; False when it has become void."""
    n = s.n
    kind, jr, suit, count = decode(action, n)
    if kind == WAIT:
        return True
    if kind == ANNOUNCE:
        if s.hand[seat, suit] < count:
            return False
        if s.ann_suit[seat] != suit or s.ann_count[seat] != count:
            post_announcement(s, seat, suit, count)
        return True
    if kind == BID:
        j = (seat + jr) % n
        if not announcement_as_seen(s, j) or s.hand[seat, suit] < count:
            return False
        if s.bid_to[seat] != j or s.bid_suit[seat] != suit or s.bid_count[seat] != count:
            post_bid(s, seat, j, suit, count)
        return True
    if kind == TAKE:
        j = (seat + jr) % n
        if not announcement_as_seen(s, seat) or not bid_as_seen(s, j) or s.bid_to[j] != seat:
            return False
        give, k = s.ann_suit[seat], s.ann_count[seat]
        get, m = s.bid_suit[j], s.bid_count[j]
        clear_announcement(s, seat)
        s.activity[seat, TOOK] += 1
        s.activity[j, TAKEN] += 1
        move_cards(s, seat, j, give, k)
        move_cards(s, j, seat, get, m)
        clear_uncovered(s)
        return True
    if kind == WITHDRAW:
        if s.ann_count[seat] == 0:
            return False
        clear_announcement(s, seat)
        s.activity[seat, WITHDRAWN] += 1
        return True
    if kind == EXCHANGE:
        if s.hand[seat, suit] == 0:
            return False
        trade_with_exchange(s, seat, suit)
        clear_uncovered(s)
        return True
    negotiation.call_round_end(s, seat)
    return True
