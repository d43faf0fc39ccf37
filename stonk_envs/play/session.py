"""A game at the terminal: people at one keyboard and players (heuristic, random, saved policies).

Every step, each person whose seat acts sees their own view of the table and a numbered menu
of their legal moves in words, and types a number; the other seats' players choose from their
observations, and the step resolves. In the real-time games every tick waits for the people.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from rich.columns import Columns
from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from stonk_envs import records
from stonk_envs.games_index import game_module
from stonk_envs.policies import Policy, make_player
from stonk_envs.replay.timeline import named_moves
from stonk_envs.text import printable

HUMAN = "human"
HELP = "type a move's number, a word to list the moves that contain it, or q to quit"
MOVES_SHOWN = 12
"""Moves of the other seats shown since one's last turn (the latest ones)."""


class Quit(Exception):
    """The person asked to stop (q, Ctrl-C or the end of input)."""


@dataclass
class Seat:
    """Who sits in a seat: a person (``policy`` None) or a player."""

    name: str
    policy: Policy | None = None

    @property
    def human(self) -> bool:
        return self.policy is None


@dataclass
class Session:
    """One game being played at the terminal."""

    game_name: str
    seats: list[Seat]
    env_config: dict = field(default_factory=dict)
    seed: int | None = None
    console: Console = field(default_factory=Console)

    def __post_init__(self):
        n = len(self.seats)
        self.env = game_module(self.game_name).parallel_env(
            illegal_action="raise", **{**self.env_config, "num_players": n}
        )
        self.game = self.env.table.game
        self.recorder = records.record(self.env, players=[s.name for s in self.seats])
        self.rng = np.random.default_rng(self.seed)
        self.humans = [p for p, s in enumerate(self.seats) if s.human]
        self.history: list[tuple[np.ndarray, list[int]]] = []
        """Each step played: the table before it and the joint action."""
        self.seen = dict.fromkeys(self.humans, 0)
        """How many steps of ``history`` each person has been shown."""

    # one game -----------------------------------------------------------------
    def play(self) -> records.GameRecord:
        """Play until the game ends or a person quits; returns the record (unfinished after a quit)."""
        observations, _ = self.env.reset(seed=self.seed)
        self.history.clear()
        self.seen = dict.fromkeys(self.humans, 0)
        try:
            while self.env.agents:
                table = self.env.table
                before = table.states.copy()
                actions = {}
                for seat in np.flatnonzero(table.actor_flags):
                    agent = self.env.agents[seat]
                    if self.seats[seat].human:
                        actions[agent] = self.ask(int(seat))
                    else:
                        obs = observations[agent]
                        chosen = self.seats[seat].policy.act(
                            obs["observation"][None], obs["action_mask"][None], self.rng
                        )
                        actions[agent] = int(chosen[0])
                observations, *_ = self.env.step(actions)
                self.history.append((before, [actions.get(agent, -1) for agent in self.env.possible_agents]))
        except (Quit, KeyboardInterrupt, EOFError):
            self.console.print("\n[yellow]stopped before the end of the game[/]")
            return self.recorder.last
        for seat in self.humans:
            self.console.print(self.view(seat))
        return self.recorder.last

    def ask(self, seat: int) -> int:
        """Show ``seat``'s view and menu and read a legal move from the keyboard."""
        if len(self.humans) > 1:
            self.console.rule(f"[bold]player_{seat} ({self.seats[seat].name}), your move[/]")
            self.console.input(f"pass the keyboard to player_{seat} and press Enter ")
            self.console.clear()
        table = self.env.table
        legal = [int(a) for a in np.flatnonzero(table.mask(seat))]
        names = [self.game.name_action(table.states, 0, seat, a) for a in legal]
        default = names.index("wait") if "wait" in names else None
        self.console.print(self.view(seat))
        self.console.print(menu(names))
        prompt = f"[bold]player_{seat}[/] move (1-{len(names)}{', Enter waits' if default is not None else ''}): "
        while True:
            reply = self.console.input(prompt).strip()
            choice, message = read_choice(reply, names, default)
            if choice is not None:
                self.console.print(f"[green]player_{seat}: {names[choice]}[/]")
                return legal[choice]
            if message == "quit":
                raise Quit
            self.console.print(message)

    def view(self, seat: int) -> Panel:
        """``seat``'s view of the table, and the moves since its last turn as that seat may know them."""
        table = self.env.table
        parts = [Text(self.game.render(table.states, 0, seat))]
        moves = [
            m for before, joint in self.history[self.seen[seat] :] for m in named_moves(self.game, before, joint, seat)
        ]
        self.seen[seat] = len(self.history)
        if moves:
            shown = moves[-MOVES_SHOWN:]
            skipped = f"({len(moves) - len(shown)} earlier moves left out)\n" if len(moves) > len(shown) else ""
            parts += [Text(""), Text("since your last move:\n" + skipped + "\n".join(shown), "cyan")]
        return Panel(Group(*parts), title=f"{self.game_name} - player_{seat} ({self.seats[seat].name})", expand=False)

    def scores_table(self, record: records.GameRecord) -> Table:
        """Final scores, rewards and who won."""
        scores = record.scores
        best = max(scores)
        out = Table(title="final scores")
        for column in ("seat", "player", "score", "reward", ""):
            out.add_column(column)
        for p, seat in enumerate(self.seats):
            out.add_row(
                f"player_{p}",
                seat.name,
                f"{scores[p]:g}",
                f"{record.rewards[p]:+.3g}",
                "winner" if scores[p] == best else "",
            )
        return out


