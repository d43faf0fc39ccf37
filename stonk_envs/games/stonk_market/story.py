"""How a Stonk Market step is told: an EXCHANGE on the table earlier moves left, why a move was
void, and each round's breakdown (M5, M6)."""

from __future__ import annotations

import numpy as np

from stonk_envs.core.negotiation import VOID_NONE
from stonk_envs.games.stonk_market import core
from stonk_envs.games.stonk_market.config import SUIT_NAMES
from stonk_envs.games.story import Story, move_name


def move_table(game, before: np.ndarray, joint, voids, seat: int, order: list[int]) -> np.ndarray:
    """The table a move resolved on: an EXCHANGE takes the card an earlier EXCHANGE of the tick put there."""
    if game.decode(seat, int(joint[seat]))[0] != "EXCHANGE" or int(voids[seat]) != VOID_NONE:
        return before
    table = before.copy()
    for q in order[: order.index(seat)]:
        kind, _, suit, _ = game.decode(q, int(joint[q]))
        if kind == "EXCHANGE" and int(voids[q]) == VOID_NONE:
            table["exchange"][0] = suit
    return table


def void_why(
    game, before: np.ndarray, joint, voids, seat: int, order: list[int], done: list[tuple[int, int]]
) -> str | None:
    """Why a move was void: the earlier moves of the tick that involved its seat or its partner."""
    names = {q: move_name(game, before, joint, voids, q, order, public=True) for q, _ in done}
    kind, j, _, _ = game.decode(seat, int(joint[seat]))
    involved = {seat} | ({j} if kind in ("BID", "TAKE") else set())
    causes = []
    for q, other in done:
        other_kind, k, _, _ = game.decode(q, other)
        if q in involved or (other_kind == "TAKE" and k in involved):
            causes.append(f"player_{q} did '{names[q]}'")
    if not causes:
        return None
    undone = {
        "BID": f"player_{j}'s announcement had changed",
        "TAKE": f"player_{j}'s bid or {_own(seat)} announcement had changed",
        "WITHDRAW": f"{_own(seat)} announcement was gone",
    }.get(kind, f"player_{seat} no longer held the cards")
    return f"{undone}: this tick " + " and ".join(causes)


def _own(seat: int) -> str:
    return f"player_{seat}'s"


def scored(game, before: np.ndarray, after: np.ndarray, joint) -> list[str]:
    """The breakdown of the round the step scored, if it scored one."""
    return round_lines(game, after[0]) if int(after[0]["round"]) > int(before[0]["round"]) else []


def round_lines(game, s) -> list[str]:
    """Round breakdown (M5, M6) from the state after the scoring: majorities, strays, the call."""
    n = game.num_players
    exchange = int(s["last_exchange"])
    lines = [f"round {int(s['round'])} scored (Exchange: {SUIT_NAMES[exchange]}):"]
    for p in range(n):
        hand = s["last_hand"][p]
        parts = []
        for label, pick in (
            ("majorities", lambda c, suit: c > 0 and suit != exchange and 2 * c > core.SUIT_TOTALS[suit]),
            ("strays", lambda c, suit: suit != exchange and core.is_stray(c, suit)),
            ("Exchange suit", lambda c, suit: c > 0 and suit == exchange),
        ):
            held = [f"{int(hand[suit])} {SUIT_NAMES[suit]}" for suit in range(core.NUM_SUITS) if pick(hand[suit], suit)]
            if held:
                parts.append(f"{label} {', '.join(held)}")
        lines.append(
            f"  player_{p}: {'; '.join(parts) or 'no cards'} = {int(s['last_scores'][p]):+d}; "
            f"total {int(s['totals'][p])}"
        )
    caller = int(s["last_caller"])
    if caller < 0:
        lines.append("  nobody called STONKS (the tick cap ended the round)")
    elif s["last_valid"]:
        lines.append(f"  player_{caller} called STONKS: valid (only majorities), +{int(s['stonks_bonus'])} bonus")
    else:
        lines.append(f"  player_{caller} called STONKS: invalid (a stray suit), the caller scores 0")
    return lines


STORY = Story(move_table=move_table, void_why=void_why, scored=scored, round_call="STONKS")
"""Stonk Market in :mod:`stonk_envs.games.story`."""
