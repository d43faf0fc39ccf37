"""Scoring a hand-entered Stonk Market table, through the compiled core."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from stonk_envs.core.validation import INT32_MAX, check_int
from stonk_envs.games.stonk_market import core
from stonk_envs.games.stonk_market.config import SUIT_COUNTS, SUIT_NAMES, StonkMarketConfig


def _hand_array(hand, name: str) -> np.ndarray:
    """``hand`` as nine int64 counts, each within its suit's total."""
    values = np.asarray(hand)
    if values.shape != (core.NUM_SUITS,):
        raise ValueError(f"{name} must be {core.NUM_SUITS} card counts in suit order, got shape {values.shape}")
    if values.dtype.kind not in "iu":
        raise ValueError(f"{name} must hold integer card counts, got {hand!r}")
    values = values.astype(np.int64)
    for suit, (count, total) in enumerate(zip(values, SUIT_COUNTS, strict=True)):
        if not 0 <= count <= total:
            raise ValueError(f"{name} holds {count} {SUIT_NAMES[suit]}; must be 0..{total}")
    return values


def is_all_majorities(hand: Sequence[int]) -> bool:
    """True when every suit in ``hand`` is a majority: more than half of that suit's cards.

    ``hand`` is nine card counts in suit index order. This is what makes a STONKS call
    valid; an empty hand is trivially all majorities.

    >>> is_all_majorities([0, 0, 0, 0, 0, 0, 7, 0, 9])  # 7 Greedle, 9 BioHippo
    True
    >>> is_all_majorities([2, 0, 5, 6, 0, 0, 0, 0, 0])  # 2 of 5 Glitch & Co. is no majority
    False
    """
    return bool(core.all_majorities(_hand_array(hand, "hand")))


def score_round(
    hands: Sequence[Sequence[int]],
    exchange_suit: int,
    caller: int | None = None,
    *,
    stonks_bonus: int = StonkMarketConfig.stonks_bonus,
) -> list[int]:
    """Each player's round score, the STONKS bonus or the 0 of a false call included.

    ``hands[p]`` is player p's nine card counts in suit index order, ``exchange_suit``
    the suit (0..8) of the card left in the Stonk Exchange, and ``caller`` the player who
    called STONKS (None: the round ended at the tick cap). The hands together may not hold
    more cards of a suit than it has; the Exchange card is not counted, so a table may give a
    hand a whole suit to show the Exchange's override. Per suit with c cards of T: -c for the Exchange's
    suit, else 2c for all of them, c for a majority, 0 otherwise. A valid call adds the
    ``stonks_bonus`` (5); a false one scores the caller 0.

    >>> # The example of docs/stonk_market.md: Socktopus Ltd. (7) in the Exchange, player A calls.
    >>> score_round([[0, 0, 0, 0, 0, 0, 7, 0, 9], [2, 0, 5, 6, 0, 0, 0, 0, 0],
    ...              [2, 0, 0, 0, 2, 7, 0, 7, 0], [1, 5, 0, 1, 5, 0, 0, 1, 0]], 7, caller=0)
    [37, 16, 7, 14]
    """
    if isinstance(hands, np.ndarray):
        hands = list(hands)
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence) or len(hands) == 0:
        raise ValueError(f"hands must be a non-empty sequence of hands, got {hands!r}")
    n = len(hands)
    table = np.stack([_hand_array(h, f"hands[{p}]") for p, h in enumerate(hands)])
    if isinstance(exchange_suit, bool) or not isinstance(exchange_suit, (int, np.integer)):
        raise ValueError(f"exchange_suit must be a suit index 0..8, got {exchange_suit!r}")
    if not 0 <= exchange_suit < core.NUM_SUITS:
        raise ValueError(f"exchange_suit must be a suit index 0..8, got {exchange_suit}")
    if caller is not None and (
        isinstance(caller, bool) or not isinstance(caller, (int, np.integer)) or not 0 <= caller < n
    ):
        raise ValueError(f"caller must be None or a player index 0..{n - 1}, got {caller!r}")
    stonks_bonus = check_int("stonks_bonus", stonks_bonus, 0, INT32_MAX - 2 * core.DECK_SIZE)
    held = table.sum(axis=0)
    for suit, total in enumerate(SUIT_COUNTS):
        if held[suit] > total:
            raise ValueError(f"the hands hold {held[suit]} cards of {SUIT_NAMES[suit]}; it has only {total}")
    out = np.zeros(n, np.int64)
    core.round_scores(table, n, int(exchange_suit), core.NONE if caller is None else int(caller), stonks_bonus, out)
    return [int(x) for x in out]
