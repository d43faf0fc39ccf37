"""The picture of a Two Cards table: a card per seat (a back when hidden) and its move."""

from __future__ import annotations

import numpy as np

from stonk_envs.render import canvas
from tests.toy_game import core

SEAT_WIDTH, TOP, CARD = 120, 60, (50, 70)


def size(num_players: int) -> tuple[int, int]:
    return 40 + SEAT_WIDTH * num_players, TOP + CARD[1] + 60


def draw(game, states: np.ndarray, i: int, seat: int | None) -> canvas.Canvas:
    s = states[i]
    picture = canvas.start(game, size(game.num_players))
    where = "game over" if s["game_over"] else f"player_{s['turn']} to act"
    picture.header("Two Cards", where, canvas.view_label(seat))
    for p in range(game.num_players):
        x = 20 + SEAT_WIDTH * p
        box = (x, TOP, x + CARD[0], TOP + CARD[1])
        if seat is None or seat == p or s["game_over"]:
            picture.card(box, str(int(s["card"][p])), canvas.SEAT_COLOURS[p])
        else:
            picture.card_back(box)
        move = {core.NOT_YET: "", core.PASS: "pass", core.BET: "bet"}[int(s["move"][p])]
        picture.text((x, TOP + CARD[1] + 10), f"player_{p} {move}")
    return picture
