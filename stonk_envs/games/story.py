"""What a step did, in the words a player reads: the moves (void ones marked, with why), the
round it scored and, at the end, the winners with their scores.

Play, the terminal replay, the HTML page, the pictures and an env's ``render()`` all tell a
step through these functions, from the table before the step, the table after it, the joint
action and the void codes the step wrote (:mod:`stonk_envs.core.negotiation`). What a game
tells beyond its moves and winners is its :class:`Story`, named by its spec in
:mod:`stonk_envs.registry`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from stonk_envs import registry
from stonk_envs.core.game import NO_ACTION, Game
from stonk_envs.core.negotiation import VOID_NONE, VOID_REASONS, VOID_ROUND_OVER
from stonk_envs.core.rng import permutation


@dataclass(frozen=True)
class Story:
    """A game's own parts of the story of a step; each is optional."""

    move_table: Callable[..., np.ndarray] | None = None
    """``move_table(game, before, joint, voids, seat, order)``: the table (shape (1,)) on which
    ``seat``'s move resolved, when earlier moves of the tick change how it reads; None: ``before``."""
    void_why: Callable[..., str | None] | None = None
    """``void_why(game, before, joint, voids, seat, order, done)``: why ``seat``'s move was void,
    naming the moves ``done`` (``(seat, action)``, resolved before it in the tick) that undid it;
    None when they did not (the void code's reason is told instead)."""
    scored: Callable[..., list[str]] | None = None
    """``scored(game, before, after, joint)``: what the step scored (a round's breakdown, a final
    settlement), told before the winners."""
    round_call: str = "the end of the round"
    """The call that ends a round (``STOP``), in the void reason of a move that came after it."""
    score_is_net_worth: bool = False
    """Scores are net worth in $K rather than points."""


def story_of(game: Game) -> Story:
    """The :class:`Story` of ``game``'s spec (the moves and winners only when it names none)."""
    target = registry.spec(game.name).story
    return registry.load(target) if target else Story()


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
    that matters (the game's :attr:`Story.move_table`)."""
    action = int(joint[seat])
    move_table = story_of(game).move_table
    table = before if move_table is None else move_table(game, before, joint, voids, seat, order)
    return game.name_action(table, 0, seat, action, public)


def void_reason(game: Game, before: np.ndarray, after: np.ndarray, joint: list[int], voids, seat: int) -> str:
    """Why ``seat``'s move of this step did nothing, naming the moves resolved before it in the tick
    that undid it."""
    code = int(voids[seat])
    story = story_of(game)
    if code == VOID_ROUND_OVER:
        caller = int(after[0]["last_caller"]) if "last_caller" in after.dtype.names else -1
        if caller >= 0:
            return f"player_{caller} had already called {story.round_call} this tick, which ended the round"
        return VOID_REASONS[code]
    order = tick_order(game, before)
    done = [(q, int(joint[q])) for q in order[: order.index(seat)] if joint[q] > 0 and int(voids[q]) == VOID_NONE]
    why = None if story.void_why is None else story.void_why(game, before, joint, voids, seat, order, done)
    return why or VOID_REASONS.get(code, "it did nothing")


# round summaries ------------------------------------------------------------------
def summary_lines(game: Game, before: np.ndarray, after: np.ndarray, joint: list[int]) -> list[str]:
    """What the step scored: the game's breakdown of it (a round, a settlement), then the winners
    when it ended the game."""
    scored = story_of(game).scored
    lines = [] if scored is None else scored(game, before, after, joint)
    if after[0]["game_over"] and not before[0]["game_over"]:
        lines.append(winners_line(game, after))
    return lines


def winners_line(game: Game, states: np.ndarray, i: int = 0) -> str:
    """``game over: player_2 wins with 14 points; then player_0 9, player_1 3`` (a shared win names
    every winner; the others follow from the highest score down)."""
    scores = game.scores(states, i)
    best = scores.max()
    winners = [f"player_{p}" for p in np.flatnonzero(scores == best)]
    unit = "net worth $" if story_of(game).score_is_net_worth else ""
    points = f"{unit}{best:g}K" if unit else f"{best:g} points"
    ranked = sorted((p for p in range(len(scores)) if scores[p] != best), key=lambda p: -scores[p])
    others = ", ".join(f"player_{p} {unit}{scores[p]:g}{'K' if unit else ''}" for p in ranked)
    rest = f"; then {others}" if others else ""
    if len(winners) == 1:
        return f"game over: {winners[0]} wins with {points}{rest}"
    return f"game over: {' and '.join(winners)} share the win with {points}{rest}"
