"""The Stockpile table as a picture: price track with split and bankruptcy marks, forecasts,
stockpiles and bids, cash and debts, portfolios and hands."""

from __future__ import annotations

import numpy as np

from stonk_envs.games.stockpile.game import TICKERS, card_name
from stonk_envs.games.stockpile.state import (
    BOOM,
    COMPANIES,
    DIVIDEND_PHASE,
    FORECAST_NAMES,
    NUM_COMPANIES,
    PHASE_NAMES,
)
from stonk_envs.render.canvas import (
    BAD,
    EMPTY_SLOT,
    GOLD,
    GOOD,
    LINE,
    MUTED,
    PANEL,
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

COMPANY_COLOURS = (
    (86, 156, 214),
    (78, 190, 140),
    (190, 120, 220),
    (232, 120, 80),
    (160, 170, 185),
    (240, 200, 70),
)
FEE_COLOUR = (200, 200, 200)
ACTION_COLOURS = {BOOM: (80, 200, 110), BOOM + 1: (230, 90, 90)}
WIDTH = 1120
CELL = 30
TRACK_X = 210
CARD_W, CARD_H = 50, 30
SUMMARY_TOP = 276
"""The settlement is drawn over the stockpiles, which are empty at the end."""
PLAYER_ROW = 72
"""Height of a player's row (its panel is 8 less)."""


def size(num_players: int) -> tuple[int, int]:
    """``(width, height)`` of the picture for a player count."""
    return WIDTH, 276 + 40 * num_players + 34 + PLAYER_ROW * num_players + 10


def card_colour(kind: int) -> tuple[int, int, int]:
    if kind < NUM_COMPANIES:
        return COMPANY_COLOURS[kind]
    if kind < BOOM:
        return FEE_COLOUR
    return ACTION_COLOURS[kind]


def card_label(kind: int) -> str:
    return card_name(kind).replace("fee$", "fee $")


def draw(game, states: np.ndarray, i: int, seat: int | None) -> Canvas:
    s = states[i]
    n = game.num_players
    canvas = start(game, size(n))
    everything = seat is None
    rounds = int(s["rounds"])
    detail = f"round {min(int(s['round']) + 1, rounds)}/{rounds}   {PHASE_NAMES[int(s['phase'])]} phase"
    if s["game_over"]:
        detail = f"{winners_text(game, states, i)} (highest net worth)"
    else:
        detail += f"   deciding: player_{int(s['actor'])}"
        if s["phase"] == DIVIDEND_PHASE:
            detail += f" (dividend of {TICKERS[int(s['div_company'])]})"
    canvas.header("Stockpile", detail, view_label(seat))
    _track(canvas, s)
    _forecasts(canvas, s, n, seat)
    y = _piles(canvas, game, s, n, seat, 276)
    _players(canvas, game, states, i, seat, y + 8, everything)
    return canvas


def _track(canvas: Canvas, s) -> None:
    top = 52
    max_price = int(s["max_price"])
    canvas.panel((12, top, 700, top + 212))
    canvas.text((24, top + 8), "price track", 12, MUTED)
    x_bust, x_split = TRACK_X, TRACK_X + (max_price + 1) * CELL
    canvas.text((x_bust + CELL / 2, top + 14), "bankrupt", 10, BAD, anchor="mm")
    canvas.text((x_split + CELL / 2, top + 14), "split", 10, GOLD, anchor="mm")
    for c in range(NUM_COMPANIES):
        y = top + 26 + c * 30
        canvas.draw.rounded_rectangle((24, y, 64, y + 24), radius=4, fill=COMPANY_COLOURS[c])
        canvas.text((44, y + 12), TICKERS[c], 12, (20, 20, 20), anchor="mm")
        canvas.text((72, y + 12), COMPANIES[c], 12, TEXT, anchor="lm")
        canvas.draw.rounded_rectangle((x_bust + 2, y + 2, x_bust + CELL - 2, y + 22), radius=3, outline=BAD)
        canvas.text((x_bust + CELL / 2, y + 12), "x", 12, BAD, anchor="mm")
        canvas.draw.rounded_rectangle((x_split + 2, y + 2, x_split + CELL - 2, y + 22), radius=3, outline=GOLD)
        canvas.text((x_split + CELL / 2, y + 12), "x2", 11, GOLD, anchor="mm")
        price = int(s["price"][c])
        for v in range(1, max_price + 1):
            x = TRACK_X + v * CELL
            if v == price:
                canvas.draw.rounded_rectangle(
                    (x + 1, y, x + CELL - 1, y + 24),
                    radius=5,
                    fill=COMPANY_COLOURS[c],
                    outline=(255, 255, 255),
                    width=2,
                )
                canvas.text((x + CELL / 2, y + 12), str(v), 14, (20, 20, 20), anchor="mm")
            else:
                canvas.draw.rectangle((x + 2, y + 4, x + CELL - 2, y + 20), outline=LINE)
                canvas.text((x + CELL / 2, y + 12), str(v), 10, MUTED, anchor="mm")


def _forecasts(canvas: Canvas, s, n: int, seat: int | None) -> None:
    top, x0 = 52, 712
    canvas.panel((x0, top, WIDTH - 12, top + 212))
    canvas.text((x0 + 12, top + 8), "forecasts this round", 12, MUTED)
    rows = [("public", n)]
    rows += [
        (f"player_{q}" + (" (you)" if q == seat else ""), q)
        for q in range(n)
        if seat is None or q == seat or s["pair_shown"][q]
    ]
    rows += [("face-down", j) for j in range(n + 1, NUM_COMPANIES) if seat is None or s["pair_shown"][j]]
    for k, (label, j) in enumerate(rows[:6]):
        y = top + 30 + k * 24
        company, forecast = int(s["pair_comp"][j]), int(s["pair_fc"][j])
        canvas.text((x0 + 12, y + 10), label, 13, SEAT_COLOURS[j] if j < n else TEXT, anchor="lm")
        canvas.draw.rounded_rectangle((x0 + 130, y, x0 + 170, y + 20), radius=4, fill=COMPANY_COLOURS[company])
        canvas.text((x0 + 150, y + 10), TICKERS[company], 12, (20, 20, 20), anchor="mm")
        colour = GOOD if FORECAST_NAMES[forecast].startswith("+") else BAD if forecast > 3 else GOLD
        canvas.text((x0 + 180, y + 10), FORECAST_NAMES[forecast], 14, colour, anchor="lm")
    canvas.text((x0 + 12, top + 184), "$$ = dividend: no move; holders are paid", 12, GOLD, anchor="lm")
    canvas.text((x0 + 12, top + 200), f"deck: {int(s['deck_len'])} cards", 12, MUTED, anchor="lm")


def _piles(canvas: Canvas, game, s, n: int, seat: int | None, top: int) -> int:
    whose = "a" if seat is None else "your"
    canvas.text((24, top), f"stockpiles and bids   (white edge: {whose} face-down card)", 12, MUTED)
    y = top + 18
    bid_values = game.config.bid_values
    for t in range(n):
        canvas.panel((12, y, WIDTH - 12, y + 34), radius=6)
        canvas.text((24, y + 17), f"pile {t}", 13, TEXT, anchor="lm")
        x = 84
        for j in range(int(s["pile_len"][t])):
            kind, up, by = int(s["pile"][t][j]), bool(s["pile_up"][t][j]), int(s["pile_by"][t][j])
            box = (x, y + 2, x + CARD_W, y + 2 + CARD_H)
            if up or seat is None or by == seat:
                canvas.card(box, card_label(kind), card_colour(kind), 11, outline=None if up else (255, 255, 255))
            else:
                canvas.card_back(box)
            x += CARD_W + 4
        bidder = int(s["bidder"][t])
        if bidder >= 0:
            label = f"${bid_values[int(s['bid_v'][t])]}K by player_{bidder}"
            canvas.text((WIDTH - 24, y + 17), label, 14, SEAT_COLOURS[bidder], anchor="rm")
        else:
            canvas.text((WIDTH - 24, y + 17), "no bid", 12, MUTED, anchor="rm")
        y += 40
    return y


def _players(canvas: Canvas, game, states, i: int, seat: int | None, top: int, everything: bool) -> None:
    s = states[i]
    n = game.num_players
    canvas.text((24, top), "players", 12, MUTED)
    scores = game.scores(states, i) if s["game_over"] else None
    acting, won = acting_seats(game, states, i), winning_seats(game, states, i)
    for p in range(n):
        y = top + 18 + p * PLAYER_ROW
        mine = seat == p
        bottom = y + PLAYER_ROW - 8
        canvas.panel(
            (12, y, WIDTH - 12, bottom), fill=PANEL_HIGHLIGHT if mine else PANEL, outline=GOLD if mine else None
        )
        canvas.draw.rectangle((12, y, 20, bottom), fill=SEAT_COLOURS[p])
        width = canvas.text((30, y + 6), f"player_{p}" + ("  (you)" if mine else ""), 15)
        if acting[p]:
            canvas.to_act(30 + width + 8, y + 5)
        if won[p]:
            canvas.winner(30 + width + 8, y + 4)
        canvas.text((30, y + 27), f"cash ${int(s['cash'][p])}K", 14, TEXT)
        debt = int(s["debt"][p].sum())
        if debt:
            canvas.text((120, y + 27), f"debt ${debt}K", 14, BAD)
        if scores is not None:
            canvas.text((30, y + 46), f"net worth ${scores[p]:g}K", 13, GOLD)
        x = 220
        if everything or mine:
            canvas.text((x, y + 4), "regular", 10, MUTED)
            for c in range(NUM_COMPANIES):
                _share(canvas, x + c * 44, y + 18, c, int(s["regular"][p][c]))
        else:
            canvas.text((x, y + 4), "regular", 10, MUTED)
            canvas.card_back((x, y + 18, x + 40, y + 48))
            count = int(s["regular"][p].sum())
            canvas.text((x + 48, y + 33), f"{count} card{'s' if count != 1 else ''}", 13, TEXT, anchor="lm")
        x = 500
        canvas.text((x, y + 4), "split (public)", 10, MUTED)
        for c in range(NUM_COMPANIES):
            _share(canvas, x + c * 44, y + 18, c, int(s["split"][p][c]))
        x = 780
        if everything or mine:
            hand = [int(k) for k in s["hand"][p] if k >= 0]
            actions = [BOOM] * int(s["booms"][p]) + [BOOM + 1] * int(s["busts"][p])
            if hand or actions:
                canvas.text((x, y + 4), "hand and action cards", 10, MUTED)
            for k, kind in enumerate(hand + actions):
                label = {BOOM: "Boom!", BOOM + 1: "Bust!"}.get(kind, card_label(kind))
                canvas.card((x + k * 54, y + 18, x + k * 54 + 50, y + 48), label, card_colour(kind), 11)
        elif s["booms"][p] + s["busts"][p]:
            canvas.text((x, y + 33), "holds action cards", 12, MUTED, anchor="lm")


def _share(canvas: Canvas, x: int, y: int, company: int, count: int) -> None:
    """A company's card with the count held on it (a faint outline when none)."""
    if count:
        canvas.card((x, y, x + 40, y + 30), f"{TICKERS[company]} {count}", COMPANY_COLOURS[company], 12)
    else:
        canvas.draw.rounded_rectangle((x, y, x + 40, y + 30), radius=4, outline=EMPTY_SLOT)
