"""Running mean and variance of observations, fitted batch by batch (Chan et al.'s parallel update)."""

from __future__ import annotations

import numpy as np


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
        batch = batch.astype(np.float64, copy=False)
        batch_mean, batch_var, n = batch.mean(axis=0), batch.var(axis=0), float(len(batch))
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
