"""The imitation warm start: fit the actor to a teacher's actions and the critic to its returns.

Before PPO begins, the teacher (a built-in player) plays the learner's seats against the league
for ``ppo.imitation.samples`` decisions, rollout by rollout as PPO would (:meth:`Rollouts.collect`
with a teacher). Each rollout's decisions train the actor by cross-entropy on the teacher's
actions and the critic by the GAE returns of the teacher's play, so PPO starts from a policy
that plays like the teacher and a critic that values that play.
"""

from __future__ import annotations

import torch

from stonk_envs.training.ppo.network import ActorCritic
from stonk_envs.training.ppo.rollout import Samples
from stonk_envs.training.ppo.update import Sync, label_fit, minibatch_descent


def imitation_update(
    net: ActorCritic,
    optimizer: torch.optim.Optimizer,
    samples: Samples,
    epochs: int,
    batch_size: int,
    vf_coef: float,
    max_grad_norm: float,
    generator: torch.Generator,
    sync: Sync | None = None,
) -> dict[str, float]:
    """``epochs`` passes over ``samples`` in shuffled minibatches.

    Loss per minibatch: the cross-entropy of the teacher's actions under the masked policy, plus
    ``vf_coef`` times half the squared error of the values against the returns. Returns the last
    epoch's mean cross-entropy, value loss and accuracy (the policy's most likely action is the
    teacher's).
    """

    def batch_loss(batch: torch.Tensor) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        logp_all, values = net.heads(samples.inputs[batch], samples.penalty[batch])
        cross_entropy, accuracy = label_fit(logp_all, samples.actions[batch])
        value_loss = 0.5 * (values - samples.returns[batch]).pow(2).mean()
        return cross_entropy + vf_coef * value_loss, {
            "cross_entropy": cross_entropy, "value_loss": value_loss, "accuracy": accuracy,
        }

    return minibatch_descent(net, optimizer, samples, epochs, batch_size, max_grad_norm, generator, batch_loss, sync)
