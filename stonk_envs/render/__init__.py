"""Pictures of the game table (``render_mode="rgb_array"``), one drawer per game (the module its
spec in :mod:`stonk_envs.registry` names).

``draw(game, states, i, seat)`` returns an ``(H, W, 3)`` uint8 image of ``states[i]`` as
``seat`` sees it (others' hidden cards as backs), or of everything when ``seat`` is None.
Its foot is an event strip: the moves of the step that led here (``events``, void ones in
red; a line per seat in the real-time games), and the step's round summary (``summary``) over
the table when it scored a round. :func:`story` tells a step in these words; an env's
``render()`` after a step shows that step's.
The size depends only on the game and its player count, so the frames of a game make a video.
Importing this package registers ``draw`` and the window with :mod:`stonk_envs.core.pictures`,
the hook through which the envs' ``render()`` reaches them.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

import numpy as np

from stonk_envs import registry
from stonk_envs.core import pictures
from stonk_envs.core.game import Game
from stonk_envs.games.story import step_lines, summary_lines
from stonk_envs.render.canvas import story_height


def drawer(game: Game) -> ModuleType:
    """The module that draws ``game``'s table, named by its spec (``size``, ``draw``, optionally ``SUMMARY_TOP``)."""
    return registry.load(registry.spec(game.name).drawer)


def draw(
    game: Game, states: np.ndarray, i: int, seat: int | None, events: Sequence[str] = (), summary: Sequence[str] = ()
) -> np.ndarray:
    """The table of ``states[i]`` from ``seat`` (None: everything) as an RGB array, with the step's story."""
    table = drawer(game)
    canvas = table.draw(game, states, i, seat)
    canvas.story(canvas.height - story_height(game), events, summary, getattr(table, "SUMMARY_TOP", None))
    return canvas.array()


def story(
    game: Game, before: np.ndarray, after: np.ndarray, joint, voids, seat: int | None
) -> tuple[list[str], list[str]]:
    """The moves of the step from ``before`` to ``after`` as ``seat`` may know them, and its summary."""
    return step_lines(game, before, after, list(joint), voids, seat), summary_lines(game, before, after, list(joint))


def frame_size(game: Game) -> tuple[int, int]:
    """``(width, height)`` of every picture of ``game``."""
    width, height = drawer(game).size(game.num_players)
    return width, height + story_height(game)


def _open_window(title: str):
    from stonk_envs.render.window import HumanView

    return HumanView(title)


pictures.register(pictures.Pictures(draw=draw, story=story, open_window=_open_window))
