"""Registration of every game in PettingZoo's registry as ``stonk_envs/<name>-v1``, and of its
single-agent env in Gymnasium's as ``stonk_envs/<Name>-v1`` (:data:`GYM_IDS`), whose
``gymnasium.make_vec`` steps N games on the batched engine (:mod:`stonk_envs.vector.gym_vector`).

The version number is the version of the games' observations (:data:`OBSERVATION_VERSION`), as
PettingZoo numbers its envs: it moves whenever an observation changes, so that code and saved
policies made for one layout never meet another. A retired version's module
(``stonk_envs.stockpile_v0``) and PettingZoo id still exist and raise
:class:`RetiredVersionError` saying what replaced them; Gymnasium itself refuses a retired id
with its ``DeprecatedEnv`` error.
"""

from functools import partial

import gymnasium
import pettingzoo

OBSERVATION_VERSION = 1
"""The current version of every game's observations and env ids."""

RETIRED_VERSIONS = {
    0: "v1 observations add each game's public memory (what a player at the table could write down)",
}
"""Each earlier version, with what changed after it."""

GAME_MODULES = {
    "stockpile": "stonk_envs.stockpile_v1",
    "stonk_market": "stonk_envs.stonk_market_v1",
    "stocks_and_bombs": "stonk_envs.stocks_and_bombs_v1",
}

GYM_IDS = {
    "stockpile": "stonk_envs/Stockpile-v1",
    "stonk_market": "stonk_envs/StonkMarket-v1",
    "stocks_and_bombs": "stonk_envs/StocksAndBombs-v1",
}
"""The Gymnasium id of each game's single-agent env (:class:`stonk_envs.single_agent.SingleAgentEnv`)."""


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
        f"Use {GAME_MODULES[game]} (id {env_id(game)}); policies saved for v{version} must be retrained."
    )


def _refuse_retired(module_name: str, **_config) -> None:
    raise retired_module_error(module_name)


def register_all() -> None:
    """Register the AEC (``env``) and Parallel (``parallel_env``) entry points of each game, the
    retired ids (whose modules raise :class:`RetiredVersionError`), and the Gymnasium ids."""
    for name, module in GAME_MODULES.items():
        if env_id(name) not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id(name), entry_point=f"{module}:env")
            pettingzoo.register("parallel", env_id(name), entry_point=f"{module}:parallel_env")
        for version in RETIRED_VERSIONS:
            if env_id(name, version) not in pettingzoo.aec_registry:
                refuse = partial(_refuse_retired, f"stonk_envs.{name}_v{version}")
                pettingzoo.register("aec", env_id(name, version), entry_point=refuse)
                pettingzoo.register("parallel", env_id(name, version), entry_point=refuse)
        if GYM_IDS[name] not in gymnasium.registry:
            entry_point = "stonk_envs.single_agent:SingleAgentEnv"
            gymnasium.register(GYM_IDS[name], entry_point=entry_point, kwargs={"game": name},
                               vector_entry_point="stonk_envs.vector.gym_vector:EngineVectorEnv")
