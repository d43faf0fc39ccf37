"""TorchRL: one shared masked policy plays every seat of a game's Parallel env."""

import sys

import pettingzoo
import torch
from tensordict.nn import TensorDictModule
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.modules import MLP, MaskedCategorical, ProbabilisticActor

import stonk_envs  # noqa: F401  (registers the ids)

game = sys.argv[1] if len(sys.argv) > 1 else "stocks_and_bombs"
env = PettingZooWrapper(
    env=pettingzoo.make("parallel", f"stonk_envs/{game}-v1", num_players=4),
    use_mask=True,  # TorchRL reads each seat's "action_mask"; every live seat has a legal action
    categorical_actions=True,
    seed=0,
)
group = "player"  # every seat in one group, so one policy plays them all
obs_size = env.observation_spec[group, "observation", "observation"].shape[-1]
num_actions = env.full_action_spec[group, "action"].space.n
logits = TensorDictModule(
    MLP(in_features=obs_size, out_features=num_actions, num_cells=[64, 64]),
    in_keys=[(group, "observation", "observation")],
    out_keys=[(group, "logits")],
)
policy = ProbabilisticActor(
    logits,
    in_keys={"logits": (group, "logits"), "mask": (group, "action_mask")},
    out_keys=[(group, "action")],
    distribution_class=MaskedCategorical,
)
with torch.no_grad():
    rollout = env.rollout(200, policy)
actions, masks = rollout[group, "action"], rollout[group, "action_mask"]
assert masks.gather(-1, actions.unsqueeze(-1)).all(), "every sampled action is legal"
print(f"{game}: {rollout.batch_size[0]} steps, rewards {rollout['next', group, 'reward'].sum(0).flatten().tolist()}")
