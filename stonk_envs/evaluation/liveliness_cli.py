"""Liveliness: does a player play the game at a table of its own copies, or stall?

Plays ``--games`` games with ``--player`` in every seat, and as many with the reference player
(the heuristic) in every seat, and prints each table's points per game and the share of games
won outright (in Stocks & Bombs: a seat reached ``points_to_win``). A policy that scores far
fewer points than the heuristic's table, or rarely decides a game, has settled into a stall.
Writes ``liveliness.json`` into ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from stonk_envs.cli_args import add_env_options, add_game, add_trust_file, output_dir, player, positive, seed

EXTRA = "evaluation"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--player", required=True, type=player,
                        help="random, heuristic, basic, champion (with --game) or a policy file")
    add_game(parser, default_text="the policy file's game; stocks_and_bombs for a built-in player")
    parser.add_argument("--num-players", type=positive, default=None,
                        help="seats (default: the policy file's, else the game's default)")
    add_env_options(parser)
    parser.add_argument("--reference", type=player, default="heuristic",
                        help="the player whose table the figures are set beside (default: %(default)s)")
    parser.add_argument("--games", type=positive, default=500, help="games at each table (default: %(default)s)")
    parser.add_argument("--seed", type=seed, default=0, help="seed of the games and players (default: %(default)s)")
    parser.add_argument("--out", type=output_dir, default=None,
                        help="folder for liveliness.json (default: runs/liveliness/<game>)")
    add_trust_file(parser)


def run(args: argparse.Namespace) -> int:
    from stonk_envs.evaluation.liveliness import compare, format_table
    from stonk_envs.evaluation.output import prepare_folder
    from stonk_envs.policies.checkpoint import read_metadata
    from stonk_envs.policies.players import policy_file

    try:
        game, num_players, env_config = args.game, args.num_players, dict(args.env)
        saved = policy_file(args.player, game)
        if saved is not None:
            meta = read_metadata(saved)
            if game is not None and game != meta["game"]:
                raise ValueError(f"{args.player} is a policy for {meta['game']!r}, not for {game!r}")
            if env_config:
                raise ValueError("--env applies to built-in players only; a policy file carries its own game options")
            game, env_config = meta["game"], dict(meta["env_config"])
            num_players = num_players or meta["num_players"]
        game = game or "stocks_and_bombs"
        result = compare(game, args.player, args.games, num_players, env_config, args.seed, args.reference)
        out = prepare_folder(args.out or Path("runs") / "liveliness" / game)
    except ValueError as error:
        print(f"stonk-envs liveliness: error: {error}", file=sys.stderr)
        return 2
    report = {"game": game, "num_players": result["player"]["num_players"], "env_config": env_config,
              "seed": args.seed, **result}
    print(f"{game}: tables of copies, {args.games} games each, seed {args.seed}")
    print(format_table(result))
    path = out / "liveliness.json"
    path.write_text(json.dumps(report, indent=2) + "\n")
    print(f"report: {path}")
    return 0
