"""Measure steps/s of the AEC env, the Parallel env and the batched engine beside PettingZoo peers.

Every figure is agent-steps per second with random legal actions, observations and masks
built, measured in this one process; the ratios to the peers are what count on a shared
machine. Writes ``bench.json``, ``bench.md`` (tables) and ``bench.png`` to ``--out``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from stonk_envs.bench.report import markdown, plot, summary, write_json
from stonk_envs.bench.runner import DEFAULT_BATCH_SIZES, run_benchmark
from stonk_envs.games_index import game_module
from stonk_envs.registry import GAME_MODULES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", nargs="+", default=sorted(GAME_MODULES), help="games (default: all)")
    parser.add_argument("--num-players", type=int, default=4, help="players in every game (default: %(default)s)")
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=list(DEFAULT_BATCH_SIZES),
                        help="batch sizes of the engine (default: %(default)s)")
    parser.add_argument("--seconds", type=float, default=1.0, help="timed seconds per figure (default: %(default)s)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="interleaved rounds of every figure; the best counts (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=Path("runs/bench"), help="output folder (default: %(default)s)")
    parser.add_argument("--no-plot", action="store_true", help="skip the plot")


def run(args: argparse.Namespace) -> int:
    for name in args.games:
        game_module(name)  # a clear error for a wrong name, before anything is timed
    if args.seconds <= 0:
        raise ValueError(f"--seconds must be positive, got {args.seconds}")
    if args.repeats < 1:
        raise ValueError(f"--repeats must be positive, got {args.repeats}")
    if any(size < 1 for size in args.batch_sizes):
        raise ValueError(f"--batch-sizes must be positive, got {args.batch_sizes}")
    players = dict.fromkeys(args.games, args.num_players)
    results = run_benchmark(args.games, players, args.batch_sizes, args.seconds, args.repeats)
    print()
    print(summary(results))
    write_json(results, args.out / "bench.json")
    (args.out / "bench.md").write_text(markdown(results))
    print(f"\nwrote {args.out / 'bench.json'} and {args.out / 'bench.md'}")
    if not args.no_plot:
        plot(results, args.out / "bench.png")
        print(f"wrote {args.out / 'bench.png'}")
    return 0
