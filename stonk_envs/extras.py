"""The optional extras of ``pip install 'stonk_envs[EXTRA]'``: which one brings a missing module, and the line
that says so.

The base install (numpy, numba, gymnasium, pettingzoo, pillow, rich) gives the envs, the batched
engine and the commands that need nothing more; a command that needs an extra fails with
:func:`needs_extra_message`.
"""

from __future__ import annotations

EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "evaluation": ("scipy", "openskill", "matplotlib", "tqdm"),
    "video": ("imageio", "imageio_ffmpeg"),
    "bench": ("rlcard", "pygame", "matplotlib"),
    "training": ("torch", "stable_baselines3", "sb3_contrib", "tensorboard", "omegaconf",
                 "scipy", "openskill", "matplotlib", "tqdm"),
    "rllib": ("ray", "torch", "omegaconf"),
    "integrations": ("ray", "torch", "omegaconf", "torchrl", "tianshou", "supersuit"),
}
"""The top-level modules each extra installs (with those of the extras it includes), the smaller extras first."""


def extra_for(error: ImportError, preferred: str | None = None) -> str | None:
    """The extra that brings the module ``error`` misses: ``preferred`` when it brings it, else the first that does;
    None when no extra does (a missing module that is not optional)."""
    name = (getattr(error, "name", None) or "").partition(".")[0]
    if preferred is not None and name in EXTRA_MODULES.get(preferred, ()):
        return preferred
    return next((extra for extra, modules in EXTRA_MODULES.items() if name in modules), None)


def needs_extra_message(extra: str) -> str:
    """The one line that names the extra a command needs."""
    return f"this command needs the {extra} extra: pip install 'stonk_envs[{extra}]'"
