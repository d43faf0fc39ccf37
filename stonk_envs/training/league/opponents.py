"""The opponent league: the live learner, its past snapshots, the heuristic and random players.

Each opponent seat of a game is given a member when the game starts: a
:class:`~stonk_envs.policies.seats.SeatHolder` code of the live learner, of a snapshot (kept
under the learner step it was taken at), of the heuristic or of the random player.
:meth:`League.player` is the player behind a code, which plays a whole batch of seats in one
forward pass.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from stonk_envs.policies.base import Policy, RandomPolicy
from stonk_envs.policies.seats import KIND_HOLDERS, RANDOM, SeatHolder, SeatKind


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
        self.players: dict[int, Policy] = {RANDOM: RandomPolicy()}
        """The player behind each holder code met so far."""
        self.snapshot_steps: list[int] = []
        """Steps of the snapshots that may still be drawn, oldest first."""
        self._snapshots: dict[int, torch.nn.Module] = {}

    def set_learner(self, learner: torch.nn.Module) -> None:
        """Make ``learner`` (the live policy network) the ``current`` member."""
        self.learner = learner
        self.players[KIND_HOLDERS["current"].code] = TorchPolicyPlayer(learner)

    def draw(self, rng: np.random.Generator) -> int:
        """The holder code of one opponent seat of a new game (the learner while ``past`` has no snapshot)."""
        kind = self.kinds[int(rng.choice(len(self.kinds), p=self.probs))]
        if kind == "past":
            if not self.snapshot_steps:
                return KIND_HOLDERS["current"].code
            return SeatHolder(SeatKind.PAST, self.snapshot_steps[int(rng.integers(len(self.snapshot_steps)))]).code
        return KIND_HOLDERS[kind].code

    def player(self, code: int) -> Policy:
        """The player behind a holder code."""
        if code not in self.players:
            holder = SeatHolder.from_code(code)
            if holder == KIND_HOLDERS["heuristic"]:
                self.players[code] = self._heuristic_factory()
            elif holder.kind is SeatKind.PAST and holder.number in self._snapshots:
                self.players[code] = TorchPolicyPlayer(self._snapshots[holder.number])
            else:
                raise ValueError(f"the league has no {holder.kind.value} member {holder.number}")
        return self.players[code]

    def add_snapshot(self, step: int) -> None:
        """Freeze a copy of the learner as the past member at ``step``; drop the oldest beyond the cap."""
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

    def forget_unused(self, in_use: set[int]) -> None:
        """Release dropped snapshots that no game in play still uses (``in_use``: holder codes)."""
        for step in list(self._snapshots):
            code = SeatHolder(SeatKind.PAST, step).code
            if step not in self.snapshot_steps and code not in in_use:
                del self._snapshots[step]
                self.players.pop(code, None)

    def state_dict(self) -> dict:
        """Everything needed to rebuild the league (snapshot weights included)."""
        return {
            "snapshot_steps": list(self.snapshot_steps),
            "snapshots": {step: net.state_dict() for step, net in self._snapshots.items()},
        }

    def load_state_dict(self, state: dict) -> None:
        """Restore the league saved by :meth:`state_dict` (the learner must already be loaded)."""
        self._snapshots = {}
        self.players = {code: player for code, player in self.players.items()
                        if SeatHolder.from_code(code).kind is not SeatKind.PAST}
        for step, weights in state["snapshots"].items():
            self._snapshots[int(step)] = self._frozen(weights)
        self.snapshot_steps = [int(s) for s in state["snapshot_steps"]]
