"""The training config: YAML files, overrides, and clear errors for broken configs."""

import os

import pytest

from stonk_envs.training.config import TrainConfig, load_config, to_yaml, torch_thread_count


@pytest.mark.parametrize("name", ["stocks_and_bombs", "stonk_market", "stockpile"])
def test_shipped_configs_load(name):
    config = load_config(name)
    assert config.game == name
    assert config.num_players == 4
    assert config.eval.final_num_games >= 1000
    assert config.trainer == "ppo"


def test_defaults_then_file_then_overrides(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("total_timesteps: 5000\nppo:\n  n_epochs: 7\n")
    config = load_config(path, ["ppo.n_epochs=2", "league.random=0.5", "eval.opponents=[random]"])
    assert isinstance(config, TrainConfig)
    assert config.total_timesteps == 5000
    assert config.ppo.n_epochs == 2
    assert config.ppo.gamma == 0.99  # schema default
    assert config.league.random == 0.5
    assert config.eval.opponents == ["random"]


def test_round_trip_through_yaml(tmp_path):
    config = load_config(None, ["seed=7", "env_config.reward_mode=round_diff"])
    path = tmp_path / "saved.yaml"
    path.write_text(to_yaml(config))
    assert load_config(path) == config


def test_league_weights_are_normalised():
    weights = load_config(None, ["league.current=2", "league.past=0", "league.heuristic=1", "league.random=1"])
    assert weights.league.weights() == {"current": 0.5, "past": 0.0, "heuristic": 0.25, "random": 0.25}


@pytest.mark.parametrize(
    ("yaml_text", "overrides", "message"),
    [
        ("", ["total_timestep=10"], "Key 'total_timestep' not in 'TrainConfig'"),
        ("ppo:\n  learning_rte: 0.1\n", [], "Key 'learning_rte' not in 'PPOConfig'"),
        ("", ["ppo.n_steps=many"], "ppo.n_steps"),
        ("num_envs: [1, 2]\n", [], "num_envs"),
        ("", ["ppo.gamma=1.5"], "ppo.gamma must be a finite number (0.0..1.0), got 1.5"),
        ("", ["num_envs=0"], "num_envs must be 1..1048576, got 0"),
        ("", ["sb3.env_backend=engine"], "sb3.env_backend is gone: the sb3 trainer's games always run on one batched"),
        ("", ["league.random=-1"], "league.random must be a finite number (0.0..1000000000.0), got -1.0"),
        ("", ["trainer=sb3", "sb3.batch_size=4096", "num_envs=2", "sb3.n_steps=8"],
         "exceeds num_envs * sb3.n_steps (16)"),
        ("", ["game=chess"], "unknown game 'chess'"),
        ("", ["num_players=9"], "num_players must be 4..6, got 9"),
        ("", ["env_config.bombs=3"], "unknown option(s) ['bombs']"),
        ("", ["env_config.reward_mode=points"], "reward_mode must be one of"),
        ("", ["env_config.num_players=5"], "env_config must not set num_players"),
        ("", ["ppo.net_arch=[64,0]"], "each width of ppo.net_arch must be 1..65536, got 0"),
        ("", ["eval.opponents=[]"], "eval.opponents must name at least one player spec"),
        ("", ["total_timesteps"], "overrides must be KEY=VALUE"),
        ("", ["eval.opponents=[random,champion]"], "'champion' is not a built-in stocks_and_bombs player"),
        ("", ["ppo.learning_rate=nan"], "ppo.learning_rate must be a finite number (> 0.0 and <= 1.0), got nan"),
        ("", ["ppo.clip_range=inf"], "ppo.clip_range must be a finite number"),
        ("", ["seed=-3"], "seed must be 0..9223372036854775807, got -3"),
        ("", ["torch_threads=-1"], "torch_threads must be 0..1024, got -1"),
        ("", ["ppo.hidden_precision=float16"], "ppo.hidden_precision must be one of ['auto', 'float32', 'bfloat16']"),
        ("", ["num_players=true"], "num_players"),
        ("num_players: true\n", [], "Value 'True' of type 'bool' could not be converted to Integer (key: num_players)"),
        ("", ["run_dir="], "invalid config: run_dir must not be empty"),
        ("run_dir:\n", [], "invalid config: run_dir must not be empty"),
        ("seed:\n", [], "invalid config: seed must not be empty"),
        ("", ["ppo.league.mix=games"], "ppo.league.mix must be one of ['seat', 'game'], got 'games'"),
        ("", ["league.mix=game"], "league.mix is now ppo.league.mix"),
        ("", ["ppo.league.mix=game", "league.past=0", "league.heuristic=0", "league.random=0"],
         "ppo.league.mix=game needs a positive weight for an opponent kind"),
        ("num_envs: [1, 2\n", [], "is not valid YAML"),
        ("- 1\n- 2\n", [], "must hold key: value pairs, not a list"),
        ("\x00\xff garbage", [], "broken.yaml"),
    ],
)
def test_broken_configs_name_the_problem(tmp_path, yaml_text, overrides, message):
    path = tmp_path / "broken.yaml"
    path.write_text(yaml_text)
    with pytest.raises(ValueError) as info:
        load_config(path, overrides)
    assert message in str(info.value)


def test_zero_torch_threads_means_every_core_the_process_may_use():
    assert torch_thread_count(0) == len(os.sched_getaffinity(0))
    assert torch_thread_count(3) == 3


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        load_config(tmp_path / "nope.yaml")
