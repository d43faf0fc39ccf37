"""Stocks & Bombs players that trade: they make neutral swaps that create value, read targets
from public proposals, and STOP when the round's lead pays.

Each seat's decision reads only its observation (the player is relative seat 0 and owns
relative colour 0):

- **Beliefs.** Targets are a permutation, so no other player holds mine. A player whose open
  proposal asks for a piece of colour x is probably after x (weight x4); the colour it offers
  is probably not its target (x0.5); each piece of another colour it holds makes that colour a
  little more likely (x1.5). Each other player's **expected score** is its round score (B6)
  averaged over its target under these weights.
- **Utility** of an arrangement: my exact round score, minus ``rivalry`` times the sum of the
  others' expected scores, plus ``currency`` per piece I hold that is neither my colour nor my
  target's (pieces other players will pay for). An equal-size swap of two players' own pieces
  changes no score, so both sides gain currency: this is how the first trades of a round happen.
- **Each tick**, the first that applies:
  1. STOP when my score is positive and either no other player can beat it whatever their
     target, or it leads every expected score by ``stop_lead``, or (after ``patience`` ticks)
     leads them at all; after ``stall`` ticks also when nobody can be ahead of me (a stalled
     round ends without a penalty);
  2. ACCEPT the open proposal to me that raises my utility most, if one does;
  3. PROPOSE, among the swaps that raise my utility and that the partner is expected to
     value (so it is likely to accept), the one with the largest sum of my gain and half the
     partner's; among near-equal swaps it rotates every few ticks so that a refused offer
     does not block trading;
  4. WAIT.

The kernel is compiled with numba and loops over the batch, a few microseconds per seat. It
finds its entries where the game's observation table puts them (:func:`section_starts`); its
action indices follow the action layout in :mod:`stonk_envs.games.stocks_and_bombs.core`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from stonk_envs.games.stocks_and_bombs.core import num_actions, obs_size
from stonk_envs.games.stocks_and_bombs.observe import OBSERVATION
from stonk_envs.policies.base import CompiledPlayer

SECTIONS = ("holder", "target", "proposal_open", "proposal_give", "proposal_receive", "round_tick_left")
"""The observation sections the Stocks & Bombs players read."""
HOLDER, TARGET, OPEN, GIVE, RECEIVE, ROUND = range(len(SECTIONS))
"""Indices of :data:`SECTIONS` in :func:`section_starts`."""


def section_starts(n: int) -> tuple[int, ...]:
    """Where each of :data:`SECTIONS` starts in the observation at ``n`` players."""
    spans = OBSERVATION.spans(n)
    return tuple(spans[name][0] for name in SECTIONS)


@njit(cache=True)
def round_score(pips, n, q, x):
    """q's round score if its target were colour x (B6), from ``pips[q, c]`` (pips of colour c held by seat q).
    With :func:`score_table_into`, the scoring of both compiled Stocks & Bombs players."""
    if x != q:
        return pips[q, x] - pips[x, q]
    own = 0
    for c in range(n):
        if c != q and pips[q, c] > 0:
            own += pips[q, c] - pips[c, q]
    return own


@njit(cache=True)
def score_table_into(pips, n, out):
    """``out[q, x]``: :func:`round_score` of every seat q and colour x, in one pass over each row (the
    traders' inner loop scores two tables per swap; one entry at a time is 1.5x slower there)."""
    for q in range(n):
        own = 0
        for x in range(n):
            if x != q:
                out[q, x] = pips[q, x] - pips[x, q]
                if pips[q, x] > 0:
                    own += pips[q, x] - pips[x, q]
        out[q, q] = own


@njit(cache=True)
def _utility(pips, holder, n, target, weights, rivalry, currency, table):
    """My utility and each other seat's expected score, for the arrangement ``pips``/``holder``."""
    score_table_into(pips, n, table)
    value = float(table[0, target])
    for q in range(1, n):
        expected = 0.0
        for x in range(n):
            expected += weights[q, x] * table[q, x]
        value -= rivalry * expected
    for g in range(3 * n):
        colour = g // 3
        if holder[g] == 0 and colour != 0 and colour != target:
            value += currency
    return value


@njit(cache=True)
def _partner_gain(pips_before, pips_after, holder_before, holder_after, n, q, weights, rivalry, currency, t0, t1):
    """How q is expected to value a swap with me: its expected score change, less ``rivalry``
    times my score change as q sees it (my target unknown to q), plus its currency change."""
    score_table_into(pips_before, n, t0)
    score_table_into(pips_after, n, t1)
    gain = 0.0
    for x in range(n):
        gain += weights[q, x] * (t1[q, x] - t0[q, x])
        gain -= rivalry * (t1[0, x] - t0[0, x]) / n
    for g in range(3 * n):
        if g // 3 != q:
            gain += currency * ((holder_after[g] == q) - (holder_before[g] == q))
    return gain


@njit(cache=True)
def _swap(pips, holder, g, r, q, p2, h2):
    """Write into ``p2`` and ``h2`` the arrangement after I swap my piece g for q's piece r."""
    p2[:, :] = pips
    h2[:] = holder
    sg, sr = g % 3 + 1, r % 3 + 1
    p2[0, g // 3] -= sg
    p2[q, g // 3] += sg
    p2[q, r // 3] -= sr
    p2[0, r // 3] += sr
    h2[g] = q
    h2[r] = 0


@njit(cache=True)
def _act_batch(obs, masks, n, params, out):
    rivalry, currency, stop_lead, patience, stall, rotate, starts = params
    m = 3 * n
    k_holder, k_target, k_open = starts[HOLDER], starts[TARGET], starts[OPEN]
    k_give, k_ask, k_tick = starts[GIVE], starts[RECEIVE], starts[ROUND] + 1
    accept_base = m * m + 1  # the action layout (in the game's core)
    stop_action = m * m + n
    holder = np.zeros(m, np.int64)
    pips = np.zeros((n, n), np.int64)
    weights = np.zeros((n, n))
    t0 = np.zeros((n, n), np.int64)
    t1 = np.zeros((n, n), np.int64)
    gains = np.full(m * m, -1e9)
    p2 = np.zeros((n, n), np.int64)
    h2 = np.zeros(m, np.int64)
    for b in range(obs.shape[0]):
        o = obs[b]
        pips[:, :] = 0
        for g in range(m):
            for q in range(n):
                if o[k_holder + g * n + q] > 0.5:
                    holder[g] = q
            pips[holder[g], g // 3] += g % 3 + 1
        target = 0
        for x in range(n):
            if o[k_target + x] > 0.5:
                target = x
        tick = o[k_tick]
        # beliefs about the other seats' targets
        weights[:, :] = 1.0
        for q in range(1, n):
            weights[q, target] = 0.0
            for g in range(m):
                c = g // 3
                if holder[g] == q and c != q and c != target:
                    weights[q, c] *= 1.5
            if o[k_open + q] > 0.5:
                for g in range(m):
                    if o[k_ask + q * m + g] > 0.5 and g // 3 != target:
                        weights[q, g // 3] *= 4.0
                    if o[k_give + q * m + g] > 0.5 and g // 3 != target and g // 3 != q:
                        weights[q, g // 3] *= 0.5
            total = weights[q].sum()
            for x in range(n):
                weights[q, x] /= total
        score_table_into(pips, n, t0)
        mine = t0[0, target]
        best_expected = -1e9
        best_case = -1000000
        for q in range(1, n):
            expected = 0.0
            for x in range(n):
                expected += weights[q, x] * t0[q, x]
                if weights[q, x] > 0 and t0[q, x] > best_case:
                    best_case = t0[q, x]
            best_expected = max(best_expected, expected)
        lead = mine - best_expected
        stop = mine > 0 and (mine >= best_case or lead >= stop_lead or (tick >= patience and lead > 0))
        stop = stop or (tick >= stall and mine >= best_case)
        if stop:
            out[b] = stop_action
            continue
        here = _utility(pips, holder, n, target, weights, rivalry, currency, t1)
        # accept the best open proposal to me
        best_accept, best_gain = -1, 1e-9
        for j in range(1, n):
            if masks[b, m * m + j] == 0:
                continue
            give, ask = -1, -1
            for g in range(m):
                if o[k_give + j * m + g] > 0.5:
                    give = g
                if o[k_ask + j * m + g] > 0.5:
                    ask = g
            if give < 0 or ask < 0:
                continue
            _swap(pips, holder, ask, give, j, p2, h2)
            gain = _utility(p2, h2, n, target, weights, rivalry, currency, t1) - here
            if gain > best_gain:
                best_accept, best_gain = j, gain
        if best_accept > 0:
            out[b] = accept_base + best_accept - 1
            continue
        # propose the best swap, rotating among near-equal ones
        best = -1e9
        for a in range(m * m):
            gains[a] = -1e9
            if masks[b, 1 + a] == 0:
                continue
            g, r = a // m, a % m
            q = holder[r]
            _swap(pips, holder, g, r, q, p2, h2)
            mine_gain = _utility(p2, h2, n, target, weights, rivalry, currency, t1) - here
            if mine_gain <= 1e-9:
                continue
            partner = _partner_gain(pips, p2, holder, h2, n, q, weights, rivalry, currency, t0, t1)
            if partner <= 1e-9:
                continue
            gains[a] = mine_gain + 0.5 * partner + 0.001 * (r % 3) - 0.0001 * (g % 3)
            best = max(best, gains[a])
        if best < -1e8:
            out[b] = 0
            continue
        count = 0
        for a in range(m * m):
            if gains[a] >= best - 0.05:
                count += 1
        pick = (int(tick) // int(rotate)) % count
        for a in range(m * m):
            if gains[a] >= best - 0.05:
                if pick == 0:
                    out[b] = 1 + a
                    break
                pick -= 1


class StocksAndBombsTrader(CompiledPlayer):
    """Trades neutral swaps into deals, infers targets from proposals, STOPs on a paying lead.

    With its defaults it is the ``steady`` player; the styles below change the settings.
    """

    name = "steady"
    kernel = staticmethod(_act_batch)

    def __init__(
        self,
        num_players: int,
        rivalry: float = 1.0,
        currency: float = 0.1,
        stop_lead: float = 2.0,
        patience: int = 15,
        stall: int = 30,
        rotate: int = 3,
    ):
        n = int(num_players)
        if not 4 <= n <= 6:
            raise ValueError(f"Stocks & Bombs has 4-6 players, got {num_players!r}")
        for label, value in (("patience", patience), ("stall", stall)):
            if value < 0:
                raise ValueError(f"{label} must be >= 0 ticks, got {value}")
        if rotate < 1:
            raise ValueError(f"rotate must be >= 1 tick, got {rotate}")
        self.n = n
        self.obs_size = int(obs_size(n))
        self.num_actions = int(num_actions(n))
        self.params = (
            float(rivalry), float(currency), float(stop_lead), float(patience), float(stall), float(rotate),
            section_starts(n),
        )


class StocksAndBombsCautious(StocksAndBombsTrader):
    """Waits for a larger lead before STOP (3 points over every expected score, or 25 ticks)."""

    name = "cautious"

    def __init__(self, num_players: int):
        super().__init__(num_players, stop_lead=3.0, patience=25, stall=40)


class StocksAndBombsAggressive(StocksAndBombsTrader):
    """Trades more readily (helping a partner is less of a cost) and STOPs on any early lead.

    The strongest in a mixed field, so it is also the game's ``heuristic``.
    """

    name = "aggressive"

    def __init__(self, num_players: int):
        super().__init__(num_players, rivalry=0.6, currency=0.2, stop_lead=1.0, patience=5, stall=20)
