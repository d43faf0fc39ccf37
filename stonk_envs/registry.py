"""Registration of every game in PettingZoo's registry as ``stonk_envs/<name>-v0``."""

import pettingzoo

GAME_MODULES = {
    "stockpile": "stonk_envs.stockpile_v0",
    "stonk_market": "stonk_envs.stonk_market_v0",
    "stocks_and_bombs": "stonk_envs.stocks_and_bombs_v0",
}


def env_id(name: str) -> str:
    """The registry id of a game, e.g. ``stonk_envs/stockpile-v0``."""
    return f"stonk_envs/{name}-v0"


def register_all() -> None:
    """Register the AEC (``env``) and Parallel (``parallel_env``) entry points of each game."""
    for name, module in GAME_MODULES.items():
        if env_id(name) not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id(name), entry_point=f"{module}:env")
            pettingzoo.register("parallel", env_id(name), entry_point=f"{module}:parallel_env")
