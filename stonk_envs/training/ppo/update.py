"""The clipped PPO update over one rollout's samples (CleanRL's ``ppo.py`` loss, with action masks)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Protocol

import numpy as np
import torch
from torch import nn

from stonk_envs.training.config import PPOConfig
from stonk_envs.training.ppo.magnet import Magnet
from stonk_envs.training.ppo.network import ActorCritic, probabilities
from stonk_envs.training.ppo.rollout import Samples


class Sync(Protocol):
    """What data-parallel workers agree on in an update (:class:`stonk_envs.training.distributed.GradientSync`)."""

    def num_batches(self, samples: int, batch_size: int) -> int: ...

    def average(self, parameters) -> None: ...


BatchLoss = Callable[[torch.Tensor], tuple[torch.Tensor, dict[str, torch.Tensor]]]
"""A minibatch's indices to its loss and the named figures to report for it."""


def minibatch_descent(
    net: nn.Module,
    optimizer: torch.optim.Optimizer,
    samples: Samples,
    epochs: int,
    batch_size: int,
    max_grad_norm: float,
    generator: torch.Generator,
    batch_loss: BatchLoss,
    sync: Sync | None = None,
) -> dict[str, float]:
    """``epochs`` passes over ``samples`` in shuffled minibatches, one clipped Adam step each.

    With ``sync`` (data-parallel workers), every worker takes the same number of minibatches
    (``sync.num_batches``, near-equal parts of its samples) and the gradients are averaged over
    the workers before the clip. Returns the last epoch's mean of each figure ``batch_loss`` reports.
    """
    stats: dict[str, list[float]] = {}
    if sync is None:
        bounds = [(start, start + batch_size) for start in range(0, len(samples), batch_size)]
    else:
        edges = np.linspace(0, len(samples), sync.num_batches(len(samples), batch_size) + 1).astype(int)
        bounds = list(itertools.pairwise(edges.tolist()))
    for _ in range(epochs):
        stats = {}
        order = torch.randperm(len(samples), generator=generator).to(samples.actions.device)
        for start, stop in bounds:
            loss, figures = batch_loss(order[start:stop])
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            if sync is not None:
                sync.average(net.parameters())
            nn.utils.clip_grad_norm_(net.parameters(), max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                for key, value in figures.items():
                    stats.setdefault(key, []).append(float(value))
    return {key: sum(values) / max(len(values), 1) for key, values in stats.items()}


def label_fit(logp_all: torch.Tensor, labels: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """``(cross-entropy, agreement)`` of the policy against ``labels``: their mean negative log-probability,
    and how often the policy's most likely action is the label."""
    cross_entropy = -logp_all.gather(1, labels[:, None]).mean()
    return cross_entropy, (logp_all.argmax(dim=1) == labels).float().mean()


def ppo_update(
    net: ActorCritic,
    optimizer: torch.optim.Optimizer,
    samples: Samples,
    ppo: PPOConfig,
    generator: torch.Generator,
    teacher_coef: float = 0.0,
    sync: Sync | None = None,
    magnet: Magnet | None = None,
) -> dict[str, float]:
    """``ppo.n_epochs`` passes over ``samples`` in shuffled minibatches of ``ppo.batch_size``.

    Loss per minibatch: the clipped surrogate on per-minibatch normalised advantages, plus
    ``vf_coef`` times half the squared value error, minus ``ent_coef`` times the masked entropy,
    plus ``teacher_coef`` times the cross-entropy of the samples' labels (the teacher's choices,
    ``imitation.ppo_coef``), plus ``ppo.magnet.coef`` times the KL divergence from ``magnet``.
    Returns the last epoch's mean losses, entropy, approximate KL and clip fraction, with labels
    their cross-entropy and how often the policy's most likely action is the teacher's, and with a
    magnet the KL from it.
    """

    def batch_loss(batch: torch.Tensor) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
        logp_all, values = net.heads(samples.inputs[batch], samples.penalty[batch])
        logp = logp_all.gather(1, samples.actions[batch, None]).squeeze(1)
        log_ratio = logp - samples.logp[batch]
        ratio = log_ratio.exp()
        advantages = samples.advantages[batch]
        if len(batch) > 1:
            advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
        policy_loss = torch.max(
            -advantages * ratio, -advantages * ratio.clamp(1 - ppo.clip_range, 1 + ppo.clip_range)
        ).mean()
        value_loss = 0.5 * (values - samples.returns[batch]).pow(2).mean()
        entropy = -(probabilities(logp_all, samples.legal[batch]) * logp_all).sum(dim=1).mean()
        loss = policy_loss + ppo.vf_coef * value_loss - ppo.ent_coef * entropy
        figures = {
            "policy_loss": policy_loss,
            "value_loss": value_loss,
            "entropy": entropy,
            "approx_kl": ((ratio - 1) - log_ratio).mean(),
            "clip_fraction": ((ratio - 1).abs() > ppo.clip_range).float().mean(),
        }
        if magnet is not None:
            magnet_kl = magnet.kl(logp_all, samples.legal[batch], samples.inputs[batch], samples.penalty[batch])
            loss = loss + ppo.magnet.coef * magnet_kl
            figures["magnet_kl"] = magnet_kl
        if teacher_coef:
            teacher_loss, agreement = label_fit(logp_all, samples.labels[batch])
            loss = loss + teacher_coef * teacher_loss
            figures["teacher_cross_entropy"] = teacher_loss
            figures["teacher_agreement"] = agreement
        return loss, figures

    return minibatch_descent(net, optimizer, samples, ppo.n_epochs, ppo.batch_size, ppo.max_grad_norm, generator,
                             batch_loss, sync)
