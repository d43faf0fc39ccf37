"""Stonk Market rules core (compiled): state, actions, ticks, scoring, observations.

Suits are 0..8 in the order of M1a. A hand is a vector of nine card counts. Everything a
seat sees or names is relative to it: relative seat ``(q - p) mod n``, so seat 0 is "me".

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

Observation layout (from the observer's seat; relative seats, j = 0 is the observer):

=====================  ========  ===============================================
entries                size      meaning
=====================  ========  ===============================================
hand                   9         my cards per suit
exchange               9         one-hot suit of the Exchange card
hand sizes             n         cards held by relative seat j
known                  n * 9     cards of each suit j is publicly known to hold
announcements          n * 9     count k at j's announced suit (0: none)
bid targets            n * n     j's open bid is on relative seat t's announcement
bid cards              n * 9     count k at the suit j offers (0: no bid)
totals                 n         running totals
last round scores      n         the round scores of the last scored round
round, tick, left      3         round index, tick in round, ticks left
=====================  ========  ===============================================

The public knowledge of a hand (M9) is a lower bound per suit: cards seen going into it
(deals and Exchange trades, M4) since the deal. Giving away m cards of a suit lowers it to
max(0, known - m).
"""

import numpy as np
from numba import njit

from stonk_envs.core import negotiation, rng
from stonk_envs.games.stonk_market import core as rules  # this module; see core/negotiation.py
from stonk_envs.games.stonk_market.config import SUIT_COUNTS

MAX_PLAYERS = 6
NUM_SUITS = 9
MAX_COUNT = 9
DECK_SIZE = 61
NONE = -1
SUIT_TOTALS = np.array(SUIT_COUNTS, np.int64)

WAIT, ANNOUNCE, BID, TAKE, WITHDRAW, EXCHANGE, STONKS = 0, 1, 2, 3, 4, 5, 6
ACTION_KINDS = ("WAIT", "ANNOUNCE", "BID", "TAKE", "WITHDRAW", "EXCHANGE", "STONKS")
BID_BASE = 1 + NUM_SUITS * MAX_COUNT
PER_SEAT = NUM_SUITS * MAX_COUNT

STATE_DTYPE = np.dtype(
    [
        ("rng", np.uint64),
        ("n", np.int32),
        ("tick_cap", np.int32),
        ("num_rounds", np.int32),
        ("stonks_bonus", np.int32),
        ("reward_mode", np.int32),
        ("reward_scale", np.int32),
        ("round", np.int32),
        ("tick", np.int32),
        ("round_over", np.bool_),
        ("game_over", np.bool_),
        ("caller", np.int32),
        ("exchange", np.int8),
        ("hand", np.int8, (MAX_PLAYERS, NUM_SUITS)),
        ("known", np.int8, (MAX_PLAYERS, NUM_SUITS)),
        ("ann_suit", np.int8, (MAX_PLAYERS,)),
        ("ann_count", np.int8, (MAX_PLAYERS,)),
        ("bid_to", np.int8, (MAX_PLAYERS,)),
        ("bid_suit", np.int8, (MAX_PLAYERS,)),
        ("bid_count", np.int8, (MAX_PLAYERS,)),
        ("seen_ann_suit", np.int8, (MAX_PLAYERS,)),
        ("seen_ann_count", np.int8, (MAX_PLAYERS,)),
        ("seen_bid_to", np.int8, (MAX_PLAYERS,)),
        ("seen_bid_suit", np.int8, (MAX_PLAYERS,)),
        ("seen_bid_count", np.int8, (MAX_PLAYERS,)),
        ("totals", np.int32, (MAX_PLAYERS,)),
        ("last_scores", np.int32, (MAX_PLAYERS,)),
    ]
)


# ---------------------------------------------------------------------------- sizes
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
def obs_size(n):
    return 2 * NUM_SUITS + n + 2 * n * NUM_SUITS + n * (n + NUM_SUITS) + 2 * n + 3


