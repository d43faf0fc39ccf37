"""How a Stocks & Bombs step is told: why a trade was void, and each round's breakdown (B6)."""

from __future__ import annotations

import numpy as np

from stonk_envs.games.stocks_and_bombs import core
from stonk_envs.games.stocks_and_bombs.game import piece_name
from stonk_envs.games.story import Story


def void_why(
    game, before: np.ndarray, joint, voids, seat: int, order: list[int], done: list[tuple[int, int]]
) -> str | None:
    """Why a PROPOSE or ACCEPT was void: a proposal replaced, or a piece traded earlier in the tick."""
    s = before[0]
    kind, a, b = game.decode(seat, int(joint[seat]))
    if kind == "ACCEPT":
        pieces = {int(s["prop_give"][a]), int(s["prop_recv"][a])}
    elif kind == "PROPOSE":
        pieces = {a, b}
    else:
        return None
    for q, other in done:
        other_kind, k, _ = game.decode(q, other)
        if kind == "ACCEPT" and q == a and other_kind == "PROPOSE":
            return f"player_{a} replaced that proposal this tick"
        if other_kind != "ACCEPT":
            continue
        moved = {int(s["prop_give"][k]), int(s["prop_recv"][k])} & pieces
        if not moved:
            continue
        what = " and ".join(piece_name(x) for x in sorted(moved))
        for trader, partner in ((k, q), (q, k)):
            if kind == "ACCEPT" and trader == a:
                return f"player_{a} had already traded {what} this tick (with player_{partner})"
            if trader == seat:
                return f"player_{seat} had already traded {what} this tick (with player_{partner})"
        return f"{what} had already changed hands this tick (player_{k} with player_{q})"
    return None


def scored(game, before: np.ndarray, after: np.ndarray, joint) -> list[str]:
    """The breakdown of the round the step scored, if it scored one."""
    return round_lines(game, after[0]) if int(after[0]["round"]) > int(before[0]["round"]) else []


def round_lines(game, s) -> list[str]:
    """Round breakdown (B6) from the state after the scoring: holdings against targets, caller, penalty."""
    n = game.num_players
    holder, target = s["last_holder"], s["last_target"]
    lines = [f"round {int(s['round'])} scored:"]
    for p in range(n):
        t = int(target[p])
        score = int(s["last_scores"][p])
        if t != p:
            got = int(core.pips_of_colour(holder, n, p, t))
            lost = int(core.pips_of_colour(holder, n, t, p))
            how = f"target c{t}: holds {got} pip(s) of c{t}, player_{t} holds {lost} of c{p}"
        else:
            parts = [
                f"{int(core.pips_of_colour(holder, n, p, x))}-{int(core.pips_of_colour(holder, n, x, p))} with c{x}"
                for x in range(n)
                if x != p and core.pips_of_colour(holder, n, p, x) > 0
            ]
            how = f"target own colour c{p}: " + (", ".join(parts) or "holds no other colour")
        lines.append(f"  player_{p}: {how} = {score:+d}; total {int(s['totals'][p])}")
    caller = int(s["last_caller"])
    if caller < 0:
        lines.append("  nobody called STOP (the tick cap ended the round)")
    elif s["last_penalty"]:
        lines.append(f"  player_{caller} called STOP without the best round score: -1 point")
    else:
        lines.append(f"  player_{caller} called STOP with the best round score: no penalty")
    return lines


STORY = Story(void_why=void_why, scored=scored, round_call="STOP")
"""Stocks & Bombs in :mod:`stonk_envs.games.story`."""
