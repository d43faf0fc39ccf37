"""The server's JSON API without a browser: each seat is sent only its own hidden cards, a token acts for its
own seat only, bad requests get errors that name the problem and leave the game going, the clock passes
ticks, and every game is saved as a record that replays."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from PIL import Image

from stonk_envs.records import GameRecord, replay
from stonk_envs.render import frame_size
from stonk_envs.serve.server import STATIC, static_file
from tests.serve.helpers import SHORT, Client, leaks, secret_lines, states_at

ROOT = Path(__file__).resolve().parents[2]


def new_table(base: str, game: str, seats: list[str], **extra) -> tuple[str, Client]:
    n, options = SHORT[game]
    assert len(seats) == n
    status, made = Client(base).call("POST", "/api/tables", {"game": game, "seats": seats, "options": options,
                                                             "seed": 5, **extra})
    assert status == 201, made
    return made["table"], Client(base, made["seats"][0]["token"])


def view_of(client: Client, table_id: str, version: int | None = None) -> dict:
    since = "" if version is None else f"&version={version}"
    status, view = client.call("GET", f"/api/state?table={table_id}{since}")
    assert status == 200, view
    return view


def play_out(table, table_id: str, clients: list[Client], choose=lambda view: view["moves"][-1]["key"]) -> list[dict]:
    """Every client moves whenever its seat acts (``choose`` picks the key) until the game ends; returns every
    view received, each checked for the other seats' hidden lines."""
    received = []
    for _ in range(500):
        moved = False
        for client in clients:
            view = view_of(client, table_id)
            received.append(view)
            assert leaks(table, view, view["seat"]) == []
            if view["over"]:
                return received
            if view["to_act"] and view["chosen"] is None:
                status, done = client.call("POST", "/api/move", {"table": table_id, "key": choose(view),
                                                                 "step": view["step"]})
                assert status == 200 or "came too late" in done["error"], done
                moved = True
        if not moved:
            view_of(clients[0], table_id, view["version"])
    raise AssertionError("the game did not end in 500 rounds of requests")


def test_two_people_each_receive_only_their_own_hidden_cards(served):
    server, base = served
    table_id, first = new_table(base, "stonk_market", ["you", "person", "heuristic"])
    status, joined = Client(base).call("POST", "/api/join", {"table": table_id})
    assert status == 200 and joined["seats"][0]["seat"] == 1
    second = Client(base, joined["seats"][0]["token"])
    assert second.token != first.token
    table = server.lobby.tables[table_id]

    start = [view_of(first, table_id), view_of(second, table_id)]
    for seat, view in enumerate(start):
        assert view["seat"] == seat
        hidden = secret_lines(table.game, states_at(table, 0), seat)
        assert len(hidden) == 2  # the two other hands
        own = next(line for line in table.game.render(states_at(table, 0), 0, None).splitlines()
                   if line.startswith(f"player_{seat}:"))
        assert own.replace(f"player_{seat}:", f"player_{seat} (you):") in view["view"]
    assert start[0]["view"] != start[1]["view"]

    status, done = first.call("POST", "/api/move", {"table": table_id, "key": start[0]["wait_key"], "step": 0})
    assert status == 200 and done["ok"] == f"chose {start[0]['wait_key']}: wait"
    assert view_of(first, table_id)["chosen"] == start[0]["wait_key"]
    assert view_of(second, table_id)["chosen"] is None  # the first token moved its own seat only

    request = urllib.request.Request(f"{base}/api/picture?table={table_id}", headers={"X-Seat-Token": first.token})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.headers["Content-Type"] == "image/png"
        picture = Image.open(io.BytesIO(response.read()))
    assert picture.size == frame_size(table.game)
    assert Client(base, "forged-token").raw("GET", f"/api/picture?table={table_id}")[0] == 403

    for token in ("", "forged-token", first.token[:-1] + ("A" if first.token[-1] != "A" else "B")):
        status, refused = Client(base, token).call("POST", "/api/move", {"table": table_id, "key": 0, "step": 0})
        assert status == 403 and refused["error"] == (
            f"this browser holds no seat of table {table_id}: its seat token is missing or wrong")
        status, refused = Client(base, token).call("GET", f"/api/state?table={table_id}")
        assert status == 403
    status, refused = Client(base).call("POST", "/api/join", {"table": table_id})
    assert status == 409 and refused["error"] == f"table {table_id} has no free seat for a person"

    received = play_out(table, table_id, [first, second])
    assert {view["seat"] for view in received} == {0, 1}
    assert received[-1]["over"] and received[-1]["result"]["winners"].startswith("game over: ")


