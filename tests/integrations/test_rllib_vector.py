"""RLlib on the batched engine (``env_path: vector``): one iteration trains, actions are legal, the league grows.

One small algorithm (16 games, a 16-unit network, short games) is built and trained for one
iteration in one Ray session; the tests read it.
"""

import numpy as np
import pytest

pytest.importorskip("ray")

from stonk_envs.evaluation import evaluate
from stonk_envs.integrations.rllib_config import load_rllib_config
from stonk_envs.policies.checkpoint import load_policy
from stonk_envs.policies.torch_policy import TorchPolicy
from stonk_envs.vector.gym_vector import EngineVectorEnv

GAMES = 16
NUM_ACTIONS = 149  # Stocks & Bombs at 4 players
OVERRIDES = [f"num_envs_per_env_runner={GAMES}", "train_batch_size=128", "batch_size=64", "n_epochs=1",
             "net_arch=[16]", "league.snapshot_iterations=1", "env_config.round_cap=1", "torch_threads=1"]


@pytest.fixture(scope="module")
def trained():
    """``(algorithm, config, first iteration's result)``."""
    import gc

    import ray

    from stonk_envs.integrations.rllib_train import build_algorithm

    threshold = gc.get_threshold()
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    config = load_rllib_config("rllib_stocks_and_bombs", OVERRIDES)
    algorithm = build_algorithm(config)
    try:
        yield algorithm, config, algorithm.train()
    finally:
        algorithm.stop()
        ray.shutdown()
        gc.set_threshold(*threshold)


def runner_env(algorithm) -> EngineVectorEnv:
    return algorithm.env_runner_group.local_env_runner.env.unwrapped


def test_one_iteration_trains_on_the_batched_engine(trained):
    from ray.rllib.core import ALL_MODULES

    algorithm, _, result = trained
    env = runner_env(algorithm)
    assert isinstance(env, EngineVectorEnv) and env.num_envs == GAMES and env.layout == "flat"
    assert result["env_runners"]["num_env_steps_sampled"] >= 128
    assert result["learners"][ALL_MODULES]["num_env_steps_trained_lifetime"] >= 128


def test_the_learner_plays_only_legal_actions(trained):
    algorithm, _, _ = trained
    episodes = algorithm.env_runner_group.local_env_runner.sample(num_timesteps=4 * GAMES, explore=True)
    checked = 0
    for episode in episodes:
        masks = np.asarray(episode.get_observations())[: len(episode), -NUM_ACTIONS:]
        actions = np.asarray(episode.get_actions())
        assert masks[np.arange(len(actions)), actions].all()
        assert not masks.all()  # masks that exclude something, so the check can fail
        checked += len(actions)
    assert checked >= 4 * GAMES


def test_the_league_callback_adds_a_snapshot_of_the_learner_to_every_runner(trained):
    import torch

    from stonk_envs.integrations.rllib_vector import learner_net

    algorithm, _, result = trained
    assert result["league_snapshots"] == 1
    members = list(runner_env(algorithm).selfplay.players.values())
    assert [m if isinstance(m, str) else type(m).__name__ for m in members][2:] == ["RunnerLearner", "TorchPolicy"]
    snapshot, learner = members[-1].net.state_dict(), learner_net(algorithm).state_dict()
    assert snapshot.keys() == learner.keys()
    assert all(torch.equal(snapshot[key], learner[key]) for key in learner)
    weights = runner_env(algorithm).selfplay.weights
    assert weights[-1] == pytest.approx(0.15) and weights[0] == pytest.approx(0.5)  # random no longer holds it


def test_the_learner_is_saved_as_a_torch_policy_that_evaluate_plays_untrusted(trained, tmp_path):
    from stonk_envs.integrations.rllib_train import save_learner

    algorithm, config, _ = trained
    path = save_learner(algorithm, config, tmp_path)
    policy = load_policy(path, game="stocks_and_bombs", num_players=4)  # no trust needed
    assert path.name == "policy.pt" and isinstance(policy, TorchPolicy)
    assert policy.net.hparams["hidden"] == [16]
    report = evaluate("stocks_and_bombs", [str(path), "random", "random", "random"], num_games=2,
                      env_config={"round_cap": 1, "memory": False}, progress=False)
    assert report.players[0].games == 2


