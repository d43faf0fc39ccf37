"""Frozen copies of the learner's actor, played all at once in one batched forward pass."""

from __future__ import annotations

import numpy as np
import torch

from stonk_envs.policies.sampling import choose
from stonk_envs.policies.torch_policy import MaskedMLP, standardised


class Snapshots:
    """Frozen copies of the learner's actor (CPU), keyed by the step they were taken at.

    :meth:`act` plays the seats of every snapshot in one batched forward pass: their weights are
    stacked, and each snapshot's rows are a slice of one padded batch.
    """

    def __init__(self, max_kept: int):
        self.max_kept = max_kept
        self.steps: list[int] = []
        """Steps of the snapshots that may still be drawn, oldest first."""
        self.nets: dict[int, MaskedMLP] = {}
        self._stacked: tuple[list[int], list[torch.Tensor]] | None = None
        """The nets' steps and their stacked buffers and weights, rebuilt when the nets change."""

    def add(self, step: int, actor: MaskedMLP) -> None:
        self._load(step, actor.hparams, actor.state_dict())
        self.steps.append(step)
        del self.steps[: -self.max_kept]

    def _load(self, step: int, hparams: dict, weights: dict) -> None:
        with torch.random.fork_rng(devices=[]):  # building a network must not shift the training stream
            net = MaskedMLP(**hparams)
        net.load_state_dict({name: tensor.detach().cpu().clone() for name, tensor in weights.items()})
        self.nets[step] = net.eval()
        self._stacked = None

    def forget_unused(self, in_use: set[int]) -> None:
        for step in list(self.nets):
            if step not in self.steps and step not in in_use:
                del self.nets[step]
                self._stacked = None

    def act(self, holders: np.ndarray, obs: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """A sampled legal action for each row, played by the snapshot named in ``holders`` (its step)."""
        return choose(self.logits(holders, obs), masks, rng, deterministic=False)

    def logits(self, holders: np.ndarray, obs: np.ndarray) -> np.ndarray:
        """Each row's logits (before masking) under the snapshot named in ``holders``, all in one pass."""
        steps, tensors = self._stack()
        slot = np.searchsorted(steps, holders)
        order = np.argsort(slot, kind="stable")
        counts = np.bincount(slot, minlength=len(steps))
        position = np.arange(len(order)) - np.repeat(np.cumsum(counts) - counts, counts)
        padded = np.zeros((len(steps), max(int(counts.max()), 1), obs.shape[1]), np.float32)
        padded[slot[order], position] = obs[order]
        mean, var, *layers = tensors
        with torch.no_grad():
            h = standardised(torch.from_numpy(padded), mean[:, None], var[:, None])
            for i in range(0, len(layers), 2):
                h = torch.baddbmm(layers[i + 1][:, None], h, layers[i].transpose(1, 2))
                if i + 2 < len(layers):
                    h = torch.tanh(h)
        logits = np.empty((len(order), h.shape[2]), np.float32)
        logits[order] = h.numpy()[slot[order], position]
        return logits

    def _stack(self) -> tuple[list[int], list[torch.Tensor]]:
        if self._stacked is None:
            steps = sorted(self.nets)
            nets = [self.nets[step] for step in steps]
            linears = [[m for m in net.body if isinstance(m, torch.nn.Linear)] for net in nets]
            tensors = [torch.stack([net.obs_mean for net in nets]), torch.stack([net.obs_var for net in nets])]
            for depth in range(len(linears[0])):
                tensors.append(torch.stack([layers[depth].weight for layers in linears]).detach())
                tensors.append(torch.stack([layers[depth].bias for layers in linears]).detach())
            self._stacked = (steps, tensors)
        return self._stacked

    def state_dict(self) -> dict:
        return {
            "steps": list(self.steps),
            "hparams": {s: net.hparams for s, net in self.nets.items()},
            "weights": {s: net.state_dict() for s, net in self.nets.items()},
        }

    def load_state_dict(self, state: dict) -> None:
        self.nets = {}
        for step, weights in state["weights"].items():
            self._load(int(step), state["hparams"][step], weights)
        self.steps = [int(s) for s in state["steps"]]