def state_size(n: int) -> int:
    return 25 * n + 4


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


# ---------------------------------------------------------------------------- scoring
@njit(cache=True)
def all_majorities(hand):
    """Every suit in ``hand`` is a majority: more than half of that suit's cards (M5)."""
    minorities = 0
    for suit in range(NUM_SUITS):
        if hand[suit] > 0 and 2 * hand[suit] <= SUIT_TOTALS[suit]:
            minorities += 1
    return minorities == 0


@njit(cache=True)
def hand_score(hand, exchange):
    """The M6 score of one hand, given the Exchange card's suit."""
    score = 0
    for suit in range(NUM_SUITS):
        c = hand[suit]
        if suit == exchange:
            score -= c
        elif c == SUIT_TOTALS[suit]:
            score += 2 * c
        elif 2 * c > SUIT_TOTALS[suit]:
            score += c
    return score


@njit(cache=True)
def round_scores(hands, n, exchange, caller, bonus, out):
    """Write each player's round score (M5, M6) into ``out[:n]``; ``caller`` may be NONE."""
    for p in range(n):
        score = hand_score(hands[p], exchange)
        if p == caller:
            score = score + bonus if all_majorities(hands[p]) else 0
        out[p] = score


# ---------------------------------------------------------------------------- setup
@njit(cache=True)
def clear_offers(s):
    for p in range(MAX_PLAYERS):
        s.ann_suit[p] = NONE
        s.ann_count[p] = 0
        s.bid_to[p] = NONE
        s.bid_suit[p] = NONE
        s.bid_count[p] = 0


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
    negotiation.start_round(s)


@njit(cache=True)
def init(s, seed, n, tick_cap, num_rounds, stonks_bonus, reward_mode, reward_scale):
    """Start a new game in record ``s``."""
    s.tick_cap = tick_cap
    s.num_rounds = num_rounds
    s.stonks_bonus = stonks_bonus
    s.reward_scale = reward_scale
    negotiation.start_game(s, seed, n, reward_mode, rules.deal_round)


# ---------------------------------------------------------------------------- offers
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
    s.hand[receiver, suit] += count
    s.known[receiver, suit] += count


# ---------------------------------------------------------------------------- legality
actors = negotiation.every_seat_acts


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


# ---------------------------------------------------------------------------- ticks
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
            clear_announcement(s, seat)
            s.ann_suit[seat] = suit
            s.ann_count[seat] = count
        return True
    if kind == BID:
        j = (seat + jr) % n
        if not announcement_as_seen(s, j) or s.hand[seat, suit] < count:
            return False
        s.bid_to[seat] = j
        s.bid_suit[seat] = suit
        s.bid_count[seat] = count
        return True
    if kind == TAKE:
        j = (seat + jr) % n
        if not announcement_as_seen(s, seat) or not bid_as_seen(s, j) or s.bid_to[j] != seat:
            return False
        give, k = s.ann_suit[seat], s.ann_count[seat]
        get, m = s.bid_suit[j], s.bid_count[j]
        clear_announcement(s, seat)
        move_cards(s, seat, j, give, k)
        move_cards(s, j, seat, get, m)
        clear_uncovered(s)
        return True
    if kind == WITHDRAW:
        if s.ann_count[seat] == 0:
            return False
        clear_announcement(s, seat)
        return True
    if kind == EXCHANGE:
        if s.hand[seat, suit] == 0:
            return False
        taken = s.exchange
        s.hand[seat, suit] -= 1
        s.known[seat, suit] = max(0, s.known[seat, suit] - 1)
        s.hand[seat, taken] += 1
        s.known[seat, taken] += 1
        s.exchange = suit
        clear_uncovered(s)
        return True
    negotiation.call_round_end(s, seat)
    return True


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


@njit(cache=True)
def game_ends(s):
    """M8: the game ends after its last round."""
    return s.round >= s.num_rounds


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
        negotiation.close_round(s, scale, rewards_out, rules.score_round_into, rules.game_ends, rules.deal_round)
    return s.game_over


