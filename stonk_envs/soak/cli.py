"""Play many random games on the engine and the envs at every player count, checking every step.

Checks conservation (each game's cards, pieces or money), zero-sum rewards, observation
bounds, termination and memory (RSS growth); prints a table and exits with 1 on any failure.
``--games`` is the engine games per game and player count; ``--env-games`` the PettingZoo
env games (Parallel and AEC alternately).
"""

from __future__ import annotations

import argparse
from functools import partial

from rich.console import Console
from rich.progress import Progress

from stonk_envs.cli_args import add_game, integer, positive, seed
from stonk_envs.soak.runner import CHECKS_KINDS, SoakResult, player_counts, rss_bytes, soak_engine, soak_env

MIB = 2**20


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=integer(0, 10**9), default=1000,
                        help="engine games per game, over all its player counts (default: %(default)s)")
    parser.add_argument("--env-games", type=integer(0, 10**7), default=None,
                        help="env games per game, over all its player counts (default: --games / 50)")
    add_game(parser, several=True)
    parser.add_argument("--batch", type=integer(1, 65536), default=256, help="engine batch size (default: %(default)s)")
    parser.add_argument("--seed", type=seed, default=0, help="seed of the games and actions (default: %(default)s)")
    parser.add_argument("--max-rss-growth", type=positive, default=64, metavar="MIB",
                        help="fail when resident memory grows by more than this over the second half of every "
                        "soak, summed (default: %(default)s MiB)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def run(args: argparse.Namespace) -> int:
    env_games = args.games // 50 if args.env_games is None else args.env_games
    plan = [(game, n, share(args.games, counts, n), share(env_games, counts, n))
            for game in args.game for counts in [player_counts(game)] for n in counts]
    results: list[SoakResult] = []
    growth = 0
    with Progress(console=Console(stderr=True), disable=args.no_progress) as bar:
        task = bar.add_task("games", total=len(args.game) * (args.games + env_games))
        advance = partial(bar.advance, task)
        for k, (game, n, engine_games, env_games) in enumerate(plan):
            runs = (
                (engine_games, partial(soak_engine, game, n, batch=args.batch, progress=advance)),
                (env_games, partial(soak_env, game, n, progress=advance)),
            )
            for games, soak in runs:
                if games:
                    # the first half loads the compiled code and allocates; the second half must not grow
                    first = soak((games + 1) // 2, args.seed + k * 2**40)
                    middle = rss_bytes()
                    second = soak(games // 2, args.seed + k * 2**40 + 2**39)
                    growth += max(0, rss_bytes() - middle)
                    results.append(first.merged(second))
    print(table(results))
    memory_ok = growth / MIB <= args.max_rss_growth
    verdict = "ok" if memory_ok else "FAILED"
    print(f"resident memory grew by {growth / MIB:.1f} MiB over the second halves of the soaks ({verdict}, "
          f"limit {args.max_rss_growth} MiB)")
    for result in results:
        for example in result.examples:
            print(f"FAILED {example}")
    failures = sum(r.failed for r in results) + (not memory_ok)
    print(f"{sum(r.games for r in results):,} games, {sum(r.steps for r in results):,} agent-steps, "
          f"{failures} failure(s)")
    return 1 if failures else 0


def share(total: int, counts: range, n: int) -> int:
    """Player count ``n``'s part of ``total`` games split evenly over ``counts`` (the first take the rest)."""
    base, rest = divmod(total, len(counts))
    return base + (1 if n - counts.start < rest else 0)


def table(results: list[SoakResult]) -> str:
    """One row per game, player count and backend: games, agent-steps and failures of each check."""
    header = ("game", "players", "backend", "games", "agent-steps", *CHECKS_KINDS)
    rows = [header] + [
        (r.game, str(r.num_players), r.backend, f"{r.games:,}", f"{r.steps:,}",
         *(str(r.failures[kind]) for kind in CHECKS_KINDS))
        for r in results
    ]
    widths = [max(len(row[c]) for row in rows) for c in range(len(header))]
    lines = ["  ".join(cell.ljust(widths[c]) if c in (0, 2) else cell.rjust(widths[c]) for c, cell in enumerate(row))
             for row in rows]
    return "\n".join([lines[0], "-" * len(lines[0]), *lines[1:]])
