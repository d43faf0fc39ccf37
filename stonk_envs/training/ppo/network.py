"""The actor-critic: the actor is the saved player (:class:`MaskedMLP`), the critic a separate MLP.

Both see the observations through the actor's input layer: standardised by running
statistics (``obs_norm: running``) or divided by the observation space's bounds
(``obs_norm: bounds``, the sb3-contrib path's scaling, kept for comparison).

The hidden layers are most of the arithmetic (the first ones are the observation size by the
first width); ``ppo.hidden_precision: bfloat16`` runs their products and activations in
bfloat16 with float32 sums. The output layers, the weights and the optimiser stay float32, and
the saved actor plays in float32.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from stonk_envs.policies.torch_policy import NORMALISED_CLIP, STANDARDISE_EPS, MaskedMLP
from stonk_envs.training.ppo.normaliser import RunningStats

ILLEGAL_LOGIT = -1e8
"""Added to an illegal action's logit: the sum stays finite, so entropies do, and its probability is exactly 0."""


def legal_actions(masks: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """``(legal, penalty)`` for action masks (B, A): 1.0 where legal, else 0.0; 0.0 where legal, else ILLEGAL_LOGIT.

    Masking by arithmetic (adding ``penalty`` to the logits, multiplying probabilities by ``legal``)
    is several times faster on CPU than ``masked_fill``, and gives the legal actions the same values.
    """
    legal = (masks != 0).to(torch.float32)
    return legal, (1.0 - legal).mul_(ILLEGAL_LOGIT)


def probabilities(logp: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    """Action probabilities from :meth:`ActorCritic.forward`'s log-probabilities, exactly 0 where not ``legal``.

    (``exp`` of a log-probability near :data:`ILLEGAL_LOGIT` takes a slow underflow path on CPU,
    about 50 times slower, so those entries are clamped to a normal float and then zeroed.)
    """
    return logp.clamp(min=-80.0).exp() * legal


def resolve_hidden_dtype(precision: str, device: torch.device) -> torch.dtype:
    """The dtype of the hidden layers for ``ppo.hidden_precision`` on ``device``.

    ``auto`` takes bfloat16 where the device multiplies it natively (a CUDA GPU that supports it,
    a CPU with AVX-512 BF16 or AMX), else float32: elsewhere bfloat16 is emulated, and slower.
    """
    if precision == "auto":
        if device.type == "cuda":
            native = torch.cuda.is_bf16_supported()
        else:
            native = any(getattr(torch.cpu, probe, lambda: False)()
                         for probe in ("_is_avx512_bf16_supported", "_is_amx_tile_supported"))
        precision = "bfloat16" if native else "float32"
    return getattr(torch, precision)


def _init(layer: nn.Linear, gain: float, inputs: int | None = None) -> None:
    """Orthogonal weights of ``gain`` and zero biases; with ``inputs``, only the first ``inputs`` columns
    are drawn (as for a layer of that width) and the rest start at zero."""
    if inputs is None:
        nn.init.orthogonal_(layer.weight, gain)
    else:
        drawn = nn.init.orthogonal_(torch.empty(layer.out_features, inputs), gain)
        with torch.no_grad():
            layer.weight.zero_()
            layer.weight[:, :inputs] = drawn
    nn.init.zeros_(layer.bias)


class ActorCritic(nn.Module):
    """Masked policy logits and a state value from one observation vector."""

    def __init__(
        self,
        observation_size: int,
        num_actions: int,
        hidden: list[int],
        bounds: np.ndarray | None,
        hidden_dtype: torch.dtype = torch.float32,
        memory_from: int | None = None,
        memory_start: str = "zero",
        memory_scale: float = 1.0,
    ):
        """``memory_from``: where the public memory starts in the observation (None: it has none). With
        ``memory_start`` ``zero`` the first layers' weights on it start at zero, the others drawn as for an
        input that ends there (``random``: all drawn); its standardised inputs are multiplied by
        ``memory_scale`` (``ppo.memory_start``, ``ppo.memory_scale``)."""
        super().__init__()
        self.hidden_dtype = hidden_dtype
        """The dtype of the hidden layers' products and activations (:func:`resolve_hidden_dtype`)."""
        self.memory_from, self.memory_scale = memory_from, memory_scale
        self.actor = MaskedMLP(observation_size, num_actions, hidden, normalise=True)
        if bounds is not None:  # a fixed affine scaling: x / bound, as the sb3 path does
            self.actor.obs_var.copy_(self._input_variance(np.asarray(bounds, np.float64) ** 2))
        self.fits_statistics = bounds is None
        zero_from = memory_from if memory_start == "zero" else None
        layers: list[nn.Module] = []
        width = observation_size
        for h in hidden:
            layers += [nn.Linear(width, h), nn.Tanh()]
            width = h
        layers.append(nn.Linear(width, 1))
        self.critic = nn.Sequential(*layers)
        for net, last_gain in ((self.actor.body, 0.01), (self.critic, 1.0)):
            linears = [m for m in net if isinstance(m, nn.Linear)]
            _init(linears[0], float(np.sqrt(2)), zero_from)  # net_arch has at least one hidden layer
            for layer in linears[1:-1]:
                _init(layer, float(np.sqrt(2)))
            _init(linears[-1], last_gain)

    def forward(self, observations: torch.Tensor, penalty: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``(log-probabilities (B, A), values (B,))``; illegal actions (``penalty`` of :func:`legal_actions`) get 0."""
        return self.heads(self.actor.inputs(observations), penalty)

    def standardise_(self, observations: torch.Tensor) -> torch.Tensor:
        """:meth:`MaskedMLP.inputs`, bit for bit, computed in ``observations`` itself, cast to :attr:`hidden_dtype`.

        For a whole rollout: new tensors of that size cost more than the arithmetic.
        """
        actor = self.actor
        observations.sub_(actor.obs_mean).div_(torch.sqrt(actor.obs_var + STANDARDISE_EPS))
        return observations.clamp_(-NORMALISED_CLIP, NORMALISED_CLIP).to(self.hidden_dtype)

    def heads(self, inputs: torch.Tensor, penalty: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """:meth:`forward` from observations already standardised by :meth:`MaskedMLP.inputs`.

        The actor's and the critic's first layers run as one matrix product (faster than two). The
        hidden layers run in :attr:`hidden_dtype`, the output layers in float32.
        """
        actor, critic, dtype = self.actor.body, self.critic, self.hidden_dtype
        weight = torch.cat([actor[0].weight, critic[0].weight]).to(dtype)
        bias = torch.cat([actor[0].bias, critic[0].bias]).to(dtype)
        first = torch.tanh(F.linear(inputs.to(dtype), weight, bias))
        actor_hidden, critic_hidden = first.split(actor[0].out_features, dim=1)
        logits = actor[-1](self._hidden(actor, actor_hidden)) + penalty
        return torch.log_softmax(logits, dim=-1), critic[-1](self._hidden(critic, critic_hidden)).squeeze(-1)

    def _hidden(self, body: nn.Sequential, first: torch.Tensor) -> torch.Tensor:
        """The rest of ``body``'s hidden layers (``Linear, Tanh`` pairs) after its first, returned in float32."""
        h, dtype = first, self.hidden_dtype
        for layer in list(body)[2:-1:2]:
            h = torch.tanh(F.linear(h, layer.weight.to(dtype), layer.bias.to(dtype)))
        return h.float()

    def set_statistics(self, stats: RunningStats) -> None:
        """Standardise inputs by ``stats`` from now on (only with ``obs_norm: running``)."""
        if self.fits_statistics:
            self.actor.obs_mean.copy_(torch.as_tensor(stats.mean, dtype=torch.float32))
            self.actor.obs_var.copy_(self._input_variance(stats.var))

    def _input_variance(self, variance: np.ndarray) -> torch.Tensor:
        """``obs_var`` for observations of ``variance``: the memory's entries raised so that standardising
        divides them by :attr:`memory_scale` more (the saved actor then plays exactly as trained)."""
        variance = np.array(variance, np.float64)
        if self.memory_from is not None and self.memory_scale != 1.0:
            memory = variance[self.memory_from :]
            memory[:] = (memory + STANDARDISE_EPS) / self.memory_scale**2 - STANDARDISE_EPS
        return torch.as_tensor(variance, dtype=torch.float32)


def observation_bounds_scale(low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Each entry's largest possible magnitude (at least 1), as the sb3 policies' ``BoundsScaler`` uses."""
    low = np.abs(np.nan_to_num(low, posinf=1.0, neginf=1.0))
    high = np.abs(np.nan_to_num(high, posinf=1.0, neginf=1.0))
    return np.maximum(np.maximum(low, high), 1.0).astype(np.float32)
