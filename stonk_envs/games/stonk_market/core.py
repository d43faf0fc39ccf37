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
majorities             9         1 where I hold a majority of the suit
strays                 9         1 where I hold cards of the suit but no majority
valid call             1         1 when every suit I hold is a majority (M5)
my round score         1         my hand's M6 score with this Exchange card, no bonus
after EXCHANGE         2 * 9     my round score, then my strays, after EXCHANGE(s)
after TAKE             2(n - 1)  the same after taking relative seat j's bid (j >= 1)
after getting          2(n - 1)  the same after getting j's announced cards
=====================  ========  ===============================================

That is n^2 + 34n + 55 entries, the whole observation with ``memory=False``. The hand summary
(majorities to my round score, 20 entries) and the move previews after it (4n + 14) are
functions of my hand and public offers, written out because a feed-forward network finds
nine per-suit thresholds, their conjunction and a move's effect on them hard to learn. A
preview of a move that is not open (no card of s, s the Exchange's suit, no bid on my
announcement, no announcement) shows my hand as it is. With ``memory=True`` (the default)
the public memory follows (M9, 2026-12-01): 2n^2 + 85n + 64 more entries, 3n^2 + 119n + 119
in all (643 at n = 4). "This round" starts at each deal.

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

from stonk_envs.core import negotiation, rng
from stonk_envs.core.rng import RNG_PARTS, write_rng_parts
from stonk_envs.games.stonk_market import core as rules  # this module; see core/negotiation.py
from stonk_envs.games.stonk_market.config import SUIT_COUNTS

MAX_PLAYERS = 6
NUM_SUITS = 9
MAX_COUNT = 9
DECK_SIZE = 61
NONE = -1
SUIT_TOTALS = np.array(SUIT_COUNTS, np.int64)
HAND_SUMMARY = 2 * NUM_SUITS + 2
"""Entries of the hand summary: majority and stray flags per suit, valid call, round score now."""

WAIT, ANNOUNCE, BID, TAKE, WITHDRAW, EXCHANGE, STONKS = 0, 1, 2, 3, 4, 5, 6
ACTION_KINDS = ("WAIT", "ANNOUNCE", "BID", "TAKE", "WITHDRAW", "EXCHANGE", "STONKS")
BID_BASE = 1 + NUM_SUITS * MAX_COUNT
PER_SEAT = NUM_SUITS * MAX_COUNT

ANNOUNCED, BID_MADE, WITHDRAWN, TOOK, TAKEN, EXCHANGED = range(6)
ACTIVITY_NAMES = ("announcements", "bids", "withdrawals", "bids taken", "bids of mine taken", "exchanges")
"""The per-seat activity counts of the public memory, in observation order (this round)."""
NUM_ACTIVITIES = len(ACTIVITY_NAMES)
RECENT_EXCHANGES = 4
"""Exchange trades of this round the observation lists one by one, newest first."""

