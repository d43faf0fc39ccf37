"""The games: one :class:`GameSpec` per game, and their registration with PettingZoo and Gymnasium.

Everything that differs by game (its env module, ids, config, drawer, built-in players,
invariants and story) is named in its spec, and everything else asks :func:`spec` and
:func:`names`. A spec names modules and objects by dotted strings, loaded on first use
(:func:`load`), so this module imports nothing of the package. :func:`register` adds a game at
run time: a game package plus one spec is a game.

Each game is registered in PettingZoo's registry as ``stonk_envs/<name>-v1``, and its
single-agent env in Gymnasium's as the spec's ``gym_id`` (``stonk_envs/<Name>-v1``), whose
``gymnasium.make_vec`` steps N games on the batched engine (:mod:`stonk_envs.vector.gym_vector`).

The version number is the version of the games' observations (:data:`OBSERVATION_VERSION`), as
PettingZoo numbers its envs: it moves whenever an observation changes, so that code and saved
policies made for one layout never meet another. A retired version's module
(``stonk_envs.stockpile_v0``) and PettingZoo id still exist and raise
:class:`RetiredVersionError` saying what replaced them; Gymnasium itself refuses a retired id
with its ``DeprecatedEnv`` error.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType
from typing import Any

import gymnasium
import pettingzoo

OBSERVATION_VERSION = 1
"""The current version of every game's observations and env ids."""

RETIRED_VERSIONS = {
    0: "v1 observations add each game's public memory (what a player at the table could write down)",
}
"""Each earlier version, with what changed after it."""

_NAME = re.compile(r"[a-z][a-z0-9_]*")
_MODULE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
_OBJECT = re.compile(rf"{_MODULE.pattern}:[A-Za-z_]\w*")
_GYM_ID = re.compile(r"[\w.-]+/[\w.-]+-v\d+")


@dataclass(frozen=True)
class GameSpec:
    """Everything the package keeps about one game, by name."""

    name: str
    """Registry name, e.g. ``"stocks_and_bombs"`` (lower case); the PettingZoo id is ``stonk_envs/<name>-v1``."""
    module: str
    """The env module, e.g. ``"stonk_envs.stocks_and_bombs_v1"``: ``env``, ``raw_env``, ``parallel_env``
    (:func:`stonk_envs.core.adapter.env_constructors`) and ``GAME``, the ``Game`` subclass."""
    gym_id: str
    """The Gymnasium id of the game's single-agent env, e.g. ``"stonk_envs/StocksAndBombs-v1"``."""
    config: str
    """The config dataclass as ``module:Class``; a saved training state may hold one (a safe load allows it)."""
    drawer: str
    """The module that draws the table (``size(num_players)``, ``draw(game, states, i, seat)``, see
    :mod:`stonk_envs.render`)."""
    invariants: str
    """The module of what the game conserves, for the soak: ``broken(states, config)`` (a bool per
    record) and ``max_steps(config)`` (the most steps a game may last)."""
    players: Mapping[str, str] = field(default_factory=dict)
    """The rule-based players by name, as ``module:Class`` (the class takes ``num_players``);
    ``heuristic`` is the default one, present whenever any is. ``random`` is every game's."""
    story: str | None = None
    """How a step is told in words, as ``module:OBJECT`` (a :class:`stonk_envs.games.story.Story`);
    None: the moves and the winners only."""
    retired_versions: tuple[int, ...] = ()
    """The retired observation versions (:data:`RETIRED_VERSIONS`) whose module and id still
    exist to refuse with :class:`RetiredVersionError`."""

    def __post_init__(self):
        _check("name", self.name, _NAME, "lower case letters, digits and _")
        _check("module", self.module, _MODULE, "a dotted module name")
        _check("drawer", self.drawer, _MODULE, "a dotted module name")
        _check("invariants", self.invariants, _MODULE, "a dotted module name")
        _check("config", self.config, _OBJECT, "'module:Class'")
        if self.story is not None:
            _check("story", self.story, _OBJECT, "'module:OBJECT'")
        _check("gym_id", self.gym_id, _GYM_ID, "a Gymnasium id '<namespace>/<Name>-v<k>'")
        if not isinstance(self.players, Mapping):
            raise ValueError(f"game spec players must map names to 'module:Class', got {self.players!r}")
        for player, target in self.players.items():
            _check("player name", player, _NAME, "lower case letters, digits and _")
            _check(f"player {player}", target, _OBJECT, "'module:Class'")
        if "random" in self.players:
            raise ValueError("game spec players must not name 'random': every game has it")
        if self.players and "heuristic" not in self.players:
            raise ValueError(f"game spec players must include 'heuristic', the default one; got {sorted(self.players)}")
        unknown = sorted(set(self.retired_versions) - set(RETIRED_VERSIONS))
        if unknown:
            raise ValueError(f"game spec retired_versions {unknown} are not among {sorted(RETIRED_VERSIONS)}")
        object.__setattr__(self, "players", MappingProxyType(dict(self.players)))

    @property
    def env_id(self) -> str:
        """The PettingZoo id, e.g. ``stonk_envs/stockpile-v1``."""
        return env_id(self.name)

    def config_class(self) -> type:
        """The config dataclass."""
        return load(self.config)