def menu(names: list[str]) -> Columns:
    """The legal moves, numbered from 1, in columns."""
    return Columns(
        [f"[bold cyan]{k + 1:>3}[/] {escape(name)}" for k, name in enumerate(names)], column_first=True, padding=(0, 3)
    )


def read_choice(reply: str, names: list[str], default: int | None) -> tuple[int | None, str]:
    """``(index into names, "")`` for a valid reply, else ``(None, a hint)``; ``(None, "quit")`` for q."""
    if reply.lower() in ("q", "quit", "exit"):
        return None, "quit"
    if reply == "":
        if default is not None:
            return default, ""
        return None, f"[red]choose a move[/]: {HELP}"
    if reply.isdigit():
        k = int(reply)
        if 1 <= k <= len(names):
            return k - 1, ""
        return None, f"[red]there is no move {k}[/]: choose a number from 1 to {len(names)}"
    if reply in ("?", "h", "help"):
        return None, HELP
    matches = [f"{k + 1}: {name}" for k, name in enumerate(names) if reply.lower() in name.lower()]
    if not matches:
        return None, f"[red]no move matches {escape(repr(reply))}[/]: {HELP}"
    return None, f"moves with {escape(repr(reply))}:\n  " + "\n  ".join(escape(m) for m in matches)


def build_seats(game: str, seat: int, opponents: list[str], num_players: int | None) -> list[Seat]:
    """The seats: a person at ``seat``, the opponents' specs in the other seats in order.

    One opponent spec fills every other seat. Raises ValueError naming a wrong seat or count.
    """
    from stonk_envs.policies.games import make_game

    n = (
        make_game(game, num_players).num_players
        if num_players is not None or len(opponents) == 1
        else len(opponents) + 1
    )
    make_game(game, n)  # checks the player count for the game
    if len(opponents) == 1:
        opponents = opponents * (n - 1)
    if len(opponents) != n - 1:
        raise ValueError(f"{game} with {n} players needs {n - 1} opponents, got {len(opponents)}")
    if not 0 <= seat < n:
        raise ValueError(f"--seat {seat}: {game} with {n} players has seats 0..{n - 1}")
    specs = list(opponents)
    specs.insert(seat, HUMAN)
    cache: dict[str, Policy] = {}
    seats = []
    for spec in specs:
        if spec == HUMAN:
            seats.append(Seat(HUMAN))
            continue
        if spec not in cache:
            cache[spec] = make_player(spec, game, n)
        seats.append(Seat(printable(Path(spec).name) if spec not in ("random", "heuristic") else spec, cache[spec]))
    return seats
