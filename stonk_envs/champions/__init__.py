"""The trained champions that ship with the package: a policy file per game and ``index.json`` naming them.

Per game the index names the policy ``file`` (in this folder) and its ``sha256``; ``num_players``, the
player counts it plays (a policy's seat layout is fixed at training, so only its own); how it was trained
(``config``, ``overrides``, ``seed``, ``command``, ``commit``, ``date``); the result file and seed that
measure it (``result``) with the figures copied from there (``measured``, null until it is measured);
the training run's own final evaluation (``training``); and ``weaknesses``, sentences that the figures
alone do not show. ``scripts/update_champions.py`` writes it. Reading it needs no extra.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from stonk_envs import registry

NAME = "champion"
"""The player spec that names a game's champion."""
FORMAT = "stonk_envs.champions/1"
FOLDER = Path(__file__).resolve().parent
INDEX = FOLDER / "index.json"


def read_index(path: Path | None = None) -> dict:
    """``{game: entry}`` from the index (the package's by default); ``ValueError`` when it is not one."""
    path = path or INDEX
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"cannot read the champions index {path}: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("champions"), dict):
        raise ValueError(f"{path} is not a champions index (format {FORMAT!r} with a 'champions' mapping)")
    return data["champions"]


def games() -> list[str]:
    """The games that have a champion."""
    return sorted(read_index())


def entry(game: str) -> dict:
    """The index entry of ``game``'s champion; ``ValueError`` naming the games that have one."""
    registry.spec(game)  # an unknown game is refused, naming the games
    champions = read_index()
    if game not in champions:
        have = ", ".join(sorted(champions)) or "none"
        raise ValueError(f"{game} has no champion; the games with one: {have}")
    return champions[game]


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def champion_file(game: str, num_players: int | None = None) -> Path:
    """The policy file of ``game``'s champion, checked against the index's SHA-256.

    ``ValueError`` when the game has none, the champion does not play ``num_players``, or the file
    is not the one the index names.
    """
    champion = entry(game)
    counts = champion["num_players"]
    if num_players is not None and num_players not in counts:
        raise ValueError(f"the {game} champion plays {' or '.join(map(str, counts))} players (its policy's seat "
                         f"layout), not {num_players}")
    path = FOLDER / champion["file"]
    if not path.is_file():
        raise ValueError(f"the {game} champion's file {path} is missing: reinstall stonk_envs")
    if file_sha256(path) != champion["sha256"]:
        raise ValueError(f"the {game} champion's file {path} is not the policy its index names (SHA-256 differs): "
                         "reinstall stonk_envs")
    return path


def default_num_players(game: str) -> int:
    """The player count the champion of ``game`` plays (the first, where it plays several)."""
    return entry(game)["num_players"][0]
