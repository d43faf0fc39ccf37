"""Stepping through a replay in the terminal (rich): the table as text and the moves of each step."""

from __future__ import annotations

from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text

from stonk_envs.core.game import Game
from stonk_envs.replay.timeline import Moment
from stonk_envs.text import printable

HELP = "Enter: next step   b: back   a number: go to that step   e: the end   q: quit"
WIDTH = 80
"""Columns the replay fits in (its panel wraps long lines)."""


def moment_panel(game: Game, moment: Moment, total: int, seat: int | None, players: list[str] | None) -> Panel:
    """The table at ``moment`` as ``seat`` sees it, with the moves that led to it and the rewards so far."""
    lines = moment.moves or ["cards dealt" if moment.index < 0 else "everyone waits"]
    moves = Text(style="bold" if moment.moves else "dim")
    for k, line in enumerate(lines):
        moves.append(("\n" if k else "") + line, style="red" if " - VOID: " in line else None)
    rewards = "  ".join(f"player_{p} {r:+.3g}" for p, r in enumerate(moment.rewards))
    parts = [Text(game.render(moment.states, 0, seat)), Text(""), moves]
    if moment.summary:
        parts += [Text(""), Text("\n".join(moment.summary), "yellow")]
    parts.append(Text(f"rewards so far: {rewards}", "dim"))
    if players:
        seats = ", ".join(f"player_{p} {printable(who)}" for p, who in enumerate(players))
        parts.insert(0, Text("seats: " + seats, "cyan"))
    title = moment.title(total) + (" - game over" if moment.game_over else "")
    return Panel(Group(*parts), title=title, width=WIDTH)


def step_through(
    console: Console, game: Game, moments: list[Moment], total: int, seat: int | None, players: list[str] | None
) -> None:
    """Show one moment at a time, reading commands from the keyboard (or piped input) until q or the end of input."""
    k = 0
    while True:
        console.print(moment_panel(game, moments[k], total, seat, players))
        console.print(HELP, style="dim")
        try:
            command = console.input("[bold]replay>[/] ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return
        if command in ("", "n"):
            if k == len(moments) - 1:
                console.print("[dim]that was the last step; b goes back, q quits[/]")
            k = min(k + 1, len(moments) - 1)
        elif command == "b":
            k = max(k - 1, 0)
        elif command == "e":
            k = len(moments) - 1
        elif command == "q":
            return
        elif command.isdigit():
            wanted = int(command) - 1
            matches = [j for j, m in enumerate(moments) if m.index == wanted]
            if not matches:
                console.print(
                    f"[red]no step {command} here[/] (steps 1..{total}; with --stride or --skip-quiet "
                    "some are left out)"
                )
            else:
                k = matches[0]
        else:
            console.print(f"[red]unknown command {command!r}[/]; {HELP}")
