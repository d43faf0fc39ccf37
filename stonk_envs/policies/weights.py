"""Checks on loaded weights before they are used: finite values, an architecture the file can fill."""

from __future__ import annotations

import itertools

import torch


def mlp_parameters(inputs: int, hidden: list[int], outputs: int) -> int:
    """The weights and biases of an MLP ``inputs -> hidden... -> outputs``."""
    widths = [inputs, *hidden, outputs]
    return sum((a + 1) * b for a, b in itertools.pairwise(widths))


def check_architecture_fits(parameters: int, weights: dict[str, torch.Tensor], source: str) -> None:
    """``ValueError`` before building a network of ``parameters`` that the file's weights cannot fill."""
    held = sum(int(t.numel()) for t in weights.values())
    if parameters > held:
        raise ValueError(f"{source}: refused: its architecture has {parameters:,} parameters, but the file holds "
                         f"only {held:,} weights")


def check_finite(weights: dict[str, torch.Tensor], source: str) -> None:
    """``ValueError`` naming the first tensor with a NaN or infinite entry."""
    for name, tensor in weights.items():
        if isinstance(tensor, torch.Tensor) and tensor.is_floating_point() and not torch.isfinite(tensor).all():
            raise ValueError(f"{source}: refused: its weights {name!r} hold NaN or infinite values")
