"""The server's tables and saved records: the games one may start, a new table from a browser's
request (checked, every bad field named), a person joining a free seat, the records and their replays."""

from __future__ import annotations

import dataclasses
import re
import secrets
import threading
import time
from pathlib import Path

from stonk_envs import registry
from stonk_envs.core.validation import SEED_MAX
from stonk_envs.games_index import game_module
from stonk_envs.policies.players import builtin_player_names
from stonk_envs.records import GameRecord, RecordError
from stonk_envs.serve.clock import Clock, check_clock
from stonk_envs.serve.table import PERSON, Refused, Table

YOU = "you"
"""The spec of a seat held by the browser that starts the table."""
MAX_TABLES = 64
"""Tables kept at once; the oldest finished ones are let go first."""
RECORD_NAME = re.compile(r"[\w.-]{1,200}\.json")


def player_counts(game: str) -> list[int]:
    """The player counts the game's config accepts."""
    config = registry.spec(game).config_class()
    counts = []
    for n in range(1, 13):
        try:
            config(num_players=n)
        except ValueError:
            continue
        counts.append(n)
    return counts


def option_kind(annotation: str) -> str | None:
    """How the page asks for an option of this type: ``boolean``, ``number`` or ``text``; None for a list."""
    kinds = set(annotation.replace(" ", "").split("|")) - {"None"}
    if kinds == {"bool"}:
        return "boolean"
    if kinds <= {"int", "float"}:
        return "number"
    return "text" if kinds == {"str"} else None


def catalogue() -> list[dict]:
    """Each game with its player counts, built-in players, whether it runs on a clock, and its options."""
    games = []
    for name in registry.names():
        config = registry.spec(name).config_class()
        default = config()
        options = [
            {"name": f.name, "default": getattr(default, f.name), "kind": option_kind(str(f.type))}
            for f in dataclasses.fields(config)
            if f.name != "num_players" and option_kind(str(f.type))
        ]
        games.append({
            "name": name,
            "players": player_counts(name),
            "default_players": default.num_players,
            "builtin": builtin_player_names(name),
            "realtime": bool(game_module(name).GAME.simultaneous),
            "options": options,
        })
    return games


