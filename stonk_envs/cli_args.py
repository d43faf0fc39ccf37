"""Argument types for the subcommands: each parses text and checks its range with the shared checks.

A bad value becomes ``argparse.ArgumentTypeError``, so argparse reports
``stonk-envs <cmd>: error: argument --seed: must be an integer >= 0, got -3`` and exits with 2.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

from stonk_envs.core.validation import SEED_MAX, check_int, check_number
from stonk_envs.files import check_output_dir
from stonk_envs.registry import GAME_MODULES

DEFAULT_GAME = "stocks_and_bombs"
"""The game of every subcommand's ``--game`` unless told otherwise."""
GAMES = sorted(GAME_MODULES)
CONFIG_HELP = ("a shipped config's name, e.g. stocks_and_bombs (stonk-envs configs lists them), or a YAML file "
               "(default: the built-in defaults)")


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


def add_game(parser: argparse.ArgumentParser, *, several: bool = False, default_text: str | None = None) -> None:
    """The ``--game`` option: one game (default ``stocks_and_bombs``), or with ``several`` any of them (default: all).

    ``default_text`` (the default is then None) says where the game comes from instead.
    """
    if several:
        parser.add_argument("--game", nargs="+", choices=GAMES, default=GAMES, metavar="GAME",
                            help=f"games, any of {', '.join(GAMES)} (default: all)")
    elif default_text is not None:
        parser.add_argument("--game", choices=GAMES, default=None, help=f"game (default: {default_text})")
    else:
        parser.add_argument("--game", choices=GAMES, default=DEFAULT_GAME, help="game (default: %(default)s)")


def key_value(text: str) -> str:
    """A ``KEY=VALUE`` override, kept as text for the config's own checks."""
    key, sep, _ = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return text


def env_option(text: str) -> tuple[str, object]:
    """``KEY=VALUE`` for a game option; the value is read as JSON (numbers, true/false) or else kept as a string."""
    key, _, value = key_value(text).partition("=")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def add_overrides(parser: argparse.ArgumentParser, example: str) -> None:
    """The config overrides that follow a command's options: ``KEY=VALUE ...`` (dotted keys reach nested ones)."""
    parser.add_argument("overrides", nargs="*", metavar="KEY=VALUE",
                        help=f"config overrides, dotted keys for nested ones (e.g. {example})")


def add_env_options(parser: argparse.ArgumentParser) -> None:
    """The game options of a command that plays games: ``--env KEY=VALUE``, repeatable."""
    parser.add_argument("--env", type=env_option, action="append", default=[], metavar="KEY=VALUE",
                        help="game option, repeatable (e.g. --env tick_cap=50)")
