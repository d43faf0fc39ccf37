"""The opponent league: the live learner, its past snapshots, the heuristic and random players.

Each opponent seat of a game is given a member key when the game starts: the
:attr:`~stonk_envs.policies.seats.SeatHolder.key` of the learner (``"current"``), of a
snapshot (``"past:<step>"``, taken at that learner step), of the heuristic or of the random player.
:meth:`League.act` plays one key for a whole batch of seats in one forward pass.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from stonk_envs.policies.base import Policy, RandomPolicy
from stonk_envs.policies.seats import KIND_HOLDERS, SeatHolder, SeatKind


class TorchPolicyPlayer(Policy):
    """Samples from a MaskablePPO policy network, one forward pass per batch."""

    name = "sb3"

    def __init__(self, network: torch.nn.Module):
        self.network = network

    def act(self, observations, masks, rng):
        with torch.no_grad():
            dist = self.network.get_distribution(torch.as_tensor(observations), action_masks=masks.astype(bool))
            return dist.get_actions(deterministic=False).numpy().astype(np.int64)


class League:
    """Members, the mix they are drawn with, and the snapshots of the learner."""

    def __init__(
        self,
        weights: dict[str, float],
        max_snapshots: int,
        heuristic_factory: Callable[[], Policy],
    ):
        self.kinds = list(weights)
        raw = np.array([weights[k] for k in self.kinds], dtype=np.float64)
        self.probs = raw / raw.sum()
        self.learner: torch.nn.Module | None = None
        self.max_snapshots = max_snapshots
        self._heuristic_factory = heuristic_factory
        self.players: dict[str, Policy] = {KIND_HOLDERS["random"].key: RandomPolicy()}
        self.snapshot_steps: list[int] = []
        """Steps of the snapshots that may still be drawn, oldest first."""
        self._snapshots: dict[int, torch.nn.Module] = {}

    def set_learner(self, learner: torch.nn.Module) -> None:
        """Make ``learner`` (the live policy network) the ``current`` member."""
        self.learner = learner
        self.players[KIND_HOLDERS["current"].key] = TorchPolicyPlayer(learner)

    def draw(self, rng: np.random.Generator) -> str:
        """A member key for one opponent seat of a new game."""
        kind = self.kinds[int(rng.choice(len(self.kinds), p=self.probs))]
        if kind == "past":
            if not self.snapshot_steps:
                return SeatHolder(SeatKind.LEARNER).key
            return SeatHolder(SeatKind.PAST, self.snapshot_steps[int(rng.integers(len(self.snapshot_steps)))]).key
        return KIND_HOLDERS[kind].key

    def player(self, key: str) -> Policy:
        """The player behind a member key."""
        if key not in self.players:
            holder = SeatHolder.from_key(key)
            if holder.kind is SeatKind.BUILT_IN:
                self.players[key] = self._heuristic_factory()
            elif holder.kind is SeatKind.PAST and holder.number in self._snapshots:
                self.players[key] = TorchPolicyPlayer(self._snapshots[holder.number])
            else:
                raise ValueError(f"unknown league member {key!r}")
        return self.players[key]

    def act(self, key: str, observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Actions of member ``key`` for a batch of seats."""
        return self.player(key).act(observations, masks, rng)

    def add_snapshot(self, step: int) -> None:
        """Freeze a copy of the learner as member ``past:<step>``; drop the oldest beyond the cap."""
        self._snapshots[step] = self._frozen(self.learner.state_dict())
        self.snapshot_steps.append(step)
        del self.snapshot_steps[: -self.max_snapshots]

    def _frozen(self, weights: dict) -> torch.nn.Module:
        """A new network like the learner's, holding a copy of ``weights``, in evaluation mode."""
        with torch.random.fork_rng(devices=[]):  # building a network must not shift the training stream
            net = type(self.learner)(**self.learner._get_constructor_parameters())
        net.load_state_dict({name: tensor.detach().clone() for name, tensor in weights.items()})
        net.set_training_mode(False)
        return net

    def forget_unused(self, in_use: set[str]) -> None:
        """Release dropped snapshots that no game in play still uses."""
        for step in list(self._snapshots):
            key = SeatHolder(SeatKind.PAST, step).key
            if step not in self.snapshot_steps and key not in in_use:
                del self._snapshots[step]
                self.players.pop(key, None)

    def state_dict(self) -> dict:
        """Everything needed to rebuild the league (snapshot weights included)."""
        return {
            "snapshot_steps": list(self.snapshot_steps),
            "snapshots": {step: net.state_dict() for step, net in self._snapshots.items()},
        }

    def load_state_dict(self, state: dict) -> None:
        """Restore the league saved by :meth:`state_dict` (the learner must already be loaded)."""
        self._snapshots = {}
        self.players = {k: v for k, v in self.players.items() if SeatHolder.from_key(k).kind is not SeatKind.PAST}
        for step, weights in state["snapshots"].items():
            self._snapshots[int(step)] = self._frozen(weights)
        self.snapshot_steps = [int(s) for s in state["snapshot_steps"]]