def test_the_flat_module_reads_both_layouts_and_masks_the_logits(trained):
    import torch
    from ray.rllib.core.columns import Columns

    from stonk_envs.policies.rllib_policy import MASK_KEY, OBS_KEY

    algorithm, _, _ = trained
    env = runner_env(algorithm)
    env.reset(seed=4)
    flat = env._observations()
    observations, masks = flat[:, :-NUM_ACTIONS], flat[:, -NUM_ACTIONS:]
    assert masks.shape == (GAMES, NUM_ACTIONS) and 0 < masks.sum() < masks.size
    module = algorithm.get_module()
    as_dict = {OBS_KEY: torch.as_tensor(observations), MASK_KEY: torch.as_tensor(masks)}
    with torch.no_grad():
        from_flat = module.forward_inference({Columns.OBS: torch.as_tensor(flat)})[Columns.ACTION_DIST_INPUTS]
        from_dict = module.forward_inference({Columns.OBS: as_dict})[Columns.ACTION_DIST_INPUTS]
    torch.testing.assert_close(from_flat, from_dict)
    legal = torch.as_tensor(masks) > 0
    assert (from_flat[~legal] < -1e30).all() and (from_flat[legal] > -1e30).all()


def test_the_runner_feeds_the_module_each_games_last_observation_in_one_array(trained):
    import gc

    from stonk_envs.integrations.rllib_connectors import StackObservations
    from stonk_envs.integrations.rllib_vector import COLLECTOR_THRESHOLD

    algorithm, _, _ = trained
    runner = algorithm.env_runner_group.local_env_runner
    assert [type(c).__name__ for c in runner._env_to_module.connectors] == ["StackObservations"]
    assert [type(c).__name__ for c in runner._module_to_env.connectors] == ["GetActions", "TensorToNumpy"]
    runner.sample(num_timesteps=3 * GAMES, explore=True, force_reset=True)  # other tests reset its env
    fed = runner._cached_to_module["obs"].numpy()
    started = [episode for episode in runner._ongoing_episodes if episode.is_reset]  # a game just over has none
    last = np.stack([episode.get_observations(-1) for episode in started])
    assert fed.shape == (GAMES, last.shape[1]) and len(started) > 0
    rows = [i for i, episode in enumerate(runner._ongoing_episodes) if episode.is_reset]
    np.testing.assert_array_equal(fed[rows], last)
    from_episodes = StackObservations()(rl_module=None, batch={}, episodes=started)["obs"].numpy()
    np.testing.assert_array_equal(from_episodes, last)
    assert gc.get_threshold()[0] == COLLECTOR_THRESHOLD


def test_the_runners_self_play_member_samples_legal_actions(trained):
    from stonk_envs.integrations.rllib_vector import RunnerLearner

    algorithm, _, _ = trained
    env = runner_env(algorithm)
    env.reset(seed=5)
    flat = env._observations()
    observations, masks = flat[:, :-NUM_ACTIONS], flat[:, -NUM_ACTIONS:].astype(np.int8)
    learner = RunnerLearner(algorithm.env_runner_group.local_env_runner)
    actions = learner.act(observations, masks, np.random.default_rng(0))
    assert actions.shape == (GAMES,) and masks[np.arange(GAMES), actions].all()


def test_sample_with_logp_draws_from_the_softmax_and_never_a_masked_action():
    import torch
    from ray.rllib.utils.torch_utils import FLOAT_MIN

    from stonk_envs.integrations.rllib_modules import sample_with_logp

    torch.manual_seed(0)
    row = torch.tensor([0.0, FLOAT_MIN, 1.0, FLOAT_MIN, -1.0, 2.0, FLOAT_MIN])
    rows = 40_000
    actions, logp = sample_with_logp(row.expand(rows, -1))
    probs = torch.softmax(row, dim=0)
    counts = torch.bincount(actions, minlength=len(row)).double()
    assert counts[row == FLOAT_MIN].sum() == 0
    expected = probs.double() * rows
    legal = row > FLOAT_MIN
    chi_square = (((counts - expected)[legal]) ** 2 / expected[legal]).sum()
    assert chi_square < 16.3  # 3 degrees of freedom: p = 0.001
    torch.testing.assert_close(logp, torch.log_softmax(row, dim=0)[actions])
