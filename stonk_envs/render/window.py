"""``render_mode="human"``: the picture in a pygame window where a display exists, else the text."""

from __future__ import annotations

import os
import sys

import numpy as np

INVISIBLE_DRIVERS = ("offscreen", "dummy")
"""SDL video drivers that draw nowhere; SDL picks them itself when no display answers."""


def display_available() -> bool:
    """True when a window can be shown: a display is named (or SDL is told which video driver to use)."""
    if sys.platform in ("win32", "darwin"):
        return True
    return any(os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"))


class HumanView:
    """Shows frames in one window; falls back to printing the text once no window can be opened."""

    def __init__(self, title: str):
        self.title = title
        self._pygame = None
        self._screen = None
        self.fallback = not display_available()

    def show(self, frame: np.ndarray | None, text: str) -> None:
        """Show ``frame`` (``(H, W, 3)`` uint8) in the window, or print ``text`` without one."""
        if not self.fallback and frame is not None and self._open(frame.shape[1], frame.shape[0]):
            pygame = self._pygame
            surface = pygame.surfarray.make_surface(np.ascontiguousarray(frame.transpose(1, 0, 2)))
            self._screen.blit(surface, (0, 0))
            pygame.event.pump()
            pygame.display.flip()
            return
        print(text)

    def _open(self, width: int, height: int) -> bool:
        if self._screen is not None:
            return True
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        try:
            import pygame

            pygame.display.init()
            if pygame.display.get_driver() in INVISIBLE_DRIVERS and not os.environ.get("SDL_VIDEODRIVER"):
                pygame.display.quit()  # SDL fell back to drawing off screen: there is no display
                raise RuntimeError("no display")
            self._screen = pygame.display.set_mode((width, height))
            pygame.display.set_caption(self.title)
        except (ImportError, RuntimeError):  # no pygame, or no usable video device (pygame.error)
            self.fallback = True
            return False
        self._pygame = pygame
        return True

    def close(self) -> None:
        if self._screen is not None:
            self._pygame.display.quit()
            self._screen = None
