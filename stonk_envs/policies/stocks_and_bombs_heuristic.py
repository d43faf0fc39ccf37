"""A rule-based Stocks & Bombs player that reads only its observation vector.

It knows its own target, so it can score any arrangement of the pieces for itself (ruling
B6). Each tick it:

1. calls STOP when its round score is positive and at least the best score it can see for
   any other player (each other player's score averaged over the targets it may hold), or,
   once ``patience`` ticks of the round have passed, when no other player can be ahead of it
   whatever their target (so a stalled round ends without a penalty);
2. otherwise accepts the open proposal to it that raises its own score most, if any does;
3. otherwise proposes the swap that raises its own score most: pieces of its target's
   colour in, pieces that cost it nothing out (never its own colour to its target's owner),
   asking for the largest piece and giving the smallest on ties;
4. otherwise waits.

Relative seats and colours are as in the observation: the player is seat 0 and owns colour 0.
It finds its entries where the game's observation table puts them
(:func:`~stonk_envs.policies.stocks_and_bombs_trader.section_starts`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from stonk_envs.games.stocks_and_bombs.core import num_actions, obs_size
from stonk_envs.policies.base import CompiledPlayer
from stonk_envs.policies.stocks_and_bombs_trader import (
    GIVE,
    HOLDER,
    RECEIVE,
    ROUND,
    TARGET,
    round_score,
    score_table_into,
    section_starts,
)


@njit(cache=True)
def _fill_pips(holder, n, pips):
    """``pips[q, c]``: pips of colour c held by seat q, from relative holders ``holder[3n]``."""
    pips[:, :] = 0
    for piece in range(3 * n):
        pips[holder[piece], piece // 3] += piece % 3 + 1


@njit(cache=True)
def pips_held(holder, n):
    """``P[q, c]``: pips of colour c held by seat q, from relative holders ``holder[3n]``."""
    pips = np.zeros((n, n), np.int64)
    _fill_pips(holder, n, pips)
    return pips


@njit(cache=True)
def score_table(pips):
    """``S[q, t]``: the round score of seat q if its target were colour t (B6)."""
    n = pips.shape[0]
    table = np.zeros((n, n), np.int64)
    score_table_into(pips, n, table)
    return table


@njit(cache=True)
def _argmax(o, start, size):
    """The first index of the largest of ``o[start:start + size]``."""
    best = 0
    for i in range(1, size):
        if o[start + i] > o[start + best]:
            best = i
    return best


@njit(cache=True)
def _my_score_after(holder, give, receive, target, n, after, pips):
    """My round score after swapping my piece ``give`` for ``receive``."""
    after[:] = holder
    after[give] = holder[receive]
    after[receive] = 0
    _fill_pips(after, n, pips)
    return round_score(pips, n, 0, target)


@njit(cache=True)
def _act_batch(obs, masks, n, params, out):
    patience, starts = params
    m = 3 * n
    k_holder, k_target = starts[HOLDER], starts[TARGET]
    k_give = starts[GIVE]
    k_receive = starts[RECEIVE]
    k_tick = starts[ROUND] + 1
    accept_base = m * m + 1  # the action layout (in the game's core)
    stop_action = m * m + n
    holder = np.zeros(m, np.int64)
    after = np.zeros(m, np.int64)
    pips = np.zeros((n, n), np.int64)
    table = np.zeros((n, n), np.int64)
    for b in range(obs.shape[0]):
        o = obs[b]
        for piece in range(m):
            holder[piece] = _argmax(o, k_holder + piece * n, n)
        target = _argmax(o, k_target, n)
        _fill_pips(holder, n, pips)
        score_table_into(pips, n, table)
        mine = table[0, target]
        # others may hold any target but mine: their expected score averages over those
        best_expected = -1e18
        best_case = -(2**62)
        for q in range(1, n):
            total = 0
            for t in range(n):
                if t != target:
                    total += table[q, t]
                    best_case = max(best_case, table[q, t])
            best_expected = max(best_expected, total / (n - 1))
        if (mine > 0 and mine >= best_expected) or (o[k_tick] >= patience and mine >= best_case):
            out[b] = stop_action
            continue
        best_accept, accept_gain = 0, -np.inf
        for j in range(1, n):
            if masks[b, accept_base + j - 1] > 0:
                give = _argmax(o, k_receive + j * m, m)  # the piece j asks for is mine to give
                receive = _argmax(o, k_give + j * m, m)
                gain = _my_score_after(holder, give, receive, target, n, after, pips) - mine
                if gain > accept_gain:
                    best_accept, accept_gain = j, gain
        if accept_gain > 0:
            out[b] = accept_base + best_accept - 1
            continue
        best_swap, swap_gain = 0, -np.inf
        for a in range(m * m):
            if masks[b, 1 + a] > 0:
                give, receive = a // m, a % m
                # ties: ask for large pieces, give small ones, keep the proposal stable
                tie = 0.01 * (receive % 3 + 1) - 0.001 * (give % 3 + 1)
                gain = (_my_score_after(holder, give, receive, target, n, after, pips) - mine) + tie
                if gain > swap_gain:
                    best_swap, swap_gain = a, gain
        out[b] = 1 + best_swap if swap_gain > 0.5 else 0


class StocksAndBombsHeuristic(CompiledPlayer):
    """Trades for its target's colour, keeps its own colour from its target, stops when ahead."""

    name = "basic"
    kernel = staticmethod(_act_batch)

    def __init__(self, num_players: int, patience: int = 5):
        n = int(num_players)
        if not 4 <= n <= 6:
            raise ValueError(f"Stocks & Bombs has 4-6 players, got {num_players!r}")
        if patience < 0:
            raise ValueError(f"patience must be >= 0 ticks, got {patience}")
        self.n = n
        self.obs_size = int(obs_size(n))
        self.num_actions = int(num_actions(n))
        self.params = (float(patience), section_starts(n))
