"""The Stonk Market table as a picture: hands as suit counts, the Exchange, announcements, bids, totals."""

from __future__ import annotations

import numpy as np

from stonk_envs.render.canvas import (
    EMPTY_SLOT,
    GOLD,
    MUTED,
    PANEL,
    PANEL_HIGHLIGHT,
    SEAT_COLOURS,
    TEXT,
    Canvas,
    acting_seats,
    font,
    readable_on,
    start,
    view_label,
    winners_text,
    winning_seats,
)

SUIT_COLOURS = (
    (120, 130, 150),
    (90, 170, 220),
    (200, 120, 70),
    (250, 210, 80),
    (120, 210, 150),
    (235, 80, 80),
    (160, 110, 220),
    (240, 140, 190),
    (90, 200, 200),
)
SHORT_NAMES = ("Glitch", "Slinko", "Nobble", "SweetBee", "Chatterfly", "Blammo!", "Greedle", "Socktopus", "BioHippo")
WIDTH = 1100
TOP = 104
ROW = 74
CELL = 64
HAND_X = 190
OFFER_X = HAND_X + 9 * CELL + 16


def size(num_players: int) -> tuple[int, int]:
    """``(width, height)`` of the picture for a player count."""
    return WIDTH, TOP + num_players * ROW + 12


def suit_chip(canvas: Canvas, x: float, y: float, count: int | None, suit: int) -> float:
    """``3 x BioHippo`` (or the suit alone when ``count`` is None) on the suit's colour; returns its width."""
    label = SHORT_NAMES[suit] if count is None else f"{count} x {SHORT_NAMES[suit]}"
    width = font(13).getlength(label) + 16
    canvas.draw.rounded_rectangle((x, y, x + width, y + 22), radius=5, fill=SUIT_COLOURS[suit])
    canvas.text((x + width / 2, y + 11), label, 13, readable_on(SUIT_COLOURS[suit]), anchor="mm")
    return width


def draw(game, states: np.ndarray, i: int, seat: int | None) -> Canvas:
    s = states[i]
    n = game.num_players
    canvas = start(game, size(n))
    rounds = int(s["num_rounds"])
    if s["game_over"]:
        detail = winners_text(game, states, i)
    else:
        detail = f"round {int(s['round']) + 1}/{rounds}   tick {s['tick']}/{s['tick_cap']}"
        detail += "   gold dot: decides this tick"
    canvas.header("Stonk Market", detail, view_label(seat))
    acting, won = acting_seats(game, states, i), winning_seats(game, states, i)
    canvas.text((16, 56), "Exchange", 12, MUTED)
    suit_chip(canvas, 16, 72, None, int(s["exchange"]))
    for suit in range(9):
        x = HAND_X + suit * CELL
        canvas.draw.rounded_rectangle((x + 2, 56, x + CELL - 2, 92), radius=5, fill=SUIT_COLOURS[suit])
        canvas.text((x + CELL / 2, 67), SHORT_NAMES[suit], 10, readable_on(SUIT_COLOURS[suit]), anchor="mm")
        canvas.text(
            (x + CELL / 2, 83),
            f"of {int(game.core.SUIT_TOTALS[suit])}",
            10,
            readable_on(SUIT_COLOURS[suit]),
            anchor="mm",
        )
    canvas.text((OFFER_X, 56), "announcements and bids", 12, MUTED)
    for p in range(n):
        y = TOP + p * ROW
        mine = seat == p
        canvas.panel(
            (12, y, WIDTH - 12, y + ROW - 8), fill=PANEL_HIGHLIGHT if mine else PANEL, outline=GOLD if mine else None
        )
        canvas.draw.rectangle((12, y, 20, y + ROW - 8), fill=SEAT_COLOURS[p])
        width = canvas.text((30, y + 7), f"player_{p}" + ("  (you)" if mine else ""), 15)
        if acting[p]:
            canvas.to_act(30 + width + 5, y + 5, label=False)
        total = int(s["totals"][p])
        canvas.text((30, y + 28), f"total {total}", 14, GOLD if won[p] else TEXT)
        canvas.text(
            (30, y + 47), f"last round {int(s['last_scores'][p]):+d}   {int(s['hand'][p].sum())} cards", 11, MUTED
        )
        shown = seat is None or mine
        counts = s["hand"][p] if shown else s["known"][p]
        for suit in range(9):
            x = HAND_X + suit * CELL
            k = int(counts[suit])
            box = (x + 4, y + 8, x + CELL - 4, y + ROW - 16)
            if k:
                canvas.card(box, str(k), SUIT_COLOURS[suit], 18)
            else:
                canvas.draw.rounded_rectangle(box, radius=4, outline=EMPTY_SLOT, width=1)
        if not shown:
            hidden = int(s["hand"][p].sum() - s["known"][p].sum())
            canvas.text((HAND_X + 9 * CELL - 4, y + ROW - 14), f"+{hidden} unseen", 10, MUTED, anchor="ra")
        x, line = OFFER_X, y + 8
        if s["game_over"]:
            if won[p]:
                canvas.winner(x, line)
            continue
        if s["ann_count"][p] > 0:
            width = canvas.text((x, line + 11), "announces ", 12, MUTED, anchor="lm")
            suit_chip(canvas, x + width, line, int(s["ann_count"][p]), int(s["ann_suit"][p]))
            line += 28
        if s["bid_count"][p] > 0:
            to = int(s["bid_to"][p])
            width = canvas.text((x, line + 11), "bids ", 12, MUTED, anchor="lm")
            width += suit_chip(canvas, x + width, line, int(s["bid_count"][p]), int(s["bid_suit"][p]))
            canvas.text((x + width + 6, line + 11), f"to player_{to}", 12, SEAT_COLOURS[to], anchor="lm")
    return canvas
