"""Batched engines: ``make(name, num_envs, **config)`` steps N games of one kind in lockstep.

Single-seat self-play over an engine (:mod:`~stonk_envs.vector.selfplay`) and its views:
:class:`~stonk_envs.vector.gym_vector.EngineVectorEnv` (what ``gymnasium.make_vec`` returns) and
:class:`~stonk_envs.vector.sb3_selfplay.SelfPlayVecEnv` (SB3).
"""

from __future__ import annotations

from stonk_envs import registry
from stonk_envs.core.validation import check_int
from stonk_envs.games_index import build_game
from stonk_envs.vector.engine import MAX_NUM_ENVS, BatchEngine


def make(name: str, num_envs: int, *, parallel: bool | None = None, observe: str = "all", **config) -> BatchEngine:
    """A :class:`BatchEngine` of ``num_envs`` games of ``name``; ``config`` as for the env.

    ``parallel`` and ``observe`` are the engine's options (see :mod:`stonk_envs.vector.engine`).
    """
    if not isinstance(name, str) or name not in registry.names():
        raise ValueError(f"no batched engine for game {name!r}; available: {registry.names()}")
    num_envs = check_int("num_envs", num_envs, 1, MAX_NUM_ENVS)
    return BatchEngine(build_game(name, **config), num_envs, parallel, observe)


__all__ = ["BatchEngine", "make"]
