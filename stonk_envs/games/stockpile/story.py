"""How a Stockpile step is told: the step that ends the game shows the final settlement (S14)."""

from __future__ import annotations

import numpy as np

from stonk_envs.games.stockpile.game import TICKERS
from stonk_envs.games.stockpile.state import NUM_COMPANIES, SPLIT_SALE_FACTOR
from stonk_envs.games.story import Story


def scored(game, before: np.ndarray, after: np.ndarray, joint) -> list[str]:
    """The final settlement, when the step ended the game."""
    return settlement_lines(game, before, joint) if after[0]["game_over"] and not before[0]["game_over"] else []


def settlement_lines(game, before: np.ndarray, joint: list[int]) -> list[str]:
    """The S14 settlement of the step that ended a Stockpile game: shares at final prices, majority
    bonuses and debts, per seat; each line adds up to the seat's net worth.

    The holdings just before the settlement are found by playing the step again on a copy that
    has one more round to go (the settlement then does not happen), from ``before``.
    """
    n = game.num_players
    table = before.copy()
    table["rounds"][0] += 1
    game.step(table, 0, np.asarray(joint, np.int64), np.zeros(n, np.float32), np.zeros(n, np.int8))
    s = table[0]
    held = s["regular"][:n] + SPLIT_SALE_FACTOR * s["split"][:n]
    price = s["price"]
    bonus = np.zeros((n, NUM_COMPANIES), np.int64)
    for c in range(NUM_COMPANIES):
        best = held[:, c].max()
        if best > 0:
            top = held[:, c] == best
            bonus[top, c] = int(s["bonus_sole"]) if top.sum() == 1 else int(s["bonus_tie"])
    lines = ["final settlement (shares sold at the final prices, split cards count 2):"]
    for p in range(n):
        shares = int((held[p] * price).sum())
        debt = int(s["debt"][p].sum())
        worth = int(s["cash"][p]) + shares + int(bonus[p].sum()) - debt
        sold = ", ".join(
            f"{int(held[p, c])} {TICKERS[c]} x ${int(price[c])}K" for c in range(NUM_COMPANIES) if held[p, c]
        )
        won = ", ".join(f"{TICKERS[c]} ${int(bonus[p, c])}K" for c in range(NUM_COMPANIES) if bonus[p, c])
        lines.append(
            f"  player_{p}: cash ${int(s['cash'][p])}K + shares ${shares}K ({sold or 'none'})"
            f" + majority bonuses ${int(bonus[p].sum())}K ({won or 'none'}) - debts ${debt}K = ${worth}K"
        )
    return lines


STORY = Story(scored=scored, score_is_net_worth=True)
"""Stockpile in :mod:`stonk_envs.games.story`."""
