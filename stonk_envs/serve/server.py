"""The HTTP side of the server (the standard library's ``http.server``, a thread per request): the page and
its assets from the package, and a JSON API. A seat's requests carry its secret token in the
``X-Seat-Token`` header; a browser waits for a change of its table with a long poll.

| request | does |
| --- | --- |
| ``GET /`` | the page (``GET /static/<file>``: its script and style) |
| ``GET /api/games`` | the games, their player counts, built-in players and options |
| ``POST /api/tables`` | a new table (:meth:`Lobby.create`) |
| ``POST /api/join`` | a free person's seat of ``{"table"}`` |
| ``GET /api/state?table=ID&version=V`` | the seat's view once the table is past version ``V`` (a long poll) |
| ``GET /api/picture?table=ID`` | the seat's view of the table drawn as a PNG |
| ``POST /api/move`` | ``{"table", "key", "step"}``: the seat's move under ``key``, chosen at ``step`` |
| ``POST /api/clock`` | ``{"table", "mode", "seconds", "paused"}``: the clock of a real-time table |
| ``GET /api/records`` | the saved records |
| ``GET /replay?name=FILE&seat=K&quiet=1`` | a record's replay viewer, from seat K (none: everything) |
"""

from __future__ import annotations

import json
import socket
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlsplit

from stonk_envs.serve.lobby import Lobby
from stonk_envs.serve.table import Refused

MAX_BODY = 64 * 1024
"""The largest request body read."""
POLL_SECONDS = 15.0
STATIC = {"app.js": "text/javascript", "style.css": "text/css", "index.html": "text/html"}
SECURITY = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
                               "script-src 'self' 'unsafe-inline'; frame-ancestors 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
"""Every response's headers: nothing is loaded from elsewhere, nothing cached."""


def static_file(name: str) -> bytes:
    return resources.files("stonk_envs.serve").joinpath("static", name).read_bytes()


class Handler(BaseHTTPRequestHandler):
    """One request; ``server.lobby`` holds the tables."""

    server: Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # the terminal shows the address, not every request
        pass

    # answering ---------------------------------------------------------------------
    def send(self, status: int, body: bytes, content_type: str) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for key, value in SECURITY.items():
                self.send_header(key, value)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):  # the browser left; the table goes on
            self.close_connection = True

    def send_json(self, status: int, data: object) -> None:
        self.send(status, json.dumps(data).encode(), "application/json; charset=utf-8")

    def refuse(self, status: int, message: str) -> None:
        self.send_json(status, {"error": message})

    # reading -----------------------------------------------------------------------
    def body(self) -> object:
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit() or int(length) > MAX_BODY:
            self.close_connection = True  # the body is not read: the connection cannot carry another request
            if length is None or not length.isdigit():
                raise Refused(411, "a request with a body must say its length (Content-Length)")
            raise Refused(413, f"the request body is {length} bytes; at most {MAX_BODY} are read")
        data = self.rfile.read(int(length))
        try:
            return json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise Refused(400, f"the request body is not JSON: {error}") from None

    def token(self) -> str:
        return self.headers.get("X-Seat-Token", "")

    # routes ------------------------------------------------------------------------
    def do_GET(self):
        self.route(self.get_routes())

    def do_POST(self):
        self.route(self.post_routes())

    def route(self, routes: dict) -> None:
        url = urlsplit(self.path)
        handler = routes.get(url.path)
        if url.path.startswith("/static/") and self.command == "GET":
            handler = self.get_static
        query = {key: values[-1] for key, values in parse_qs(url.query).items()}
        try:
            if handler is None:
                raise Refused(404, f"no page or API at {self.command} {url.path}")
            handler(url.path, query)
        except Refused as error:
            self.refuse(error.status, str(error))
        except Exception as error:  # a bug in one request must not stop the server or the tables
            self.refuse(500, f"the server failed on this request: {type(error).__name__}: {error}")

    def get_routes(self) -> dict:
        return {
            "/": lambda path, query: self.send(200, static_file("index.html"), "text/html; charset=utf-8"),
            "/api/games": lambda path, query: self.send_json(200, {"games": list(self.server.lobby.games.values())}),
            "/api/state": self.get_state,
            "/api/picture": self.get_picture,
            "/api/records": lambda path, query: self.send_json(200, {"records": self.server.lobby.records()}),
            "/replay": self.get_replay,
        }

    def post_routes(self) -> dict:
        lobby = self.server.lobby
        return {
            "/api/tables": lambda path, query: self.send_json(201, lobby.create(self.body())),
            "/api/join": lambda path, query: self.send_json(200, lobby.join(self.object_body().get("table"))),
            "/api/move": self.post_move,
            "/api/clock": self.post_clock,
        }

    def object_body(self) -> dict:
        body = self.body()
        if not isinstance(body, dict):
            raise Refused(400, f"the request body must be a JSON object, got {type(body).__name__}")
        return body

    def get_static(self, path: str, query: dict) -> None:
        name = path.removeprefix("/static/")
        if name not in STATIC:
            raise Refused(404, f"no file {name!r} among the page's assets")
        self.send(200, static_file(name), f"{STATIC[name]}; charset=utf-8")

    def get_state(self, path: str, query: dict) -> None:
        table, seat = self.server.lobby.seat(query.get("table"), self.token())
        version = query.get("version")
        if version is not None and not version.lstrip("-").isdigit():
            raise Refused(400, f"version must be a whole number, got {version!r}")
        timeout = min(POLL_SECONDS, self.server.poll_seconds)
        self.send_json(200, table.wait_view(seat, None if version is None else int(version), timeout))

    def get_picture(self, path: str, query: dict) -> None:
        table, seat = self.server.lobby.seat(query.get("table"), self.token())
        self.send(200, table.picture(seat), "image/png")

    def post_move(self, path: str, query: dict) -> None:
        body = self.object_body()
        table, seat = self.server.lobby.seat(body.get("table"), self.token())
        done = table.move(seat, body.get("key"), body.get("step"))
        self.send_json(200, {"ok": done})

    def post_clock(self, path: str, query: dict) -> None:
        body = self.object_body()
        table, seat = self.server.lobby.seat(body.get("table"), self.token())
        table.set_clock(seat, body.get("mode"), body.get("seconds"), body.get("paused"))
        self.send_json(200, {"clock": table.clock.as_json()})

    def get_replay(self, path: str, query: dict) -> None:
        seat = query.get("seat", "")
        if seat and not seat.isdigit():
            raise Refused(400, f"seat must be a seat number or empty (everything), got {seat!r}")
        try:
            page = self.server.lobby.replay_page(query.get("name"), int(seat) if seat else None,
                                                 query.get("quiet") == "1")
        except Refused as error:
            self.send(error.status, f"cannot replay: {error}".encode(), "text/plain; charset=utf-8")
            return
        self.send(200, page.encode(), "text/html; charset=utf-8")


class Server(ThreadingHTTPServer):
    """The HTTP server of a :class:`Lobby`."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], lobby: Lobby, poll_seconds: float = POLL_SECONDS):
        self.address_family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        super().__init__(address, Handler)
        self.lobby = lobby
        self.poll_seconds = poll_seconds

    def shutdown_tables(self) -> None:
        self.shutdown()
        self.lobby.stop_all()
        self.server_close()

