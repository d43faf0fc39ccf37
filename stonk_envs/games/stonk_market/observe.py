"""What a Stonk Market seat sees (compiled): its observation, the bounds, and the full state.

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
"""

from numba import njit

from stonk_envs.core.rng import RNG_PARTS, write_rng_parts
from stonk_envs.games.stonk_market.hands import count_strays, hand_score, is_stray, round_score_bounds
from stonk_envs.games.stonk_market.memory import memory_bounds, memory_size, observe_memory
from stonk_envs.games.stonk_market.state import DECK_SIZE, NUM_ACTIVITIES, NUM_SUITS, RECENT_EXCHANGES, SUIT_TOTALS

HAND_SUMMARY = 2 * NUM_SUITS + 2
"""Entries of the hand summary: majority and stray flags per suit, valid call, round score now."""


@njit(cache=True)
def base_obs_size(n):
    """The observation without the public memory (``memory=False``)."""
    return 2 * NUM_SUITS + n + 2 * n * NUM_SUITS + n * (n + NUM_SUITS) + 2 * n + 3 + HAND_SUMMARY + previews_size(n)


@njit(cache=True)
def previews_size(n):
    """The move previews: round score and strays after each EXCHANGE, TAKE and wanted announcement."""
    return 2 * (NUM_SUITS + 2 * (n - 1))


@njit(cache=True)
def obs_size(n, memory):
    return base_obs_size(n) + (memory_size(n) if memory else 0)


def state_size(n: int) -> int:
    """25n + 4 entries of the table as it stands, then n^2 + 67n + 34 of memory, RNG and settings."""
    return n * n + 92 * n + 38


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