def _check(what: str, value: Any, pattern: re.Pattern, expected: str) -> None:
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise ValueError(f"game spec {what} must be {expected}, got {value!r}")


def load(target: str) -> Any:
    """The object ``module:name`` names, or the module a plain dotted name names."""
    module, _, name = target.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, name) if name else loaded


_SPECS: dict[str, GameSpec] = {}


def names() -> list[str]:
    """Every registered game's name, sorted."""
    return sorted(_SPECS)


def spec(name: str) -> GameSpec:
    """The spec of the game ``name``; ``ValueError`` naming the choices for an unknown one."""
    if not isinstance(name, str) or name not in _SPECS:
        raise ValueError(f"unknown game {name!r}; choose one of {names()}")
    return _SPECS[name]


class RetiredVersionError(ImportError):
    """A game module or env id of a retired observation version was asked for."""


def env_id(name: str, version: int = OBSERVATION_VERSION) -> str:
    """The registry id of a game, e.g. ``stonk_envs/stockpile-v1``."""
    return f"stonk_envs/{name}-v{version}"


def retired_module_error(module_name: str) -> RetiredVersionError:
    """The error raised by importing ``stonk_envs.<game>_v<k>`` for a retired version ``k``."""
    game, _, version = module_name.rsplit(".", 1)[1].rpartition("_v")
    return RetiredVersionError(
        f"{module_name} is retired: {RETIRED_VERSIONS[int(version)]}. "
        f"Use {spec(game).module} (id {env_id(game)}); policies saved for v{version} must be retrained."
    )


def _refuse_retired(module_name: str, **_config) -> None:
    raise retired_module_error(module_name)


def register(game: GameSpec) -> None:
    """Add ``game`` to the games, and register its AEC (``env``) and Parallel (``parallel_env``) entry
    points, its retired ids (which raise :class:`RetiredVersionError`) and its Gymnasium id.
    Registering the same spec again does nothing; another game of a taken name or id is refused."""
    if not isinstance(game, GameSpec):
        raise ValueError(f"register takes a GameSpec, got {game!r}")
    if _SPECS.get(game.name, game) != game:
        raise ValueError(f"a different game named {game.name!r} is registered; unregister it first")
    taken = gymnasium.registry.get(game.gym_id)
    if taken is not None and taken.kwargs.get("game") != game.name:
        raise ValueError(f"the Gymnasium id {game.gym_id!r} is taken by {taken.entry_point} {taken.kwargs}")
    taken = pettingzoo.aec_registry.get(game.env_id)
    if taken is not None and taken.entry_point != f"{game.module}:env":
        raise ValueError(f"the PettingZoo id {game.env_id!r} is taken by {taken.entry_point}")
    _SPECS[game.name] = game
    if game.env_id not in pettingzoo.aec_registry:
        pettingzoo.register("aec", game.env_id, entry_point=f"{game.module}:env")
        pettingzoo.register("parallel", game.env_id, entry_point=f"{game.module}:parallel_env")
    for version in game.retired_versions:
        if env_id(game.name, version) not in pettingzoo.aec_registry:
            refuse = partial(_refuse_retired, f"stonk_envs.{game.name}_v{version}")
            pettingzoo.register("aec", env_id(game.name, version), entry_point=refuse)
            pettingzoo.register("parallel", env_id(game.name, version), entry_point=refuse)
    if game.gym_id not in gymnasium.registry:
        gymnasium.register(game.gym_id, entry_point="stonk_envs.single_agent:SingleAgentEnv",
                           kwargs={"game": game.name},
                           vector_entry_point="stonk_envs.vector.gym_vector:EngineVectorEnv")


