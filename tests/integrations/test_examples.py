"""The library examples of docs/integrations.md: shown verbatim there, and run here as shown.

TorchRL, Tianshou and SuperSuit run on every game. RLlib starts Ray, so its example runs on
Stockpile (the turn-based game) and its self-play trainer on Stocks & Bombs (``env_path:
multi_agent``; the vector path has its own tests), with one remote env runner, in one Ray
session; the trained learner is then evaluated like any saved policy.
"""

import json
import re
import runpy
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from stonk_envs import registry
from stonk_envs.evaluation import evaluate
from stonk_envs.safe_load import TRUST_ENV

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
DOC = ROOT / "docs" / "integrations.md"
LIBRARY_EXAMPLES = ["torchrl_example.py", "tianshou_example.py", "supersuit_example.py"]


def run_example(name: str, game: str, monkeypatch) -> None:
    monkeypatch.setattr(sys, "argv", [name, game])
    runpy.run_path(str(EXAMPLES / name), run_name="__main__")


def test_the_docs_show_every_example_verbatim():
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.DOTALL)
    for example in sorted(EXAMPLES.glob("*.py")):
        assert example.read_text() in blocks, f"{example.name} differs from its block in {DOC.name}"


@pytest.mark.parametrize("game", registry.names())
@pytest.mark.parametrize("name", LIBRARY_EXAMPLES)
def test_library_example_runs_on_every_game(name, game, monkeypatch, capsys):
    run_example(name, game, monkeypatch)
    assert capsys.readouterr().out.startswith(f"{game}: ")


@pytest.fixture(scope="module")
def ray_session():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.slow
def test_rllib_example_and_self_play_with_an_env_runner(ray_session, tmp_path, monkeypatch, capsys):
    from stonk_envs.integrations.rllib_config import load_rllib_config
    from stonk_envs.integrations.rllib_train import train_rllib

    run_example("rllib_example.py", "stockpile", monkeypatch)
    assert capsys.readouterr().out.startswith("stockpile: 256 env steps")
    overrides = ["iterations=2", "env_path=multi_agent", "num_env_runners=1", "train_batch_size=200",
                 "batch_size=100", "n_epochs=1", "league.snapshot_iterations=1", "league.max_snapshots=1",
                 f"run_dir={tmp_path}", "env_config.round_cap=2"]
    config = load_rllib_config("rllib_stocks_and_bombs", overrides)
    policy = train_rllib(config, log=lambda line: None)
    lines = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert [line["iteration"] for line in lines] == [1, 2]
    assert [line["league_snapshots"] for line in lines] == [1, 1]  # one taken per iteration, the oldest dropped
    assert all(line["env_steps"] >= 200 for line in lines)
    monkeypatch.setenv(TRUST_ENV, "1")  # the learner is an RLlib checkpoint, read by unpickling: trusted here
    report = evaluate("stocks_and_bombs", [str(policy), "random", "random", "random"], num_games=4,
                      env_config={"round_cap": 2}, progress=False)
    assert report.players[0].games == 4


@pytest.mark.slow
def test_a_remote_env_runner_plays_the_league_the_driver_trains(ray_session):
    """The env runner's snapshot holds the learner's weights, and its games map seats as the driver does."""
    import numpy as np

    from stonk_envs.integrations.rllib_config import load_rllib_config
    from stonk_envs.integrations.rllib_league import LEARNER, learner_weights
    from stonk_envs.integrations.rllib_train import build_algorithm

    overrides = ["env_path=multi_agent", "num_env_runners=1", "train_batch_size=200", "batch_size=100",
                 "n_epochs=1", "net_arch=[16]", "league.current=0", "league.snapshot_iterations=1",
                 "env_config.round_cap=1"]
    algorithm = build_algorithm(load_rllib_config("rllib_stocks_and_bombs", overrides))
    try:
        algorithm.train()  # trains the learner, then freezes it as main_v1

        def look(runner):
            games = runner.sample(num_episodes=3, explore=True)
            modules = [(game.id_, {agent: game.module_for(agent) for agent in game.agent_ids}) for game in games]
            snapshot = {key: np.asarray(value) for key, value in runner.module["main_v1"].get_state().items()}
            return runner.config.policy_mapping_fn.snapshots, snapshot, modules

        ((snapshots, snapshot, games),) = algorithm.env_runner_group.foreach_env_runner(look, local_env_runner=False)
        frozen = learner_weights(algorithm, inference_only=True)
        assert snapshots == [1]
        assert frozen.keys() <= snapshot.keys()  # the policy (the runner may also hold a value network)
        for key, value in frozen.items():
            np.testing.assert_array_equal(snapshot[key], np.asarray(value), err_msg=key)
        mapping = algorithm.config.policy_mapping_fn
        for game_id, modules in games:
            assert modules == {agent: mapping(agent, SimpleNamespace(id_=game_id)) for agent in modules}
            assert len(modules) == 4 and list(modules.values()).count(LEARNER) == 1
    finally:
        algorithm.stop()


def _train_with_a_remote_runner(extra: list[str]) -> list[tuple[float, bool]]:
    """Two iterations with one remote env runner: (env steps trained on, the runner's ``main`` equals the learner's)."""
    import numpy as np
    from ray.rllib.core import ALL_MODULES

    from stonk_envs.integrations.rllib_config import load_rllib_config
    from stonk_envs.integrations.rllib_league import LEARNER, learner_weights
    from stonk_envs.integrations.rllib_train import build_algorithm

    overrides = ["env_path=multi_agent", "num_env_runners=1", "train_batch_size=200", "batch_size=100",
                 "n_epochs=1", "net_arch=[16]", "league.snapshot_iterations=0", "env_config.round_cap=1", *extra]
    algorithm = build_algorithm(load_rllib_config("rllib_stocks_and_bombs", overrides))
    try:
        seen, trained_steps = [], 0
        for _ in range(2):
            before = trained_steps
            trained_steps = algorithm.train().get("learners", {}).get(ALL_MODULES, {}).get(
                "num_env_steps_trained_lifetime", before)
            (played,) = algorithm.env_runner_group.foreach_env_runner(
                lambda runner: {key: np.asarray(value) for key, value in runner.module[LEARNER].get_state().items()},
                local_env_runner=False,
            )
            trained = learner_weights(algorithm, inference_only=True)
            synced = all(np.array_equal(played[key], np.asarray(value)) for key, value in trained.items())
            seen.append((trained_steps - before, synced))
        return seen
    finally:
        algorithm.stop()


@pytest.mark.slow
def test_every_iteration_with_a_remote_env_runner_trains_on_a_full_batch_and_plays_the_new_weights(ray_session):
    """The shipped configs wait for the runners' samples (``sample_timeout_s: null``).

    With RLlib's 60 s timeout, runners slowed down by a loaded machine lost whole iterations
    of samples and kept playing stale weights; the learner then did not learn. A timeout
    that every sample exceeds shows the same failure at test speed, so this check can fail.
    """
    assert all(steps >= 200 and synced for steps, synced in _train_with_a_remote_runner([]))
    starved = _train_with_a_remote_runner(["sample_timeout_s=0.001"])
    assert not all(steps >= 200 and synced for steps, synced in starved)
