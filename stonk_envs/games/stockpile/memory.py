"""The perfect-recall public memory appended to a Stockpile observation (S17, compiled).

Everything here is public play that a player at the table could write down; nothing is
private to another seat (a face-down card's pile and layer are public, its kind is not).
The sections are the table :data:`MEMORY`: relative seat ``jr`` is seat ``(me + jr) mod n``;
piles are numbered as in the stockpile sections; ``H`` =
:data:`~stonk_envs.games.stockpile.state.HISTORY` = 2; ``R`` = :func:`table_rounds` (n), the
most rounds any deck allows: 14, 10 and 8 rows for 3, 4 and 5 players. The last section was
appended on 2026-12-03 (every earlier offset is kept): with the two-round history and this
round's record alone, who laid each pile card, the pairs and prices of older rounds and the
prices paid round by round were lost once a round ended. The bounds name the config's values
and the limits of :mod:`.bounds`.
"""

import numpy as np
from numba import njit

from stonk_envs.core.layout import Layout, Section, at
from stonk_envs.games.stockpile.blocks import absolute, copy, fill, relative, remember, rotate_blocks
from stonk_envs.games.stockpile.state import (
    DECK_CAP,
    FORECAST_NAMES,
    HISTORY,
    LED_BIDS,
    MAX_PLAYERS,
    NUM_COMPANIES,
    NUM_EVENTS,
    NUM_KINDS,
    NUM_REC,
    REC_BIDS,
    REC_DOWN_PILE,
    REC_PAID,
    REC_TOOK,
    REC_TOP_BID,
    REC_UP_KIND,
    REC_UP_PILE,
)


@njit(cache=True)
def table_rounds(n):
    """Rows of the record of every round: the most rounds a deck of the largest make-up allows."""
    return (DECK_CAP - n) // (3 * n)


def _sizes(n: int) -> dict[str, int]:
    return {"n": n, "H": HISTORY, "R": table_rounds.py_func(n)}


def seat_highs(values):
    """1; $K paid and highest bid: top_bid; bids: bids; cards won: min(copies, rounds * (n + 1)), rounds per
    seat, $K paid for piles: rounds * top_bid; cards revealed: rounds * stock_per_company"""
    n, r = values["n"], values["rounds"]
    block = np.ones(round_record_size(n) + NUM_KINDS + n + 1 + 2 * NUM_COMPANIES)
    k = NUM_KINDS + 3 * n
    block[k : k + 3] = values["top_bid"], values["bids"], values["top_bid"]
    k += 3
    block[k : k + NUM_KINDS] = np.minimum(values["copies"], r * (n + 1))
    k += NUM_KINDS
    block[k : k + n] = r
    block[k + n] = r * values["top_bid"]
    block[k + n + 1 :] = r * values["stock_per_company"]
    return np.tile(block, n)


def history_highs(values):
    """max_price, then 1"""
    block = np.ones(9 + values["n"])
    block[0] = values["max_price"]
    return np.tile(block, HISTORY * NUM_COMPANIES)


def past_round_highs(values):
    """0 in rounds the game does not play; else per company max_price, 6 (forecasts), n + 2 (n + 1 at 5
    players: no pair lies face-down), per seat: kind 11, piles n, top_bid paid, bids, top_bid"""
    n, r = values["n"], values["rounds"]
    high = np.zeros((values["R"], 3 * NUM_COMPANIES + NUM_REC * n))
    pairs = high[:r, : 3 * NUM_COMPANIES].reshape(r, NUM_COMPANIES, 3)
    pairs[:, :, 0] = values["max_price"]
    pairs[:, :, 1] = len(FORECAST_NAMES)
    pairs[:, :, 2] = n + 2 if n + 1 < NUM_COMPANIES else n + 1  # face-down pairs exist below 5 players
    records = high[:r, 3 * NUM_COMPANIES :].reshape(r, n, NUM_REC)
    records[:, :, :] = 1
    records[:, :, REC_UP_KIND] = NUM_KINDS
    records[:, :, [REC_UP_PILE, REC_DOWN_PILE, REC_TOOK]] = n
    records[:, :, [REC_PAID, REC_TOP_BID]] = values["top_bid"]
    records[:, :, REC_BIDS] = values["bids"]
    return high


