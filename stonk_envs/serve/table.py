"""One table of the server: a game between people (each at a browser, holding a seat's secret token) and
players, played on a thread of its own; each seat is told only its own view.

The table steps as soon as every seat that acts has chosen: the players choose from their
observations at once, the people through :meth:`Table.move`. In the real-time games the
:class:`~stonk_envs.serve.clock.Clock` decides whether a tick waits for the people or passes after
some seconds (their moves then wait). The game's record is saved when it ends or is stopped.
"""

from __future__ import annotations

import io
import secrets
import threading
import time
from pathlib import Path

import numpy as np
from PIL import Image

from stonk_envs import records
from stonk_envs.games.story import summary_lines, winners_line
from stonk_envs.games_index import game_module
from stonk_envs.play.session import Played, legal_moves, recap, unavailable, wait_key
from stonk_envs.policies import Policy, make_player
from stonk_envs.policies.players import builtin_player_names
from stonk_envs.render import draw, story
from stonk_envs.serve.clock import Clock
from stonk_envs.text import printable

PERSON = "person"
"""The spec of a seat held by a person at a browser."""
MOVES_TOLD = 40
"""Moves of the other seats told since one's last move (the latest ones)."""
AWAY_SECONDS = 10.0
"""A person whose browser has not asked for the table for this long is shown as away to the others."""