def test_bad_requests_get_clear_errors_and_the_game_goes_on(served):
    server, base = served
    anyone = Client(base)
    status, text = anyone.raw("POST", "/api/tables", b"{not json")
    assert status == 400 and json.loads(text)["error"].startswith("the request body is not JSON: ")
    status, text = anyone.raw("POST", "/api/tables", b"x" * (70 * 1024))
    assert status == 413
    assert json.loads(text)["error"] == f"the request body is {70 * 1024} bytes; at most 65536 are read"
    expected = {
        "chess": "unknown game 'chess'; choose one of ['stockpile', 'stocks_and_bombs', 'stonk_market']",
        "seats": "stockpile is played by 3 to 5 players: give one spec per seat, got 2",
        "nobody": "no seat is yours: mark at least one seat 'you'",
        "stranger": "cannot start the table: unknown player 'stranger': not one of ['random', 'heuristic', "
                    "'champion'] for stockpile nor an existing policy file or folder",
        "seed": "seed must be empty or a whole number in 0..9223372036854775807, got -1",
    }
    requests = {
        "chess": {"game": "chess", "seats": ["you"]},
        "seats": {"game": "stockpile", "seats": ["you", "random"]},
        "nobody": {"game": "stockpile", "seats": ["random"] * 3},
        "stranger": {"game": "stockpile", "seats": ["you", "stranger", "random"]},
        "seed": {"game": "stockpile", "seats": ["you", "random", "random"], "seed": -1},
    }
    for name, request in requests.items():
        assert anyone.call("POST", "/api/tables", request) == (400, {"error": expected[name]}), name
    status, refused = anyone.call("POST", "/api/tables", {"game": "stockpile", "seats": ["you"] * 3,
                                                          "options": {"rounds": 0}})
    assert status == 400 and refused["error"].startswith("cannot start the table: rounds must be")

    table_id, me = new_table(base, "stockpile", ["you", "person", "heuristic"])
    _, joined = anyone.call("POST", "/api/join", {"table": table_id})
    other = Client(base, joined["seats"][0]["token"])
    table = server.lobby.tables[table_id]
    view_of(other, table_id)  # the other person has just asked: not away, however slow the machine
    view = view_of(me, table_id)
    assert view["to_act"] and view["waiting_for"] == [{"seat": 0, "name": "person", "away": False}]
    legal = {move["key"] for move in view["moves"]}
    illegal = next(key for key in range(table.game.num_actions) if key not in legal)
    why = table.game.why_illegal(table.env.table.states, 0, 0, illegal)
    name = table.game.describe_action(0, illegal)
    moves = {
        (999, 0): (409, f"there is no move 999: keys run from 0 to {table.game.num_actions - 1}"),
        (illegal, 0): (409, f"move {illegal} ({name}) is not available now: {why}"),
        ("7", 0): (400, "a move is its key, a whole number, got '7'"),
        (True, 0): (400, "a move is its key, a whole number, got True"),
        (min(legal), None): (400, "a move names the step it was chosen in, a whole number, got None"),
        (min(legal), 3): (409, f"your move {min(legal)} came too late: the step it was chosen in (step 4) has "
                               "passed, and the table is at step 1; choose again"),
    }
    for (key, step), (status, error) in moves.items():
        assert me.call("POST", "/api/move", {"table": table_id, "key": key, "step": step}) == (status, {"error": error})
    assert other.call("POST", "/api/move", {"table": table_id, "key": min(legal), "step": 0}) == (
        409, {"error": "it is not player_1's move now (waiting for player_0)"})
    assert me.call("POST", "/api/clock", {"table": table_id, "mode": "wait", "seconds": 1, "paused": False}) == (
        409, {"error": "stockpile is played in turns: it has no clock"})
    assert me.call("POST", "/api/move", ["not", "an", "object"]) == (
        400, {"error": "the request body must be a JSON object, got list"})
    assert anyone.call("GET", "/api/nothing") == (404, {"error": "no page or API at GET /api/nothing"})
    assert me.call("GET", "/api/state?table=nope") == (
        404, {"error": "no table 'nope' on this server (it may have been stopped)"})
    assert anyone.raw("GET", "/replay?name=../secret.json") == (
        400, "cannot replay: a record is named by its file name in the records folder, got '../secret.json'")
    assert anyone.raw("GET", "/replay?name=none.json")[0] == 404
    assert anyone.call("GET", "/static/../cli.py")[0] == 404

    assert table.history == []  # nothing above moved the game
    status, done = me.call("POST", "/api/move", {"table": table_id, "key": min(legal), "step": 0})
    named = table.game.name_action(states_at(table, 0), 0, 0, min(legal))
    assert status == 200 and done["ok"] == f"chose {min(legal)}: {named}"


