"""Observation layouts as tables of named sections, and everything derived from one.

A :class:`Layout` is an ordered list of :class:`Section` s. A section's size, repeat count and
bounds are formulas over named values (``"n * 9"``, ``"2 * (n - 1)"``, ``"min(W - 1 + X, R * X)"``:
integers, names, ``+ - * //``, parentheses, ``min`` and ``max``); a bound can also be a function
of those values that returns one bound per entry (its docstring is the bound's text). From the
table come each section's start and size at a player count, the observation's size, its
``(low, high)`` bounds under a config, and the Markdown table the docs show. Compiled encoders
read where a section starts as the three coefficients of a quadratic in the player count
(:meth:`Layout.quadratic`, computed at import time into a constant tuple that :func:`at`
evaluates: the same machine code as a hand-written formula).
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

Bound = str | int | float | tuple | Callable[[Mapping[str, int]], object]
"""A bound: a formula, a tuple of formulas (one per entry of a block), or a function of the values."""

_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv}
_FUNCTIONS = {"min": min, "max": max}


def evaluate(formula: str | int | float, values: Mapping[str, int | float]) -> int | float:
    """The value of ``formula`` (see the module docstring) with the names in ``values``."""
    if not isinstance(formula, str):
        return formula
    return _value(ast.parse(formula, mode="eval").body, formula, values)


def _value(node: ast.expr, formula: str, values: Mapping[str, int | float]) -> int | float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in values:
            raise ValueError(f"layout formula {formula!r} names {node.id!r}; known: {sorted(values)}")
        return values[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_value(node.left, formula, values), _value(node.right, formula, values))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_value(node.operand, formula, values)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS:
        return _FUNCTIONS[node.func.id](*(_value(arg, formula, values) for arg in node.args))
    raise ValueError(f"layout formula {formula!r}: {ast.unparse(node)!r} is not +, -, *, //, min or max of "
                     f"numbers and names")


@njit(cache=True, inline="always")
def at(coefficients, n):
    """The quadratic ``coefficients`` (:meth:`Layout.quadratic`) at ``n`` players."""
    return coefficients[0] + (coefficients[1] + coefficients[2] * n) * n


@dataclass(frozen=True)
class Section:
    """One named run of observation entries: ``repeat`` blocks of ``size`` entries each.

    ``low`` and ``high`` bound every entry: a formula, or a function of the values that
    returns one bound per entry of the section (or one for all).
    """

    name: str
    size: str | int
    meaning: str
    high: Bound = 1
    low: Bound = 0
    repeat: str | int = 1

    def block(self, values: Mapping[str, int]) -> int:
        """Entries of one block."""
        return int(evaluate(self.size, values))

    def length(self, values: Mapping[str, int]) -> int:
        """Entries of the whole section."""
        return int(evaluate(self.repeat, values)) * self.block(values)

    def bound(self, which: str, values: Mapping[str, int | float]) -> np.ndarray:
        """The ``"low"`` or ``"high"`` bound of each entry under ``values``."""
        given = getattr(self, which)
        length = self.length(values)
        if isinstance(given, tuple):
            if len(given) != self.block(values):
                raise ValueError(f"section {self.name!r}: its {which} bound gives {len(given)} values for blocks of "
                                 f"{self.block(values)} entries")
            given = tuple(evaluate(each, values) for each in given) * int(evaluate(self.repeat, values))
        value = np.asarray(given(values) if callable(given) else evaluate(given, values), np.float32).ravel()
        if value.size not in (1, length):
            raise ValueError(f"section {self.name!r}: its {which} bound gives {value.size} values for {length} entries")
        return np.broadcast_to(value, length).astype(np.float32)


def _text(bound: Bound) -> str:
    if callable(bound):
        return " ".join((bound.__doc__ or "").split())
    if isinstance(bound, tuple):
        return ", ".join(str(each) for each in bound)
    return str(bound)


class Layout:
    """An observation layout: its sections in order (see the module docstring).

    ``sizes(n)`` gives the values the size formulas use at ``n`` players (``n`` itself and
    anything derived from it).
    """

    def __init__(self, sections: Sequence[Section], sizes: Callable[[int], dict] = lambda n: {"n": n}):
        names = [section.name for section in sections]
        doubled = sorted({name for name in names if names.count(name) > 1})
        if doubled:
            raise ValueError(f"a layout names each section once; {doubled} appear twice")
        self.sections = tuple(sections)
        self._sizes = sizes

    def index(self, name: str) -> int:
        """The position of section ``name`` in the table."""
        for i, section in enumerate(self.sections):
            if section.name == name:
                return i
        raise KeyError(f"no section {name!r} in the layout; sections: {[s.name for s in self.sections]}")

    def spans(self, n: int, start: int = 0) -> dict[str, tuple[int, int]]:
        """``{name: (start, size)}`` of each section at ``n`` players, the first at ``start``."""
        values = self._sizes(n)
        spans = {}
        for section in self.sections:
            length = section.length(values)
            spans[section.name] = (start, length)
            start += length
        return spans

    def size(self, n: int) -> int:
        """Entries of the whole layout at ``n`` players."""
        values = self._sizes(n)
        return sum(section.length(values) for section in self.sections)

    def block(self, n: int, name: str) -> int:
        """Entries of one block of section ``name`` at ``n`` players."""
        return self.sections[self.index(name)].block(self._sizes(n))

    def quadratic(self, name: str | None, counts: Sequence[int], block: bool = False) -> tuple[int, int, int]:
        """``(c0, c1, c2)`` with ``c0 + c1 n + c2 n^2`` where section ``name`` starts (the layout's size
        for None; with ``block``, the entries of one of its blocks) at each player count of ``counts``."""
        if block:
            values = [self.block(n, name) for n in counts]
        else:
            values = [self.size(n) if name is None else self.spans(n)[name][0] for n in counts]
        if len(counts) < 3:
            raise ValueError(f"a quadratic needs three player counts or more, got {list(counts)}")
        a, b, c = counts[:3]
        fit = np.linalg.solve(np.array([[1, m, m * m] for m in (a, b, c)], float), np.array(values[:3], float))
        coefficients = tuple(int(np.rint(x)) for x in fit)
        if any(at.py_func(coefficients, m) != v for m, v in zip(counts, values, strict=True)):
            raise ValueError(f"{'the size' if name is None else name!r} is no quadratic in the player count over "
                             f"{list(counts)}")
        return coefficients

    def quadratics(self, counts: Sequence[int], *names: str) -> tuple[tuple[int, int, int], ...]:
        """:meth:`quadratic` of where each of the sections ``names`` starts."""
        return tuple(self.quadratic(name, counts) for name in names)

    def bounds(self, n: int, values: Mapping[str, int | float]) -> tuple[np.ndarray, np.ndarray]:
        """``(low, high)`` float32 vectors at ``n`` players; ``values`` name the config's options."""
        named = {**values, **self._sizes(n)}
        low = [section.bound("low", named) for section in self.sections]
        high = [section.bound("high", named) for section in self.sections]
        return np.concatenate(low), np.concatenate(high)

    def markdown(self) -> str:
        """The layout as a Markdown table: entries, size, meaning and bounds of each section."""
        rows = [["entries", "size", "meaning", "bounds"], ["---"] * 4]
        for section in self.sections:
            size = str(section.size)
            if section.repeat != 1:
                size = f"{section.repeat} * {size if size.isalnum() else f'({size})'}"
            low, high = _text(section.low), _text(section.high)
            rows.append([section.name, size, section.meaning, high if low == "0" else f"{low} to {high}"])
        return "\n".join("| " + " | ".join(cells) + " |" for cells in rows)
