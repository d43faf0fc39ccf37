"""The Stocks & Bombs table as a picture: pieces by colour and size, proposals, totals, targets."""

from __future__ import annotations

import numpy as np

from stonk_envs.games.stocks_and_bombs import core
from stonk_envs.render.canvas import (
    GOLD,
    LINE,
    MUTED,
    PANEL_HIGHLIGHT,
    SEAT_COLOURS,
    TEXT,
    Canvas,
    acting_seats,
    start,
    view_label,
    winners_text,
    winning_seats,
)

WIDTH = 980
ROW = 86
TOP = 52
PIECE_HEIGHTS = (20, 30, 40)


def size(num_players: int) -> tuple[int, int]:
    """``(width, height)`` of the picture for a player count."""
    return WIDTH, TOP + num_players * ROW + 40


def piece(canvas: Canvas, x: float, base: float, piece_id: int) -> float:
    """An Icehouse pyramid standing on ``base``; returns its width."""
    colour = SEAT_COLOURS[piece_id // 3]
    h = PIECE_HEIGHTS[piece_id % 3]
    w = 0.8 * h
    canvas.draw.polygon([(x, base), (x + w / 2, base - h), (x + w, base)], fill=colour, outline=(20, 20, 20))
    for pip in range(piece_id % 3 + 1):
        cy = base - 5 - pip * 8
        canvas.draw.ellipse((x + w / 2 - 2, cy - 2, x + w / 2 + 2, cy + 2), fill=(250, 250, 250))
    return w


def draw(game, states: np.ndarray, i: int, seat: int | None) -> Canvas:
    s = states[i]
    n = game.num_players
    canvas = start(game, size(n))
    if s["game_over"]:
        detail = f"{winners_text(game, states, i)}   first to {s['points_to_win']}"
    else:
        detail = f"round {s['round'] + 1}   tick {s['tick']}/{s['tick_cap']}   first to {s['points_to_win']}"
    canvas.header("Stocks & Bombs", detail, view_label(seat))
    acting, won = acting_seats(game, states, i), winning_seats(game, states, i)
    for p in range(n):
        y = TOP + p * ROW
        mine = seat == p
        canvas.panel(
            (12, y, WIDTH - 12, y + ROW - 8),
            fill=PANEL_HIGHLIGHT if mine else (38, 46, 60),
            outline=GOLD if mine else None,
        )
        canvas.draw.rectangle((12, y, 20, y + ROW - 8), fill=SEAT_COLOURS[p])
        width = canvas.text((32, y + 8), f"player_{p}" + ("  (you)" if mine else ""), 16)
        if acting[p]:
            canvas.to_act(32 + width + 6, y + 8, label=False)
        total = int(s["totals"][p])
        canvas.text((32, y + 32), f"total {total}", 15, GOLD if won[p] else TEXT)
        if won[p]:
            canvas.winner(WIDTH - 110, y + 8)
        canvas.text((32, y + 54), f"last round {int(s['last_scores'][p]):+d}", 12, MUTED)
        canvas.text((172, y + 8), "target", 12, MUTED)
        if seat is None or mine:
            t = int(s["target"][p])
            canvas.draw.rounded_rectangle((172, y + 28, 218, y + 58), radius=6, fill=SEAT_COLOURS[t])
            canvas.text((195, y + 43), f"c{t}", 13, (20, 20, 20), anchor="mm")
        else:
            canvas.card_back((172, y + 28, 218, y + 58))
        x = 236
        canvas.text((x, y + 8), "holds", 12, MUTED)
        for colour in range(n):
            held = [colour * 3 + k for k in range(3) if s["holder"][colour * 3 + k] == p]
            for pc in held:
                x += piece(canvas, x, y + 70, pc) + 3
            if held:
                x += 10
        give = int(s["prop_give"][p])
        if give != core.NONE and not s["game_over"]:
            px = 640
            canvas.draw.line((px - 10, y + 10, px - 10, y + ROW - 18), fill=LINE, width=1)
            to = int(s["prop_to"][p])
            width = canvas.text((px, y + 8), "proposes to ", 12, MUTED)
            canvas.text((px + width, y + 8), f"player_{to}", 12, SEAT_COLOURS[to])
            canvas.text((px, y + 52), "gives", 13, TEXT, anchor="lm")
            piece(canvas, px + 44, y + 70, give)
            canvas.text((px + 90, y + 52), "for", 13, TEXT, anchor="lm")
            piece(canvas, px + 118, y + 70, int(s["prop_recv"][p]))
    foot = TOP + n * ROW
    canvas.text(
        (16, foot + 12),
        "pieces: Small 1 pip, Medium 2, Large 3; colour c owned by player c;   gold dot: decides this tick",
        12,
        MUTED,
    )
    return canvas
