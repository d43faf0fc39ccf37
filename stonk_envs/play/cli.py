"""Play a game in the terminal: you in one seat against heuristic players, saved policies or other people.

Each time your seat acts you see your own view of the table and a numbered menu of your legal
moves in words. In the real-time games every tick waits for you (Enter waits). q or Ctrl-C
stops; the game record is saved either way (replay it with stonk-envs replay).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from stonk_envs import cli_args
from stonk_envs.files import check_output_file


def add_arguments(parser: argparse.ArgumentParser) -> None:
    cli_args.add_game(parser)
    parser.add_argument("--seat", type=cli_args.integer(0), default=0, help="your seat (default: %(default)s)")
    parser.add_argument(
        "--opponents",
        nargs="+",
        type=cli_args.player,
        default=["heuristic"],
        help="heuristic, random, champion (the game's packaged trained policy), a saved policy file or human "
        "(another person at this keyboard), "
        "one per other seat in seat order; one spec fills every other seat (default: heuristic)",
    )
    parser.add_argument(
        "--num-players",
        type=int,
        default=None,
        help="seats (default: one per opponent plus you, or the game's default for one spec)",
    )
    cli_args.add_env_options(parser)
    parser.add_argument("--seed", type=cli_args.seed, default=None,
                        help="seed of the deal and the players (default: random)")
    cli_args.add_trust_file(parser)
    parser.add_argument(
        "--record",
        type=cli_args.output_file,
        default=None,
        help="where to save the game record (default: runs/play/<game>-<UTC time>.json)",
    )


def run(args: argparse.Namespace) -> int:
    from stonk_envs.play.session import Session, build_seats

    record_path = (
        args.record or Path("runs") / "play" / f"{args.game}-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}.json"
    )
    try:
        check_output_file(record_path, "--record")  # the default too: the game is not played for nothing
        if record_path.suffix != ".json" or record_path.is_dir():
            raise ValueError(f"--record {record_path}: give a file name ending in .json")
        seats = build_seats(args.game, args.seat, args.opponents, args.num_players)
        session = Session(args.game, seats, dict(args.env), args.seed)
    except ValueError as error:
        print(f"stonk-envs play: error: {error}", file=sys.stderr)
        return 2
    console = session.console
    console.print(f"[bold]{args.game}[/], " + ", ".join(f"player_{p}: {s.name}" for p, s in enumerate(seats)))
    record = session.play()
    path = record.save(record_path)
    if record.finished:
        console.print(session.scores_table(record))
    console.print(f"record: {path}  (stonk-envs replay {path})", soft_wrap=True)
    return 0
