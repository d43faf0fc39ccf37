"""What a step did, in the words a player reads: the moves (void ones marked, with why), the
round it scored and, at the end, the winners with their scores.

Play, the terminal replay, the HTML page, the pictures and an env's ``render()`` all tell a
step through these functions, from the table before the step, the table after it, the joint
action and the void codes the step wrote (:mod:`stonk_envs.core.negotiation`).
"""

from __future__ import annotations

import numpy as np

from stonk_envs.core.game import NO_ACTION, Game
from stonk_envs.core.negotiation import VOID_NONE, VOID_REASONS, VOID_ROUND_OVER
from stonk_envs.core.rng import permutation


def step_lines(
    game: Game, before: np.ndarray, after: np.ndarray, joint: list[int], voids, viewer: int | None = None
) -> list[str]:
    """``player_2: bid $6K on pile 2``, one per seat that did more than wait; a void move ends in
    ``- VOID: <why>``. Seen from ``viewer``, others' moves are named without their hidden cards."""
    lines = []
    order = tick_order(game, before)
    for seat, action in enumerate(joint):
        if action == NO_ACTION:
            continue
        name = move_name(game, before, joint, voids, seat, order, public=viewer is not None and viewer != seat)
        if name == "wait":
            continue
        line = f"player_{seat}: {name}"
        if voids is not None and int(voids[seat]) != VOID_NONE:
            line += f" - VOID: {void_reason(game, before, after, joint, voids, seat)}"
        lines.append(line)
    return lines


def tick_order(game: Game, before: np.ndarray) -> list[int]:
    """The seats in the order their moves resolved in the step from ``before``: a real-time tick's
    order is its first draw from the game's random stream (M2, B3), drawn again here on a copy;
    a turn-based game's one move needs none."""
    n = game.num_players
    if not game.simultaneous:
        return list(range(n))
    order = np.empty(n, np.int64)
    permutation(before.copy()[0], order, n)
    return order.tolist()


def move_name(game: Game, before: np.ndarray, joint, voids, seat: int, order: list[int], public: bool = False) -> str:
    """``seat``'s move of the step in words, from the table as it was when the move resolved where
    that matters: a Stonk Market EXCHANGE takes the card an earlier EXCHANGE of the tick put there."""
    action = int(joint[seat])
    if game.name == "stonk_market" and game.decode(seat, action)[0] == "EXCHANGE" and int(voids[seat]) == VOID_NONE:
        table = before.copy()
        for q in order[: order.index(seat)]:
            kind, _, suit, _ = game.decode(q, int(joint[q]))
            if kind == "EXCHANGE" and int(voids[q]) == VOID_NONE:
                table["exchange"][0] = suit
        return game.name_action(table, 0, seat, action, public)
    return game.name_action(before, 0, seat, action, public)


def void_reason(game: Game, before: np.ndarray, after: np.ndarray, joint: list[int], voids, seat: int) -> str:
    """Why ``seat``'s move of this step did nothing, naming the moves resolved before it in the tick
    that undid it."""
    code = int(voids[seat])
    if code == VOID_ROUND_OVER:
        caller = int(after[0]["last_caller"]) if "last_caller" in after.dtype.names else -1
        call = "STOP" if game.name == "stocks_and_bombs" else "STONKS"
        if caller >= 0:
            return f"player_{caller} had already called {call} this tick, which ended the round"
        return VOID_REASONS[code]
    order = tick_order(game, before)
    done = [(q, int(joint[q])) for q in order[: order.index(seat)] if joint[q] > 0 and int(voids[q]) == VOID_NONE]
    if game.name == "stocks_and_bombs":
        why = _stocks_and_bombs_void(game, before[0], seat, int(joint[seat]), done)
    elif game.name == "stonk_market":
        names = {q: move_name(game, before, joint, voids, q, order, public=True) for q, _ in done}
        why = _stonk_market_void(game, seat, int(joint[seat]), done, names)
    else:
        why = None
    return why or VOID_REASONS.get(code, "it did nothing")


def _stocks_and_bombs_void(game, s, seat: int, action: int, done: list[tuple[int, int]]) -> str | None:
    from stonk_envs.games.stocks_and_bombs.game import piece_name

    kind, a, b = game.decode(seat, action)
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


def _stonk_market_void(game, seat: int, action: int, done: list[tuple[int, int]], names: dict) -> str | None:
    kind, j, _, _ = game.decode(seat, action)
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


# round summaries ------------------------------------------------------------------
def summary_lines(game: Game, before: np.ndarray, after: np.ndarray, joint: list[int]) -> list[str]:
    """What the step scored: the round's breakdown when it ended a round, then the winners when it ended the game."""
    b, s = before[0], after[0]
    if game.name == "stockpile":
        lines = stockpile_settlement(game, before, joint) if s["game_over"] and not b["game_over"] else []
    elif int(s["round"]) > int(b["round"]):
        lines = {"stocks_and_bombs": stocks_and_bombs_round, "stonk_market": stonk_market_round}[game.name](game, s)
    else:
        lines = []
    if s["game_over"] and not b["game_over"]:
        lines.append(winners_line(game, after))
    return lines


def winners_line(game: Game, states: np.ndarray, i: int = 0) -> str:
    """``game over: player_2 wins with 14 points; then player_0 9, player_1 3`` (a shared win names
    every winner; the others follow from the highest score down)."""
    scores = game.scores(states, i)
    best = scores.max()
    winners = [f"player_{p}" for p in np.flatnonzero(scores == best)]
    unit = "net worth $" if game.name == "stockpile" else ""
    points = f"{unit}{best:g}K" if unit else f"{best:g} points"
    ranked = sorted((p for p in range(len(scores)) if scores[p] != best), key=lambda p: -scores[p])
    others = ", ".join(f"player_{p} {unit}{scores[p]:g}{'K' if unit else ''}" for p in ranked)
    rest = f"; then {others}" if others else ""
    if len(winners) == 1:
        return f"game over: {winners[0]} wins with {points}{rest}"
    return f"game over: {' and '.join(winners)} share the win with {points}{rest}"


def stocks_and_bombs_round(game, s) -> list[str]:
    """Round breakdown (B6) from the state after the scoring: holdings against targets, caller, penalty."""
    from stonk_envs.games.stocks_and_bombs import core

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


def stonk_market_round(game, s) -> list[str]:
    """Round breakdown (M5, M6) from the state after the scoring: majorities, strays, the call."""
    from stonk_envs.games.stonk_market import core
    from stonk_envs.games.stonk_market.config import SUIT_NAMES

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


def stockpile_settlement(game, before: np.ndarray, joint: list[int]) -> list[str]:
    """The S14 settlement of the step that ended a Stockpile game: shares at final prices, majority
    bonuses and debts, per seat; each line adds up to the seat's net worth.

    The holdings just before the settlement are found by playing the step again on a copy that
    has one more round to go (the settlement then does not happen), from ``before``.
    """
    from stonk_envs.games.stockpile.game import TICKERS
    from stonk_envs.games.stockpile.state import NUM_COMPANIES, SPLIT_SALE_FACTOR

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
