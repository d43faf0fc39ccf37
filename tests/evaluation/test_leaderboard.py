"""The reference leaderboard: a fixed pool, every table in each seat rotation, and the same command printing
the same table."""

import json

import numpy as np
import pytest

from stonk_envs import __version__
from stonk_envs.cli import main
from stonk_envs.evaluation.leaderboard import head_to_head, reference_pool, rotated_tables
from tests.evaluation.run_folder import make_run


def test_the_pool_is_random_each_distinct_rule_based_player_and_the_champion():
    assert reference_pool("stockpile", 4) == ["random", "heuristic", "champion"]
    assert reference_pool("stockpile", 3) == ["random", "heuristic"]
    assert reference_pool("stocks_and_bombs", 4) == ["random", "heuristic", "steady", "cautious", "basic"]


def test_a_round_of_tables_seats_every_entry_in_every_seat_equally_often():
    seatings = rotated_tables(2 * 60, 6, 4, seed=1)
    assert seatings.shape == (120, 4)
    for entry in range(6):
        assert ((seatings[:60] == entry).sum(axis=0) == 10).all()  # 15 tables of 4 of 6, each in 4 rotations
    assert sorted(map(tuple, seatings[:60])) == sorted(map(tuple, seatings[60:]))
    assert (rotated_tables(120, 6, 4, seed=1) == seatings).all()
    assert not (rotated_tables(120, 6, 4, seed=2) == seatings).all()


def test_head_to_head_counts_finishing_above_with_ties_half():
    seatings = np.array([[0, 1, 2], [2, 1, 0], [0, 2, 3]])
    scores = np.array([[3.0, 1.0, 1.0], [2.0, 1.0, 0.0], [1.0, 5.0, 0.0]])
    found = head_to_head(["a", "b", "c", "d"], seatings, scores)
    assert found["a"]["b"] == {"games": 2, "share": 0.5}
    assert found["b"]["c"] == {"games": 2, "share": 0.25}
    assert found["a"]["c"] == {"games": 3, "share": 1 / 3}
    assert found["c"]["d"] == {"games": 1, "share": 1.0} and found["b"]["d"] == {"games": 0, "share": 0.0}


@pytest.fixture
def policy(tmp_path):
    (path,) = make_run(tmp_path / "run", "stockpile", [5])
    return str(path)


def test_the_same_command_prints_the_same_table(policy, capsys):
    args = ["leaderboard", "--game", "stockpile", "--add", policy, "--games", "8", "--seed", "4"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    assert capsys.readouterr().out == first
    lines = first.splitlines()
    assert lines[:3] == [
        f"Reference leaderboard: stockpile, 4 players, 8 games, seed 4, stonk_envs {__version__}",
        f"reproduce: stonk-envs leaderboard --game stockpile --games 8 --seed 4 --add {policy}",
        f"pool: random, heuristic, champion; added: {policy}",
    ]
    assert sorted(line.split()[1] for line in lines[4:8]) == sorted(["random", "heuristic", "champion",
                                                                    policy[-24:]])


def test_the_json_names_every_entry_with_its_games_and_head_to_head(policy, capsys):
    assert main(["leaderboard", "--game", "stockpile", "--add", policy, "--games", "8", "--json"]) == 0
    board = json.loads(capsys.readouterr().out)
    assert (board["seed"], board["version"], board["pool"]) == (0, __version__, ["random", "heuristic", "champion"])
    assert {e["name"]: e["games"] for e in board["entries"]} == dict.fromkeys(
        ["random", "heuristic", "champion", policy], 8)
    assert board["head_to_head"][policy]["champion"]["games"] == 8
    assert all(e["mu_low"] < e["mu"] < e["mu_high"] for e in board["entries"])


def test_fewer_entries_than_seats_are_filled_with_random_copies(capsys):
    assert main(["leaderboard", "--game", "stockpile", "--games", "4", "--json"]) == 0
    board = json.loads(capsys.readouterr().out)
    assert board["pool"] == ["random#1", "heuristic", "champion", "random#2"]


@pytest.mark.parametrize(("args", "message"), [
    (["--add", "missing.zip"], "--add missing.zip: no such policy file or folder"),
    (["--add", "heuristic"], "--add heuristic: no such policy file or folder"),
    (["--add", "{other}"], "{other} is a policy for 'stonk_market', not for 'stockpile'"),
    (["--add", "{policy}", "{policy}"], "--add {policy}: already an entry of the league"),
])
def test_bad_input_exits_2_with_one_line_naming_it(args, message, policy, tmp_path, capsys):
    (other,) = make_run(tmp_path / "other", "stonk_market", [5])
    args = [a.format(other=other, policy=policy) for a in args]
    assert main(["leaderboard", "--game", "stockpile", "--games", "4", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"stonk-envs leaderboard: error: {message.format(other=other, policy=policy)}")
    assert err.count("\n") == 1


def test_the_python_api_checks_its_counts_and_leaves_out_a_champion_of_another_count():
    from stonk_envs.evaluation.leaderboard import leaderboard

    with pytest.raises(ValueError, match=r"^num_games must be 1\.\.1000000000, got 0$"):
        leaderboard("stockpile", [], 0)
    board = leaderboard("stockpile", [], 3, num_players=3)  # the champion plays 4: the pool at 3 has none
    assert (board.pool, board.report.num_players) == (["random#1", "heuristic", "random#2"], 3)
