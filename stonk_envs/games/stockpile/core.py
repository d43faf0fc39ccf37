"""Stockpile rules core (compiled): the entry points the adapter and the batched engine call.

The state record is :data:`STATE_DTYPE` (see :mod:`.state`); the round and its phases are in
:mod:`.phases`, prices and money in :mod:`.market`, the action layout in :mod:`.actions` and
the observation layout in :mod:`.observe`. One seat decides per step (``actors``).
"""

import numpy as np
from numba import njit

from stonk_envs.games.stockpile import actions as act
from stonk_envs.games.stockpile.actions import num_actions
from stonk_envs.games.stockpile.observe import obs_size, observe, observe_all, observe_all_update, state_vector
from stonk_envs.games.stockpile.phases import build_deck, decide, start_round
from stonk_envs.games.stockpile.state import (
    ACTION,
    DEMAND,
    NONE,
    NUM_COMPANIES,
    SELLING,
    STATE_DTYPE,
    SUPPLY,
)
from stonk_envs.games.stockpile.touched import EVERYTHING

__all__ = [
    "STATE_DTYPE",
    "actors",
    "init",
    "legal_mask",
    "num_actions",
    "obs_size",
    "observe",
    "observe_all",
    "observe_all_update",
    "state_vector",
    "step",
]


@njit(cache=True)
def init(
    s,
    seed,
    n,
    rounds,
    start_cash,
    max_price,
    start_price,
    split_reset,
    split_bonus,
    div_regular,
    div_split,
    bonus_sole,
    bonus_tie,
    action_move,
    per_company,
    fee_copies,
    action_copies,
    bid_values,
    reward_mode,
    reward_scale,
    memory,
):
    """Start a new game in record ``s``: setup (S5a, S6) and the first round's deal."""
    s.rng = np.uint64(seed)
    s.n = n
    s.rounds = rounds
    s.start_cash = start_cash
    s.max_price = max_price
    s.start_price = start_price
    s.split_reset = split_reset
    s.split_bonus = split_bonus
    s.div_regular = div_regular
    s.div_split = div_split
    s.bonus_sole = bonus_sole
    s.bonus_tie = bonus_tie
    s.action_move = action_move
    s.stock_per_company = per_company
    s.num_bids = len(bid_values)
    act.block_bases(n, s.num_bids, per_company, s.bases)
    s.bid_values[:] = 0
    for v in range(len(bid_values)):
        s.bid_values[v] = bid_values[v]
    s.reward_mode = reward_mode
    s.reward_scale = reward_scale
    s.mem_on = memory
    s.obs_seen = False
    s.touched = EVERYTHING
    s.round = 0
    s.first = 0
    s.game_over = False
    s.price[:] = start_price
    s.discard[:] = 0
    s.regular[:, :] = 0
    s.split[:, :] = 0
    s.booms[:] = 0
    s.busts[:] = 0
    s.cash[:] = 0
    s.debt[:, :] = 0
    s.debt_len[:] = 0
    s.memory[:, :, :] = 0
    s.placed_won[:, :, :] = 0
    s.ledger[:, :] = 0
    s.worth_mark[:] = 0
    s.won_up[:, :] = 0
    s.down_from[:, :] = 0
    s.div_total[:, :, :] = 0
    s.company_events[:, :] = 0
    s.hist_price[:, :] = 0
    s.hist_fc[:, :] = NONE
    s.hist_holder[:, :] = NONE
    s.past_price[:, :] = 0
    s.past_fc[:, :] = NONE
    s.past_holder[:, :] = NONE
    s.past_rec[:, :, :] = 0
    s.hand[:, :] = NONE
    for p in range(n):
        s.cash[p] = start_cash
        s.worth_mark[p] = start_cash
    build_deck(s, per_company, fee_copies, action_copies)
    start_round(s)


@njit(cache=True)
def actors(s, out):
    """Exactly one seat decides per step; none once the game is over."""
    for p in range(s.n):
        out[p] = (not s.game_over) and p == s.actor


@njit(cache=True)
def legal_mask(s, seat, out):
    """Write ``seat``'s action mask into ``out`` (all zero unless it is ``seat``'s decision)."""
    out[:] = 0
    if s.game_over or seat != s.actor:
        return
    n = s.n
    bases = s.bases
    if s.phase == SUPPLY:
        out[: bases[act.BLOCK_BID]] = 1
    elif s.phase == DEMAND:
        for t in range(n):
            for v in range(s.num_bids):
                if (s.bidder[t] == NONE or v > s.bid_v[t]) and s.bid_values[v] <= s.cash[seat]:
                    out[bases[act.BLOCK_BID] + t * s.num_bids + v] = 1
    elif s.phase == ACTION:
        for c in range(NUM_COMPANIES):
            out[bases[act.BLOCK_PLAY] + c] = s.booms[seat] > 0
            out[bases[act.BLOCK_PLAY] + NUM_COMPANIES + c] = s.busts[seat] > 0
    elif s.phase == SELLING:
        base = bases[act.BLOCK_SELL]
        for c in range(NUM_COMPANIES):
            out[base + act.SELL_REGULAR + c] = s.regular[seat, c] > 0
            out[base + act.SELL_SPLIT + c] = s.split[seat, c] > 0
            out[base + act.UNSPLIT + c] = s.split[seat, c] > 0
        out[base + act.SELL_DONE] = 1
    elif s.sub == 0:
        out[bases[act.BLOCK_REVEAL_REGULAR] : bases[act.BLOCK_REVEAL_REGULAR] + s.regular[seat, s.div_company] + 1] = 1
    else:
        out[bases[act.BLOCK_REVEAL_SPLIT] : bases[act.BLOCK_REVEAL_SPLIT] + s.split[seat, s.div_company] + 1] = 1


@njit(cache=True)
def step(s, actions, rewards_out, voids):
    """Apply the acting seat's action (others are ignored); returns True when the game is over.

    A step whose actor gave ``NO_ACTION`` (negative) changes nothing.
    """
    for p in range(s.n):
        rewards_out[p] = 0.0
        voids[p] = 0
    if s.game_over:
        return True
    action = actions[s.actor]
    if action >= 0:
        decide(s, action, rewards_out)
    return s.game_over
