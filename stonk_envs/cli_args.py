"""Argument types for the subcommands: each parses text and checks its range with the shared checks.

A bad value becomes ``argparse.ArgumentTypeError``, so argparse reports
``stonk-envs <cmd>: error: argument --seed: must be an integer >= 0, got -3`` and exits with 2.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from stonk_envs.core.validation import SEED_MAX, check_int, check_number
from stonk_envs.files import check_output_dir


def integer(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """A type for an integer in ``[low, high]``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        try:
            return check_int("value", value, low, high)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err).removeprefix("value ")) from None

    return parse


def number(
    low: float | None = None, high: float | None = None, *, above: float | None = None
) -> Callable[[str], float]:
    """A type for a finite number in ``[low, high]`` (and ``> above`` when given)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        try:
            return check_number("value", value, low, high, above=above)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err).removeprefix("value ")) from None

    return parse


def output_dir(text: str) -> Path:
    """A type for a folder the command may create or write into (checked before any work)."""
    try:
        return check_output_dir(text, "folder")
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err).removeprefix("folder ")) from None


seed = integer(0, SEED_MAX)
"""A seed: an integer in 0..2**63-1."""
positive = integer(1)
"""An integer >= 1."""