def test_a_timed_clock_plays_on_for_a_person_who_does_not_move_and_pauses(served):
    server, base = served
    table_id, me = new_table(base, "stocks_and_bombs", ["you", "heuristic", "heuristic", "heuristic"],
                             clock={"mode": "timed", "seconds": 0.2})
    table = server.lobby.tables[table_id]
    status, clock = me.call("POST", "/api/clock", {"table": table_id, "mode": "timed", "seconds": 0.2, "paused": True})
    assert status == 200 and clock["clock"]["paused"] is True
    paused_at = view_of(me, table_id)["step"]
    time.sleep(0.6)
    assert view_of(me, table_id)["step"] == paused_at
    assert me.call("POST", "/api/clock", {"table": table_id, "mode": "later", "seconds": 1, "paused": False}) == (
        400, {"error": "clock mode must be one of ['wait', 'timed'], got 'later'"})
    assert me.call("POST", "/api/clock", {"table": table_id, "mode": "timed", "seconds": 0, "paused": False}) == (
        400, {"error": "clock seconds must be a number in 0.2..600, got 0"})
    me.call("POST", "/api/clock", {"table": table_id, "mode": "timed", "seconds": 0.2, "paused": False})
    deadline = time.monotonic() + 30
    while not view_of(me, table_id)["over"]:
        assert time.monotonic() < deadline, "the clock did not play the game out"
        time.sleep(0.1)
    record = GameRecord.load(table.saved)
    wait = table.game.name_action  # every tick passed without the person: their move was the wait
    assert record.finished and record.actions
    assert all(wait(states_at(table, k), 0, 0, joint[0]) == "wait" for k, joint in enumerate(record.actions))


def test_every_game_is_saved_and_replays_on_the_page(served):
    server, base = served
    table_id, me = new_table(base, "stockpile", ["you", "heuristic", "random"])
    table = server.lobby.tables[table_id]
    received = play_out(table, table_id, [me])
    name = received[-1]["record"]
    assert name == table.saved.name and name.startswith("stockpile-") and name.endswith(f"-{table_id}.json")
    record = GameRecord.load(table.saved)
    assert record.finished and record.players == ["human", "heuristic", "random"]
    replay(record)
    assert Client(base).call("GET", "/api/records") == (200, {"records": [{"name": name}]})
    status, page = Client(base).raw("GET", f"/replay?name={name}&seat=0")
    total = len(record.actions)
    assert status == 200 and f'"title": "step {total}/{total}"' in page and f"{name} (player_0)" in page
    status, page = Client(base).raw("GET", f"/replay?name={name}&seat=7")
    assert (status, page) == (400, "cannot replay: seat 7: the game has seats 0..2")


def test_the_page_loads_nothing_from_elsewhere(served):
    _, base = served
    status, page = Client(base).raw("GET", "/")
    assert status == 200 and '<script src="/static/app.js"></script>' in page
    for name in STATIC:
        text = static_file(name).decode()
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, name
        assert Client(base).raw("GET", f"/static/{name}")[0] == 200


@pytest.mark.parametrize(("host", "warned"), [("127.0.0.1", False), ("0.0.0.0", True)])
def test_the_command_prints_the_address_and_warns_off_this_machine(tmp_path, host, warned):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "stonk_envs.cli", "serve", "--host", host, "--port", "0", "--records", str(tmp_path)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith(f"stonk-envs serve: open http://{host}:") and line.endswith(
            f"/ (records in {tmp_path}; Ctrl-C stops)\n")
        port = int(re.search(r":(\d+)/ ", line).group(1))
        assert Client(f"http://127.0.0.1:{port}").raw("GET", "/")[0] == 200
    finally:
        process.send_signal(signal.SIGINT)
        try:
            out, err = process.communicate(timeout=120)  # a loaded machine may still be compiling the page's game
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert process.returncode == 0 and "stopping: games in progress are saved unfinished" in out
    assert ("warning: listening on 0.0.0.0, not only on this machine" in err) == warned
