"""The torch device a trainer runs on, from the config's ``device`` key."""

from __future__ import annotations

import torch


def resolve_device(name: str) -> torch.device:
    """``auto``: cuda when torch sees a GPU, else cpu."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise ValueError("ppo.device=cuda, but torch sees no CUDA device (this torch build or machine has none)")
    return torch.device(name)
