"""The adapter's way to the pictures of ``render_mode="rgb_array"`` and ``"human"``.

The generic adapter sits below the render layer and does not import it. ``stonk_envs.render``
registers its drawer and window here when imported; each game's env module imports it, so every
env made through ``stonk_envs`` or PettingZoo's registry has them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Pictures:
    """How to draw one state of a batch as an RGB array, how to tell a step in words, and how to
    open a window titled by the game."""

    draw: Callable[..., np.ndarray]
    """``draw(game, states, i, seat, events=(), summary=())``: the table of ``states[i]`` from
    ``seat`` (None: everything), with the step's moves and round summary in its event strip."""
    story: Callable[..., tuple[list[str], list[str]]]
    """``story(game, before, after, joint, voids, seat)``: the step's moves as ``seat`` may know
    them (void ones with why) and what it scored (round summary, winners)."""
    open_window: Callable[[str], Any]
    """``open_window(title)``: a view with ``fallback``, ``show(frame, text)`` and ``close()``."""


_registered: list[Pictures] = []


def register(pictures: Pictures) -> None:
    """Make ``pictures`` the ones every env draws with (the render layer calls this on import)."""
    _registered[:] = [pictures]


def registered() -> Pictures:
    """The registered pictures; ``RuntimeError`` when the render layer was never imported."""
    if not _registered:
        raise RuntimeError("no pictures registered: import stonk_envs.render before rendering rgb_array or human")
    return _registered[0]
