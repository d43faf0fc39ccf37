"""Picking legal actions from logits: the best one, or a sample with a numpy generator."""

from __future__ import annotations

import numpy as np


def choose(logits: np.ndarray, masks: np.ndarray, rng: np.random.Generator, deterministic: bool) -> np.ndarray:
    """Argmax of the legal logits, or a softmax sample over them (Gumbel-max), as int64."""
    scores = np.where(masks > 0, logits.astype(np.float64), -np.inf)
    if not deterministic:
        scores = scores + rng.gumbel(size=scores.shape)
    return scores.argmax(axis=1).astype(np.int64)
