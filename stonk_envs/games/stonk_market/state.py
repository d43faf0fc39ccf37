"""Stonk Market's cards and state record.

Suits are 0..8 in the order of M1a. A hand is a vector of nine card counts. Everything a
seat sees or names is relative to it: relative seat ``(q - p) mod n``, so seat 0 is "me".
"""

import numpy as np

from stonk_envs.games.stonk_market.config import SUIT_COUNTS

MAX_PLAYERS = 6
NUM_SUITS = 9
MAX_COUNT = 9
DECK_SIZE = 61
NONE = -1
SUIT_TOTALS = np.array(SUIT_COUNTS, np.int64)

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
