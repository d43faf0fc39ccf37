"""Announcements, bids and card moves on the Stonk Market table (compiled)."""

from numba import njit

from stonk_envs.games.stonk_market.state import ANNOUNCED, BID_MADE, EXCHANGED, MAX_PLAYERS, NONE, RECENT_EXCHANGES


@njit(cache=True)
def clear_offers(s):
    for p in range(MAX_PLAYERS):
        s.ann_suit[p] = NONE
        s.ann_count[p] = 0
        s.bid_to[p] = NONE
        s.bid_suit[p] = NONE
        s.bid_count[p] = 0


@njit(cache=True)
def clear_bid(s, q):
    s.bid_to[q] = NONE
    s.bid_suit[q] = NONE
    s.bid_count[q] = 0


@njit(cache=True)
def clear_announcement(s, p):
    """Remove p's announcement and every bid on it."""
    s.ann_suit[p] = NONE
    s.ann_count[p] = 0
    for q in range(s.n):
        if s.bid_to[q] == p:
            clear_bid(s, q)


@njit(cache=True)
def clear_uncovered(s):
    """Remove every announcement and bid whose owner no longer holds the cards it offers."""
    n = s.n
    for p in range(n):
        if s.ann_count[p] > 0 and s.hand[p, s.ann_suit[p]] < s.ann_count[p]:
            clear_announcement(s, p)
    for q in range(n):
        if s.bid_count[q] > 0 and s.hand[q, s.bid_suit[q]] < s.bid_count[q]:
            clear_bid(s, q)


@njit(cache=True)
def move_cards(s, giver, receiver, suit, count):
    """Move ``count`` cards of ``suit`` face-up (M4), updating the public knowledge (M9)."""
    s.hand[giver, suit] -= count
    s.known[giver, suit] = max(0, s.known[giver, suit] - count)
    s.given[giver, suit] += count
    s.hand[receiver, suit] += count
    s.known[receiver, suit] += count
    s.gained[receiver, suit] += count


@njit(cache=True)
def trade_with_exchange(s, seat, suit):
    """``seat`` puts one card of ``suit`` face-up into the Exchange and takes the card there (M4)."""
    taken = s.exchange
    s.hand[seat, suit] -= 1
    s.known[seat, suit] = max(0, s.known[seat, suit] - 1)
    s.given[seat, suit] += 1
    s.hand[seat, taken] += 1
    s.known[seat, taken] += 1
    s.gained[seat, taken] += 1
    s.exchange = suit
    s.exchange_in[suit] += 1
    slot = s.exchanges % RECENT_EXCHANGES
    s.recent_suit[slot] = suit
    s.recent_seat[slot] = seat
    s.exchanges += 1
    s.activity[seat, EXCHANGED] += 1


@njit(cache=True)
def post_announcement(s, seat, suit, count):
    """``seat`` announces ``count`` cards of ``suit``; it proves the holding (M9)."""
    clear_announcement(s, seat)
    s.ann_suit[seat] = suit
    s.ann_count[seat] = count
    s.last_ann_suit[seat] = suit
    s.last_ann_count[seat] = count
    s.ann_max[seat, suit] = max(s.ann_max[seat, suit], count)
    s.activity[seat, ANNOUNCED] += 1


@njit(cache=True)
def post_bid(s, seat, j, suit, count):
    """``seat`` bids ``count`` cards of ``suit`` on j's announcement; it proves the holding and shows a want."""
    s.bid_to[seat] = j
    s.bid_suit[seat] = suit
    s.bid_count[seat] = count
    s.last_bid_to[seat] = j
    s.last_bid_suit[seat] = suit
    s.last_bid_count[seat] = count
    s.bid_max[seat, suit] = max(s.bid_max[seat, suit], count)
    s.wanted[seat, s.ann_suit[j]] += 1
    s.bids_to[seat, j] += 1
    s.activity[seat, BID_MADE] += 1
