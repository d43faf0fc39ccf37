"""Stockpile's round (compiled): setup, the six phases, and the round end.

Only decisions are steps. After each decision the game runs on by itself through the phases
that need none (the information deal, the resolution of bids, movement without a dividend)
until the next decision or the end of the game.

Each decision also records which observation sections it may have changed (:mod:`.touched`):
those of the actor and the piles it used for the small ones, everything for those that run
on into the resolution of bids, a price move or movement.
"""

import numpy as np
from numba import njit

from stonk_envs.core import rewards, rng
from stonk_envs.games.stockpile import actions as act
from stonk_envs.games.stockpile.market import debt_total, earn, move_company, settle, take_fee
from stonk_envs.games.stockpile.state import (
    ACTION,
    BOOM,
    BUST,
    DEMAND,
    DIVIDEND,
    DIVIDEND_PHASE,
    EV_DIVIDENDS,
    FEE_KIND,
    FORECAST_MOVES,
    HISTORY,
    LED_BIDS,
    LED_DIVIDENDS,
    LED_SALES,
    MAX_TABLE_ROUNDS,
    MEM_BOOMS,
    MEM_BUSTS,
    MEM_DIV_REGULAR,
    MEM_DIV_SPLIT,
    MEM_KNOWN,
    MEM_SOLD_REGULAR,
    MEM_SOLD_SPLIT,
    MEM_UNSPLIT,
    NONE,
    NUM_COMPANIES,
    NUM_REC,
    OVER,
    REC_BIDS,
    REC_DOWN_PILE,
    REC_PAID,
    REC_TOOK,
    REC_TOP_BID,
    REC_UP_KIND,
    REC_UP_PILE,
    SELLING,
    SPLIT_SALE_FACTOR,
    SUPPLY,
)
from stonk_envs.games.stockpile.touched import (
    DECK,
    HANDS,
    INPUTS,
    MOST,
    PAST,
    PILES,
    SEAT_COMPANY,
    SEATS,
    touch,
    touch_seat,
)


@njit(cache=True)
def seat_at(s, k):
    """The seat k places after the first player (turn order, S16)."""
    return (s.first + k) % s.n


@njit(cache=True)
def draw(s):
    s.deck_len -= 1
    card = s.deck[s.deck_len]
    s.deck[s.deck_len] = NONE
    return card


# ---------------------------------------------------------------------------- setup
@njit(cache=True)
def build_deck(s, per_company, fee_copies, action_copies):
    """S5/S5a: deal one share of each company to the players; shuffle the rest into the deck."""
    s.deck[:] = NONE
    k = 0
    for c in range(NUM_COMPANIES):
        for _ in range(per_company - 1):
            s.deck[k] = c
            k += 1
    for f in range(3):
        for _ in range(fee_copies):
            s.deck[k] = FEE_KIND + f
            k += 1
    for kind in (BOOM, BUST):
        for _ in range(action_copies):
            s.deck[k] = kind
            k += 1
    starters = np.arange(NUM_COMPANIES)
    rng.shuffle(s, starters, NUM_COMPANIES)
    for p in range(s.n):
        s.regular[p, starters[p]] = 1
    for j in range(s.n, NUM_COMPANIES):
        s.deck[k] = starters[j]
        k += 1
    s.deck_len = k
    rng.shuffle(s, s.deck, k)


@njit(cache=True)
def start_round(s):
    """Information phase (S7) and the supply deal (S8); the first player then places."""
    n = s.n
    rng.permutation(s, s.pair_comp, NUM_COMPANIES)
    rng.permutation(s, s.pair_fc, NUM_COMPANIES)
    s.pair_shown[:] = 0
    s.pile[:, :] = NONE
    s.pile_by[:, :] = NONE
    s.pile_up[:, :] = 0
    s.pile_len[:] = 0
    for t in range(n):
        s.pile[t, 0] = draw(s)
        s.pile_up[t, 0] = 1
        s.pile_len[t] = 1
    for k in range(n):
        p = seat_at(s, k)
        s.hand[p, 0] = draw(s)
        s.hand[p, 1] = draw(s)
    s.bidder[:] = NONE
    s.bid_v[:] = 0
    s.track_of[:] = NONE
    for p in range(n):
        rec = s.round_rec[p]
        rec[REC_UP_KIND] = NONE
        rec[REC_UP_PILE] = NONE
        rec[REC_DOWN_PILE] = NONE
        rec[REC_TOOK] = NONE
        rec[REC_PAID] = 0
        rec[REC_BIDS] = 0
        rec[REC_TOP_BID] = 0
    s.phase = SUPPLY
    s.sub = 0
    s.turn_k = 0
    s.actor = s.first
    s.move_k = 0
    s.div_company = NONE


