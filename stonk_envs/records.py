"""Game records: what is needed to replay a game exactly, saved as one JSON file.

A record holds the package version, the game, its full config, the seed of the deal and the
joint action of every step (one entry per seat, ``-1`` where a seat's action is not used),
plus the summed rewards and final scores as a check. :func:`replay` plays the record again
through the rules and fails with :class:`RecordError` naming the problem when the file is
damaged, comes from another version or config, or does not reproduce its own results.

Any env records its games once a :class:`Recorder` is attached::

    recorder = records.record(env)   # AEC or Parallel, wrapped or not
    env.reset(seed=0)
    ...                              # play
    recorder.last.save("game.json")
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from stonk_envs.core.game import NO_ACTION, Game
from stonk_envs.safe_load import json_depth_problem, read_file

MAX_RECORD_BYTES = 256 * 2**20
"""The largest game record read: 256 MiB (a long game is a few MiB)."""
FORMAT = "stonk_envs game record"
FORMAT_VERSION = 1
REWARD_TOLERANCE = 1e-4


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message names the problem."""


def package_version() -> str:
    import stonk_envs

    return stonk_envs.__version__


@dataclass
class GameRecord:
    """One game: enough to replay it, and its results to check the replay against."""

    game: str
    config: dict[str, Any]
    deal_seed: int
    actions: list[list[int]] = field(default_factory=list)
    """Per step, the joint action: one entry per seat, -1 where the seat's action was not used."""
    rewards: list[float] | None = None
    """Rewards summed over the game, per seat."""
    scores: list[float] | None = None
    """Final scores per seat; None when the game did not reach its end."""
    env_seed: int | None = None
    """The seed given to ``reset``, when the game was played in an env (the deal seed derives from it)."""
    players: list[str] | None = None
    """Who sat in each seat (informational)."""
    version: str = field(default_factory=package_version)

    @property
    def num_players(self) -> int:
        return int(self.config["num_players"])

    @property
    def finished(self) -> bool:
        return self.scores is not None

    # file ---------------------------------------------------------------------
    def body(self) -> dict[str, Any]:
        return {"format": FORMAT, "format_version": FORMAT_VERSION, **dataclasses.asdict(self)}

    def to_json(self) -> str:
        body = self.body()
        return json.dumps({**body, "sha256": _digest(body)}, separators=(",", ":"))

    def save(self, path: str | Path) -> Path:
        """Write the record as JSON (with a checksum of its content); returns the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_json())
        return path

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record, checking that it is one, that it is whole and that its fields make sense."""
        path = Path(path)
        if not path.exists():
            raise RecordError(f"{path}: no such file")
        try:
            data = read_file(path, MAX_RECORD_BYTES, "game record")
        except ValueError as error:
            raise RecordError(str(error)) from None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise RecordError(f"{path}: not a game record (not UTF-8 text; byte {error.start} is invalid)") from error
        return cls.from_json(text, str(path))

    @classmethod
    def from_json(cls, text: str, source: str = "record") -> GameRecord:
        if problem := json_depth_problem(text):
            raise RecordError(f"{source}: not a game record: its JSON is {problem}")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(
                f"{source}: damaged or not a game record: invalid JSON at line {error.lineno} column {error.colno} "
                f"({error.msg})"
            ) from error
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f'{source}: not a game record (no "format": "{FORMAT}" field)')
        if data.get("format_version") != FORMAT_VERSION:
            raise RecordError(
                f"{source}: record format version {data.get('format_version')!r}; this package reads {FORMAT_VERSION}"
            )
        stored = data.pop("sha256", None)
        if stored != _digest(data):
            raise RecordError(
                f"{source}: damaged: its content does not match its sha256 checksum (edited or corrupted)"
            )
        del data["format"], data["format_version"]
        names = {f.name for f in dataclasses.fields(cls)}
        if missing := sorted(names - set(data)):
            raise RecordError(f"{source}: damaged: missing field(s) {missing}")
        if unknown := sorted(set(data) - names):
            raise RecordError(f"{source}: unknown field(s) {unknown}")
        record = cls(**data)
        record.check_fields(source)
        return record

    def check_fields(self, source: str = "record") -> None:
        """Raise :class:`RecordError` naming the first field of the wrong type or shape."""
        if not isinstance(self.game, str):
            raise RecordError(f"{source}: field 'game' must be a string, got {self.game!r}")
        if not isinstance(self.config, dict) or not _is_int(self.config.get("num_players")):
            got = self.config.get("num_players") if isinstance(self.config, dict) else self.config
            raise RecordError(f"{source}: field 'config' must be a mapping with an integer num_players, got {got!r}")
        if not isinstance(self.version, str):
            raise RecordError(f"{source}: field 'version' must be a string, got {self.version!r}")
        for name in ("deal_seed", "env_seed"):
            value = getattr(self, name)
            if (value is not None or name == "deal_seed") and (not _is_int(value) or not 0 <= value < 2**63):
                raise RecordError(f"{source}: field {name!r} must be an integer in 0..2**63-1, got {value!r}")
        n = self.num_players
        if not isinstance(self.actions, list):
            raise RecordError(f"{source}: field 'actions' must be a list of steps")
        for k, joint in enumerate(self.actions):
            if not isinstance(joint, list) or len(joint) != n or not all(_is_int(a) for a in joint):
                raise RecordError(f"{source}: step {k} of 'actions' must be a list of {n} integers, got {joint!r}")
        for name in ("rewards", "scores"):
            value = getattr(self, name)
            if value is not None and not _is_list_of(value, n, _is_number):
                raise RecordError(f"{source}: field {name!r} must be a list of {n} numbers, got {value!r}")
        if self.players is not None and not _is_list_of(self.players, n, lambda name: isinstance(name, str)):
            raise RecordError(f"{source}: field 'players' must be a list of {n} names, got {self.players!r}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_list_of(value: Any, length: int, check: Callable[[Any], bool]) -> bool:
    return isinstance(value, list) and len(value) == length and all(map(check, value))


def _digest(body: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def game_config(game: Game) -> dict[str, Any]:
    """The full config of ``game`` as plain JSON values."""
    return json.loads(json.dumps(dataclasses.asdict(game.config)))


# recording ---------------------------------------------------------------------
class Recorder:
    """Records every game an env plays; attach it with :func:`record`.

    ``games`` holds the finished games in order, ``last`` the latest game (finished or not).
    """

    def __init__(self, players: list[str] | None = None):
        self.players = players
        self.games: list[GameRecord] = []
        self.last: GameRecord | None = None
        self._rewards: np.ndarray | None = None

    def start(self, game: Game, deal_seed: int, env_seed: int | None) -> None:
        """A new game was dealt from ``deal_seed``."""
        self.last = GameRecord(
            game.name,
            game_config(game),
            int(deal_seed),
            env_seed=env_seed,
            players=list(self.players) if self.players else None,
        )
        self._rewards = np.zeros(game.num_players)
        self.last.rewards = self._rewards.tolist()

    def step(self, joint: np.ndarray, rewards: np.ndarray, scores: np.ndarray | None) -> None:
        """One step was played with ``joint``; ``scores`` is given when it ended the game."""
        if self.last is None:  # attached during a game: recording starts at the next reset
            return
        self.last.actions.append([int(a) for a in joint])
        self._rewards += rewards
        self.last.rewards = self._rewards.tolist()
        if scores is not None:
            self.last.scores = [float(x) for x in scores]
            self.games.append(self.last)


def record(env, players: list[str] | None = None) -> Recorder:
    """Attach a :class:`Recorder` to an AEC or Parallel env of this package (wrapped or not).

    Recording starts with the next ``reset``.
    """
    table = getattr(env.unwrapped, "table", None)
    if table is None:
        raise ValueError(f"{type(env.unwrapped).__name__} is not an env of stonk_envs; it cannot be recorded")
    table.recorder = Recorder(players)
    return table.recorder


def batch_record(
    game: Game,
    deal_seed: int,
    actions: np.ndarray,
    rewards: np.ndarray,
    scores: np.ndarray,
    players: list[str] | None = None,
) -> GameRecord:
    """A record of a game played outside an env (the evaluation's batches): its steps as a (steps, n) array."""
    return GameRecord(
        game.name,
        game_config(game),
        int(deal_seed),
        actions=np.asarray(actions).tolist(),
        rewards=[float(x) for x in rewards],
        scores=[float(x) for x in scores],
        players=players,
    )


# replaying ---------------------------------------------------------------------
@dataclass
class ReplayStep:
    """The table after step ``index`` (``-1``: the deal) of a replayed game."""

    index: int
    joint: list[int]
    """The joint action that led here (empty for the deal)."""
    rewards: np.ndarray
    game_over: bool
    voids: list[int] = field(default_factory=list)
    """Each seat's void code of the step (:mod:`stonk_envs.core.negotiation`; empty for the deal)."""


def check_version(record: GameRecord) -> None:
    if record.version != package_version():
        raise RecordError(
            f"the record was written by stonk_envs {record.version}; this is {package_version()}, whose rules or "
            "encodings may differ (replay it with that version, or pass allow_other_version to try anyway)"
        )


def build_recorded_game(record: GameRecord) -> Game:
    """The rules object of the record's game and config, or :class:`RecordError` naming the mismatch."""
    from stonk_envs.games_index import game_module

    try:
        module = game_module(record.game)
    except ValueError as error:
        raise RecordError(f"the record's game: {error}") from error
    layout = module.CONFIG.__name__
    fields = {f.name for f in dataclasses.fields(module.CONFIG)}
    if missing := sorted(fields - set(record.config)):
        raise RecordError(
            f"the record's config has no value for option(s) {missing} of this version's {layout}; "
            "it comes from another config layout"
        )
    if extra := sorted(set(record.config) - fields):
        raise RecordError(
            f"the record's config has option(s) {extra} that this version's {layout} does not know; "
            "it comes from another config layout"
        )
    try:
        return module.GAME(module.CONFIG(**record.config))
    except (TypeError, ValueError) as error:
        raise RecordError(f"the record's config is not valid here: {error}") from error


def replay_steps(
    record: GameRecord, allow_other_version: bool = False
) -> Iterator[tuple[Game, np.ndarray, ReplayStep]]:
    """Play the record again, yielding ``(game, states, step)`` after the deal and after every step.

    ``states[0]`` is the live state record (copy it to keep it). Raises :class:`RecordError` at
    the first step that the rules refuse, and at the end when the results differ from the record's.
    """
    if not allow_other_version:
        check_version(record)
    game = build_recorded_game(record)
    n = game.num_players
    states = np.zeros(1, dtype=game.state_dtype)
    game.reset(states, 0, record.deal_seed)
    acting = np.zeros(n, dtype=np.bool_)
    rewards = np.zeros(n, dtype=np.float32)
    voids = np.zeros(n, dtype=np.int8)
    mask = np.zeros(game.num_actions, dtype=np.int8)
    total = np.zeros(n)
    over = False
    yield game, states, ReplayStep(-1, [], total.copy(), False)
    for k, joint in enumerate(record.actions):
        if over:
            raise RecordError(f"the record goes on after the game ended at step {k - 1}")
        game.actors(states, 0, acting)
        for seat, action in enumerate(joint):
            if action == NO_ACTION:
                continue
            if not acting[seat]:
                raise RecordError(f"step {k}: the record has an action for player_{seat}, who does not act then")
            if not 0 <= action < game.num_actions:
                raise RecordError(f"step {k}: player_{seat}'s action {action} is outside 0..{game.num_actions - 1}")
            mask[:] = 0
            game.legal_mask(states, 0, seat, mask)
            if not mask[action]:
                why = game.why_illegal(states, 0, seat, action)
                raise RecordError(
                    f"step {k}: player_{seat}'s action {action} "
                    f"({game.describe_action(seat, action)}) is illegal: {why}"
                )
        over = bool(game.step(states, 0, np.asarray(joint, dtype=np.int64), rewards, voids))
        total += rewards
        yield game, states, ReplayStep(k, list(joint), total.copy(), over, [int(v) for v in voids])
    _check_results(record, game, states, total, over)


def _check_results(record: GameRecord, game: Game, states: np.ndarray, total: np.ndarray, over: bool) -> None:
    if record.finished != over:
        state = "ended" if over else "did not end"
        raise RecordError(
            f"the replayed game {state} after {len(record.actions)} steps, but the record says "
            f"it {'ended' if record.finished else 'did not end'}"
        )
    if record.rewards is not None and not np.allclose(total, record.rewards, atol=REWARD_TOLERANCE):
        raise RecordError(
            f"the replay's summed rewards {np.round(total, 4).tolist()} differ from the record's {record.rewards}"
        )
    if over:
        scores = game.scores(states, 0)
        if not np.allclose(scores, record.scores):
            raise RecordError(f"the replay's scores {scores.tolist()} differ from the record's {record.scores}")


def replay(record: GameRecord, allow_other_version: bool = False) -> ReplayStep:
    """Replay the whole record and check it; returns the last step (its summed rewards)."""
    last = None
    for _, _, step in replay_steps(record, allow_other_version):
        last = step
    return last
