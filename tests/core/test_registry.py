"""Importing the package registers every game id with PettingZoo."""

import importlib

import gymnasium
import pettingzoo
import pytest

import stonk_envs
from stonk_envs import registry
from stonk_envs.registry import OBSERVATION_VERSION, RetiredVersionError, env_id


def test_every_game_is_registered_for_both_apis():
    for name in registry.names():
        module = registry.spec(name).module
        assert pettingzoo.aec_registry[env_id(name)].entry_point == f"{module}:env"
        assert pettingzoo.parallel_registry[env_id(name)].entry_point == f"{module}:parallel_env"


def test_make_builds_the_requested_player_count():
    env = pettingzoo.make("aec", "stonk_envs/stocks_and_bombs-v1", num_players=5)
    env.reset(seed=0)
    assert env.possible_agents == [f"player_{p}" for p in range(5)]


def test_game_modules_load_as_package_attributes():
    assert stonk_envs.stocks_and_bombs_v1.parallel_env is not None
    assert "stocks_and_bombs_v1" in stonk_envs.__all__


@pytest.mark.parametrize("name", registry.names())
def test_retired_v0_module_names_its_replacement(name):
    with pytest.raises(RetiredVersionError, match=rf"stonk_envs\.{name}_v0 is retired: .*public memory.*{name}_v1"):
        importlib.import_module(f"stonk_envs.{name}_v0")


@pytest.mark.parametrize("kind", ["aec", "parallel"])
def test_retired_v0_id_is_refused_by_pettingzoo_make(kind):
    with pytest.raises(RetiredVersionError, match=r"stonk_envs/stonk_market-v1"):
        pettingzoo.make(kind, "stonk_envs/stonk_market-v0", num_players=4)


def test_retired_v0_id_is_refused_by_gymnasium_make():
    with pytest.raises(gymnasium.error.DeprecatedEnv, match=r"stonk_envs/StocksAndBombs-v1"):
        gymnasium.make("stonk_envs/StocksAndBombs-v0")


def test_ids_and_env_metadata_carry_the_observation_version():
    assert OBSERVATION_VERSION == 1
    assert env_id("stockpile") == "stonk_envs/stockpile-v1"
    env = pettingzoo.make("parallel", "stonk_envs/stockpile-v1", num_players=3)
    assert env.metadata["name"] == "stockpile_v1"
