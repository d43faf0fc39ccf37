"""The batched trainer's fast paths compute exactly what the plain ones do."""

import numpy as np
import torch

from stonk_envs.training.ppo.network import (
    ILLEGAL_LOGIT,
    ActorCritic,
    legal_actions,
    probabilities,
    resolve_hidden_dtype,
)
from stonk_envs.training.ppo.normaliser import _moments


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


def test_bfloat16_hidden_layers_stay_close_to_float32_and_keep_float32_weights():
    net = make_net(size=300, actions=5)
    obs = torch.randn(64, 300) * 5
    _, penalty = legal_actions(torch.ones(64, 5, dtype=torch.int8))
    logp, values = net(obs, penalty)
    net.hidden_dtype = torch.bfloat16
    low_logp, low_values = net(obs, penalty)
    assert low_logp.dtype == low_values.dtype == torch.float32
    assert all(p.dtype == torch.float32 for p in net.parameters())
    assert not torch.equal(low_values, values)  # the hidden layers really ran in bfloat16
    torch.testing.assert_close(low_logp, logp, rtol=0, atol=0.02)
    torch.testing.assert_close(low_values, values, rtol=0, atol=0.05)
    inputs = net.standardise_(obs.clone())
    assert inputs.dtype == torch.bfloat16
    torch.testing.assert_close(net.heads(inputs, penalty)[0], low_logp, rtol=0, atol=0)


def test_hidden_precision_names_its_dtype_and_auto_falls_back_without_native_bfloat16(monkeypatch):
    cpu = torch.device("cpu")
    assert resolve_hidden_dtype("float32", cpu) == torch.float32
    assert resolve_hidden_dtype("bfloat16", cpu) == torch.bfloat16
    for probe in ("_is_avx512_bf16_supported", "_is_amx_tile_supported"):
        monkeypatch.setattr(torch.cpu, probe, lambda: False, raising=False)
    assert resolve_hidden_dtype("auto", cpu) == torch.float32
    monkeypatch.setattr(torch.cpu, "_is_amx_tile_supported", lambda: True, raising=False)
    assert resolve_hidden_dtype("auto", cpu) == torch.bfloat16
