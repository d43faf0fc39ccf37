"""Write the champions' cards, and with ``--leaderboards`` their reference leaderboards, into docs/champions.md.

    python scripts/write_champion_docs.py [--check] [--leaderboards [GAME ...]]

A card sits between ``<!-- card: GAME -->`` and ``<!-- /card -->``: what ``stonk-envs card champion --game
GAME`` prints, written from the champions index. A leaderboard sits between ``<!-- leaderboard: GAME -->``
and ``<!-- /leaderboard -->``: what ``stonk-envs leaderboard --game GAME`` prints; it plays games, so it is
written only with ``--leaderboards`` (the named games', or every one). ``--check`` writes nothing and fails
when a card differs from the index (as the docs test does).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "champions.md"
LEADERBOARD_GAMES = 1000


def block(kind: str) -> re.Pattern:
    """A ``kind`` block of the page: its opening marker (naming the game), its body, its closing marker."""
    return re.compile(rf"(<!-- {kind}: (?P<game>\w+) -->\n)(?P<body>.*?)(<!-- /{kind} -->)", re.S)


def fenced(text: str) -> str:
    return f"```text\n{text.rstrip()}\n```\n"


def card(game: str) -> str:
    """The card block's body for ``game``."""
    from stonk_envs.evaluation.card import card_text, champion_card

    return fenced(card_text(champion_card(game)))


def leaderboard(game: str) -> str:
    """The leaderboard block's body for ``game``: the pool alone, the command's defaults."""
    from stonk_envs.evaluation.leaderboard import leaderboard as board

    words = f"stonk-envs leaderboard --game {game} --games {LEADERBOARD_GAMES} --seed 0"
    return fenced(board(game, [], LEADERBOARD_GAMES, 0, command=words).table())


def rewrite(text: str, kind: str, body: Callable[[str], str], games: list[str] | None = None) -> str:
    """``text`` with each ``kind`` block's body written by ``body(game)`` (only the blocks of ``games`` if given)."""
    def write(m: re.Match) -> str:
        return m.group(1) + body(m["game"]) + m.group(4) if games is None or m["game"] in games else m.group(0)

    return block(kind).sub(write, text)


def page(text: str) -> str:
    """The page with its cards written from the index."""
    return rewrite(text, "card", card)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; fail when a card differs from the index")
    parser.add_argument("--leaderboards", nargs="*", default=None, metavar="GAME",
                        help="also play and write the leaderboards of these games (none named: every one)")
    args = parser.parse_args(argv)
    text = PAGE.read_text()
    written = page(text)
    if args.check:
        if written != text:
            print(f"{PAGE} differs from the champions index; run python scripts/write_champion_docs.py",
                  file=sys.stderr)
            return 1
        return 0
    if args.leaderboards is not None:
        written = rewrite(written, "leaderboard", leaderboard, args.leaderboards or None)
    PAGE.write_text(written)
    return 0


if __name__ == "__main__":
    sys.exit(main())
