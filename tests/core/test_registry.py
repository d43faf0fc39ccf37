"""Importing the package registers every game id with PettingZoo."""

import pettingzoo

import stonk_envs
from stonk_envs.registry import GAME_MODULES, env_id


def test_every_game_is_registered_for_both_apis():
    for name, module in GAME_MODULES.items():
        assert pettingzoo.aec_registry[env_id(name)].entry_point == f"{module}:env"
        assert pettingzoo.parallel_registry[env_id(name)].entry_point == f"{module}:parallel_env"


def test_make_builds_the_requested_player_count():
    env = pettingzoo.make("aec", "stonk_envs/stocks_and_bombs-v0", num_players=5)
    env.reset(seed=0)
    assert env.possible_agents == [f"player_{p}" for p in range(5)]


def test_game_modules_load_as_package_attributes():
    assert stonk_envs.stocks_and_bombs_v0.parallel_env is not None
    assert "stocks_and_bombs_v0" in stonk_envs.__all__