# ---------------------------------------------------------------------------- supply
@njit(cache=True)
def place(s, t, card, face_up, p):
    j = s.pile_len[t]
    s.pile[t, j] = card
    s.pile_up[t, j] = face_up
    s.pile_by[t, j] = p
    s.pile_len[t] = j + 1


@njit(cache=True)
def supply(s, i):
    """S8a: the actor's hand card ``up`` goes face-up on one pile, the other face-down."""
    n = s.n
    p = s.actor
    up, pile_up, pile_down = i // (n * n), (i // n) % n, i % n
    touch_seat(s, PILES, pile_up)
    touch_seat(s, PILES, pile_down)
    touch_seat(s, HANDS, p)
    touch_seat(s, INPUTS, p)
    place(s, pile_up, s.hand[p, up], True, p)
    place(s, pile_down, s.hand[p, 1 - up], False, p)
    s.round_rec[p, REC_UP_KIND] = s.hand[p, up]
    s.round_rec[p, REC_UP_PILE] = pile_up
    s.round_rec[p, REC_DOWN_PILE] = pile_down
    s.hand[p, 0] = NONE
    s.hand[p, 1] = NONE
    s.turn_k += 1
    if s.turn_k == n:
        s.phase = DEMAND
        s.turn_k = 0
    s.actor = seat_at(s, s.turn_k)


# ---------------------------------------------------------------------------- demand
@njit(cache=True)
def bid(s, i):
    """S9: place the actor's bid; the player it beats holds no bid; pick who bids next."""
    n = s.n
    p = s.actor
    t = i // s.num_bids
    prev = s.bidder[t]
    touch_seat(s, PILES, t)
    touch_seat(s, SEATS, p)
    touch_seat(s, INPUTS, p)
    if prev != NONE:
        touch_seat(s, SEATS, prev)
        s.track_of[prev] = NONE
    s.bidder[t] = p
    s.bid_v[t] = i % s.num_bids
    s.track_of[p] = t
    s.round_rec[p, REC_BIDS] += 1
    s.round_rec[p, REC_TOP_BID] = max(s.round_rec[p, REC_TOP_BID], s.bid_values[s.bid_v[t]])
    if s.turn_k < n - 1:
        s.turn_k += 1
        s.actor = seat_at(s, s.turn_k)
        return
    s.turn_k = n
    for d in range(1, n):
        q = (p + d) % n
        if s.track_of[q] == NONE:
            s.actor = q
            return
    resolve_demand(s)
    begin_action(s)


@njit(cache=True)
def resolve_demand(s):
    """S10: in turn order, pay the bid and take the pile; fees in the order the pile was laid."""
    touch(s, MOST)
    n = s.n
    for k in range(n):
        p = seat_at(s, k)
        t = s.track_of[p]
        price = s.bid_values[s.bid_v[t]]
        s.cash[p] -= price
        s.ledger[p, LED_BIDS] += price
        s.round_rec[p, REC_TOOK] = t
        s.round_rec[p, REC_PAID] = price
        for j in range(s.pile_len[t]):
            card = s.pile[t, j]
            if s.pile_up[t, j]:
                s.won_up[p, card] += 1
            else:
                s.down_from[p, s.pile_by[t, j]] += 1
            if card < NUM_COMPANIES:
                s.regular[p, card] += 1
                if s.pile_up[t, j]:
                    s.memory[p, card, MEM_KNOWN] += 1
                elif s.pile_by[t, j] != NONE:
                    s.placed_won[s.pile_by[t, j], p, card] += 1
            elif card < BOOM:
                take_fee(s, p, card - FEE_KIND + 1)
            elif card == BOOM:
                s.booms[p] += 1
            else:
                s.busts[p] += 1
            s.pile[t, j] = NONE
            s.pile_by[t, j] = NONE
            s.pile_up[t, j] = 0
        s.pile_len[t] = 0
    s.bidder[:] = NONE
    s.bid_v[:] = 0
    s.track_of[:] = NONE