MEMORY = Layout([
    Section("memory_seats", f"{2 * NUM_KINDS + 2 * NUM_COMPANIES + 4} + 4 * n", "seat jr: this round: kind one-hot "
            "(11) and pile one-hot (n) of the face-up card it laid, pile one-hot (n) of its face-down card, pile "
            "one-hot (n) it took, $K it paid, bids it placed, its highest bid $K; this game: face-up cards it won "
            "per kind (11), face-down cards it won that the seat d places after it laid (n; d = 0 its own), $K paid "
            "for piles, regular and split cards it revealed at dividends per company (6 + 6)", seat_highs,
            repeat="n"),
    Section("memory_companies", NUM_EVENTS, "company c: splits, bankruptcies, dividends this game",
            ("splits_company", "bankruptcies", "rounds"), repeat=NUM_COMPANIES),
    Section("memory_rounds", f"{3 + NUM_COMPANIES} + n", "round h ago (h = 1 first), company c: closing price, "
            "forecast one-hot (6) paired with c, whose pair it was: relative seat one-hot (n), public, face-down",
            history_highs, repeat=f"H * {NUM_COMPANIES}"),
    Section("memory_past_rounds", f"{3 * NUM_COMPANIES} + {NUM_REC} * n", "past round r (r = 0 the first; rows of "
            "rounds not played yet are 0), as numbers: per company c its closing price, 1 + the forecast index "
            "paired with it, whose pair it was (1 + relative seat, n + 1 public, n + 2 face-down); then per seat "
            "jr its round record: 1 + face-up kind, 1 + face-up pile, 1 + face-down pile, 1 + pile taken, $K paid, "
            "bids placed, highest bid $K", past_round_highs, repeat="R"),
], _sizes)  # fmt: skip
"""The memory's sections in order."""

_COUNTS = range(1, MAX_PLAYERS + 1)
_SEAT_BLOCK, _HISTORY_BLOCK, _PAST_ROUND_BLOCK = (
    MEMORY.quadratic(name, _COUNTS, block=True) for name in ("memory_seats", "memory_rounds", "memory_past_rounds")
)
_PAST_ROUNDS = MEMORY.quadratic("memory_past_rounds", _COUNTS)


@njit(cache=True)
def seat_memory_block(n):
    return at(_SEAT_BLOCK, n)


@njit(cache=True)
def history_block(n):
    """Entries per company in one remembered round."""
    return at(_HISTORY_BLOCK, n)


@njit(cache=True)
def past_round_block(n):
    """Entries of one round's row: price, forecast and holder per company, the record per seat."""
    return at(_PAST_ROUND_BLOCK, n)


@njit(cache=True)
def past_rounds_start(n):
    """Where the record of every round starts in the memory section."""
    return at(_PAST_ROUNDS, n)


def memory_size(n: int) -> int:
    return MEMORY.size(n)


@njit(cache=True)
def round_record_size(n):
    """Entries of a seat block written from this round's record (the rest are the game's counts)."""
    return NUM_KINDS + 3 * n + 3


@njit(cache=True)
def write_round_record(s, q, n, block):
    """This round's record of seat q into ``block`` (on zeros)."""
    rec = s.round_rec[q]
    if rec[REC_UP_KIND] >= 0:
        block[rec[REC_UP_KIND]] = 1.0
        block[NUM_KINDS + rec[REC_UP_PILE]] = 1.0
        block[NUM_KINDS + n + rec[REC_DOWN_PILE]] = 1.0
    if rec[REC_TOOK] >= 0:
        block[NUM_KINDS + 2 * n + rec[REC_TOOK]] = 1.0
    k = NUM_KINDS + 3 * n
    block[k] = rec[REC_PAID]
    block[k + 1] = rec[REC_BIDS]
    block[k + 2] = rec[REC_TOP_BID]


@njit(cache=True)
def write_seat_counts(s, q, n, block):
    """Seat q's counts of this game into its block (every entry set)."""
    k = round_record_size(n)
    won = block[k : k + NUM_KINDS]
    for kind in range(NUM_KINDS):
        won[kind] = s.won_up[q, kind]
    k += NUM_KINDS
    for d in range(n):
        block[k + d] = s.down_from[q, absolute(d, q, n)]
    k += n
    block[k] = s.ledger[q, LED_BIDS]
    k += 1
    for c in range(NUM_COMPANIES):
        block[k + c] = s.div_total[q, c, 0]
        block[k + NUM_COMPANIES + c] = s.div_total[q, c, 1]


@njit(cache=True)
def write_seat_record(s, q, n, block):
    """Seat q's block (on zeros): the same whoever looks, only its place in the section moves."""
    write_round_record(s, q, n, block)
    write_seat_counts(s, q, n, block)


@njit(cache=True)
def write_rounds(s, seat, out):
    """The company counts and the round history of ``seat``'s memory section ``out``; the
    history entries are cleared first, the seat blocks are left alone."""
    n = s.n
    k = n * seat_memory_block(n)
    events = out[k : k + NUM_COMPANIES * NUM_EVENTS]
    for c in range(NUM_COMPANIES):
        for e in range(NUM_EVENTS):
            events[c * NUM_EVENTS + e] = s.company_events[c, e]
    k += NUM_COMPANIES * NUM_EVENTS
    width = history_block(n)
    history = out[k : k + HISTORY * NUM_COMPANIES * width]
    for j in range(history.shape[0]):
        history[j] = 0.0
    for h in range(HISTORY):
        if s.hist_fc[h, 0] < 0:
            break
        for c in range(NUM_COMPANIES):
            block = history[(h * NUM_COMPANIES + c) * width : (h * NUM_COMPANIES + c + 1) * width]
            block[0] = s.hist_price[h, c]
            block[1 + s.hist_fc[h, c]] = 1.0
            i = s.hist_holder[h, c]
            if i < n:
                block[7 + relative(i, seat, n)] = 1.0
            elif i == n:
                block[7 + n] = 1.0
            else:
                block[8 + n] = 1.0


