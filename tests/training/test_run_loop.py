"""The run loop both trainers share: evaluations leave training's random streams alone, the measurements on saved
policy files work whatever the learner, and saved configs of the earlier shape are translated."""

import json
import random

import numpy as np
import pytest

from stonk_envs.training import run_loop
from stonk_envs.training.config import load_config
from stonk_envs.training.config_shape import upgrade
from stonk_envs.training.ppo.run import PPORun
from stonk_envs.training.trainer import resume, train
from tests.training import test_ppo, test_trainer


def test_an_evaluation_leaves_pythons_and_numpys_random_state_as_it_found_them(tmp_path, monkeypatch):
    def evaluate_policy(*args):
        random.random()
        np.random.random()
        return {"opponent": "random", "policy": {}}

    monkeypatch.setattr(run_loop, "evaluate_policy", evaluate_policy)
    run = PPORun(test_ppo.tiny_config(tmp_path, 100))
    run.new_model()
    random.seed(1)
    np.random.seed(2)
    before = random.getstate(), np.random.get_state()[1].copy()
    run.evaluate(run.checkpoint(), 4, 0)
    assert random.getstate() == before[0]
    assert (np.random.get_state()[1] == before[1]).all()


def test_the_sb3_trainer_measures_cross_play_and_exploitability_on_its_checkpoints(tmp_path):
    train(test_trainer.tiny_config(tmp_path, 256, "eval.crossplay_games=4", "eval.crossplay_max=2",
                                   "eval.exploit_samples=64", "eval.exploit_games=4", "eval.exploit_starts=[scratch]"))
    history = json.loads((tmp_path / "evaluations.json").read_text())
    assert [point["step"] for point in history] == [256]
    assert history[0]["exploit"]["games"] == 4
    assert (tmp_path / "exploitability.png").is_file()
    assert json.loads((tmp_path / "final_evaluation.json").read_text())["trainer"] == "sb3"


def test_an_sb3_run_measures_exploitability_from_scratch_only():
    with pytest.raises(ValueError, match=r"eval\.exploit_starts must include scratch for an sb3 run"):
        load_config(None, ["trainer=sb3", "eval.exploit_samples=64", "eval.exploit_starts=[frozen]"])


def test_a_batched_trainers_config_of_the_earlier_shape_moves_to_its_section():
    earlier = {
        "trainer": "ppo", "device": "cpu", "env_backend": "engine",
        "ppo": {"n_steps": 8, "obs_norm": "auto"},
        "imitation": {"samples": 100, "teacher": "heuristic"},
        "league": {"current": 0.5, "exploiter_samples": 64, "pfsp_power": 2.0, "mix": "seat",
                   "heuristic_players": ["heuristic", "basic"], "exploiter_start": "scratch"},
    }
    config = load_config(upgrade(earlier))
    assert (config.ppo.device, config.ppo.n_steps, config.ppo.obs_norm) == ("cpu", 8, "running")
    assert (config.ppo.imitation.samples, config.league.current) == (100, 0.5)
    assert (config.ppo.league.exploiter_samples, config.ppo.league.pfsp_power) == (64, 2.0)
    assert config.ppo.league.heuristic_players == ["heuristic", "basic"]
    assert config.sb3 == load_config().sb3  # the other trainer's section keeps its defaults


def test_a_batched_run_saved_in_the_earlier_config_shape_resumes(tmp_path):
    import yaml

    train(test_ppo.tiny_config(tmp_path, 300))
    config_file = tmp_path / "config.yaml"
    saved = yaml.safe_load(config_file.read_text())
    ppo = saved.pop("ppo")
    earlier = {**saved, "device": ppo.pop("device"), "imitation": ppo.pop("imitation"), "env_backend": "engine",
               "league": {**saved["league"], **ppo.pop("league")}, "ppo": {**ppo, "obs_norm": "auto"}}
    del earlier["sb3"]
    config_file.write_text(yaml.safe_dump(earlier))
    assert resume(tmp_path, ["total_timesteps=450"])["steps_trained"] >= 450
    assert load_config(config_file).ppo.obs_norm == "running"
