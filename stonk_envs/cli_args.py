"""Argument types for the subcommands: each parses text and checks its range with the shared checks.

A bad value becomes ``argparse.ArgumentTypeError``, so argparse reports
``stonk-envs <cmd>: error: argument --seed: must be an integer >= 0, got -3`` and exits with 2.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path

from stonk_envs.core.validation import SEED_MAX, check_int, check_number
from stonk_envs.files import check_input_dir, check_input_file, check_output_dir, check_output_file, check_path_text
from stonk_envs.safe_load import TRUST_ENV


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


def _path_type(check: Callable[[str, str], Path], doc: str) -> Callable[[str], Path]:
    def parse(text: str) -> Path:
        try:
            return check(text, "path")
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err).removeprefix("path ").removeprefix("path: ")) from None

    parse.__doc__ = doc
    return parse


output_dir = _path_type(check_output_dir, "A folder the command may create or write into (checked before any work).")
output_file = _path_type(check_output_file, "A file the command may create or replace (its folder checked up front).")
input_file = _path_type(check_input_file, "An existing regular file to read (not a folder, pipe or device).")
input_dir = _path_type(check_input_dir, "An existing folder to read.")


def player(text: str) -> str:
    """A player spec: a built-in player's name or a policy path (non-empty, not too long; resolved later)."""
    try:
        check_path_text(text, "player")
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err).removeprefix("player ").removeprefix("player: ")) from None
    return text


class _TrustFiles(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        os.environ[TRUST_ENV] = "1"  # worker processes inherit it
        setattr(namespace, self.dest, True)


def add_trust_file(parser: argparse.ArgumentParser) -> None:
    """``--trust-file``: load policy files even where that means unpickling them (runs their code)."""
    parser.add_argument(
        "--trust-file", action=_TrustFiles, nargs=0, default=False,
        help="load RLlib checkpoints and SB3 zips with custom objects by unpickling them; this runs any code "
             "the file holds, so only for files from someone you trust",
    )


seed = integer(0, SEED_MAX)
"""A seed: an integer in 0..2**63-1."""
positive = integer(1)
"""An integer >= 1."""
