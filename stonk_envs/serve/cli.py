"""Play in the browser: a local web server whose page starts games against players or other people.

The page lets you choose a game, the player count, your seat(s) and who holds the others
(heuristic, random or the game's other rule-based players, a saved policy file, or people at
other browsers, who join by the table's link), then play: your own view of the table, what
happened since your last move, and your legal moves as buttons under the same keys as
stonk-envs play. The real-time games tick on a clock you can pause or set, or wait for every
move. Every game is saved as a record, which the page replays. Hidden cards stay on the
server: each browser gets only its own seat's view.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from stonk_envs import cli_args

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default: %(default)s, this machine only)")
    parser.add_argument("--port", type=cli_args.integer(0, 65535), default=8765,
                        help="port to listen on; 0 picks a free one (default: %(default)s)")
    parser.add_argument("--records", type=cli_args.output_dir, default=Path("runs") / "serve",
                        help="folder the game records are saved in (default: runs/serve)")
    cli_args.add_trust_file(parser)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    from stonk_envs.serve.lobby import Lobby
    from stonk_envs.serve.server import Server

    try:
        server = Server((args.host, args.port), Lobby(args.records, trust=args.trust_file))
    except OSError as error:
        print(f"stonk-envs serve: error: cannot listen on {args.host} port {args.port}: {error.strerror or error}",
              file=sys.stderr)
        return 2
    host, port = server.server_address[:2]
    shown = f"[{host}]" if ":" in host else host
    if args.host not in LOCAL_HOSTS:
        print(f"warning: listening on {args.host}, not only on this machine: anyone who can reach it on port {port} "
              "can open the page, start games and replay the saved records; seats are guarded by their tokens, "
              "but the traffic is plain HTTP", file=sys.stderr)
    print(f"stonk-envs serve: open http://{shown}:{port}/ (records in {args.records}; Ctrl-C stops)", flush=True)
    for stop in (signal.SIGINT, signal.SIGTERM):  # also when started with SIGINT ignored, as in the background
        signal.signal(stop, _interrupt)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nstopping: games in progress are saved unfinished", flush=True)
    finally:
        server.lobby.stop_all()
        server.server_close()
    return 0
