"""A game at the terminal: people at one keyboard and players (heuristic, random, saved policies).

Every step, each person whose seat acts sees their own view of the table and a menu of their
legal moves in words, each under its key: the move's action number, which names the same move
on every step; they type a key, and the other seats' players choose from their observations,
and the step resolves. In the real-time games every tick waits for the people. What happened
since one's last move is shown with it: void moves with why, and the rounds scored.
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
from stonk_envs.games.story import step_lines, summary_lines
from stonk_envs.games_index import game_module
from stonk_envs.policies import Policy, make_player
from stonk_envs.text import printable

HUMAN = "human"
HELP = "type a move's key (the number before it), a word to list the moves that contain it, or q to quit"
MOVES_SHOWN = 12
"""Moves of the other seats shown since one's last turn (the latest ones)."""


@dataclass
class Played:
    """One step played: the tables before and after it, the joint action, its void codes and summary."""

    before: np.ndarray
    after: np.ndarray
    joint: list[int]
    voids: list[int]
    summary: list[str]
    """The rounds it scored and, at the end, the winners."""


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
        self.history: list[Played] = []
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
                joint = [actions.get(agent, -1) for agent in self.env.possible_agents]
                after = table.states.copy()
                summary = summary_lines(self.game, before, after, joint)
                self.history.append(Played(before, after, joint, [int(v) for v in table.voids], summary))
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
        moves = legal_moves(self.game, self.env.table.states, seat, self.env.table.mask(seat))
        default = wait_key(moves)
        self.console.print(self.view(seat))
        self.console.print(menu(moves))
        prompt = f"[bold]player_{seat}[/] move (a key{', Enter waits' if default is not None else ''}): "
        while True:
            reply = self.console.input(prompt).strip()
            choice, message = read_choice(reply, moves, default, lambda a: self.unavailable(seat, a))
            if choice is not None:
                self.console.print(f"[green]player_{seat}: {escape(moves[choice])}[/]")
                return choice
            if message == "quit":
                raise Quit
            self.console.print(message)

    def unavailable(self, seat: int, action: int) -> str:
        """Why the move under key ``action`` cannot be played now (a hint for the menu)."""
        what, why = unavailable(self.game, self.env.table.states, seat, action)
        if not 0 <= action < self.game.num_actions:
            why += f"; {HELP}"
        return f"[red]{escape(what)}[/]: {escape(why)}"

    def view(self, seat: int) -> Panel:
        """``seat``'s view of the table, and the moves since its last turn as that seat may know them."""
        table = self.env.table
        parts = [Text(self.game.render(table.states, 0, seat))]
        told = recap(self.game, self.history[self.seen[seat] :], seat, MOVES_SHOWN)
        self.seen[seat] = len(self.history)
        if told.void:
            parts.insert(0, Text(f"your move was void: {told.void}", "bold red"))
        if told.moves:
            skipped = f"({told.left_out} earlier moves left out)\n" if told.left_out else ""
            block = Text("since your last move:\n" + skipped, "cyan")
            for k, line in enumerate(told.moves):
                block.append(("\n" if k else "") + line, "bold red" if " - VOID: " in line else "cyan")
            parts += [Text(""), block]
        if told.summaries:
            parts += [Text(""), Text("\n".join(told.summaries), "yellow")]
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


@dataclass
class Recap:
    """What a seat is told of the steps since its last move, as it may know them."""

    moves: list[str]
    """The latest moves (``player_2: bid $6K on pile 2``; void ones end in ``- VOID: <why>``)."""
    left_out: int
    """How many earlier moves ``moves`` leaves out."""
    summaries: list[str]
    """The rounds scored and, at the end, the winners."""
    void: str | None
    """Why the seat's own move was void (its latest void move), else None."""


def recap(game, steps: list[Played], seat: int, shown: int) -> Recap:
    """The steps' moves (the latest ``shown`` of them) and summaries as ``seat`` may know them."""
    moves, summaries, void = [], [], None
    for step in steps:
        lines = step_lines(game, step.before, step.after, step.joint, step.voids, seat)
        moves += lines
        summaries += step.summary
        mine = [line for line in lines if line.startswith(f"player_{seat}: ") and " - VOID: " in line]
        if mine:
            void = mine[0].split(" - VOID: ", 1)[1]
    kept = moves[-shown:] if shown else []
    return Recap(kept, len(moves) - len(kept), summaries, void)


def legal_moves(game, states: np.ndarray, seat: int, mask: np.ndarray) -> dict[int, str]:
    """``seat``'s legal moves (``mask``) under their keys, the action numbers, in words."""
    return {int(a): game.name_action(states, 0, seat, int(a)) for a in np.flatnonzero(mask)}


def wait_key(moves: dict[int, str]) -> int | None:
    """The key of the move that waits (the real-time games), None when there is none."""
    return next((a for a, name in moves.items() if name == "wait"), None)


def unavailable(game, states: np.ndarray, seat: int, action: int) -> tuple[str, str]:
    """``(what, why)``: why the move under key ``action`` cannot be played by ``seat`` now."""
    if not 0 <= action < game.num_actions:
        return f"there is no move {action}", f"keys run from 0 to {game.num_actions - 1}"
    name = game.describe_action(seat, action)
    return f"move {action} ({name}) is not available now", game.why_illegal(states, 0, seat, action)


def menu(moves: dict[int, str]) -> Columns:
    """The legal moves under their keys (action numbers), in columns."""
    width = len(str(max(moves)))
    return Columns(
        [f"[bold cyan]{key:>{width}}[/] {escape(name)}" for key, name in moves.items()],
        column_first=True,
        padding=(0, 3),
    )


def read_choice(reply: str, moves: dict[int, str], default: int | None, unavailable) -> tuple[int | None, str]:
    """``(the key of a legal move, "")`` for a valid reply, else ``(None, a hint)``; ``(None, "quit")`` for q.

    ``unavailable(key)`` says why the move under a key that is not on the menu cannot be played now.
    """
    if reply.lower() in ("q", "quit", "exit"):
        return None, "quit"
    if reply == "":
        if default is not None:
            return default, ""
        return None, f"[red]choose a move[/]: {HELP}"
    if reply.isdigit():
        key = int(reply)
        if key in moves:
            return key, ""
        return None, unavailable(key)
    if reply in ("?", "h", "help"):
        return None, HELP
    matches = [f"{key}: {name}" for key, name in moves.items() if reply.lower() in name.lower()]
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
