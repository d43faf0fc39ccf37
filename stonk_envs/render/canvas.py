"""Drawing helpers shared by the game pictures: one Pillow image, fonts, colours, cards."""

from __future__ import annotations

from functools import cache, lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

BACKGROUND = (24, 30, 40)
PANEL = (38, 46, 60)
PANEL_HIGHLIGHT = (56, 68, 90)
LINE = (78, 90, 112)
TEXT = (236, 240, 245)
MUTED = (150, 160, 178)
GOOD = (96, 200, 120)
BAD = (235, 95, 90)
GOLD = (244, 196, 70)
CARD_BACK = (70, 82, 140)
EMPTY_SLOT = (84, 96, 120)
"""Outline of a place where a card could be and none is."""

SEAT_COLOURS = (
    (231, 76, 60),
    (52, 152, 219),
    (46, 204, 113),
    (241, 196, 15),
    (155, 89, 182),
    (230, 126, 34),
)
"""One colour per seat (and per piece colour in Stocks & Bombs)."""


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled font at ``size`` pixels (the same on every machine)."""
    return ImageFont.load_default(size=size)


def readable_on(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = colour
    return (20, 20, 20) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (255, 255, 255)


class Canvas:
    """An RGB picture being drawn; :meth:`array` returns it as ``(H, W, 3)`` uint8."""

    def __init__(self, width: int, height: int):
        self.image = Image.new("RGB", (width, height), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self.width, self.height = width, height

    def text(self, xy, text: str, size: int = 14, fill=TEXT, anchor: str = "la") -> float:
        """Draw ``text``; returns its width in pixels."""
        stamp, (dx, dy), width = text_stamp(text, size, tuple(fill), anchor)
        if stamp is not None:
            self.image.paste(stamp, (round(xy[0] + dx), round(xy[1] + dy)), stamp)
        return width

    def panel(self, box, fill=PANEL, outline=None, radius: int = 8, width: int = 2) -> None:
        self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)

    def card(self, box, label: str, fill, size: int = 12, outline=None) -> None:
        """A small card with a centred label."""
        x0, y0, x1, y1 = (round(v) for v in box)
        stamp = card_stamp(x1 - x0, y1 - y0, label, tuple(fill), size, tuple(outline or LINE))
        self.image.paste(stamp, (x0, y0), stamp)

    def card_back(self, box) -> None:
        """A face-down card."""
        x0, y0, x1, y1 = (round(v) for v in box)
        stamp = back_stamp(x1 - x0, y1 - y0)
        self.image.paste(stamp, (x0, y0), stamp)

    def header(self, title: str, detail: str, view: str) -> None:
        """The title bar: game, where the game stands, and whose view this is."""
        self.draw.rectangle((0, 0, self.width, 40), fill=PANEL)
        width = self.text((16, 20), title, 20, anchor="lm")
        self.text((28 + width, 21), detail, 15, MUTED, anchor="lm")
        self.text((self.width - 16, 21), view, 14, GOLD, anchor="rm")

    def array(self) -> np.ndarray:
        return np.asarray(self.image, dtype=np.uint8)


@lru_cache(maxsize=8192)
def text_stamp(text: str, size: int, fill: tuple, anchor: str) -> tuple[Image.Image | None, tuple[int, int], float]:
    """``text`` drawn once on a transparent image, its offset from the anchor point, and its width.

    Pasting a stamp costs a fraction of drawing the text again, which is most of a picture's time.
    """
    face = font(size)
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    width = face.getlength(text)
    if right <= left or bottom <= top:
        return None, (0, 0), width
    stamp = Image.new("RGBA", (right - left, bottom - top), (*fill, 0))
    ImageDraw.Draw(stamp).text((-left, -top), text, font=face, fill=fill, anchor=anchor)
    return stamp, (left, top), width


@lru_cache(maxsize=2048)
def card_stamp(width: int, height: int, label: str, fill: tuple, size: int, outline: tuple) -> Image.Image:
    """A card with a centred label, drawn once."""
    stamp = Image.new("RGBA", (width + 1, height + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(stamp)
    draw.rounded_rectangle((0, 0, width, height), radius=4, fill=fill, outline=outline, width=1)
    draw.text((width / 2, height / 2), label, font=font(size), fill=readable_on(fill), anchor="mm")
    return stamp


@lru_cache(maxsize=64)
def back_stamp(width: int, height: int) -> Image.Image:
    """A face-down card, drawn once."""
    stamp = Image.new("RGBA", (width + 1, height + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(stamp)
    draw.rounded_rectangle((0, 0, width, height), radius=4, fill=CARD_BACK, outline=(150, 160, 220), width=1)
    draw.rectangle((4, 4, width - 4, height - 4), outline=(110, 122, 190), width=1)
    draw.text((width / 2, height / 2), "?", font=font(12), fill=(200, 205, 240), anchor="mm")
    return stamp


def view_label(seat: int | None) -> str:
    """``view: player_2`` or ``view: everything``."""
    return "view: everything" if seat is None else f"view: player_{seat}"
