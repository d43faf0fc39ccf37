"""The batched trainer's fast paths compute exactly what the plain ones do."""

import numpy as np
import torch

from training.ppo.network import ILLEGAL_LOGIT, ActorCritic, legal_actions, probabilities
from training.ppo.normaliser import _moments


def make_net(size=7, actions=5):
    torch.manual_seed(0)
    net = ActorCritic(size, actions, [6, 4], None)
    net.actor.obs_mean.copy_(torch.linspace(-2, 3, size))
    net.actor.obs_var.copy_(torch.linspace(0, 4, size))
    return net


def test_standardising_in_place_equals_the_actors_inputs():
    net = make_net()
    obs = torch.randn(50, 7) * 30
    torch.testing.assert_close(net.standardise_(obs.clone()), net.actor.inputs(obs), rtol=0, atol=0)


def test_heads_equal_separate_layers_with_illegal_actions_filled():
    net = make_net()
    obs = torch.randn(40, 7)
    masks = torch.rand(40, 5) < 0.5
    masks[:, 2] = True
    legal, penalty = legal_actions(masks.to(torch.int8))
    logp, values = net(obs, penalty)
    inputs = net.actor.inputs(obs)
    expected = torch.log_softmax(net.actor.body(inputs).masked_fill(~masks, ILLEGAL_LOGIT), dim=-1)
    torch.testing.assert_close(logp[masks], expected[masks])
    torch.testing.assert_close(values, net.critic(inputs).squeeze(-1))
    probs = probabilities(logp, legal)
    assert (probs[~masks] == 0).all()
    torch.testing.assert_close(probs.sum(dim=1), torch.ones(40))


def test_moments_equal_numpys_float64_mean_and_variance():
    batch = (np.random.default_rng(0).normal(size=(300, 9)) * 50 + 7).astype(np.float32)
    mean, var = _moments(batch)
    np.testing.assert_array_equal(mean, batch.astype(np.float64).mean(axis=0))
    np.testing.assert_array_equal(var, batch.astype(np.float64).var(axis=0))
