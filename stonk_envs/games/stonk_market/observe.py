"""What a Stonk Market seat sees (compiled): its observation, the bounds, and the full state.

The observation is the table :data:`OBSERVATION` (from the observer's seat: relative seat
j = 0 is the observer), then with ``memory=True`` the public memory
(:data:`stonk_envs.games.stonk_market.memory.MEMORY`, M9, 2026-12-01); the writers' offsets,
the sizes and the bounds come from those tables. The hand summary (majorities to my round
score) and the move previews after it are functions of my hand and public offers, written
out because a feed-forward network finds nine per-suit thresholds, their conjunction and a
move's effect on them hard to learn. A preview of a move that is not open (no card of s, s
the Exchange's suit, no bid on my announcement, no announcement) shows my hand as it is;
after getting an announcement's cards (without giving any) the announcer may hold none, so
those round scores are bounded as at one seat fewer.
"""

import numpy as np
from numba import njit

from stonk_envs.core.layout import Layout, Section, at
from stonk_envs.core.rng import RNG_PARTS, write_rng_parts
from stonk_envs.games.stonk_market.hands import count_strays, hand_score, is_stray, round_score_bounds
from stonk_envs.games.stonk_market.memory import MEMORY, memory_size, observe_memory, other_seat, suit_cards
from stonk_envs.games.stonk_market.state import MAX_PLAYERS, NUM_ACTIVITIES, NUM_SUITS, RECENT_EXCHANGES, SUIT_TOTALS


def my_suit_cards(values):
    """T (the suit's cards)"""
    return SUIT_TOTALS


def lowest_score(values):
    """the lowest round score"""
    return round_score_bounds(values["n"], values["stonks_bonus"])[0]


def highest_score(values):
    """the highest round score"""
    return round_score_bounds(values["n"], values["stonks_bonus"])[1]


def lowest_total(values):
    """num_rounds * the lowest round score"""
    return values["num_rounds"] * lowest_score(values)


def highest_total(values):
    """num_rounds * the highest round score"""
    return values["num_rounds"] * highest_score(values)


def lowest_hand_score(values):
    """the lowest round score"""
    return round_score_bounds(values["n"], 0)[0]


def highest_hand_score(values):
    """the highest round score without the bonus"""
    return round_score_bounds(values["n"], 0)[1]


def highest_gotten_score(values):
    """the highest round score without the bonus at one seat fewer"""
    return round_score_bounds(values["n"] - 1, 0)[1]


OBSERVATION = Layout([
    Section("hand", "9", "my cards per suit", my_suit_cards),
    Section("exchange", "9", "one-hot suit of the Exchange card"),
    Section("hand sizes", "n", "cards held by relative seat j", "61 - n"),
    Section("known", "n * 9", "cards of each suit j is publicly known to hold (row 0: what others know of me)",
            suit_cards),
    Section("announcements", "n * 9", "count k at j's announced suit; all 0 when j has none", suit_cards),
    Section("bid targets", "n * n", "1 at [j, t] when j's open bid is on relative seat t's announcement", other_seat),
    Section("bid cards", "n * 9", "count k at the suit j's bid offers; all 0 when j has none", suit_cards),
    Section("totals", "n", "running totals", highest_total, lowest_total),
    Section("last round scores", "n", "the round scores of the last scored round", highest_score, lowest_score),
    Section("round, tick, left", "3", "round index (0-based), tick in the round, ticks left before the cap",
            ("num_rounds", "tick_cap", "tick_cap")),
    Section("majorities", "9", "1 where I hold a majority of the suit (more than half its cards)"),
    Section("strays", "9", "1 where I hold cards of the suit but no majority"),
    Section("valid call", "1", "1 when every suit I hold is a majority: a STONKS call now would be valid"),
    Section("my round score", "1", "my hand's round score with the current Exchange card, before any bonus",
            highest_hand_score, lowest_hand_score),
    Section("score after EXCHANGE", "9", "my round score (as above) if I now gave one card of suit s for the "
            "Exchange card (s becomes the Exchange's suit)", highest_hand_score, lowest_hand_score),
    Section("strays after EXCHANGE", "9", "my strays after the same", "9"),
    Section("score after TAKE", "n - 1", "my round score if I now took relative seat j's bid on my announcement "
            "(j = 1..n-1)", highest_hand_score, lowest_hand_score),
    Section("strays after TAKE", "n - 1", "my strays after the same", "9"),
    Section("score after getting", "n - 1", "my round score if I now got the cards of j's announcement, giving "
            "nothing (what a bid on it would win)", highest_gotten_score, lowest_hand_score),
    Section("strays after getting", "n - 1", "my strays after the same", "9"),
])
"""The observation's sections in order, without the memory (``memory=False``)."""

