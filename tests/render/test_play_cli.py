"""stonk-envs play with scripted keyboard input: moves, mistakes, Ctrl-C, several people, errors."""

import io

import numpy as np
import pytest

from stonk_envs import records
from stonk_envs.cli import main
from stonk_envs.records import GameRecord
from stonk_envs.replay.timeline import timeline


class Keyboard(io.StringIO):
    """Typed lines, then Ctrl-C (KeyboardInterrupt) once they run out, when ``interrupt``."""

    def __init__(self, lines: list[str], interrupt: bool = False):
        super().__init__("".join(line + "\n" for line in lines))
        self.interrupt = interrupt

    def readline(self, *args):
        line = super().readline(*args)
        if not line and self.interrupt:
            raise KeyboardInterrupt
        return line


def play(monkeypatch, tmp_path, lines, *args, interrupt=False):
    monkeypatch.setattr("sys.stdin", Keyboard(lines, interrupt))
    path = tmp_path / "game.json"
    code = main(["play", *args, "--record", str(path)])
    return code, path


def test_a_real_time_game_with_mistakes_waits_for_the_person(monkeypatch, tmp_path, capsys):
    mistakes = ["999", "146", "xyz", "?", "propose"]  # 146: accept player_3's proposal, and none is open
    code, path = play(
        monkeypatch,
        tmp_path,
        [*mistakes, *[""] * 200],
        "--game",
        "stocks_and_bombs",
        "--seat",
        "1",
        "--opponents",
        "heuristic",
        "--seed",
        "4",
        "--env",
        "tick_cap=8",
        "--env",
        "round_cap=2",
    )
    out = capsys.readouterr().out
    flat = " ".join(out.split())  # the hints' lines joined where the terminal wrapped them
    assert code == 0
    assert "there is no move 999: keys run from 0 to 148" in flat
    assert "move 146 (accept player_3's proposal) is not available now: player_3 has no open proposal" in flat
    assert "no move matches 'xyz'" in out and "type a move's key" in out
    assert "moves with 'propose':" in out and "propose to player_" in out
    assert "player_1 (you)" in out and "player_1: wait" in out
    record = GameRecord.load(path)
    assert record.finished and "final scores" in out and "winner" in out
    panels = " ".join(" ".join(line.strip("│ ") for line in out.splitlines()).split())  # wrapped lines joined
    summaries = [line for moment in timeline(record)[1] for line in moment.summary]
    assert summaries[0] == "round 1 scored:" and summaries[-1].startswith("game over: ")
    assert all(" ".join(line.split()) in panels for line in summaries)  # every round's scores, and the winners
    assert record.players == ["heuristic", "human", "heuristic", "heuristic"]
    assert all(joint[1] == 0 for joint in record.actions)  # Enter waited in every tick
    assert out.count("player_1 move (") == len(record.actions) + len(mistakes)  # every tick asked, mistakes again
    records.replay(record)


def test_a_turn_based_game_takes_the_moves_by_their_keys(monkeypatch):
    from rich.console import Console

    from stonk_envs.play.session import Seat, Session, build_seats

    seats = build_seats("stockpile", 2, ["random", "heuristic", "random"], None)
    assert [s.name for s in seats] == ["random", "heuristic", "human", "random"] and isinstance(seats[2], Seat)
    out = io.StringIO()
    session = Session("stockpile", seats, {"rounds": 1}, seed=1, console=Console(file=out, width=160))
    typed = []

    def answer(prompt="", **kwargs):
        if not typed:
            typed.append("")
            return ""  # Enter is no move in Stockpile
        key = int(np.flatnonzero(session.env.table.mask(2))[0])
        typed.append(key)
        return str(key)

    monkeypatch.setattr(session.console, "input", answer)
    record = session.play()
    assert record.finished and "choose a move" in out.getvalue()
    assert [joint[2] for joint in record.actions if joint[2] >= 0] == typed[1:]
    said = [line for line in out.getvalue().splitlines() if line.startswith("player_2: ")]  # each move confirmed
    assert len(said) == len(typed) - 1


def test_ctrl_c_stops_cleanly_and_saves_the_record(monkeypatch, tmp_path, capsys):
    code, path = play(
        monkeypatch,
        tmp_path,
        ["", "", "0"],
        "--game",
        "stonk_market",
        "--opponents",
        "heuristic",
        "--seed",
        "2",
        interrupt=True,
    )
    out = capsys.readouterr().out
    assert code == 0 and "stopped before the end of the game" in out and f"record: {path}" in out
    record = GameRecord.load(path)
    assert not record.finished and len(record.actions) == 3
    assert not records.replay(record).game_over


def test_people_at_one_keyboard_take_turns(monkeypatch, tmp_path, capsys):
    code, path = play(
        monkeypatch,
        tmp_path,
        ["", "", "", "", "", "q"],
        "--game",
        "stonk_market",  # Enter to take the keyboard, Enter to wait
        "--opponents",
        "human",
        "heuristic",
        "random",
        "--seed",
        "5",
    )
    out = capsys.readouterr().out
    assert code == 0
    assert out.index("pass the keyboard to player_0") < out.index("pass the keyboard to player_1")
    record = GameRecord.load(path)
    assert record.players == ["human", "human", "heuristic", "random"]
    assert len(record.actions) == 1 and record.actions[0][:2] == [0, 0]  # both waited in tick 1, then q


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "stockpile", "--seat", "9"], "--seat 9: stockpile with 4 players has seats 0..3"),
        (["--game", "stocks_and_bombs", "--opponents", "random", "random"], "num_players must be 4..6, got 3"),
        (["--game", "stockpile", "--opponents", "nobody"], "unknown player 'nobody'"),
        (
            ["--game", "stockpile", "--num-players", "5", "--opponents", "random", "random"],
            "stockpile with 5 players needs 4 opponents, got 2",
        ),
    ],
)
def test_bad_options_are_refused(args, message, tmp_path, capsys):
    assert main(["play", *args, "--record", str(tmp_path / "g.json")]) == 2
    assert f"stonk-envs play: error: {message}" in capsys.readouterr().err
    assert not (tmp_path / "g.json").exists()


def test_record_must_be_a_json_file(tmp_path, capsys):
    assert main(["play", "--game", "stockpile", "--record", str(tmp_path / "g.txt")]) == 2
    assert "give a file name ending in .json" in capsys.readouterr().err


def test_a_saved_policy_plays_the_other_seats(monkeypatch, tmp_path, capsys):
    torch = pytest.importorskip("torch")
    from stonk_envs.policies.checkpoint import make_metadata, save_torch
    from stonk_envs.policies.games import game_sizes
    from stonk_envs.policies.torch_policy import MaskedMLP

    torch.manual_seed(0)
    obs_size, num_actions = game_sizes("stocks_and_bombs", 4)
    meta = make_metadata("stocks_and_bombs", 4, obs_size, num_actions, {}, kind="torch")
    policy = save_torch(MaskedMLP(obs_size, num_actions, hidden=(8,)), tmp_path / "net.pt", meta)
    code, path = play(
        monkeypatch,
        tmp_path,
        [""] * 30,
        "--game",
        "stocks_and_bombs",
        "--seat",
        "3",
        "--opponents",
        str(policy),
        "--seed",
        "1",
        "--env",
        "tick_cap=5",
        "--env",
        "round_cap=2",
    )
    assert code == 0
    record = GameRecord.load(path)
    assert record.players == ["net.pt", "net.pt", "net.pt", "human"] and record.finished
    assert any(joint[0] != 0 for joint in record.actions)  # the policy did more than wait
    assert "final scores" in capsys.readouterr().out
