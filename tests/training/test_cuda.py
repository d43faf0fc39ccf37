"""The batched trainer and the best response on a CUDA GPU; skipped where torch sees none."""

import pytest
import torch

from stonk_envs.evaluation import evaluate
from stonk_envs.policies.checkpoint import load_policy
from stonk_envs.policies.torch_policy import TorchPolicy
from stonk_envs.training import run_state
from stonk_envs.training.best_response import BestResponse
from stonk_envs.training.device import resolve_device
from stonk_envs.training.ppo.network import ActorCritic, legal_actions, resolve_hidden_dtype
from stonk_envs.training.trainer import train
from tests.training.test_best_response import frozen_net, tiny_setup
from tests.training.test_ppo import assert_same_weights, tiny_config

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")


def test_auto_takes_the_gpu_and_its_native_bfloat16():
    device = resolve_device("auto")
    assert device.type == "cuda"
    expected = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float32
    assert resolve_hidden_dtype("auto", device) == expected


def test_the_gpu_forward_pass_matches_the_cpu_one():
    torch.manual_seed(0)
    net = ActorCritic(40, 12, [64, 64], None)
    obs = torch.randn(256, 40) * 3
    masks = (torch.rand(256, 12) < 0.6).to(torch.int8)
    masks[:, 0] = 1
    logp_cpu, values_cpu = net(obs, legal_actions(masks)[1])
    gpu = net.to("cuda")
    logp_gpu, values_gpu = gpu(obs.cuda(), legal_actions(masks.cuda())[1])
    legal = masks.bool()
    torch.testing.assert_close(logp_gpu.cpu()[legal], logp_cpu[legal], rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(values_gpu.cpu(), values_cpu, rtol=1e-4, atol=1e-4)


def test_a_gpu_run_saves_a_cpu_policy_that_plays(tmp_path):
    report = train(tiny_config(tmp_path / "run", 600, "ppo.device=cuda"))
    assert report["steps_trained"] >= 600
    policy = load_policy(tmp_path / "run" / "policy.zip", game="stocks_and_bombs", num_players=4)
    assert isinstance(policy, TorchPolicy)
    assert {p.device.type for p in policy.net.parameters()} == {"cpu"}
    result = evaluate("stocks_and_bombs", [str(tmp_path / "run" / "policy.zip")] + ["random"] * 3, 4,
                      num_players=4, progress=False)
    assert result.players[0].games == 4


def test_seeded_gpu_runs_end_with_the_same_weights(tmp_path):
    states = []
    for name in ("a", "b"):
        train(tiny_config(tmp_path / name, 600, "ppo.device=cuda", "eval.interval=0", "eval.crossplay_games=0"))
        states.append(run_state.load_state(run_state.latest_checkpoint(tmp_path / name)[2]))
    assert states[0]["step"] == states[1]["step"]
    assert_same_weights(states[0]["net"], states[1]["net"])


@pytest.mark.parametrize("start", ["scratch", "frozen"])
def test_the_best_response_trains_on_the_gpu(start):
    net = frozen_net()
    frozen = TorchPolicy(net, deterministic=True)
    setup = tiny_setup()
    setup.device = "cuda"
    learner = BestResponse(setup, frozen, start, net if start == "frozen" else None)
    learner.train()
    assert learner.step >= 200
    assert next(learner.net.parameters()).device.type == "cuda"
    assert next(learner.actor().parameters()).device.type == "cpu"