@njit(cache=True)
def write_past_rounds(s, seat, out):
    """The record of every round in ``seat``'s memory section ``out`` (every entry set)."""
    n = s.n
    start = past_rounds_start(n)
    width = past_round_block(n)
    rows = table_rounds(n)
    table = out[start : start + rows * width]
    fill(table, 0.0)
    for r in range(min(s.round, rows)):
        row = table[r * width : (r + 1) * width]
        for c in range(NUM_COMPANIES):
            row[3 * c] = s.past_price[r, c]
            row[3 * c + 1] = s.past_fc[r, c] + 1
            i = s.past_holder[r, c]
            row[3 * c + 2] = 1 + relative(i, seat, n) if i < n else (n + 1 if i == n else n + 2)
        for jr in range(n):
            rec = s.past_rec[r, absolute(jr, seat, n)]
            k = 3 * NUM_COMPANIES + jr * NUM_REC
            row[k] = rec[REC_UP_KIND] + 1
            row[k + 1] = rec[REC_UP_PILE] + 1
            row[k + 2] = rec[REC_DOWN_PILE] + 1
            row[k + 3] = rec[REC_TOOK] + 1
            row[k + 4] = rec[REC_PAID]
            row[k + 5] = rec[REC_BIDS]
            row[k + 6] = rec[REC_TOP_BID]


@njit(cache=True)
def write_memory(s, seat, out):
    """Write ``seat``'s memory section (layout above) into ``out`` (its own view, any content)."""
    n = s.n
    for k in range(out.shape[0]):
        out[k] = 0.0
    size = seat_memory_block(n)
    for jr in range(n):
        q = absolute(jr, seat, n)
        write_seat_record(s, q, n, out[jr * size : (jr + 1) * size])
    write_rounds(s, seat, out)
    write_past_rounds(s, seat, out)


@njit(cache=True)
def copy_rounds(s, seat, first, out):
    """The company counts and round history of ``seat``'s memory section ``out`` from seat 0's
    (``first``): copied, the history's holders re-pointed from seat 0 to ``seat``."""
    n = s.n
    k = n * seat_memory_block(n)
    end = past_rounds_start(n)
    copy(first[k:end], out[k:end])
    k += NUM_COMPANIES * NUM_EVENTS
    width = history_block(n)
    for h in range(HISTORY):
        if s.hist_fc[h, 0] < 0:
            break
        for c in range(NUM_COMPANIES):
            i = s.hist_holder[h, c]
            if i < n:
                start = k + (h * NUM_COMPANIES + c) * width + 7
                holder = out[start : start + n]
                holder[i] = 0.0
                holder[relative(i, seat, n)] = 1.0


@njit(cache=True)
def rotate_memory(s, seat, first, out):
    """Write ``seat``'s memory section into ``out`` from seat 0's (``first``): a seat's block
    does not depend on who looks, so the blocks are rotated and the rest copied (the record
    of every round is written)."""
    rotate_blocks(first, out, 0, seat_memory_block(s.n), s.n, seat)
    copy_rounds(s, seat, first, out)
    write_past_rounds(s, seat, out)


@njit(cache=True)
def seat_inputs_changed(s, q):
    """Which parts of what seat q's block is written from differ from ``s.seen_seat_memory[q]``
    (bit 0: this round's record, bit 1: the game's counts); stores them there."""
    seen = s.seen_seat_memory[q]
    record = False
    for r in range(NUM_REC):
        record |= remember(seen, r, s.round_rec[q, r])
    counts = False
    k = NUM_REC
    for kind in range(NUM_KINDS):
        counts |= remember(seen, k + kind, s.won_up[q, kind])
    k += NUM_KINDS
    for p in range(MAX_PLAYERS):
        counts |= remember(seen, k + p, s.down_from[q, p])
    k += MAX_PLAYERS
    counts |= remember(seen, k, s.ledger[q, LED_BIDS])
    k += 1
    for c in range(NUM_COMPANIES):
        counts |= remember(seen, k + 2 * c, s.div_total[q, c, 0])
        counts |= remember(seen, k + 2 * c + 1, s.div_total[q, c, 1])
    return (1 if record else 0) | (2 if counts else 0)


@njit(cache=True)
def rounds_changed(s):
    """Whether the company counts or the round history differ from ``s.seen_rounds``; stores
    them there."""
    changed = False
    for c in range(NUM_COMPANIES):
        seen = s.seen_rounds[c]
        for e in range(NUM_EVENTS):
            changed |= remember(seen, e, s.company_events[c, e])
        for h in range(HISTORY):
            k = NUM_EVENTS + 3 * h
            changed |= remember(seen, k, s.hist_price[h, c])
            changed |= remember(seen, k + 1, s.hist_fc[h, c])
            changed |= remember(seen, k + 2, s.hist_holder[h, c])
    return changed


def memory_layout(n: int, start: int) -> dict[str, tuple[int, int]]:
    """``{name: (start, size)}`` of the memory sections, the first at ``start``."""
    return MEMORY.spans(n, start)
