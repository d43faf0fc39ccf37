"""A server on a free port of 127.0.0.1 in a thread, a small HTTP client of its API, and what each seat must
never be sent: the lines of the full table (every card shown) that its own view does not hold."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np

from stonk_envs.serve.lobby import Lobby
from stonk_envs.serve.server import Server

SHORT = {
    "stockpile": (3, {"rounds": 1}),
    "stocks_and_bombs": (4, {"tick_cap": 8, "round_cap": 1}),
    "stonk_market": (3, {"tick_cap": 8, "num_rounds": 1}),
}
"""Per game, a player count and options that make a game of a few seconds."""


def start_server(records: Path, poll_seconds: float = 2.0) -> Server:
    server = Server(("127.0.0.1", 0), Lobby(records), poll_seconds=poll_seconds)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def address(server: Server) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}"


class Client:
    """One browser's requests: ``token`` is the seat token it holds (None: none)."""

    def __init__(self, base: str, token: str | None = None):
        self.base = base
        self.token = token

    def raw(self, method: str, path: str, data: bytes | None = None, headers: dict | None = None) -> tuple[int, str]:
        sent = {"Content-Type": "application/json", **({"X-Seat-Token": self.token} if self.token else {}),
                **(headers or {})}
        request = urllib.request.Request(self.base + path, method=method, data=data, headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def call(self, method: str, path: str, body: object = None) -> tuple[int, dict]:
        status, text = self.raw(method, path, None if body is None else json.dumps(body).encode())
        return status, json.loads(text)


def states_at(table, step: int) -> np.ndarray:
    """The table's state record after ``step`` steps."""
    if step == 0:
        return table.history[0].before if table.history else table.env.table.states.copy()
    return table.history[step - 1].after


def secret_lines(game, states: np.ndarray, seat: int) -> list[str]:
    """The lines of the full table that ``seat``'s view does not hold (others' hands, targets, forecasts)."""
    own = set(game.render(states, 0, seat).splitlines())
    return [line for line in game.render(states, 0, None).splitlines()
            if line.strip() and line not in own and not line.startswith(f"player_{seat}:")]


def texts(data: object) -> str:
    """Every string and key in a JSON value, a line each."""
    if isinstance(data, dict):
        return "\n".join(f"{key}\n{texts(value)}" for key, value in data.items())
    if isinstance(data, list):
        return "\n".join(texts(value) for value in data)
    return str(data)


def leaks(table, view: dict, seat: int) -> list[str]:
    """The hidden lines of other seats, at the view's step, that the view holds."""
    sent = texts(view)
    return [line for line in secret_lines(table.game, states_at(table, view["step"]), seat) if line in sent]
