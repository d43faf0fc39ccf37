"""Magnetic mirror descent: the magnet's KL term, how it follows the actor, and a run that resumes with it."""

import pytest
import torch
from torch import nn

from stonk_envs.training.config import load_config
from stonk_envs.training.ppo.magnet import Magnet
from stonk_envs.training.ppo.network import legal_actions
from stonk_envs.training.ppo.run import PPORun
from stonk_envs.training.trainer import resume, train
from tests.training.test_ppo import assert_same_weights, state_of, tiny_config

MAGNET = ["ppo.magnet.coef=0.5", "ppo.magnet.rate=0.25", "eval.interval=0", "eval.crossplay_games=0"]


def body(seed):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 3))


def test_the_kl_from_the_magnet_is_zero_for_its_own_policy_and_counts_legal_actions_only():
    actor = body(0)
    magnet = Magnet(actor, rate=0.1)
    inputs = torch.randn(5, 3)
    legal, penalty = legal_actions(torch.tensor([[1, 1, 0]] * 5))
    own = torch.log_softmax(actor(inputs) + penalty, dim=-1)
    assert magnet.kl(own, legal, inputs, penalty).item() == pytest.approx(0.0, abs=1e-7)
    # a policy with all its weight on action 0 against the magnet's legal two: KL = -log magnet(0)
    sure = torch.log(torch.tensor([[1.0, 1e-30, 1e-30]] * 5))
    expected = -magnet.log_probs(inputs, penalty)[:, 0].mean()
    assert magnet.kl(sure, legal, inputs, penalty).item() == pytest.approx(expected.item(), rel=1e-5)


def test_the_magnet_moves_its_rate_of_the_way_towards_the_actor():
    start, actor = body(0), body(1)
    magnet = Magnet(start, rate=0.25)
    magnet.follow(actor)
    for before, mine, theirs in zip(start.parameters(), magnet.body.parameters(), actor.parameters(), strict=True):
        torch.testing.assert_close(mine, before + 0.25 * (theirs - before))
    assert not any(p.requires_grad for p in magnet.body.parameters())
    still = Magnet(start, rate=0.0)
    still.follow(actor)
    assert_same_weights(still.state_dict(), start.state_dict())


def test_a_run_with_a_magnet_logs_its_kl_and_resumes_bit_for_bit(tmp_path):
    train(tiny_config(tmp_path / "straight", 450, *MAGNET))
    train(tiny_config(tmp_path / "resumed", 150, *MAGNET))
    resume(tmp_path / "resumed", ["total_timesteps=450"])
    straight, resumed = state_of(tmp_path / "straight"), state_of(tmp_path / "resumed")
    assert_same_weights(resumed["net"], straight["net"])
    assert_same_weights(resumed["magnet"], straight["magnet"])


def test_the_update_reports_the_kl_from_the_magnet_which_starts_as_the_actor(tmp_path):
    run = PPORun(tiny_config(tmp_path, 450, *MAGNET))
    run.new_model()
    _, first = run.train_rollout()
    _, second = run.train_rollout()
    assert 0.0 <= first["magnet_kl"] < 1e-3  # the magnet was the actor when the first update began
    assert second["magnet_kl"] > first["magnet_kl"]


def test_without_a_magnet_nothing_is_kept(tmp_path):
    train(tiny_config(tmp_path, 150, "eval.interval=0", "eval.crossplay_games=0"))
    assert state_of(tmp_path)["magnet"] is None


@pytest.mark.parametrize(("override", "message"), [
    ("ppo.magnet.rate=1.5", r"ppo.magnet.rate must be a finite number \(0.0..1.0\), got 1.5"),
    ("ppo.magnet.coef=-1", r"ppo.magnet.coef must be a finite number \(0.0..1000000.0\), got -1.0"),
])
def test_bad_magnet_settings_are_named(override, message):
    with pytest.raises(ValueError, match=message):
        load_config(None, [override])
