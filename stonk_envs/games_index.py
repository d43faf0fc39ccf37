"""Looking up a game by name, with a clear error for a wrong name."""

from __future__ import annotations

import dataclasses
import importlib
from types import ModuleType

from stonk_envs import registry
from stonk_envs.core.config import build_config
from stonk_envs.core.game import Game


def game_module(name: str) -> ModuleType:
    """The env module of a game (``env``, ``raw_env``, ``parallel_env``), named by its spec."""
    return importlib.import_module(registry.spec(name).module)


def build_game(name: str, **config) -> Game:
    """The rules object (``Game``) of a game with ``config``, checked as the envs check it."""
    module = game_module(name)
    return module.GAME(build_config(module.CONFIG, config))


def memory_start(name: str, **config) -> int | None:
    """Where the public memory starts in the observations of a game with ``config``; None when the
    game has no ``memory`` option or it is off."""
    module = game_module(name)
    if "memory" not in {field.name for field in dataclasses.fields(module.CONFIG)}:
        return None
    size = len(build_game(name, **{**config, "memory": False}).observation_bounds[0])
    return size if size < len(build_game(name, **config).observation_bounds[0]) else None
