"""The RLlib self-play config and CLI: every shipped config loads; bad input is named, nothing runs."""


import pytest

from stonk_envs import cli, configs
from stonk_envs.integrations.rllib_config import load_rllib_config

RLLIB_CONFIGS = [name for name in configs.names() if name.startswith("rllib_")]


@pytest.mark.parametrize("name", RLLIB_CONFIGS)
def test_shipped_configs_load(name):
    config = load_rllib_config(name, ["num_env_runners=0"])
    assert name == f"rllib_{config.game}" and config.num_env_runners == 0
    assert config.env_path == "vector" and config.num_envs_per_env_runner == 1024  # the fast path by default
    assert config.sample_timeout_s is None  # iterations wait for the env runners' samples


@pytest.mark.parametrize(("env_path", "games"), [("vector", 1024), ("multi_agent", 1)])
def test_games_per_env_runner_default_to_the_path(env_path, games):
    assert load_rllib_config("rllib_stockpile", [f"env_path={env_path}"]).num_envs_per_env_runner == games
    assert load_rllib_config(None, [f"env_path={env_path}", "num_envs_per_env_runner=8"]).num_envs_per_env_runner == 8


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (["iterations=0"], "iterations must be >= 1"),
        (["num_env_runners=-1"], "num_env_runners must be >= 0"),
        (["sample_timeout_s=0"], r"sample_timeout_s must be > 0 or null \(wait\), got 0"),
        (["batch_size=50000"], r"batch_size \(50000\) must be <= train_batch_size"),
        (["league.random=-1"], "league weights must be >= 0"),
        (["game=chess"], "unknown game 'chess'"),
        (["nonsense=1"], "nonsense"),
        (["env_config.num_players=9"], "num_players"),
        (["env_path=fast"], r"env_path must be one of \['vector', 'multi_agent'\], got 'fast'"),
        (["torch_threads=-1"], "torch_threads must be >= 0"),
        (["lr=0.001"], "lr is now learning_rate"),
        (["league.snapshot_every=2"], "league.snapshot_every is now league.snapshot_iterations"),
        (["num_players=true"], r"Value 'True' of type 'bool' could not be converted to Integer \(key: num_players\)"),
        (["net_arch="], "invalid config: net_arch must not be empty"),
    ],
)
def test_bad_values_are_named(overrides, message):
    with pytest.raises(ValueError, match=message):
        load_rllib_config(None, overrides)


def test_keys_of_the_same_idea_have_the_training_configs_names():
    from stonk_envs.training.config import LeagueConfig, PPOHyperparameters, TrainConfig

    config = load_rllib_config("rllib_stockpile")
    shared = {"learning_rate", "batch_size", "n_epochs", "gamma", "gae_lambda", "ent_coef", "net_arch"}
    assert shared <= set(PPOHyperparameters.__dataclass_fields__) & set(type(config).__dataclass_fields__)
    assert {"game", "num_players", "env_config", "seed", "torch_threads", "run_dir"} <= set(
        TrainConfig.__dataclass_fields__) & set(type(config).__dataclass_fields__)
    assert {"current", "past", "heuristic", "random", "max_snapshots"} <= set(
        LeagueConfig.__dataclass_fields__) & set(type(config.league).__dataclass_fields__)


def test_cli_reports_a_bad_config_without_a_traceback(capsys, tmp_path):
    assert cli.main(["train-rllib", "--config", str(tmp_path / "missing.yaml")]) == 2
    assert capsys.readouterr().err.startswith("stonk-envs train-rllib: error: config file")
