"""Building a game's config dataclass from keyword arguments, with clear errors."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

C = TypeVar("C")


def build_config(config_cls: type[C], options: dict[str, Any]) -> C:
    """Make ``config_cls(**options)``, naming any key the config does not have."""
    known = {f.name for f in dataclasses.fields(config_cls)}
    unknown = sorted(set(options) - known)
    if unknown:
        raise ValueError(
            f"unknown option(s) {unknown} for {config_cls.__name__}; "
            f"known options: {sorted(known)}"
        )
    return config_cls(**options)


def check_int_range(name: str, value: Any, low: int, high: int | None = None) -> None:
    """Raise ``ValueError`` unless ``value`` is an int in [low, high] (high None: no limit)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be {bound}, got {value}")
