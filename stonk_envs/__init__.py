"""stonk_envs: PettingZoo environments for three stock-trading games.

Importing the package registers each game in PettingZoo's registry, so
``pettingzoo.make("aec", "stonk_envs/stocks_and_bombs-v1", num_players=5)`` works. The game
modules (``stonk_envs.stocks_and_bombs_v1`` and the others) load on first use.
"""

import importlib
from importlib.metadata import PackageNotFoundError, version

from stonk_envs.compiled_cache import use_source_keyed_cache

use_source_keyed_cache()  # before any compiled module is imported

from stonk_envs.registry import BUILTIN_GAMES, register_builtin_games  # noqa: E402

try:
    __version__ = version("stonk_envs")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0"

register_builtin_games()

_LAZY_MODULES = {game.module.rsplit(".", 1)[1] for game in BUILTIN_GAMES}


def __getattr__(name: str):
    if name in _LAZY_MODULES:
        return importlib.import_module(f"stonk_envs.{name}")
    raise AttributeError(f"module 'stonk_envs' has no attribute {name!r}")


__all__ = ["__version__", *sorted(_LAZY_MODULES)]