class Refused(ValueError):
    """A request the table refuses; ``status`` is the HTTP status that fits, the message says why."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class Table:
    """A game in progress and who holds each seat."""

    def __init__(
        self,
        table_id: str,
        game_name: str,
        specs: list[str],
        env_config: dict,
        seed: int | None,
        clock: Clock,
        record_path: Path,
        trust: bool = False,
    ):
        n = len(specs)
        self.id = table_id
        self.game_name = game_name
        self.env = game_module(game_name).parallel_env(illegal_action="raise", **{**env_config, "num_players": n})
        self.game = self.env.table.game
        self.specs = list(specs)
        policies: dict[str, Policy] = {}
        for spec in specs:
            if spec != PERSON and spec not in policies:
                policies[spec] = make_player(spec, game_name, n, trust=trust)
        self.policies = {p: policies[spec] for p, spec in enumerate(specs) if spec != PERSON}
        builtin = {PERSON, *builtin_player_names(game_name)}
        self.names = [spec if spec in builtin else printable(Path(spec).name) for spec in specs]
        self.people = [p for p, spec in enumerate(specs) if spec == PERSON]
        self.tokens: dict[int, str] = {}
        self.clock = clock
        self.record_path = record_path
        self.recorder = records.record(self.env, players=["human" if s == PERSON else s for s in self.names])
        self.rng = np.random.default_rng(seed)
        self.observations, _ = self.env.reset(seed=seed)
        self.history: list[Played] = []
        self.chosen: dict[int, int] = {}
        """The people's moves for the coming step."""
        self.marks = dict.fromkeys(self.people, 0)
        """Per person, the step from which they are told what happened: the one that played their last move."""
        self.seen = dict.fromkeys(self.people, time.monotonic())
        self.asking = dict.fromkeys(self.people, 0)
        self.version = 0
        self.failure: str | None = None
        self.saved: Path | None = None
        self.stopped = False
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._run, name=f"table-{table_id}", daemon=True)
        self.thread.start()

    # seats ----------------------------------------------------------------------
    def claim(self, seat: int | None = None) -> tuple[int, str]:
        """A person's seat (``seat``, or the first one nobody holds) with its new secret token."""
        with self.changed:
            free = [p for p in self.people if p not in self.tokens]
            if seat is None:
                if not free:
                    raise Refused(409, f"table {self.id} has no free seat for a person")
                seat = free[0]
            elif seat not in free:
                raise Refused(409, f"seat {seat} of table {self.id} is not free for a person")
            self.tokens[seat] = secrets.token_urlsafe(24)
            self._touch()
            return seat, self.tokens[seat]

    def seat_of(self, token: str) -> int | None:
        """The seat whose token is ``token``, None for none."""
        for seat, held in self.tokens.items():
            if secrets.compare_digest(held, token):
                return seat
        return None

    @property
    def over(self) -> bool:
        return not self.env.agents

    @property
    def realtime(self) -> bool:
        return bool(self.game.simultaneous)

    def _acting(self) -> list[int]:
        return [int(p) for p in np.flatnonzero(self.env.table.actor_flags)] if not self.over else []

    def _touch(self) -> None:
        self.version += 1
        self.changed.notify_all()

    # the game's thread ------------------------------------------------------------
    def _run(self) -> None:
        with self.changed:
            try:
                while not self.over and not self.stopped:
                    wait = self._wait()
                    if wait == 0:
                        self._step()
                    else:
                        self.changed.wait(wait)
            except Exception as error:  # a broken step must not take the server down; the others are told
                self.failure = f"the game stopped on an error: {type(error).__name__}: {error}"
            self._save()
            self._touch()

    def _wait(self) -> float | None:
        """0 to step now, else how long to wait for a change (None: until one)."""
        people = [p for p in self._acting() if p in self.marks]
        if not people:
            return 0
        if self.realtime and self.clock.paused:
            return None
        if all(p in self.chosen for p in people):
            return 0
        left = self.clock.left() if self.realtime else None
        if left is None:
            return None
        return 0 if left <= 0 else left

    def _step(self) -> None:
        table = self.env.table
        before = table.states.copy()
        actions = {}
        for seat in self._acting():
            agent = self.env.agents[seat]
            if seat in self.policies:
                obs = self.observations[agent]
                chosen = self.policies[seat].act(obs["observation"][None], obs["action_mask"][None], self.rng)
                actions[agent] = int(chosen[0])
            elif seat in self.chosen:
                actions[agent] = self.chosen[seat]
            else:  # the clock passed the tick: a person who did not move waits
                actions[agent] = wait_key(legal_moves(self.game, table.states, seat, table.mask(seat)))
        for seat in self.chosen:
            self.marks[seat] = len(self.history)
        self.observations, *_ = self.env.step(actions)
        joint = [actions.get(agent, -1) for agent in self.env.possible_agents]
        after = table.states.copy()
        summary = summary_lines(self.game, before, after, joint)
        self.history.append(Played(before, after, joint, [int(v) for v in table.voids], summary))
        self.chosen.clear()
        self.clock.restart()
        self._touch()

    def _save(self) -> None:
        if self.saved is None and self.recorder.last is not None:
            self.saved = self.recorder.last.save(self.record_path)

    def stop(self) -> None:
        """End the game where it is (its record is saved unfinished) and wait for its thread."""
        with self.changed:
            self.stopped = True
            self._touch()
        self.thread.join(timeout=10)

    # requests ------------------------------------------------------------------------
    def move(self, seat: int, key: object, step: object) -> str:
        """Play ``seat``'s move under ``key`` in step ``step`` (the step the browser saw); returns what was done."""
        if isinstance(key, bool) or not isinstance(key, int):
            raise Refused(400, f"a move is its key, a whole number, got {key!r}")
        if isinstance(step, bool) or not isinstance(step, int):
            raise Refused(400, f"a move names the step it was chosen in, a whole number, got {step!r}")
        with self.changed:
            self._touch_seat(seat)
            if self.failure or self.stopped or self.over:
                raise Refused(409, "the game is over: no more moves")
            if step != len(self.history):
                passed = "tick" if self.realtime else "step"
                raise Refused(409, f"your move {key} came too late: the {passed} it was chosen in (step {step + 1}) "
                                   f"has passed, and the table is at step {len(self.history) + 1}; choose again")
            if seat not in self._acting():
                waiting = ", ".join(f"player_{p}" for p in self._acting())
                raise Refused(409, f"it is not player_{seat}'s move now (waiting for {waiting})")
            table = self.env.table
            if not 0 <= key < self.game.num_actions or not table.mask(seat)[key]:
                what, why = unavailable(self.game, table.states, seat, key)
                raise Refused(409, f"{what}: {why}")
            again = seat in self.chosen
            self.chosen[seat] = key
            self._touch()
            name = self.game.name_action(table.states, 0, seat, key)
            return f"{'changed to' if again else 'chose'} {key}: {name}"

    def set_clock(self, seat: int, mode: object, seconds: object, paused: object) -> None:
        """A person at the table sets the clock (real-time games only)."""
        if not self.realtime:
            raise Refused(409, f"{self.game_name} is played in turns: it has no clock")
        if not isinstance(paused, bool):
            raise Refused(400, f"paused must be true or false, got {paused!r}")
        with self.changed:
            self._touch_seat(seat)
            try:
                self.clock.set(mode, seconds, paused)
            except ValueError as error:
                raise Refused(400, str(error)) from None
            self._touch()

    def _touch_seat(self, seat: int) -> None:
        self.seen[seat] = time.monotonic()

    def wait_view(self, seat: int, version: int | None, timeout: float) -> dict:
        """``seat``'s view once the table has changed from ``version`` (or after ``timeout`` seconds)."""
        with self.changed:
            self.asking[seat] += 1
            self._touch_seat(seat)
            try:
                if version is not None:
                    self.changed.wait_for(lambda: self.version != version, timeout)
                return self.view(seat)
            finally:
                self.asking[seat] -= 1
                self._touch_seat(seat)

    def picture(self, seat: int) -> bytes:
        """``seat``'s view of the table drawn as a PNG (others' hidden cards as backs), with the last step's
        moves as the seat may know them."""
        with self.changed:
            self._touch_seat(seat)
            events, summary = [], []
            if self.history:
                last = self.history[-1]
                events, summary = story(self.game, last.before, last.after, last.joint, last.voids, seat)
            picture = draw(self.game, self.env.table.states, 0, seat, events, summary)
        buffer = io.BytesIO()
        Image.fromarray(picture).save(buffer, format="PNG")
        return buffer.getvalue()

    def view(self, seat: int) -> dict:
        """What ``seat`` is shown: its own view of the table and nothing of the others' hidden cards."""
        table = self.env.table
        states = table.states
        acting = self._acting()
        told = recap(self.game, self.history[self.marks[seat]:], seat, MOVES_TOLD)
        moves = legal_moves(self.game, states, seat, table.mask(seat)) if seat in acting and not self.stopped else {}
        now = time.monotonic()
        out = {
            "table": self.id,
            "game": self.game_name,
            "seat": seat,
            "players": self.names,
            "step": len(self.history),
            "version": self.version,
            "view": self.game.render(states, 0, seat),
            "void": told.void,
            "since": told.moves,
            "left_out": told.left_out,
            "summaries": told.summaries,
            "to_act": bool(moves),
            "moves": [{"key": key, "name": name} for key, name in moves.items()],
            "wait_key": wait_key(moves),
            "chosen": self.chosen.get(seat),
            "waiting_for": [
                {"seat": p, "name": self.names[p],
                 "away": p in self.marks and (p not in self.tokens or (
                     self.asking[p] == 0 and now - self.seen[p] > AWAY_SECONDS))}
                for p in acting if p in self.marks and p not in self.chosen
            ],
            "free_seats": [p for p in self.people if p not in self.tokens],
            "realtime": self.realtime,
            "clock": self.clock.as_json() if self.realtime else None,
            "over": self.over,
            "stopped": self.stopped,
            "failure": self.failure,
            "record": self.saved.name if self.saved else None,
            "result": None,
        }
        if self.over:
            scores = self.game.scores(states, 0)
            out["result"] = {"scores": [float(x) for x in scores], "winners": winners_line(self.game, states)}
        return out
