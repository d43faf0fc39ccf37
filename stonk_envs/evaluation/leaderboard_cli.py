"""Rate policies against the reference pool: OpenSkill ratings and win shares in a seeded league.

The pool is random, each of the game's rule-based players and its champion (where it has one for the
player count). ``--add`` puts saved policies in the league: a file of any trainer of this package, or
an SB3 or RLlib policy after ``stonk-envs convert``. Every table of entries is played in each seat
rotation, in an order the seed shuffles; the table prints each entry's rating (mean, sigma, mean +- 2
sigma, ordinal), its win share with a 95% interval and, against each pool member, the share of their
games in which it finished above. The same command with the same package version prints the same table.
"""

from __future__ import annotations

import argparse
import json
import shlex
from pathlib import Path

from stonk_envs.cli_args import add_game, add_trust_file, player, positive, seed

EXTRA = "evaluation"
DEFAULT_GAMES = 1000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game(parser)
    parser.add_argument("--add", nargs="+", type=player, default=[], metavar="POLICY",
                        help="saved policy files to rate against the pool (default: none, the pool alone)")
    parser.add_argument("--games", type=positive, default=DEFAULT_GAMES, help="games (default: %(default)s)")
    parser.add_argument("--seed", type=seed, default=0, help="seed of the games' order, deals and players "
                        "(default: %(default)s)")
    parser.add_argument("--num-players", type=positive, default=None,
                        help="seats (default: the champion's, else the game's default)")
    parser.add_argument("--json", action="store_true", help="print the leaderboard as JSON")
    add_trust_file(parser)


def command(args: argparse.Namespace) -> str:
    """The command line that prints the same table."""
    words = ["stonk-envs", "leaderboard", "--game", args.game, "--games", str(args.games), "--seed", str(args.seed)]
    if args.num_players is not None:
        words += ["--num-players", str(args.num_players)]
    if args.add:
        words += ["--add", *args.add]
    return shlex.join(words)


def run(args: argparse.Namespace) -> int:
    from stonk_envs.evaluation.leaderboard import leaderboard

    for spec in args.add:
        if not Path(spec).exists():
            raise ValueError(f"--add {spec}: no such policy file or folder")
    board = leaderboard(args.game, list(args.add), args.games, args.seed, args.num_players, command(args))
    print(json.dumps(board.to_dict(), indent=2) if args.json else board.table())
    return 0
