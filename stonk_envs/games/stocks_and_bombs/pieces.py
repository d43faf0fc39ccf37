"""Stocks & Bombs pieces and seats: ids, pips and the observer-relative view.

Pieces have ids ``colour * 3 + size_index``; size_index 0, 1, 2 is Small, Medium, Large with
1, 2, 3 pips. Seat p owns colour p. Everything a seat sees or names is relative to it:
relative seat ``(q - p) mod n`` and relative piece ``((colour - p) mod n) * 3 + size_index``.
"""

from numba import njit

MAX_PLAYERS = 6
MAX_PIECES = 3 * MAX_PLAYERS
NONE = -1


@njit(cache=True)
def pips(piece):
    return piece % 3 + 1


@njit(cache=True)
def relative_seat(q, seat, n):
    """``(q - seat) mod n`` for seats 0..n-1 (without the cost of a signed modulo)."""
    return q - seat + n if q < seat else q - seat


@njit(cache=True)
def absolute_seat(jr, seat, n):
    """``(seat + jr) mod n`` for seats 0..n-1."""
    return seat + jr - n if seat + jr >= n else seat + jr


@njit(cache=True)
def to_relative_piece(piece, seat, n):
    return relative_seat(piece // 3, seat, n) * 3 + piece % 3


@njit(cache=True)
def to_absolute_piece(rel, seat, n):
    return absolute_seat(rel // 3, seat, n) * 3 + rel % 3
