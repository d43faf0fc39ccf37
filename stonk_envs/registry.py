"""Registration of every game in PettingZoo's registry as ``stonk_envs/<name>-v0``, and of its
single-agent env in Gymnasium's as ``stonk_envs/<Name>-v0`` (:data:`GYM_IDS`)."""

import gymnasium
import pettingzoo

GAME_MODULES = {
    "stockpile": "stonk_envs.stockpile_v0",
    "stonk_market": "stonk_envs.stonk_market_v0",
    "stocks_and_bombs": "stonk_envs.stocks_and_bombs_v0",
}


GYM_IDS = {
    "stockpile": "stonk_envs/Stockpile-v0",
    "stonk_market": "stonk_envs/StonkMarket-v0",
    "stocks_and_bombs": "stonk_envs/StocksAndBombs-v0",
}
"""The Gymnasium id of each game's single-agent env (:class:`stonk_envs.single_agent.SingleAgentEnv`)."""


def env_id(name: str) -> str:
    """The registry id of a game, e.g. ``stonk_envs/stockpile-v0``."""
    return f"stonk_envs/{name}-v0"


def register_all() -> None:
    """Register the AEC (``env``) and Parallel (``parallel_env``) entry points of each game."""
    for name, module in GAME_MODULES.items():
        if env_id(name) not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id(name), entry_point=f"{module}:env")
            pettingzoo.register("parallel", env_id(name), entry_point=f"{module}:parallel_env")
        if GYM_IDS[name] not in gymnasium.registry:
            entry_point = "stonk_envs.single_agent:SingleAgentEnv"
            gymnasium.register(GYM_IDS[name], entry_point=entry_point, kwargs={"game": name})
