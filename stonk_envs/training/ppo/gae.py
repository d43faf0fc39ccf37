"""Generalised advantage estimation per seat, over a rollout in which seats decide irregularly.

A rollout is a table of rows (engine steps) by columns (seats of games, ``game * P + seat``).
``valid[t, s]`` marks a decision of seat ``s`` at row ``t``; its transition runs to the seat's
next decision, and ``rewards[t, s]`` holds every reward the seat got in between, summed.
``done[t, s]`` marks a transition that ended the game. A seat's last decision in the rollout
whose game goes on has no next decision yet: it is not trainable (the trainer carries it into
the next rollout), and the decision before it bootstraps from its value.
"""

from __future__ import annotations

import numpy as np


def per_seat_gae(
    rewards: np.ndarray, values: np.ndarray, valid: np.ndarray, done: np.ndarray, gamma: float, lam: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(advantages, returns, trainable)``, each shaped like ``rewards`` (rows, columns).

    For each decision ``t`` of a seat with next decision ``u``:
    ``delta_t = r_t + gamma * (1 - done_t) * V_u - V_t`` and
    ``A_t = delta_t + gamma * lam * (1 - done_t) * A_u``, with ``A_u = 0`` when ``u`` is not trainable.
    """
    rows, columns = rewards.shape
    advantages = np.zeros((rows, columns), np.float32)
    trainable = np.zeros((rows, columns), np.bool_)
    next_value = np.zeros(columns, np.float32)
    next_advantage = np.zeros(columns, np.float32)
    has_next = np.zeros(columns, np.bool_)
    for t in range(rows - 1, -1, -1):
        here = valid[t]
        going_on = ~done[t]
        delta = rewards[t] + gamma * going_on * next_value - values[t]
        advantage = delta + gamma * lam * going_on * next_advantage
        trainable[t] = here & (done[t] | has_next)
        advantages[t] = np.where(trainable[t], advantage, 0.0)
        next_value = np.where(here, values[t], next_value)
        next_advantage = np.where(here, advantages[t], next_advantage)
        has_next |= here
    returns = advantages + values
    return advantages, returns, trainable
