"""A Stonk Market round: its deal, its record, its scoring and the end of the game (compiled)."""

import numpy as np
from numba import njit

from stonk_envs.core import negotiation, rng
from stonk_envs.games.stonk_market.hands import all_majorities, round_scores
from stonk_envs.games.stonk_market.offers import clear_offers
from stonk_envs.games.stonk_market.state import DECK_SIZE, MAX_PLAYERS, NONE, NUM_SUITS, SUIT_TOTALS


@njit(cache=True)
def clear_round_memory(s):
    """Forget this round's record (a new deal); the Exchange card dealt starts it."""
    s.ann_max[:, :] = 0
    s.bid_max[:, :] = 0
    s.wanted[:, :] = 0
    s.gained[:, :] = 0
    s.given[:, :] = 0
    s.activity[:, :] = 0
    s.bids_to[:, :] = 0
    s.exchange_in[:] = 0
    for p in range(MAX_PLAYERS):
        s.last_ann_suit[p] = NONE
        s.last_ann_count[p] = 0
        s.last_bid_to[p] = NONE
        s.last_bid_suit[p] = NONE
        s.last_bid_count[p] = 0
    s.first_exchange = s.exchange
    s.exchanges = 0
    s.recent_suit[:] = NONE
    s.recent_seat[:] = NONE


@njit(cache=True)
def clear_game_memory(s):
    """Nothing scored yet: no last round, no calls."""
    s.last_caller = NONE
    s.last_valid = False
    s.last_exchange = NONE
    s.last_hand[:, :] = 0
    s.valid_calls[:] = 0
    s.invalid_calls[:] = 0


@njit(cache=True)
def deal_round(s):
    """Shuffle the 61 cards and deal them afresh; the last card is the Exchange (M1b)."""
    n = s.n
    deck = np.empty(DECK_SIZE, np.int8)
    k = 0
    for suit in range(NUM_SUITS):
        for _ in range(SUIT_TOTALS[suit]):
            deck[k] = suit
            k += 1
    rng.shuffle(s, deck, DECK_SIZE)
    s.hand[:, :] = 0
    s.known[:, :] = 0
    size = (DECK_SIZE - 1) // n
    for k in range(n * size):
        s.hand[k // size, deck[k]] += 1
    s.exchange = deck[n * size]
    clear_offers(s)
    clear_round_memory(s)
    negotiation.start_round(s)


@njit(cache=True)
def score_round_into(s, gains):
    """Score the ending round into the totals (M5, M6); the gain of each seat into ``gains``."""
    n = s.n
    scores = np.zeros(n, np.int64)
    round_scores(s.hand, n, s.exchange, s.caller, s.stonks_bonus, scores)
    for p in range(n):
        s.totals[p] += scores[p]
        s.last_scores[p] = scores[p]
        gains[p] = scores[p]
    remember_round_end(s)


@njit(cache=True)
def remember_round_end(s):
    """Write down the ended round: caller, validity, Exchange card, every hand (M9)."""
    s.last_caller = s.caller
    s.last_valid = s.caller != NONE and all_majorities(s.hand[s.caller])
    if s.caller != NONE:
        if s.last_valid:
            s.valid_calls[s.caller] += 1
        else:
            s.invalid_calls[s.caller] += 1
    s.last_exchange = s.exchange
    s.last_hand[:, :] = s.hand


@njit(cache=True)
def game_ends(s):
    """M8: the game ends after its last round."""
    return s.round >= s.num_rounds
