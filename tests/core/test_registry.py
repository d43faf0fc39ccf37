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


SPEC = {
    "name": "dice",
    "module": "dice_v1",
    "gym_id": "stonk_envs/Dice-v1",
    "config": "dice.config:DiceConfig",
    "drawer": "dice.picture",
    "invariants": "dice.invariants",
}


def test_an_unknown_game_is_refused_naming_the_games():
    with pytest.raises(ValueError, match=r"unknown game 'chess'; choose one of \['stockpile', 'stocks_and_bombs', "):
        registry.spec("chess")
    with pytest.raises(ValueError, match=r"unknown game \['stockpile'\]"):
        registry.spec(["stockpile"])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": "Dice"}, r"game spec name must be lower case letters, digits and _, got 'Dice'"),
        ({"module": "dice v1"}, r"game spec module must be a dotted module name, got 'dice v1'"),
        ({"config": "dice.config"}, r"game spec config must be 'module:Class', got 'dice.config'"),
        ({"gym_id": "Dice"}, r"game spec gym_id must be a Gymnasium id '<namespace>/<Name>-v<k>', got 'Dice'"),
        ({"players": {"strong": "dice.players:Strong"}}, r"players must include 'heuristic', the default one"),
        ({"players": {"heuristic": "dice.players:Strong", "random": "dice.players:Any"}}, r"must not name 'random'"),
        ({"players": {"heuristic": "dice.players"}}, r"game spec player heuristic must be 'module:Class'"),
        ({"retired_versions": (1,)}, r"retired_versions \[1\] are not among \[0\]"),
    ],
)
def test_a_bad_spec_is_refused_naming_the_field(change, message):
    with pytest.raises(ValueError, match=message):
        registry.GameSpec(**{**SPEC, **change})


def test_a_taken_name_or_id_is_refused_and_an_unregistered_game_leaves_no_id():
    with pytest.raises(ValueError, match="a different game named 'stockpile' is registered"):
        registry.register(registry.GameSpec(**{**SPEC, "name": "stockpile"}))
    with pytest.raises(ValueError, match=r"the Gymnasium id 'stonk_envs/Stockpile-v1' is taken"):
        registry.register(registry.GameSpec(**{**SPEC, "gym_id": "stonk_envs/Stockpile-v1"}))
    registry.register(registry.GameSpec(**SPEC))
    registry.register(registry.GameSpec(**SPEC))  # the same spec again changes nothing
    assert "dice" in registry.names() and "stonk_envs/Dice-v1" in gymnasium.registry
    registry.unregister("dice")
    assert "dice" not in registry.names() and env_id("dice") not in pettingzoo.aec_registry
    assert "stonk_envs/Dice-v1" not in gymnasium.registry


@pytest.mark.parametrize("name", registry.names())
def test_every_spec_names_what_its_game_uses(name):
    game = registry.spec(name)
    module = importlib.import_module(game.module)
    assert game.config_class() is module.CONFIG and module.GAME.name == name
    assert callable(registry.load(game.drawer).draw)
    assert callable(registry.load(game.invariants).broken) and callable(registry.load(game.invariants).max_steps)
    assert registry.load(game.story) is not None
    assert all(isinstance(registry.load(player), type) for player in game.players.values())
