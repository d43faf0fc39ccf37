"""Argument types for the subcommands: each parses text and checks its range with the shared checks.

A bad value becomes ``argparse.ArgumentTypeError``, so argparse reports
``stonk-envs <cmd>: error: argument --seed: must be an integer >= 0, got -3`` and exits with 2.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from pathlib import Path

from stonk_envs import registry
from stonk_envs.core.validation import SEED_MAX, check_int, check_number
from stonk_envs.files import check_input_dir, check_input_file, check_output_dir, check_output_file, check_path_text
from stonk_envs.safe_load import TRUST_ENV, check_regular_file

DEFAULT_GAME = "stocks_and_bombs"
"""The game of every subcommand's ``--game`` unless told otherwise."""
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


def config(text: str) -> str:
    """A config: a shipped config's name or a YAML file (a path that exists must be a regular file)."""
    try:
        path = check_path_text(text, "config")
        if os.path.lexists(path):
            check_regular_file(path, "config")
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err).removeprefix("config ").removeprefix("config: ")) from None
    return text


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


def add_game(parser: argparse.ArgumentParser, *, several: bool = False, default_text: str | None = None) -> None:
    """The ``--game`` option: one game (default ``stocks_and_bombs``), or with ``several`` any of them (default: all).

    ``default_text`` (the default is then None) says where the game comes from instead.
    """
    games = registry.names()
    if several:
        parser.add_argument("--game", nargs="+", choices=games, default=games, metavar="GAME",
                            help=f"games, any of {', '.join(games)} (default: all)")
    elif default_text is not None:
        parser.add_argument("--game", choices=games, default=None, help=f"game (default: {default_text})")
    else:
        parser.add_argument("--game", choices=games, default=DEFAULT_GAME, help="game (default: %(default)s)")


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
