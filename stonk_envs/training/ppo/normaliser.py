"""Running mean and variance of observations, fitted batch by batch (Chan et al.'s parallel update)."""

from __future__ import annotations

import numpy as np
from numba import njit


class RunningStats:
    """Per-entry mean and variance of every observation seen so far, in float64."""

    def __init__(self, size: int):
        self.mean = np.zeros(size, np.float64)
        self.var = np.ones(size, np.float64)
        self.count = 0.0

    def update(self, batch: np.ndarray) -> None:
        """Fold a batch of observations (B, size) into the statistics."""
        if len(batch) == 0:
            return
        batch_mean, batch_var = _moments(np.ascontiguousarray(batch))
        n = float(len(batch))
        if self.count == 0:
            self.mean, self.var, self.count = batch_mean, batch_var, n
            return
        total = self.count + n
        delta = batch_mean - self.mean
        self.mean = self.mean + delta * n / total
        self.var = (self.var * self.count + batch_var * n + delta**2 * self.count * n / total) / total
        self.count = total

    def state_dict(self) -> dict:
        return {"mean": self.mean.copy(), "var": self.var.copy(), "count": self.count}

    def load_state_dict(self, state: dict) -> None:
        self.mean, self.var, self.count = state["mean"].copy(), state["var"].copy(), float(state["count"])


@njit(cache=True)
def _moments(batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-column mean and (biased) variance of ``batch``, summed row by row in float64.

    The same sums in the same order as ``batch.astype(np.float64).mean(axis=0)`` and ``.var(axis=0)``,
    without the float64 copy of the batch and the temporaries (several times faster).
    """
    n, size = batch.shape
    mean = np.zeros(size, np.float64)
    for i in range(n):
        for j in range(size):
            mean[j] += batch[i, j]
    mean /= n
    var = np.zeros(size, np.float64)
    for i in range(n):
        for j in range(size):
            d = batch[i, j] - mean[j]
            var[j] += d * d
    var /= n
    return mean, var
