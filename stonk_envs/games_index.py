"""Looking up a game's environment module by name, with a clear error for a wrong name."""

from __future__ import annotations

import importlib
from types import ModuleType

from stonk_envs.registry import GAME_MODULES


def game_module(name: str) -> ModuleType:
    """The ``<name>_v0`` module of a game (``env``, ``raw_env``, ``parallel_env``)."""
    if name not in GAME_MODULES:
        raise ValueError(f"unknown game {name!r}; choose one of {sorted(GAME_MODULES)}")
    return importlib.import_module(GAME_MODULES[name])