def unregister(name: str) -> None:
    """Remove the game ``name`` and its ids from PettingZoo's and Gymnasium's registries."""
    game = spec(name)
    del _SPECS[name]
    for version in (OBSERVATION_VERSION, *game.retired_versions):
        pettingzoo.aec_registry.pop(env_id(name, version), None)
        pettingzoo.parallel_registry.pop(env_id(name, version), None)
    gymnasium.registry.pop(game.gym_id, None)


BUILTIN_GAMES = (
    GameSpec(
        name="stockpile",
        module="stonk_envs.stockpile_v1",
        gym_id="stonk_envs/Stockpile-v1",
        config="stonk_envs.games.stockpile.config:StockpileConfig",
        drawer="stonk_envs.render.stockpile",
        invariants="stonk_envs.games.stockpile.invariants",
        players={"heuristic": "stonk_envs.policies.stockpile_heuristic:StockpileHeuristic"},
        story="stonk_envs.games.stockpile.story:STORY",
        retired_versions=(0,),
    ),
    GameSpec(
        name="stonk_market",
        module="stonk_envs.stonk_market_v1",
        gym_id="stonk_envs/StonkMarket-v1",
        config="stonk_envs.games.stonk_market.config:StonkMarketConfig",
        drawer="stonk_envs.render.stonk_market",
        invariants="stonk_envs.games.stonk_market.invariants",
        players={
            "heuristic": "stonk_envs.policies.stonk_market_trader:StonkMarketTrader",
            "cautious": "stonk_envs.policies.stonk_market_trader:StonkMarketCautious",
            "aggressive": "stonk_envs.policies.stonk_market_trader:StonkMarketAggressive",
            "closer": "stonk_envs.policies.stonk_market_trader:StonkMarketCloser",
            "basic": "stonk_envs.policies.stonk_market_heuristic:StonkMarketHeuristic",
        },
        story="stonk_envs.games.stonk_market.story:STORY",
        retired_versions=(0,),
    ),
    GameSpec(
        name="stocks_and_bombs",
        module="stonk_envs.stocks_and_bombs_v1",
        gym_id="stonk_envs/StocksAndBombs-v1",
        config="stonk_envs.games.stocks_and_bombs.config:StocksAndBombsConfig",
        drawer="stonk_envs.render.stocks_and_bombs",
        invariants="stonk_envs.games.stocks_and_bombs.invariants",
        players={
            "heuristic": "stonk_envs.policies.stocks_and_bombs_trader:StocksAndBombsAggressive",
            "steady": "stonk_envs.policies.stocks_and_bombs_trader:StocksAndBombsTrader",
            "cautious": "stonk_envs.policies.stocks_and_bombs_trader:StocksAndBombsCautious",
            "aggressive": "stonk_envs.policies.stocks_and_bombs_trader:StocksAndBombsAggressive",
            "basic": "stonk_envs.policies.stocks_and_bombs_heuristic:StocksAndBombsHeuristic",
        },
        story="stonk_envs.games.stocks_and_bombs.story:STORY",
        retired_versions=(0,),
    ),
)
"""The package's games. In Stocks & Bombs ``heuristic`` is the same player as ``aggressive``;
``basic`` is each real-time game's earlier player that hardly trades, kept as a baseline."""


def register_builtin_games() -> None:
    """Register the package's games (``import stonk_envs`` does)."""
    for game in BUILTIN_GAMES:
        register(game)