class Lobby:
    """Every table of the server, by id, and the folder its records are saved in."""

    def __init__(self, records_dir: Path, trust: bool = False):
        self.records_dir = Path(records_dir)
        self.trust = trust
        self.tables: dict[str, Table] = {}
        self.lock = threading.Lock()
        self.games = {game["name"]: game for game in catalogue()}

    # tables ---------------------------------------------------------------------
    def create(self, request: object) -> dict:
        """A new table from ``{"game", "seats": [spec per seat], "options", "seed", "clock"}``; returns its id and
        the tokens of the seats marked ``you``. A seat spec is ``you``, ``person`` (someone who joins by the
        table's link), a built-in player's name or a policy file."""
        if not isinstance(request, dict):
            raise Refused(400, "a new table is a JSON object with game and seats")
        if unknown := sorted(set(request) - {"game", "seats", "options", "seed", "clock"}):
            raise Refused(400, f"unknown field(s) {unknown} for a new table")
        game = request.get("game")
        if game not in self.games:
            raise Refused(400, f"unknown game {game!r}; choose one of {sorted(self.games)}")
        seats = request.get("seats")
        counts = self.games[game]["players"]
        if not isinstance(seats, list) or len(seats) not in counts:
            got = len(seats) if isinstance(seats, list) else seats
            raise Refused(400, f"{game} is played by {counts[0]} to {counts[-1]} players: give one spec per seat, "
                               f"got {got!r}")
        for p, spec in enumerate(seats):
            if not isinstance(spec, str) or not spec.strip() or len(spec) > 1000:
                raise Refused(400, f"seat {p}: a player is you, person, one of "
                                   f"{self.games[game]['builtin']} or a policy file, got {spec!r}")
        if YOU not in seats:
            raise Refused(400, "no seat is yours: mark at least one seat 'you'")
        options = request.get("options", {})
        if not isinstance(options, dict) or "num_players" in options:
            raise Refused(400, f"options must map a game option to its value (not num_players), got {options!r}")
        seed = request.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX):
            raise Refused(400, f"seed must be empty or a whole number in 0..{SEED_MAX}, got {seed!r}")
        clock = request.get("clock", {})
        if not isinstance(clock, dict):
            raise Refused(400, f"clock must be an object with mode and seconds, got {clock!r}")
        try:
            mode, seconds = check_clock(clock.get("mode", "wait"), clock.get("seconds", 5))
        except ValueError as error:
            raise Refused(400, str(error)) from None
        table_id = secrets.token_hex(4)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        specs = [PERSON if spec in (YOU, PERSON) else spec for spec in seats]
        try:
            table = Table(table_id, game, specs, options, seed, Clock(mode, seconds),
                          self.records_dir / f"{game}-{stamp}-{table_id}.json", self.trust)
        except ModuleNotFoundError as error:
            raise Refused(400, f"a player needs a module that is not installed ({error.name}): a policy file "
                               "needs the training extra: pip install 'stonk_envs[training]'") from None
        except (ValueError, TypeError, OSError) as error:
            raise Refused(400, f"cannot start the table: {error}") from None
        tokens = [{"seat": p, "token": table.claim(p)[1]} for p, spec in enumerate(seats) if spec == YOU]
        with self.lock:
            self._make_room()
            self.tables[table_id] = table
        return {"table": table_id, "seats": tokens}

    def _make_room(self) -> None:
        while len(self.tables) >= MAX_TABLES:
            done = [key for key, table in self.tables.items() if table.over or table.stopped or table.failure]
            if not done:
                raise Refused(503, f"the server holds {MAX_TABLES} games in progress; finish one first")
            del self.tables[done[0]]

    def table(self, table_id: object) -> Table:
        if not isinstance(table_id, str) or table_id not in self.tables:
            raise Refused(404, f"no table {table_id!r} on this server (it may have been stopped)")
        return self.tables[table_id]

    def seat(self, table_id: object, token: object) -> tuple[Table, int]:
        """The table and the seat whose secret token is ``token``."""
        table = self.table(table_id)
        seat = table.seat_of(token) if isinstance(token, str) and token else None
        if seat is None:
            raise Refused(403, f"this browser holds no seat of table {table_id}: its seat token is missing or wrong")
        return table, seat

    def join(self, table_id: object) -> dict:
        """A free person's seat of the table, with its token."""
        table = self.table(table_id)
        seat, token = table.claim()
        return {"table": table.id, "seats": [{"seat": seat, "token": token}]}

    def stop_all(self) -> None:
        """Stop every table; the games in progress are saved unfinished."""
        with self.lock:
            tables = list(self.tables.values())
        for table in tables:
            table.stop()

    # records ------------------------------------------------------------------------
    def records(self) -> list[dict]:
        """The saved records, newest first."""
        if not self.records_dir.is_dir():
            return []
        paths = sorted(self.records_dir.glob("*.json"), key=lambda path: path.stat().st_mtime, reverse=True)
        return [{"name": path.name} for path in paths if RECORD_NAME.fullmatch(path.name)]

    def record(self, name: object) -> GameRecord:
        if not isinstance(name, str) or not RECORD_NAME.fullmatch(name) or name.startswith("."):
            raise Refused(400, f"a record is named by its file name in the records folder, got {name!r}")
        path = self.records_dir / name
        if not path.is_file():
            raise Refused(404, f"no record {name} in {self.records_dir}")
        try:
            return GameRecord.load(path)
        except RecordError as error:
            raise Refused(400, str(error)) from None

    def replay_page(self, name: object, seat: object, skip_quiet: bool) -> str:
        """The replay viewer of ``stonk-envs replay --html`` for a saved record, from ``seat`` (None: everything)."""
        from stonk_envs.replay import export
        from stonk_envs.replay.timeline import choose, timeline

        record = self.record(name)
        if seat is not None and not 0 <= seat < record.num_players:
            raise Refused(400, f"seat {seat}: the game has seats 0..{record.num_players - 1}")
        try:
            game, moments = timeline(record, viewer=seat)
        except RecordError as error:
            raise Refused(400, str(error)) from None
        shown = choose(moments, skip_quiet=skip_quiet)
        view = "everything" if seat is None else f"player_{seat}"
        pictures = export.frames(game, shown, seat)
        return export.html_page(f"{record.game}: {name} ({view})", shown, pictures, len(record.actions),
                                record.players)
