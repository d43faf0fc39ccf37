"""A fourth game from one place: Two Cards (``tests/toy_game``), a game package plus one registry
entry, runs through PettingZoo's API tests, Gymnasium, the batched engine, an iteration of the
batched PPO trainer, evaluation (also from the command line), the soak and the pictures, with no
edit of the package."""

import json

import gymnasium
import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, parallel_api_test

from stonk_envs import registry, vector
from stonk_envs.cli import main
from stonk_envs.evaluation import evaluate
from stonk_envs.policies import make_player
from stonk_envs.soak.runner import soak_engine, soak_env
from stonk_envs.training import run_state
from stonk_envs.training.config import load_config
from stonk_envs.training.trainer import train
from tests.toy_game.game import TwoCardsConfig
from tests.toy_game.players import HighCard
from tests.toy_game.spec import TWO_CARDS
from tests.training.test_ppo import TINY

ID = "stonk_envs/two_cards-v1"


@pytest.fixture(scope="module", autouse=True)
def two_cards():
    """Two Cards registered for this module's tests only (the other tests see the package's games)."""
    registry.register(TWO_CARDS)
    yield
    registry.unregister(TWO_CARDS.name)


def test_one_entry_makes_it_a_game_of_the_registry():
    assert "two_cards" in registry.names() and registry.spec("two_cards") is TWO_CARDS
    assert pettingzoo.aec_registry[ID].entry_point == "tests.toy_game.two_cards_v1:env"
    assert TwoCardsConfig in run_state.game_configs()
    assert isinstance(make_player("heuristic", "two_cards", 3), HighCard)


@pytest.mark.parametrize("num_players", [2, 3])
def test_pettingzoo_api_tests_pass(num_players):
    api_test(pettingzoo.make("aec", ID, num_players=num_players), num_cycles=30)
    parallel_api_test(pettingzoo.make("parallel", ID, num_players=num_players), num_cycles=30)


def test_gymnasium_make_and_make_vec_play_it():
    env = gymnasium.make("stonk_envs/TwoCards-v1", opponents="heuristic", num_players=3)
    obs, info = env.reset(seed=0)
    assert obs.shape == (11,) and info["action_mask"].sum() == 2
    vec = gymnasium.make_vec("stonk_envs/TwoCards-v1", num_envs=4, num_players=2)
    vec.reset(seed=0)
    vec.step(np.zeros(4, np.int64))
    vec.close()


def test_the_batched_engine_plays_zero_sum_games():
    engine = vector.make("two_cards", 16, num_players=3)
    engine.reset(seed=5)
    ended = 0
    for _ in range(9):
        _, _, rewards, terminated = engine.step(engine.random_actions())
        np.testing.assert_allclose(rewards.sum(axis=1), 0, atol=1e-6)
        ended += int(terminated.sum())
    assert ended == 16 * 3  # every game lasts one step per seat


def test_one_iteration_of_the_batched_trainer_saves_a_policy_that_plays(tmp_path):
    config = load_config(None, [*TINY, f"run_dir={tmp_path}", "total_timesteps=64", "game=two_cards",
                                "num_players=2", "checkpoint_interval=64", "eval.interval=0",
                                "eval.crossplay_games=0"])
    report = train(config)
    assert report["game"] == "two_cards" and report["steps_trained"] >= 64
    assert run_state.load_state(run_state.latest_checkpoint(tmp_path)[2])["step"] == report["steps_trained"]
    result = evaluate("two_cards", [str(tmp_path / "policy.zip"), "heuristic"], 4, progress=False)
    assert sum(player.games for player in result.players) == 8


def test_evaluate_plays_the_built_in_players_from_the_api_and_the_command_line(tmp_path):
    report = evaluate("two_cards", ["heuristic", "random", "random"], 30, num_players=3, progress=False)
    assert [player.name for player in report.players] == ["heuristic", "random#1", "random#2"]
    assert sum(player.mean_reward for player in report.players) == pytest.approx(0, abs=1e-9)
    assert main(["evaluate", "--game", "two_cards", "--players", "heuristic", "random", "--games", "4",
                 "--out", str(tmp_path), "--no-plot", "--no-progress"]) == 0
    assert json.loads((tmp_path / "report.json").read_text())["game"] == "two_cards"


def test_the_soak_checks_it_on_the_engine_and_the_envs():
    for result in (soak_engine("two_cards", 3, 40, seed=1, batch=8), soak_env("two_cards", 2, 6, seed=1)):
        assert result.failed == 0, result.examples


def test_render_draws_the_table_and_tells_the_winner():
    env = pettingzoo.make("parallel", ID, num_players=2, render_mode="rgb_array")
    env.reset(seed=3)
    first = env.render()
    assert first.dtype == np.uint8 and first.ndim == 3
    env.step({"player_0": 1, "player_1": 0})
    env.step({"player_0": 0, "player_1": 1})
    assert env.render().shape == first.shape
    text_env = pettingzoo.make("aec", ID, num_players=2, render_mode="ansi")
    text_env.reset(seed=3)
    for _ in range(2):
        text_env.step(1)
    assert text_env.render().startswith("Two Cards  game over")
