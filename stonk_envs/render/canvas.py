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

EVENT_LINES = 3
"""Lines of the event strip of a turn-based game (one move a step; the rest is room for a
summary's place). A real-time game's strip has a line per seat, so every move of a tick shows."""
EVENT_ROW = 16

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

    def to_act(self, x: float, y: float, label: bool = True) -> None:
        """The mark of a seat that decides in the next step: a gold dot (and "to act")."""
        self.draw.ellipse((x, y + 3, x + 9, y + 12), fill=GOLD)
        if label:
            self.text((x + 14, y + 8), "to act", 12, GOLD, anchor="lm")

    def winner(self, x: float, y: float) -> None:
        """The badge of a seat that won the game."""
        width = font(12).getlength("WINNER") + 12
        self.draw.rounded_rectangle((x, y, x + width, y + 18), radius=4, fill=GOLD)
        self.text((x + width / 2, y + 9), "WINNER", 12, (20, 20, 20), anchor="mm")

    def story(self, top: float, events, summary, summary_top: float | None = None) -> None:
        """The event strip from ``top`` down (the step's moves, void ones in red), and the step's
        summary over the table when it has one: from ``summary_top`` down, or just above the strip.
        Moves that do not fit the strip's lines are counted on its last line, void ones kept first."""
        self.draw.rectangle((0, top, self.width, self.height), fill=PANEL)
        lines = list(events) or ["(no moves)"]
        rows = int((self.height - top - 12) // EVENT_ROW)
        if len(lines) > rows:
            kept = sorted(sorted(range(len(lines)), key=lambda k: " - VOID: " not in lines[k])[: rows - 1])
            lines = [lines[k] for k in kept] + [f"... {len(lines) - len(kept)} more moves"]
        for k, line in enumerate(lines):
            colour = BAD if " - VOID: " in line else MUTED if line.startswith(("(", "...")) else TEXT
            plain = line.replace("\N{MULTIPLICATION SIGN}", "x")
            size = 12 if font(12).getlength(plain) <= self.width - 32 else 11  # a long void reason
            self.text((16, top + 8 + k * EVENT_ROW), self.fit(line, size, self.width - 32), size, colour)
        if summary:
            self.summary(list(summary), top, summary_top)

    def summary(self, lines: list[str], bottom: float, top: float | None = None) -> None:
        """``lines`` in a framed box over the table (the game's pause), from ``top`` or just above ``bottom``."""
        row = 17
        height = 20 + row * len(lines)
        y0 = max(44, bottom - 8 - height) if top is None else top
        self.panel((24, y0, self.width - 24, y0 + height), fill=(22, 26, 34), outline=GOLD, width=2)
        for k, line in enumerate(lines):
            size, colour = (13, GOLD) if k == 0 or line.startswith("game over") else (12, TEXT)
            self.text((40, y0 + 10 + k * row), self.fit(line, size, self.width - 80), size, colour)

    @staticmethod
    def fit(text: str, size: int, width: float) -> str:
        """``text`` cut with "..." to ``width`` pixels (a multiplication sign drawn as x, which the font lacks)."""
        text = text.replace("\N{MULTIPLICATION SIGN}", "x")
        face = font(size)
        if face.getlength(text) <= width:
            return text
        while text and face.getlength(text + "...") > width:
            text = text[:-1]
        return text + "..."

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


def story_height(game) -> int:
    """Height of the event strip of ``game``'s pictures (see :data:`EVENT_LINES`)."""
    lines = max(EVENT_LINES, game.num_players) if game.simultaneous else EVENT_LINES
    return 12 + lines * EVENT_ROW


def start(game, size: tuple[int, int]) -> Canvas:
    """A blank picture of a table of ``size`` with room for the event strip below it."""
    width, height = size
    return Canvas(width, height + story_height(game))


def acting_seats(game, states, i: int) -> np.ndarray:
    """Which seats decide in the next step (bools, one per seat)."""
    out = np.zeros(game.num_players, np.bool_)
    game.actors(states, i, out)
    return out


def winning_seats(game, states, i: int) -> np.ndarray:
    """Which seats won, once the game is over (all False before)."""
    if not states[i]["game_over"]:
        return np.zeros(game.num_players, np.bool_)
    scores = game.scores(states, i)
    return scores == scores.max()


def winners_text(game, states, i: int) -> str:
    """``game over: player_1 wins`` or ``game over: player_0 and player_2 share the win``."""
    names = [f"player_{p}" for p in np.flatnonzero(winning_seats(game, states, i))]
    return f"game over: {names[0]} wins" if len(names) == 1 else f"game over: {' and '.join(names)} share the win"


def view_label(seat: int | None) -> str:
    """``view: player_2`` or ``view: everything``."""
    return "view: everything" if seat is None else f"view: player_{seat}"