STATE_DTYPE = np.dtype(
    [
        ("rng", np.uint64),
        ("n", np.int32),
        ("tick_cap", np.int32),
        ("num_rounds", np.int32),
        ("stonks_bonus", np.int32),
        ("reward_mode", np.int32),
        ("reward_scale", np.int32),
        ("close_weight", np.float64),
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
        # public memory (M9, 2026-12-01): this round's record, cleared at each deal
        ("memory", np.bool_),
        ("ann_max", np.int8, (MAX_PLAYERS, NUM_SUITS)),
        ("bid_max", np.int8, (MAX_PLAYERS, NUM_SUITS)),
        ("last_ann_suit", np.int8, (MAX_PLAYERS,)),
        ("last_ann_count", np.int8, (MAX_PLAYERS,)),
        ("last_bid_to", np.int8, (MAX_PLAYERS,)),
        ("last_bid_suit", np.int8, (MAX_PLAYERS,)),
        ("last_bid_count", np.int8, (MAX_PLAYERS,)),
        ("wanted", np.int32, (MAX_PLAYERS, NUM_SUITS)),
        ("gained", np.int64, (MAX_PLAYERS, NUM_SUITS)),
        ("given", np.int64, (MAX_PLAYERS, NUM_SUITS)),
        ("activity", np.int32, (MAX_PLAYERS, NUM_ACTIVITIES)),
        ("exchange_in", np.int64, (NUM_SUITS,)),
        ("first_exchange", np.int8),
        ("exchanges", np.int64),
        ("recent_suit", np.int8, (RECENT_EXCHANGES,)),
        ("recent_seat", np.int8, (RECENT_EXCHANGES,)),
        # the last scored round, and the game's calls
        ("last_caller", np.int32),
        ("last_valid", np.bool_),
        ("last_exchange", np.int8),
        ("last_hand", np.int8, (MAX_PLAYERS, NUM_SUITS)),
        ("valid_calls", np.int32, (MAX_PLAYERS,)),
        ("invalid_calls", np.int32, (MAX_PLAYERS,)),
        ("bids_to", np.int32, (MAX_PLAYERS, MAX_PLAYERS)),  # [j, t]: bids j made on t's announcements this round
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
def base_obs_size(n):
    """The observation without the public memory (``memory=False``)."""
    return 2 * NUM_SUITS + n + 2 * n * NUM_SUITS + n * (n + NUM_SUITS) + 2 * n + 3 + HAND_SUMMARY + previews_size(n)


@njit(cache=True)
def previews_size(n):
    """The move previews: round score and strays after each EXCHANGE, TAKE and wanted announcement."""
    return 2 * (NUM_SUITS + 2 * (n - 1))


@njit(cache=True)
def memory_size(n):
    """The public memory appended to the observation: 2n^2 + 85n + 64 entries."""
    per_seat = 8 * NUM_SUITS + n + NUM_ACTIVITIES + 3
    return n * per_seat + 3 * NUM_SUITS + 1 + RECENT_EXCHANGES * (NUM_SUITS + n) + n * n


@njit(cache=True)
def obs_size(n, memory):
    return base_obs_size(n) + (memory_size(n) if memory else 0)


def state_size(n: int) -> int:
    """25n + 4 entries of the table as it stands, then n^2 + 67n + 34 of memory, RNG and settings."""
    return n * n + 92 * n + 38


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
def is_stray(count, suit):
    """``count`` cards of ``suit`` held, but not more than half of the suit: a minority (M5)."""
    return count > 0 and 2 * count <= SUIT_TOTALS[suit]


@njit(cache=True)
def count_strays(hand):
    """The suits of ``hand`` held short of a majority."""
    strays = 0
    for suit in range(NUM_SUITS):
        if is_stray(hand[suit], suit):
            strays += 1
    return strays


@njit(cache=True)
def all_majorities(hand):
    """Every suit in ``hand`` is a majority: more than half of that suit's cards (M5)."""
    return count_strays(hand) == 0


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
def init(s, seed, n, tick_cap, num_rounds, stonks_bonus, reward_mode, reward_scale, close_weight, memory):
    """Start a new game in record ``s``; ``memory`` appends the public memory to observations."""
    s.memory = memory
    clear_game_memory(s)
    s.tick_cap = tick_cap
    s.num_rounds = num_rounds
    s.stonks_bonus = stonks_bonus
    s.reward_scale = reward_scale
    s.close_weight = close_weight
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
        negotiation.close_round(
            s, scale, rewards_out, rules.score_round_into, rules.game_ends, rules.deal_round, s.close_weight
        )
    return s.game_over


# ---------------------------------------------------------------------------- views
@njit(cache=True)
def observe(s, seat, out):
    """Write ``seat``'s observation (layout in the module docstring) into ``out``."""
    n = s.n
    out[: base_obs_size(n)] = 0.0  # the memory writer clears only its sparse blocks
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
    hand = s.hand[seat]
    score, strays = hand_score(hand, s.exchange), count_strays(hand)
    observe_hand_summary(hand, score, strays, out, k + 3)
    observe_previews(s, seat, score, strays, out, k + 3 + HAND_SUMMARY)
    if s.memory:
        observe_memory(s, seat, out, base_obs_size(n))


@njit(cache=True)
def observe_hand_summary(hand, score, strays, out, base):
    """What ``hand`` (its round score and strays given) is worth now (M5, M6): per suit a majority held, a
    stray held; a valid call; the score."""
    for suit in range(NUM_SUITS):
        c = hand[suit]
        out[base + suit] = 1.0 if 2 * c > SUIT_TOTALS[suit] else 0.0
        out[base + NUM_SUITS + suit] = 1.0 if is_stray(c, suit) else 0.0
    out[base + 2 * NUM_SUITS] = 1.0 if strays == 0 else 0.0
    out[base + 2 * NUM_SUITS + 1] = score


@njit(cache=True)
def write_preview(trial, exchange, out, score_at, strays_at):
    out[score_at] = hand_score(trial, exchange)
    out[strays_at] = count_strays(trial)


@njit(cache=True)
def observe_previews(s, seat, now_score, now_strays, out, base):
    """What my hand would score (M6, no bonus), and its strays, after each move in sight.

    EXCHANGE(s) for each suit; TAKE of each relative seat's bid on my announcement; getting
    each relative seat's announced cards (what a bid on it would win). A move not open now
    previews my hand as it is (``now_score``, ``now_strays``).
    """
    n = s.n
    hand = s.hand[seat]
    trial = hand.copy()
    exchange_at = base
    take_at = base + 2 * NUM_SUITS
    wanted_at = take_at + 2 * (n - 1)
    for suit in range(NUM_SUITS):
        out[exchange_at + suit], out[exchange_at + NUM_SUITS + suit] = now_score, now_strays
        if suit != s.exchange and hand[suit] > 0:
            trial[suit] -= 1
            trial[s.exchange] += 1
            write_preview(trial, suit, out, exchange_at + suit, exchange_at + NUM_SUITS + suit)
            trial[:] = hand
    for jr in range(1, n):
        j = (seat + jr) % n
        take, wanted = take_at + jr - 1, wanted_at + jr - 1
        out[take], out[take + n - 1] = now_score, now_strays
        out[wanted], out[wanted + n - 1] = now_score, now_strays
        if s.ann_count[seat] > 0 and s.bid_to[j] == seat and s.bid_count[j] > 0:
            trial[s.ann_suit[seat]] -= s.ann_count[seat]
            trial[s.bid_suit[j]] += s.bid_count[j]
            write_preview(trial, s.exchange, out, take, take + n - 1)
            trial[:] = hand
        if s.ann_count[j] > 0:
            trial[s.ann_suit[j]] += s.ann_count[j]
            write_preview(trial, s.exchange, out, wanted, wanted + n - 1)
            trial[:] = hand


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
def round_score_bounds(n, bonus):
    """The lowest and highest round score any player can get.

    Lowest: 8 BioHippo or Socktopus Ltd. while the ninth is the Exchange card. Highest: a
    valid call holding every card but the Exchange's suit, whose other cards go to the
    other seats (each keeps at least one card: a deal gives and takes at least one). When
    the other seats outnumber those cards (6 players, a 5-card suit), each extra card they
    need breaks a full suit of T, costing T + 1 (n <= 6 needs at most one).
    """
    best = 0
    for e in range(NUM_SUITS):
        score = 2 * (DECK_SIZE - SUIT_TOTALS[e])
        extra = (n - 1) - (SUIT_TOTALS[e] - 1)
        if extra > 0:
            cheapest = DECK_SIZE
            for suit in range(NUM_SUITS):
                if suit != e:
                    cheapest = min(cheapest, SUIT_TOTALS[suit] + 1)
            score -= extra * cheapest
        best = max(best, score)
    return -(SUIT_TOTALS.max() - 1), best + bonus


@njit(cache=True)
def observation_bounds(n, tick_cap, num_rounds, stonks_bonus, memory, low, high):
    """Write the per-entry bounds of an observation (``memory``: with the public memory)."""
    low[:] = 0.0
    high[:] = 1.0
    for suit in range(NUM_SUITS):
        high[suit] = SUIT_TOTALS[suit]
    k = 2 * NUM_SUITS
    for jr in range(n):
        high[k + jr] = DECK_SIZE - n  # every other seat keeps at least one card
    k += n
    for block in range(2):
        for jr in range(n):
            for suit in range(NUM_SUITS):
                high[k + (block * n + jr) * NUM_SUITS + suit] = SUIT_TOTALS[suit]
    k += 2 * n * NUM_SUITS
    for jr in range(n):
        high[k + jr * n + jr] = 0.0  # nobody bids on their own announcement
    k += n * n
    for jr in range(n):
        for suit in range(NUM_SUITS):
            high[k + jr * NUM_SUITS + suit] = SUIT_TOTALS[suit]
    k += n * NUM_SUITS
    lo, hi = round_score_bounds(n, stonks_bonus)
    for jr in range(n):
        low[k + jr] = lo * num_rounds
        high[k + jr] = hi * num_rounds
        low[k + n + jr] = lo
        high[k + n + jr] = hi
    k += 2 * n
    high[k] = num_rounds
    high[k + 1] = tick_cap
    high[k + 2] = tick_cap
    score_at = k + 3 + 2 * NUM_SUITS + 1  # the hand summary's round score, before any bonus
    low[score_at], high[score_at] = round_score_bounds(n, 0)
    previews_bounds(n, low[k + 3 + HAND_SUMMARY :], high[k + 3 + HAND_SUMMARY :])
    if memory:
        memory_bounds(n, tick_cap, num_rounds, high[base_obs_size(n) :])


@njit(cache=True)
def previews_bounds(n, low, high):
    """The move previews' bounds: round scores of a reachable hand, up to nine strays.

    After getting an announcement's cards (without giving any) the announcer may hold none,
    so those hands are bounded as at one seat fewer.
    """
    lo, hi = round_score_bounds(n, 0)
    _, hi_wanted = round_score_bounds(n - 1, 0)
    k = 0
    for size, top in ((NUM_SUITS, hi), (n - 1, hi), (n - 1, hi_wanted)):
        low[k : k + size], high[k : k + size] = lo, top
        high[k + size : k + 2 * size] = NUM_SUITS
        k += 2 * size


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


@njit(cache=True)
def state_vector(s, out):
    """Write the full state (every hand included) as a flat vector.

    First the table as it stands (25n + 4), then per seat the public memory (67n), then the
    round's Exchange record, the last round, the random stream (four 16-bit parts, exact in
    float32: it decides the next deals and resolution orders) and the settings (34).
    """
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
    k += 4
    for p in range(n):
        for suit in range(NUM_SUITS):
            out[k + suit] = s.ann_max[p, suit]
            out[k + NUM_SUITS + suit] = s.bid_max[p, suit]
            out[k + 2 * NUM_SUITS + suit] = s.wanted[p, suit]
            out[k + 3 * NUM_SUITS + suit] = s.gained[p, suit]
            out[k + 4 * NUM_SUITS + suit] = s.given[p, suit]
            out[k + 5 * NUM_SUITS + suit] = s.last_hand[p, suit]
        k += 6 * NUM_SUITS
        out[k] = s.last_ann_suit[p]
        out[k + 1] = s.last_ann_count[p]
        out[k + 2] = s.last_bid_to[p]
        out[k + 3] = s.last_bid_suit[p]
        out[k + 4] = s.last_bid_count[p]
        out[k + 5] = s.valid_calls[p]
        out[k + 6] = s.invalid_calls[p]
        k += 7
        for a in range(NUM_ACTIVITIES):
            out[k + a] = s.activity[p, a]
        k += NUM_ACTIVITIES
    for suit in range(NUM_SUITS):
        out[k + suit] = s.exchange_in[suit]
    k += NUM_SUITS
    out[k] = s.first_exchange
    out[k + 1] = s.exchanges
    for i in range(RECENT_EXCHANGES):
        out[k + 2 + i] = s.recent_suit[i]
        out[k + 2 + RECENT_EXCHANGES + i] = s.recent_seat[i]
    k += 2 + 2 * RECENT_EXCHANGES
    out[k] = s.last_caller
    out[k + 1] = s.last_valid
    out[k + 2] = s.last_exchange
    write_rng_parts(s.rng, out[k + 3 : k + 3 + RNG_PARTS])
    out[k + 7] = s.game_over
    out[k + 8] = s.tick_cap
    out[k + 9] = s.num_rounds
    out[k + 10] = s.stonks_bonus
    out[k + 11] = s.reward_mode
    out[k + 12] = s.reward_scale
    out[k + 13] = s.close_weight
    out[k + 14] = s.memory
    k += 15
    for p in range(n):
        for t in range(n):
            out[k + p * n + t] = s.bids_to[p, t]