_COUNTS = range(1, MAX_PLAYERS + 1)
_SIZE = OBSERVATION.quadratic(None, _COUNTS)
(
    _HAND, _EXCHANGE, _HAND_SIZES, _KNOWN, _ANNOUNCEMENTS, _BID_TARGETS, _BID_CARDS, _TOTALS, _LAST_SCORES, _ROUND,
    _MAJORITIES, _SCORE_AFTER_EXCHANGE, _STRAYS_AFTER_EXCHANGE, _SCORE_AFTER_TAKE, _STRAYS_AFTER_TAKE,
    _SCORE_AFTER_GETTING, _STRAYS_AFTER_GETTING,
) = OBSERVATION.quadratics(
    _COUNTS, "hand", "exchange", "hand sizes", "known", "announcements", "bid targets", "bid cards", "totals",
    "last round scores", "round, tick, left", "majorities", "score after EXCHANGE", "strays after EXCHANGE",
    "score after TAKE", "strays after TAKE", "score after getting", "strays after getting",
)  # fmt: skip


@njit(cache=True)
def base_obs_size(n):
    """The observation without the public memory (``memory=False``)."""
    return at(_SIZE, n)


@njit(cache=True)
def obs_size(n, memory):
    return base_obs_size(n) + (memory_size(n) if memory else 0)


def observation_bounds(config) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` float32 vectors of a seat's observation under ``config``."""
    n = config.num_players
    values = {"tick_cap": config.tick_cap, "num_rounds": config.num_rounds, "stonks_bonus": config.stonks_bonus}
    low, high = OBSERVATION.bounds(n, values)
    if config.memory:
        memory_low, memory_high = MEMORY.bounds(n, values)
        low, high = np.concatenate([low, memory_low]), np.concatenate([high, memory_high])
    return low, high


def state_size(n: int) -> int:
    """25n + 4 entries of the table as it stands, then n^2 + 67n + 34 of memory, RNG and settings."""
    return n * n + 92 * n + 38


@njit(cache=True)
def observe(s, seat, out):
    """Write ``seat``'s observation (:data:`OBSERVATION`, then the memory) into ``out``."""
    n = s.n
    memory = at(_SIZE, n)
    out[:memory] = 0.0  # the memory writer clears only its sparse blocks
    for suit in range(NUM_SUITS):
        out[at(_HAND, n) + suit] = s.hand[seat, suit]
    out[at(_EXCHANGE, n) + s.exchange] = 1.0
    k = at(_HAND_SIZES, n)
    known_base = at(_KNOWN, n)
    ann_base = at(_ANNOUNCEMENTS, n)
    target_base = at(_BID_TARGETS, n)
    bid_base = at(_BID_CARDS, n)
    totals, last_scores = at(_TOTALS, n), at(_LAST_SCORES, n)
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
        out[totals + jr] = s.totals[j]
        out[last_scores + jr] = s.last_scores[j]
    k = at(_ROUND, n)
    out[k] = s.round
    out[k + 1] = s.tick
    out[k + 2] = s.tick_cap - s.tick
    hand = s.hand[seat]
    score, strays = hand_score(hand, s.exchange), count_strays(hand)
    observe_hand_summary(hand, score, strays, out, at(_MAJORITIES, n))
    observe_previews(s, seat, score, strays, out)
    if s.memory:
        observe_memory(s, seat, out, memory)


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
def observe_previews(s, seat, now_score, now_strays, out):
    """What my hand would score (M6, no bonus), and its strays, after each move in sight.

    EXCHANGE(s) for each suit; TAKE of each relative seat's bid on my announcement; getting
    each relative seat's announced cards (what a bid on it would win). A move not open now
    previews my hand as it is (``now_score``, ``now_strays``).
    """
    n = s.n
    hand = s.hand[seat]
    trial = hand.copy()
    exchange_score, exchange_strays = at(_SCORE_AFTER_EXCHANGE, n), at(_STRAYS_AFTER_EXCHANGE, n)
    take_score, take_strays = at(_SCORE_AFTER_TAKE, n), at(_STRAYS_AFTER_TAKE, n)
    wanted_score, wanted_strays = at(_SCORE_AFTER_GETTING, n), at(_STRAYS_AFTER_GETTING, n)
    for suit in range(NUM_SUITS):
        out[exchange_score + suit], out[exchange_strays + suit] = now_score, now_strays
        if suit != s.exchange and hand[suit] > 0:
            trial[suit] -= 1
            trial[s.exchange] += 1
            write_preview(trial, suit, out, exchange_score + suit, exchange_strays + suit)
            trial[:] = hand
    for jr in range(1, n):
        j = (seat + jr) % n
        take, wanted = jr - 1, jr - 1
        out[take_score + take], out[take_strays + take] = now_score, now_strays
        out[wanted_score + wanted], out[wanted_strays + wanted] = now_score, now_strays
        if s.ann_count[seat] > 0 and s.bid_to[j] == seat and s.bid_count[j] > 0:
            trial[s.ann_suit[seat]] -= s.ann_count[seat]
            trial[s.bid_suit[j]] += s.bid_count[j]
            write_preview(trial, s.exchange, out, take_score + take, take_strays + take)
            trial[:] = hand
        if s.ann_count[j] > 0:
            trial[s.ann_suit[j]] += s.ann_count[j]
            write_preview(trial, s.exchange, out, wanted_score + wanted, wanted_strays + wanted)
            trial[:] = hand


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
