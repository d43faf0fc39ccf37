"""The imitation warm start: fit the actor to a teacher's actions and the critic to its returns.

Before PPO begins, the teacher (a built-in player) plays the learner's seats against the league
for ``imitation.samples`` decisions, rollout by rollout as PPO would (:meth:`Rollouts.collect`
with a teacher). Each rollout's decisions train the actor by cross-entropy on the teacher's
actions and the critic by the GAE returns of the teacher's play, so PPO starts from a policy
that plays like the teacher and a critic that values that play.
"""

from __future__ import annotations

import torch
from torch import nn

from training.ppo.rollout import Samples


def imitation_update(
    net: nn.Module,
    optimizer: torch.optim.Optimizer,
    samples: Samples,
    epochs: int,
    batch_size: int,
    vf_coef: float,
    max_grad_norm: float,
    generator: torch.Generator,
) -> dict[str, float]:
    """``epochs`` passes over ``samples`` in shuffled minibatches.

    Loss per minibatch: the cross-entropy of the teacher's actions under the masked policy, plus
    ``vf_coef`` times half the squared error of the values against the returns. Returns the last
    epoch's mean cross-entropy, value loss and accuracy (the policy's most likely action is the
    teacher's).
    """
    stats: dict[str, list[float]] = {}
    for _ in range(epochs):
        stats = {"cross_entropy": [], "value_loss": [], "accuracy": []}
        order = torch.randperm(len(samples), generator=generator).to(samples.actions.device)
        for start in range(0, len(samples), batch_size):
            batch = order[start : start + batch_size]
            logp_all, values = net.heads(samples.inputs[batch], samples.penalty[batch])
            actions = samples.actions[batch]
            cross_entropy = -logp_all.gather(1, actions[:, None]).mean()
            value_loss = 0.5 * (values - samples.returns[batch]).pow(2).mean()
            loss = cross_entropy + vf_coef * value_loss
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                stats["cross_entropy"].append(float(cross_entropy))
                stats["value_loss"].append(float(value_loss))
                stats["accuracy"].append(float((logp_all.argmax(dim=1) == actions).float().mean()))
    return {key: sum(values) / max(len(values), 1) for key, values in stats.items()}
