"""The magnet of magnetic mirror descent: a slowly moving copy of the actor that PPO is pulled towards.

Magnetic mirror descent (Sokota et al., ICLR 2023) regularises each policy update towards a
"magnet" policy with a KL term, ``ppo.magnet.coef`` times KL(policy || magnet) over the legal
actions, beside the entropy bonus; the magnet itself follows the policy slowly, so the learner
converges to a regularised equilibrium instead of cycling or collapsing into one of the
self-play equilibria. Here the magnet is a copy of the actor's layers whose weights move
``ppo.magnet.rate`` of the way towards the actor's after every update. It reads the same
standardised inputs as the actor, so it shares the actor's input statistics.
"""

from __future__ import annotations

import copy

import torch
from torch import nn

from stonk_envs.training.ppo.network import probabilities


class Magnet:
    """The magnet's layers (a frozen copy of the actor's body) and how fast they follow the actor's."""

    def __init__(self, actor_body: nn.Sequential, rate: float):
        self.body = copy.deepcopy(actor_body).float()
        self.body.requires_grad_(False)
        self.rate = rate

    def log_probs(self, inputs: torch.Tensor, penalty: torch.Tensor) -> torch.Tensor:
        """The magnet's log-probabilities of every action (illegal ones get ``penalty``), without gradients."""
        with torch.no_grad():
            return torch.log_softmax(self.body(inputs.float()) + penalty, dim=-1)

    def kl(self, logp: torch.Tensor, legal: torch.Tensor, inputs: torch.Tensor, penalty: torch.Tensor) -> torch.Tensor:
        """The mean KL divergence of the policy (``logp``, all actions) from the magnet, over the legal actions."""
        gap = (logp - self.log_probs(inputs, penalty)) * legal
        return (probabilities(logp, legal) * gap).sum(dim=1).mean()

    def follow(self, actor_body: nn.Sequential) -> None:
        """Move each of the magnet's weights ``rate`` of the way towards the actor's."""
        with torch.no_grad():
            for mine, theirs in zip(self.body.parameters(), actor_body.parameters(), strict=True):
                mine.lerp_(theirs.float(), self.rate)

    def state_dict(self) -> dict[str, torch.Tensor]:
        return self.body.state_dict()

    def load_state_dict(self, state: dict[str, torch.Tensor]) -> None:
        self.body.load_state_dict(state)
