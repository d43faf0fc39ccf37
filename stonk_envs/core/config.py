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
