"""Rate every checkpoint of a training run against the others and the baselines (OpenSkill).

RUN_DIR is a training run folder (``stonk-envs train``'s ``run_dir``) with its checkpoints in
``checkpoints/policy_<step>.zip``. The checkpoints and the baseline players play one league: each
game seats a random choice of them. Writes ``crossplay.json`` and ``crossplay.png`` (the rating
curve over training steps) into the run folder, or into ``--out``.
"""

from __future__ import annotations

import argparse
import sys

from stonk_envs import cli_args
from stonk_envs.files import check_output_dir

EXTRA = "evaluation"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_dir", type=cli_args.input_dir, metavar="RUN_DIR", help="training run folder")
    parser.add_argument("--games", type=cli_args.positive, default=2000,
                        help="league games to play (default: %(default)s)")
    parser.add_argument("--baselines", nargs="*", type=cli_args.player, default=None,
                        help="fixed players rated alongside the checkpoints: random, heuristic or policy files "
                             "(default: random and heuristic)")
    parser.add_argument("--max-checkpoints", type=int, default=None,
                        help="rate at most this many checkpoints, evenly spaced, first and last included "
                             "(default: all)")
    parser.add_argument("--seed", type=cli_args.seed, default=0, help="seed of the seatings, games and players "
                        "(default: %(default)s)")
    parser.add_argument("--workers", type=cli_args.positive, default=1,
                        help="worker processes (default: %(default)s)")
    parser.add_argument("--out", type=cli_args.output_dir, default=None,
                        help="folder for crossplay.json and crossplay.png (default: RUN_DIR)")
    parser.add_argument("--no-plot", action="store_true", help="skip the figure")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def run(args: argparse.Namespace) -> int:
    from stonk_envs.evaluation.crossplay import BASELINES, crossplay, run_checkpoints
    from stonk_envs.evaluation.output import prepare_folder

    try:
        run_checkpoints(args.run_dir)  # a missing or empty run folder is named before anything is written
        out = check_output_dir(args.out if args.out is not None else args.run_dir, "--out")
        report = crossplay(
            args.run_dir,
            args.games,
            baselines=BASELINES if args.baselines is None else args.baselines,
            max_checkpoints=args.max_checkpoints,
            seed=args.seed,
            workers=args.workers,
            progress=not args.no_progress,
        )
        prepare_folder(out)  # created only once there is something to write into it
    except ValueError as error:
        print(f"stonk-envs crossplay: error: {error}", file=sys.stderr)
        return 2
    from stonk_envs.evaluation.crossplay_plot import plot_crossplay

    print(report.table())
    print(f"report: {report.write_json(out / 'crossplay.json')}")
    if not args.no_plot:
        print(f"plot: {plot_crossplay(report, out / 'crossplay.png')}")
    return 0
