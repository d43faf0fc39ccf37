"""Stockpile's state record (struct of arrays) and the constants of its cards and phases.

Card kinds: 0-5 a stock of company 0-5 (S3 order), 6/7/8 a trading fee of $1K/$2K/$3K,
9 Stock Boom!, 10 Stock Bust!. Forecasts: 0 +4, 1 +2, 2 +1, 3 $$ (dividend), 4 -2, 5 -3.
Pair i (0..5) of a round: pair p < n is seat p's private pair, pair n is public, and the
pairs after it lie face-down.
"""

import numpy as np

COMPANIES = (
    "Cosmic Computers",
    "Bottomline Bank",
    "Leading Laboratories",
    "American Automotive",
    "Stanford Steel",
    "Epic Electric",
)
NUM_COMPANIES = 6
FEE_KIND = 6
FEE_VALUES = (1, 2, 3)
BOOM, BUST = 9, 10
NUM_KINDS = 11
FORECAST_NAMES = ("+4", "+2", "+1", "$$", "-2", "-3")
FORECAST_MOVES = (4, 2, 1, 0, -2, -3)
DIVIDEND = 3
SPLIT_SALE_FACTOR = 2
"""A split card sells for, and counts at the end as, this many times the price (S12, S14)."""

MAX_PLAYERS = 5
PILE_CAP = 1 + 2 * MAX_PLAYERS
DECK_CAP = 6 * 15 + 3 * 8 + 2 * 8
DEBT_CAP = 3 * 8
MAX_BIDS = 16
NONE = -1

# phases where a seat decides; the information phase, resolution and movement run inside step
SUPPLY, DEMAND, ACTION, SELLING, DIVIDEND_PHASE, OVER = 0, 1, 2, 3, 4, 5
NUM_DECISION_PHASES = 5
PHASE_NAMES = ("supply", "demand", "action", "selling", "dividend", "game over")

# public memory per seat and company (``memory[p, c, m]``)
MEM_KNOWN = 0
"""Regular cards of c that p is publicly known to hold at least (face-up cards won, reveals)."""
MEM_DIV_REGULAR = 1
"""Regular cards p revealed at the last dividend of c."""
MEM_DIV_SPLIT = 2
"""Split cards p revealed at the last dividend of c."""
MEM_SOLD_REGULAR = 3
"""Regular cards of c that p has sold."""
MEM_SOLD_SPLIT = 4
"""Split cards of c that p has sold."""
MEM_UNSPLIT = 5
"""Split cards of c that p has turned back into regular shares."""
MEM_SPLIT_REVEALED = 6
"""Regular cards of c that p revealed when c split (summed over splits)."""
MEM_BANKRUPT_LOST = 7
"""Cards of c that p lost to bankruptcies."""
MEM_BOOMS = 8
"""Stock Boom! cards p played on c."""
MEM_BUSTS = 9
"""Stock Bust! cards p played on c."""
NUM_MEMORY = 10
MEMORY_NAMES = (
    "known regular",
    "last dividend regular",
    "last dividend split",
    "sold regular",
    "sold split",
    "unsplit",
    "revealed at splits",
    "lost to bankruptcy",
    "booms played",
    "busts played",
)

# this round's public record per seat (``round_rec[p, r]``), cleared when a round starts
REC_UP_KIND, REC_UP_PILE, REC_DOWN_PILE, REC_TOOK, REC_PAID, REC_BIDS, REC_TOP_BID = range(7)
NUM_REC = 7
"""Kind and pile of the face-up card p laid, pile of its face-down card, pile it took, $K it
paid, bids it placed and its highest bid in $K (NONE where it has not happened yet)."""

# per company public counts (``company_events[c, e]``)
EV_SPLITS, EV_BANKRUPTCIES, EV_DIVIDENDS = 0, 1, 2
NUM_EVENTS = 3

HISTORY = 2
"""Completed rounds whose pairs and closing prices the observation remembers (last first)."""

MAX_TABLE_ROUNDS = (DECK_CAP - 3) // 9
"""Rows of the record of every completed round: the most rounds any deck allows (3 players)."""

SEAT_INPUTS = NUM_REC + NUM_KINDS + MAX_PLAYERS + 1 + 2 * NUM_COMPANIES
"""What a seat's block of the public memory is written from (see ``memory.seat_inputs_changed``)."""

# money ledger per seat (``ledger[p, l]``); cash = starting cash + incomes - payments
LED_SALES, LED_DIVIDENDS, LED_SPLIT_BONUS, LED_SETTLEMENT, LED_BIDS, LED_FEES = 0, 1, 2, 3, 4, 5
NUM_LEDGER = 6

