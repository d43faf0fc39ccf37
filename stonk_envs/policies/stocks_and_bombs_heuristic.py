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
"""

from __future__ import annotations

import numpy as np

from stonk_envs.games.stocks_and_bombs.observe import observation_size
from stonk_envs.policies.base import Policy


def pips_held(holder: np.ndarray, n: int) -> np.ndarray:
    """``P[..., q, c]``: pips of colour c held by seat q, from relative holders ``holder[..., 3n]``."""
    onehot = holder[..., None] == np.arange(n)
    by_colour = onehot.reshape(*holder.shape[:-1], n, 3, n)
    pips = (by_colour * np.array([1, 2, 3])[:, None]).sum(axis=-2)
    return np.swapaxes(pips, -1, -2)


def score_table(pips: np.ndarray) -> np.ndarray:
    """``S[..., q, t]``: the round score of seat q if its target were colour t (B6)."""
    n = pips.shape[-1]
    scores = pips - np.swapaxes(pips, -1, -2)
    # own target: every colour held counts as a target; the own-colour term is always 0
    own = (scores * (pips > 0)).sum(axis=-1)
    return np.where(np.eye(n, dtype=bool), own[..., :, None], scores)


class StocksAndBombsHeuristic(Policy):
    """Trades for its target's colour, keeps its own colour from its target, stops when ahead."""

    name = "basic"

    def __init__(self, num_players: int, patience: int = 5):
        n = int(num_players)
        if not 4 <= n <= 6:
            raise ValueError(f"Stocks & Bombs has 4-6 players, got {num_players!r}")
        if patience < 0:
            raise ValueError(f"patience must be >= 0 ticks, got {patience}")
        self.n = n
        self.patience = patience
        m = 3 * n
        self.m = m
        self.obs_size = 9 * n * n + 4 * n + 3
        # it reads only the entries before the public memory, which keep their offsets
        self.obs_sizes = (self.obs_size, observation_size(n, memory=True))
        self.stop_action = 9 * n * n + n
        gives, receives = np.divmod(np.arange(m * m), m)
        self.swap_give, self.swap_receive = gives, receives
        size = np.arange(m) % 3 + 1
        # ties: ask for large pieces, give small ones, keep the proposal stable
        self.tie_break = 0.01 * size[receives] - 0.001 * size[gives]

    def decode(self, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Relative holders (B, 3n), own target colour (B,), proposal give / receive (B, n)."""
        n, m = self.n, self.m
        if observations.shape[1] not in self.obs_sizes:
            raise ValueError(f"expected observations of size {' or '.join(map(str, self.obs_sizes))} for {n} players")
        holder = observations[:, : m * n].reshape(-1, m, n).argmax(axis=2)
        k = m * n
        target = observations[:, k : k + n].argmax(axis=1)
        k += 2 * n
        give = observations[:, k : k + n * m].reshape(-1, n, m).argmax(axis=2)
        receive = observations[:, k + n * m : k + 2 * n * m].reshape(-1, n, m).argmax(axis=2)
        return holder, target, give, receive

    def my_scores_after(self, holder, target, gives, receives) -> np.ndarray:
        """My round score after swapping my ``gives[b, k]`` for ``receives[b, k]`` (B, K)."""
        rows = np.arange(len(holder))[:, None]
        after = np.repeat(holder[:, None, :], gives.shape[1], axis=1)
        other = np.take_along_axis(holder, receives, axis=1)
        k = np.arange(gives.shape[1])[None, :]
        after[rows, k, gives] = other
        after[rows, k, receives] = 0
        table = score_table(pips_held(after, self.n))
        return table[rows, k, 0, target[:, None]]

    def act(self, observations, masks, rng):
        n, m = self.n, self.m
        holder, target, prop_give, prop_receive = self.decode(observations)
        rows = np.arange(len(holder))
        table = score_table(pips_held(holder, n))
        mine = table[rows, 0, target]
        # others may hold any target but mine; average their scores over those
        possible = np.ones((len(holder), n), dtype=bool)
        possible[rows, target] = False
        others = table[:, 1:, :]
        expected = (others * possible[:, None, :]).sum(axis=2) / (n - 1)
        best_case = np.where(possible[:, None, :], others, np.iinfo(others.dtype).min).max(axis=2)
        tick = observations[:, self.obs_size - 2]  # the tick entry, before any public memory
        stop = (mine > 0) & (mine >= expected.max(axis=1))
        stop |= (tick >= self.patience) & (mine >= best_case.max(axis=1))

        accept_ok = masks[:, 9 * n * n + 1 : 9 * n * n + n] > 0
        accept_scores = self.my_scores_after(holder, target, prop_receive[:, 1:], prop_give[:, 1:])
        accept_gain = np.where(accept_ok, accept_scores - mine[:, None], -np.inf)
        best_accept = accept_gain.argmax(axis=1)
        accept = accept_gain[rows, best_accept] > 0

        swap_ok = masks[:, 1 : 1 + m * m] > 0
        shape = (len(holder), len(self.swap_give))
        swap_scores = self.my_scores_after(
            holder, target, np.broadcast_to(self.swap_give, shape), np.broadcast_to(self.swap_receive, shape)
        )
        swap_gain = np.where(swap_ok, swap_scores - mine[:, None] + self.tie_break, -np.inf)
        best_swap = swap_gain.argmax(axis=1)
        propose = swap_gain[rows, best_swap] > 0.5

        actions = np.zeros(len(holder), dtype=np.int64)
        actions[propose] = 1 + best_swap[propose]
        actions[accept] = 9 * n * n + 1 + best_accept[accept]
        actions[stop] = self.stop_action
        return actions
