"""Print a champion's evaluation card: how it was trained, and what its result file measured.

The card shows the packaged policy's file, SHA-256 and player count, the training command, seed and
commit, then, where the result file that measured it holds them, its strength against random and
heuristic players with 95% intervals, the exploitability curve at a table of copies and at the mixed
table, its liveliness at a table of copies and the weaknesses these show. A figure the data does not
hold reads "not measured". Without a result file the strength is the training run's final evaluation.
"""

from __future__ import annotations

import argparse
import json

from stonk_envs import champions
from stonk_envs.cli_args import add_game


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("player", choices=[champions.NAME], help="the packaged player: champion")
    add_game(parser)
    parser.add_argument("--json", action="store_true", help="print the card as JSON")


def run(args: argparse.Namespace) -> int:
    from stonk_envs.evaluation.card import card_text, champion_card

    card = champion_card(args.game)
    print(json.dumps(card, indent=2) if args.json else card_text(card), end="\n" if args.json else "")
    return 0