# ---------------------------------------------------------------------------- views
@njit(cache=True)
def observe(s, seat, out):
    """Write ``seat``'s observation (layout in the module docstring) into ``out``."""
    n = s.n
    out[:] = 0.0
    for suit in range(NUM_SUITS):
        out[suit] = s.hand[seat, suit]
    out[NUM_SUITS + s.exchange] = 1.0
    k = 2 * NUM_SUITS
    known_base = k + n
    ann_base = known_base + n * NUM_SUITS
    target_base = ann_base + n * NUM_SUITS
    bid_base = target_base + n * n
    score_base = bid_base + n * NUM_SUITS
    for jr in range(n):
        j = (seat + jr) % n
        size = 0
        for suit in range(NUM_SUITS):
            size += s.hand[j, suit]
            out[known_base + jr * NUM_SUITS + suit] = s.known[j, suit]
        out[k + jr] = size
        if s.ann_count[j] > 0:
            out[ann_base + jr * NUM_SUITS + s.ann_suit[j]] = s.ann_count[j]
        if s.bid_count[j] > 0:
            out[target_base + jr * n + (s.bid_to[j] - seat) % n] = 1.0
            out[bid_base + jr * NUM_SUITS + s.bid_suit[j]] = s.bid_count[j]
        out[score_base + jr] = s.totals[j]
        out[score_base + n + jr] = s.last_scores[j]
    k = score_base + 2 * n
    out[k] = s.round
    out[k + 1] = s.tick
    out[k + 2] = s.tick_cap - s.tick


@njit(cache=True)
def round_score_bounds(bonus):
    """The lowest and highest round score any player can get."""
    return -(SUIT_TOTALS.max() - 1), 2 * DECK_SIZE + bonus


@njit(cache=True)
def observation_bounds(n, tick_cap, num_rounds, stonks_bonus, low, high):
    """Write the per-entry bounds of an observation."""
    low[:] = 0.0
    high[:] = 1.0
    for suit in range(NUM_SUITS):
        high[suit] = SUIT_TOTALS[suit]
    k = 2 * NUM_SUITS
    for jr in range(n):
        high[k + jr] = DECK_SIZE - 1
    k += n
    for block in range(2):
        for jr in range(n):
            for suit in range(NUM_SUITS):
                high[k + (block * n + jr) * NUM_SUITS + suit] = SUIT_TOTALS[suit]
    k += 2 * n * NUM_SUITS + n * n
    for jr in range(n):
        for suit in range(NUM_SUITS):
            high[k + jr * NUM_SUITS + suit] = SUIT_TOTALS[suit]
    k += n * NUM_SUITS
    lo, hi = round_score_bounds(stonks_bonus)
    for jr in range(n):
        low[k + jr] = lo * num_rounds
        high[k + jr] = hi * num_rounds
        low[k + n + jr] = lo
        high[k + n + jr] = hi
    k += 2 * n
    high[k] = num_rounds
    high[k + 1] = tick_cap
    high[k + 2] = tick_cap


@njit(cache=True)
def state_vector(s, out):
    """Write the full state (every hand included) as a flat vector."""
    n = s.n
    k = 0
    for p in range(n):
        for suit in range(NUM_SUITS):
            out[k] = s.hand[p, suit]
            out[k + NUM_SUITS] = s.known[p, suit]
            k += 1
        k += NUM_SUITS
        out[k] = s.ann_suit[p]
        out[k + 1] = s.ann_count[p]
        out[k + 2] = s.bid_to[p]
        out[k + 3] = s.bid_suit[p]
        out[k + 4] = s.bid_count[p]
        out[k + 5] = s.totals[p]
        out[k + 6] = s.last_scores[p]
        k += 7
    out[k] = s.exchange
    out[k + 1] = s.round
    out[k + 2] = s.tick
    out[k + 3] = s.caller