# ---------------------------------------------------------------------------- action
@njit(cache=True)
def next_action_seat(s, from_k):
    """Make the next seat in turn order with action cards the actor; False when none is left."""
    for k in range(from_k, s.n):
        p = seat_at(s, k)
        if s.booms[p] + s.busts[p] > 0:
            s.actor = p
            s.turn_k = k
            return True
    return False


@njit(cache=True)
def begin_action(s):
    s.phase = ACTION
    if not next_action_seat(s, 0):
        begin_selling(s)


@njit(cache=True)
def play(s, i):
    """S11: play one action card on a company; move on when the actor has none left."""
    touch(s, MOST)  # a price move may split or bankrupt the company
    p = s.actor
    c = i % NUM_COMPANIES
    if i < NUM_COMPANIES:
        s.booms[p] -= 1
        s.discard[BOOM] += 1
        s.memory[p, c, MEM_BOOMS] += 1
        move_company(s, c, s.action_move)
    else:
        s.busts[p] -= 1
        s.discard[BUST] += 1
        s.memory[p, c, MEM_BUSTS] += 1
        move_company(s, c, -s.action_move)
    if s.booms[p] + s.busts[p] == 0 and not next_action_seat(s, s.turn_k + 1):
        begin_selling(s)


# ---------------------------------------------------------------------------- selling
@njit(cache=True)
def touch_holdings(s, p):
    """What a sale or a dividend reveal may change: p's cards (a sale only; a reveal touches them
    too, harmlessly), cash, debts and memory, and the discards (a sale, and the fees that income
    pays off)."""
    for shift in (HANDS, SEATS, SEAT_COMPANY, INPUTS):
        touch_seat(s, shift, p)
    touch(s, DECK)


@njit(cache=True)
def begin_selling(s):
    s.phase = SELLING
    s.turn_k = 0
    s.actor = s.first


@njit(cache=True)
def sell(s, i, out):
    """S12: one sale, one split sale, one split card back to regular, or DONE."""
    p = s.actor
    if i == act.SELL_DONE:
        s.turn_k += 1
        if s.turn_k == s.n:
            s.move_k = 0
            run_movement(s, out)
        else:
            s.actor = seat_at(s, s.turn_k)
        return
    touch_holdings(s, p)
    c = i % NUM_COMPANIES
    if i < act.SELL_SPLIT:
        s.regular[p, c] -= 1
        s.discard[c] += 1
        s.memory[p, c, MEM_SOLD_REGULAR] += 1
        s.memory[p, c, MEM_KNOWN] = max(s.memory[p, c, MEM_KNOWN] - 1, 0)
        earn(s, p, s.price[c], LED_SALES)
    elif i < act.UNSPLIT:
        s.split[p, c] -= 1
        s.discard[c] += 1
        s.memory[p, c, MEM_SOLD_SPLIT] += 1
        earn(s, p, SPLIT_SALE_FACTOR * s.price[c], LED_SALES)
    else:
        s.split[p, c] -= 1
        s.regular[p, c] += 1
        s.memory[p, c, MEM_UNSPLIT] += 1
        s.memory[p, c, MEM_KNOWN] += 1
        earn(s, p, s.price[c], LED_SALES)


# ---------------------------------------------------------------------------- movement
@njit(cache=True)
def run_movement(s, out):
    """S13: resolve the pairs in order until a dividend needs decisions or the round ends."""
    touch(s, MOST)
    n = s.n
    while s.move_k < NUM_COMPANIES:
        k = s.move_k
        i = seat_at(s, k) if k < n else k
        s.pair_shown[i] = 1
        s.move_k += 1
        c = s.pair_comp[i]
        f = s.pair_fc[i]
        if f == DIVIDEND:
            s.company_events[c, EV_DIVIDENDS] += 1
            s.phase = DIVIDEND_PHASE
            s.div_company = c
            s.turn_k = 0
            s.sub = 0
            s.actor = s.first
            return
        move_company(s, c, FORECAST_MOVES[f])
    end_round(s, out)