STATE_DTYPE = np.dtype(
    [
        ("rng", np.uint64),
        # configuration
        ("n", np.int32),
        ("rounds", np.int32),
        ("start_cash", np.int32),
        ("max_price", np.int32),
        ("start_price", np.int32),
        ("split_reset", np.int32),
        ("split_bonus", np.int32),
        ("div_regular", np.int32),
        ("div_split", np.int32),
        ("bonus_sole", np.int32),
        ("bonus_tie", np.int32),
        ("action_move", np.int32),
        ("stock_per_company", np.int32),
        ("num_bids", np.int32),
        ("bid_values", np.int32, (MAX_BIDS,)),
        ("bases", np.int64, (7,)),  # first action of each action block, then the total (actions.block_bases)
        ("reward_mode", np.int32),
        ("reward_scale", np.float64),
        # turn
        ("round", np.int32),
        ("phase", np.int32),
        ("sub", np.int32),
        ("first", np.int32),
        ("actor", np.int32),
        ("turn_k", np.int32),
        ("div_company", np.int32),
        ("move_k", np.int32),
        ("game_over", np.bool_),
        # market
        ("price", np.int32, (NUM_COMPANIES,)),
        ("pair_comp", np.int8, (NUM_COMPANIES,)),
        ("pair_fc", np.int8, (NUM_COMPANIES,)),
        ("pair_shown", np.int8, (NUM_COMPANIES,)),
        ("deck", np.int8, (DECK_CAP,)),
        ("deck_len", np.int32),
        ("discard", np.int32, (NUM_KINDS,)),
        # stockpiles and bids (track t belongs to pile t)
        ("pile", np.int8, (MAX_PLAYERS, PILE_CAP)),
        ("pile_up", np.int8, (MAX_PLAYERS, PILE_CAP)),
        ("pile_by", np.int8, (MAX_PLAYERS, PILE_CAP)),
        ("pile_len", np.int32, (MAX_PLAYERS,)),
        ("hand", np.int8, (MAX_PLAYERS, 2)),
        ("bidder", np.int8, (MAX_PLAYERS,)),
        ("bid_v", np.int32, (MAX_PLAYERS,)),
        ("track_of", np.int8, (MAX_PLAYERS,)),
        # players
        ("regular", np.int32, (MAX_PLAYERS, NUM_COMPANIES)),
        ("split", np.int32, (MAX_PLAYERS, NUM_COMPANIES)),
        ("booms", np.int32, (MAX_PLAYERS,)),
        ("busts", np.int32, (MAX_PLAYERS,)),
        ("cash", np.int32, (MAX_PLAYERS,)),
        ("debt", np.int32, (MAX_PLAYERS, DEBT_CAP)),
        ("debt_len", np.int32, (MAX_PLAYERS,)),
        ("memory", np.int32, (MAX_PLAYERS, NUM_COMPANIES, NUM_MEMORY)),
        ("placed_won", np.int32, (MAX_PLAYERS, MAX_PLAYERS, NUM_COMPANIES)),
        ("ledger", np.int32, (MAX_PLAYERS, NUM_LEDGER)),
        ("worth_mark", np.int32, (MAX_PLAYERS,)),
        # perfect-recall public memory (observed when ``mem_on``)
        ("mem_on", np.bool_),
        ("round_rec", np.int32, (MAX_PLAYERS, NUM_REC)),
        ("won_up", np.int32, (MAX_PLAYERS, NUM_KINDS)),  # face-up cards of each kind p won
        ("down_from", np.int32, (MAX_PLAYERS, MAX_PLAYERS)),  # [p, q]: q's face-down cards p won
        ("div_total", np.int32, (MAX_PLAYERS, NUM_COMPANIES, 2)),  # regular, split revealed at all dividends
        ("company_events", np.int32, (NUM_COMPANIES, NUM_EVENTS)),
        ("hist_price", np.int32, (HISTORY, NUM_COMPANIES)),  # closing price of a completed round
        ("hist_fc", np.int8, (HISTORY, NUM_COMPANIES)),  # the forecast paired with the company
        ("hist_holder", np.int8, (HISTORY, NUM_COMPANIES)),  # the pair's slot i (seat, public, face-down)
        # every completed round (row r: round r), appended 2026-12-03
        ("past_price", np.int32, (MAX_TABLE_ROUNDS, NUM_COMPANIES)),  # closing prices
        ("past_fc", np.int8, (MAX_TABLE_ROUNDS, NUM_COMPANIES)),  # the forecast paired with each company
        ("past_holder", np.int8, (MAX_TABLE_ROUNDS, NUM_COMPANIES)),  # whose pair it was (slot i)
        ("past_rec", np.int32, (MAX_TABLE_ROUNDS, MAX_PLAYERS, NUM_REC)),  # each seat's round record
        # what the batched engine's observation rows were last written from (observe.observe_all_update);
        # not part of the game: no rule reads them. Narrow types keep them in few cache lines; a value
        # they cannot hold counts as changed at every step (blocks.remember)
        ("obs_seen", np.bool_),
        ("touched", np.int64),  # the sections the steps since then may have changed (touched.py)
        ("seen_split", np.int8, (MAX_PLAYERS, NUM_COMPANIES)),  # seat-company blocks: split cards
        ("seen_memory", np.int8, (MAX_PLAYERS, NUM_COMPANIES * NUM_MEMORY)),  # and memory counts (flat)
        ("seen_seat_memory", np.int8, (MAX_PLAYERS, SEAT_INPUTS)),
        ("seen_rounds", np.int8, (NUM_COMPANIES, NUM_EVENTS + 3 * HISTORY)),
        ("seen_market", np.int8, (3 + NUM_COMPANIES,)),
        ("seen_pairs", np.int8, (3 * NUM_COMPANIES,)),
        ("seen_deck", np.int8, (1 + NUM_KINDS,)),
        ("seen_piles", np.int8, (MAX_PLAYERS, 3 + 3 * PILE_CAP)),
        ("seen_hand", np.int8, (MAX_PLAYERS, 4 + NUM_COMPANIES)),
        ("seen_seats", np.int16, (MAX_PLAYERS, 6)),  # a seat's public block (observe.SEAT_BLOCK)
        ("seen_tips", np.int8, (MAX_PLAYERS, MAX_PLAYERS * NUM_COMPANIES)),
    ]
)
