"""Batched engines: ``make(name, num_envs, **config)`` steps N games of one kind in lockstep.

Adapters over an engine: :class:`~stonk_envs.vector.selfplay.SelfPlayVecEnv` (SB3) and
:class:`~stonk_envs.vector.selfplay.SelfPlayGymVectorEnv` (Gymnasium), the single-seat
self-play views.
"""

from __future__ import annotations

import importlib

from stonk_envs.core.config import build_config
from stonk_envs.vector.engine import BatchEngine

KERNEL_MODULES = {
    "stockpile": "stonk_envs.vector.kernels.stockpile",
    "stocks_and_bombs": "stonk_envs.vector.kernels.stocks_and_bombs",
    "stonk_market": "stonk_envs.vector.kernels.stonk_market",
}
"""The per-game table: game name to its batch-kernel module."""


def make(name: str, num_envs: int, *, parallel: bool | None = None, observe: str = "all", **config) -> BatchEngine:
    """A :class:`BatchEngine` of ``num_envs`` games of ``name``; ``config`` as for the env.

    ``parallel`` and ``observe`` are the engine's options (see :mod:`stonk_envs.vector.engine`).
    """
    if name not in KERNEL_MODULES:
        raise ValueError(f"no batched engine for game {name!r}; available: {sorted(KERNEL_MODULES)}")
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
    kernels = importlib.import_module(KERNEL_MODULES[name])
    return BatchEngine(kernels, num_envs, build_config(kernels.CONFIG, config), parallel, observe)


__all__ = ["KERNEL_MODULES", "BatchEngine", "make"]
