"""Checking options and arguments once, for type and range, with errors that name the problem.

Every game option, engine option, training key and CLI argument goes through these checks.
Each returns the value in its plain Python form (a NumPy integer becomes an ``int``, a
``np.bool_`` a ``bool``) so configs compare, hash and serialise the same whatever was given.

A value of the wrong type raises :class:`OptionTypeError`, which is both a ``TypeError`` and a
``ValueError``; a value out of range raises ``ValueError``. Every message names the option,
the value and what is allowed.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence, Set
from typing import Any

import numpy as np

INT32_MAX = 2**31 - 1
"""The largest value an ``int32`` field of a compiled state record holds."""
SEED_MAX = 2**63 - 1
"""The largest seed accepted (a seed draws the game's int64 stream seeds)."""


class OptionTypeError(TypeError, ValueError):
    """A value of the wrong type; caught by ``except TypeError`` and ``except ValueError`` alike."""


def _range_text(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"{low}..{high}"
    if low is not None:
        return f">= {low}"
    if high is not None:
        return f"<= {high}"
    return "any value"


def is_int(value: Any) -> bool:
    """True for a Python or NumPy integer, False for a bool (which is not a count)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_int(name: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an ``int``; it must be an integer (not a bool) in ``[low, high]``."""
    if not is_int(value):
        raise OptionTypeError(f"{name} must be an integer ({_range_text(low, high)}), got {value!r}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{name} must be {_range_text(low, high)}, got {value}")
    return value


def check_optional_int(name: str, value: Any, low: int | None = None, high: int | None = None) -> int | None:
    """:func:`check_int`, or None."""
    return None if value is None else check_int(name, value, low, high)


def check_bool(name: str, value: Any) -> bool:
    """``value`` as a ``bool``; only ``True``/``False`` (or NumPy's) are accepted."""
    if not isinstance(value, (bool, np.bool_)):
        raise OptionTypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_optional_bool(name: str, value: Any) -> bool | None:
    """:func:`check_bool`, or None."""
    return None if value is None else check_bool(name, value)


def check_number(
    name: str, value: Any, low: float | None = None, high: float | None = None, *, above: float | None = None
) -> float:
    """``value`` as a finite ``float`` in ``[low, high]`` (and ``> above`` when given); not a bool."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        raise OptionTypeError(f"{name} must be a number, got {value!r}")
    number = float(value)
    allowed = _range_text(low, high)
    if above is not None:
        allowed = f"> {above}" + (f" and <= {high}" if high is not None else "")
    if (
        not math.isfinite(number)
        or (low is not None and number < low)
        or (high is not None and number > high)
        or (above is not None and number <= above)
    ):
        raise ValueError(f"{name} must be a finite number ({allowed}), got {value!r}")
    return number


def check_int_sequence(
    name: str, value: Any, min_len: int, max_len: int, low: int | None = None, high: int | None = None
) -> tuple[int, ...]:
    """``value`` as a tuple of ``min_len..max_len`` integers, each in ``[low, high]``.

    It must be ordered: a list, a tuple or a 1-D NumPy array. A set is refused, since the
    order it gives its values in is not the order they were written in.
    """
    ordered = isinstance(value, Sequence) and not isinstance(value, (str, bytes))
    if not (ordered or (isinstance(value, np.ndarray) and value.ndim == 1)):
        why = "; a set has no order, give its values in order as a list or tuple" if isinstance(value, Set) else ""
        raise OptionTypeError(f"{name} must be a tuple or list of {min_len}..{max_len} integers, got {value!r}{why}")
    if not min_len <= len(value) <= max_len:
        raise ValueError(f"{name} must be a tuple or list of {min_len}..{max_len} integers, got {len(value)}: "
                         f"{value!r}")
    return tuple(check_int(f"each of {name}", item, low, high) for item in value)


def check_choice(name: str, value: Any, choices: Iterable[str]) -> str:
    """``value``, which must be one of the strings ``choices``."""
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")
    return value


def check_seed(name: str, value: Any) -> int | None:
    """A seed: None, or an integer in ``0..SEED_MAX``."""
    return check_optional_int(name, value, 0, SEED_MAX)


def check_product(names: str, product: int, limit: int = INT32_MAX, what: str = "the game's int32 state") -> None:
    """Raise ``ValueError`` when ``product`` (a worst-case value built from options) exceeds ``limit``."""
    if product > limit:
        raise ValueError(f"{names} reach {product:,}, more than {what} can hold ({limit:,})")


def check_reset_options(options: Any) -> None:
    """``reset``'s ``options``: None or a dict. These games read no reset options (game options are given when
    making the env); a dict's keys are ignored, as PettingZoo's ``api_test`` requires of every env."""
    if options is not None and not isinstance(options, dict):
        raise OptionTypeError(f"options must be a dict or None, got {options!r:.80}")
