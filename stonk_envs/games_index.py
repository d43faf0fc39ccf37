"""Looking up a game by name, with a clear error for a wrong name."""

from __future__ import annotations

import importlib
from types import ModuleType

from stonk_envs.core.config import build_config
from stonk_envs.core.game import Game
from stonk_envs.registry import GAME_MODULES


def game_module(name: str) -> ModuleType:
    """The ``<name>_v1`` module of a game (``env``, ``raw_env``, ``parallel_env``)."""
    if name not in GAME_MODULES:
        raise ValueError(f"unknown game {name!r}; choose one of {sorted(GAME_MODULES)}")
    return importlib.import_module(GAME_MODULES[name])


def build_game(name: str, **config) -> Game:
    """The rules object (``Game``) of a game with ``config``, checked as the envs check it."""
    module = game_module(name)
    return module.GAME(build_config(module.CONFIG, config))
