"""Play a tournament between players; report win rates with 95% CIs, rewards, scores and ratings.

Players are ``random``, ``heuristic`` or paths to saved policies, one per seat; seats rotate
from game to game. With ``--league``, give more players than seats: each game seats a random
choice of them, and the OpenSkill ratings rank the whole league. Writes ``report.json`` and
``report.png`` into ``--out``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from stonk_envs.cli_args import add_env_options, add_game, add_trust_file, output_dir, player, positive, seed
from stonk_envs.files import check_output_dir

EXTRA = "evaluation"


def game_choice(text: str):
    """``first:N``, ``losses:N`` or ``all`` (see :mod:`stonk_envs.evaluation.saved_games`)."""
    from stonk_envs.evaluation.saved_games import GameChoice

    try:
        return GameChoice.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game(parser)
    parser.add_argument(
        "--players",
        nargs="+",
        type=player,
        default=None,
        help="random, heuristic, champion (the game's packaged trained policy) or a policy file, one per seat "
        "(default: heuristic, then random in every other seat)",
    )
    parser.add_argument("--games", type=positive, default=1000, help="games to play (default: %(default)s)")
    parser.add_argument("--num-players", type=positive, default=None, help="seats (default: the game's default)")
    parser.add_argument("--league", action="store_true", help="seat a random choice of the players in each game")
    add_env_options(parser)
    parser.add_argument("--seed", type=seed, default=0, help="seed of the games and players (default: %(default)s)")
    parser.add_argument("--workers", type=positive, default=1, help="worker processes (default: %(default)s)")
    parser.add_argument("--out", type=output_dir, default=None, help="folder for report.json and report.png "
                        "(default: runs/evaluate/<game>)")
    parser.add_argument("--no-plot", action="store_true", help="skip the figure")
    add_trust_file(parser)
    parser.add_argument("--save-records", type=game_choice, default=None, metavar="CHOICE",
                        help="save game records (for stonk-envs replay) into <out>/records: first:N, losses:N "
                        "(games the first listed player did not win) or all")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def run(args: argparse.Namespace) -> int:
    from stonk_envs.evaluation import evaluate, league
    from stonk_envs.evaluation.plot import plot_report
    from stonk_envs.policies.games import make_game

    play = league if args.league else evaluate
    out = check_output_dir(Path("runs") / "evaluate" / args.game if args.out is None else args.out, "--out")
    save = (args.save_records, out / "records") if args.save_records is not None else None
    if save is not None and save[1].exists() and not save[1].is_dir():
        print(f"stonk-envs evaluate: error: {save[1]} exists and is not a folder for the records", file=sys.stderr)
        return 2
    try:
        players = args.players
        if players is None:
            players = ["heuristic"] + ["random"] * (make_game(args.game, args.num_players).num_players - 1)
        report = play(
            args.game,
            players,
            args.games,
            num_players=args.num_players,
            env_config=dict(args.env),
            seed=args.seed,
            workers=args.workers,
            progress=not args.no_progress,
            save=save,
        )
    except ValueError as error:
        print(f"stonk-envs evaluate: error: {error}", file=sys.stderr)
        return 2
    print(report.table())
    if save is not None:
        print(f"records: {len(report.extra['records']['games'])} games in {save[1]}")
    print(f"report: {report.write_json(out / 'report.json')}")
    if not args.no_plot:
        print(f"plot: {plot_report(report, out / 'report.png')}")
    return 0
