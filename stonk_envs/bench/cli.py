"""Measure steps/s of the AEC env, the Parallel env and the batched engine beside PettingZoo peers.

Every figure is agent-steps per second with random legal actions, observations and masks
built, measured in this one process; the ratios to the peers are what count on a shared
machine. Writes ``bench.json``, ``bench.md`` (tables) and ``bench.png`` to ``--out``.
"""

from __future__ import annotations

import argparse

from stonk_envs.bench.report import markdown, plot, summary, write_json
from stonk_envs.bench.runner import DEFAULT_BATCH_SIZES, run_benchmark
from stonk_envs.cli_args import add_game, integer, number, output_dir, positive
from stonk_envs.files import atomic_write_text
from stonk_envs.games_index import build_game
from stonk_envs.vector.engine import MAX_NUM_ENVS

EXTRA = "bench"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game(parser, several=True)
    parser.add_argument("--num-players", type=positive, default=4, help="players in every game (default: %(default)s)")
    parser.add_argument("--batch-sizes", type=integer(1, MAX_NUM_ENVS), nargs="+", default=list(DEFAULT_BATCH_SIZES),
                        help="batch sizes of the engine (default: %(default)s)")
    parser.add_argument("--seconds", type=number(high=MAX_SECONDS, above=0), default=1.0,
                        help="timed seconds per figure (default: %(default)s)")
    parser.add_argument("--repeats", type=integer(1, 1000), default=3,
                        help="interleaved rounds of every figure; the best counts (default: %(default)s)")
    parser.add_argument("--out", type=output_dir, default="runs/bench", help="output folder (default: %(default)s)")
    parser.add_argument("--no-plot", action="store_true", help="skip the plot")


MAX_SECONDS = 3600.0
"""Longest timed stretch per figure."""


def run(args: argparse.Namespace) -> int:
    for name in args.game:
        build_game(name, num_players=args.num_players)  # a clear error before anything is timed
    players = dict.fromkeys(args.game, args.num_players)
    results = run_benchmark(args.game, players, args.batch_sizes, args.seconds, args.repeats)
    print()
    print(summary(results))
    write_json(results, args.out / "bench.json")
    atomic_write_text(args.out / "bench.md", markdown(results))
    print(f"\nwrote {args.out / 'bench.json'} and {args.out / 'bench.md'}")
    if not args.no_plot:
        plot(results, args.out / "bench.png")
        print(f"wrote {args.out / 'bench.png'}")
    return 0
