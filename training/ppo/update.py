"""The clipped PPO update over one rollout's samples (CleanRL's ``ppo.py`` loss, with action masks)."""

from __future__ import annotations

import torch
from torch import nn

from training.config import PPOConfig
from training.ppo.network import ActorCritic, probabilities
from training.ppo.rollout import Samples


def ppo_update(
    net: ActorCritic, optimizer: torch.optim.Optimizer, samples: Samples, ppo: PPOConfig, generator: torch.Generator
) -> dict[str, float]:
    """``ppo.n_epochs`` passes over ``samples`` in shuffled minibatches of ``ppo.batch_size``.

    Loss per minibatch: the clipped surrogate on per-minibatch normalised advantages, plus
    ``vf_coef`` times half the squared value error, minus ``ent_coef`` times the masked entropy.
    Returns the last epoch's mean losses, entropy, approximate KL and clip fraction.
    """
    stats: dict[str, list[float]] = {}
    for _ in range(ppo.n_epochs):
        stats = {"policy_loss": [], "value_loss": [], "entropy": [], "approx_kl": [], "clip_fraction": []}
        order = torch.randperm(len(samples), generator=generator).to(samples.actions.device)
        for start in range(0, len(samples), ppo.batch_size):
            batch = order[start : start + ppo.batch_size]
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
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), ppo.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                stats["policy_loss"].append(float(policy_loss))
                stats["value_loss"].append(float(value_loss))
                stats["entropy"].append(float(entropy))
                stats["approx_kl"].append(float(((ratio - 1) - log_ratio).mean()))
                stats["clip_fraction"].append(float(((ratio - 1).abs() > ppo.clip_range).float().mean()))
    return {key: sum(values) / max(len(values), 1) for key, values in stats.items()}