@njit(cache=True)
def reveal(s, i, out):
    """S13 dividend: reveal i regular cards (every seat is asked), then i split cards (holders)."""
    p = s.actor
    c = s.div_company
    touch_holdings(s, p)
    s.div_total[p, c, s.sub] += i
    if s.sub == 0:
        s.memory[p, c, MEM_DIV_REGULAR] = i
        s.memory[p, c, MEM_KNOWN] = max(s.memory[p, c, MEM_KNOWN], i)
        if i > 0:
            earn(s, p, i * s.div_regular, LED_DIVIDENDS)
        if s.split[p, c] > 0:
            s.sub = 1
            return
        s.memory[p, c, MEM_DIV_SPLIT] = 0
    else:
        s.memory[p, c, MEM_DIV_SPLIT] = i
        if i > 0:
            earn(s, p, i * s.div_split, LED_DIVIDENDS)
    s.sub = 0
    s.turn_k += 1
    if s.turn_k == s.n:
        run_movement(s, out)
    else:
        s.actor = seat_at(s, s.turn_k)


# ---------------------------------------------------------------------------- round end
@njit(cache=True)
def remember_round(s):
    """Push the round's closing prices and its pairs (all revealed by now) onto the history, and
    write them with every seat's round record into the round's row of the record of every round."""
    for h in range(HISTORY - 1, 0, -1):
        for c in range(NUM_COMPANIES):
            s.hist_price[h, c] = s.hist_price[h - 1, c]
            s.hist_fc[h, c] = s.hist_fc[h - 1, c]
            s.hist_holder[h, c] = s.hist_holder[h - 1, c]
    for i in range(NUM_COMPANIES):
        c = s.pair_comp[i]
        s.hist_price[0, c] = s.price[c]
        s.hist_fc[0, c] = s.pair_fc[i]
        s.hist_holder[0, c] = i
    touch(s, PAST)
    r = s.round
    if r < MAX_TABLE_ROUNDS:  # always, within the deck's limit on rounds
        for c in range(NUM_COMPANIES):
            s.past_price[r, c] = s.hist_price[0, c]
            s.past_fc[r, c] = s.hist_fc[0, c]
            s.past_holder[r, c] = s.hist_holder[0, c]
        for p in range(s.n):
            for k in range(NUM_REC):
                s.past_rec[r, p, k] = s.round_rec[p, k]


@njit(cache=True)
def net_worth(s, out):
    for p in range(s.n):
        out[p] = s.cash[p] - debt_total(s, p)


@njit(cache=True)
def end_round(s, out):
    """Round rewards; after the last round the S14 settlement and the end of the game."""
    n = s.n
    remember_round(s)
    last = s.round + 1 >= s.rounds
    if last:
        settle(s)
    worth = np.zeros(n)
    net_worth(s, worth)
    gains = np.zeros(n)
    for p in range(n):
        gains[p] = worth[p] - s.worth_mark[p]
        s.worth_mark[p] = int(worth[p])
    rewards.round_end(s.reward_mode, gains, n, s.reward_scale, out)
    s.round += 1
    if last:
        s.game_over = True
        s.phase = OVER
        s.actor = NONE
        s.div_company = NONE
        rewards.game_end(s.reward_mode, worth, n, s.reward_scale, out)
    else:
        s.first = (s.first + 1) % n
        start_round(s)


# ---------------------------------------------------------------------------- dispatch
@njit(cache=True)
def decide(s, action, out):
    """Apply the actor's (legal) action and run on to the next decision."""
    bases = s.bases
    if s.phase == SUPPLY:
        supply(s, action - bases[act.BLOCK_SUPPLY])
    elif s.phase == DEMAND:
        bid(s, action - bases[act.BLOCK_BID])
    elif s.phase == ACTION:
        play(s, action - bases[act.BLOCK_PLAY])
    elif s.phase == SELLING:
        sell(s, action - bases[act.BLOCK_SELL], out)
    elif s.sub == 0:
        reveal(s, action - bases[act.BLOCK_REVEAL_REGULAR], out)
    else:
        reveal(s, action - bases[act.BLOCK_REVEAL_SPLIT], out)
