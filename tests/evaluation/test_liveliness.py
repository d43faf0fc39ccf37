"""Liveliness at a table of copies: points per game, games decided, and the command."""

import json

import numpy as np
import pytest

from stonk_envs.cli import main
from stonk_envs.evaluation.liveliness import compare, decided, liveliness
from stonk_envs.policies.base import Policy
from stonk_envs.policies.games import make_game
from tests.evaluation.run_folder import make_run


class Waiter(Policy):
    """Always action 0: in Stocks & Bombs it waits, so nobody trades and every round ends 0-0."""

    name = "waiter"

    def act(self, observations, masks, rng):
        return np.zeros(len(observations), np.int64)


def test_a_game_with_a_points_target_is_decided_only_when_a_seat_reaches_it():
    game = make_game("stocks_and_bombs", 4, {})
    scores = np.array([[12, 3, 0, 0], [11, 11, 2, 0], [13, 13, 0, 0], [0, 0, 0, 0]], float)
    assert decided(game, scores).tolist() == [True, False, True, False]


def test_a_game_without_one_is_decided_by_a_sole_top_score():
    game = make_game("stockpile", 4, {})
    scores = np.array([[120, 100, 90, 80], [110, 110, 90, 80], [0, 0, 0, 0]], float)
    assert decided(game, scores).tolist() == [True, False, False]


def test_a_stall_shows_as_no_points_and_no_decided_game():
    stall = liveliness("stocks_and_bombs", Waiter(), 8, env_config={"round_cap": 2}, seed=1)
    assert (stall["points_per_game"], stall["decided_share"], stall["tied_share"]) == (0.0, 0.0, 1.0)
    assert (stall["player"], stall["games"], stall["num_players"], stall["decided_by"]) == (
        "waiter", 8, 4, "points_to_win")


def test_the_heuristic_table_plays_and_a_seed_repeats_it():
    result = compare("stocks_and_bombs", "random", 16, seed=2)
    again = compare("stocks_and_bombs", "random", 16, seed=2)
    assert result == again
    heuristic = result["reference"]
    assert heuristic["player"] == "heuristic" and heuristic["decided_share"] > 0.5
    assert result["points_ratio"] == pytest.approx(result["player"]["points_per_game"] / heuristic["points_per_game"])


def test_the_command_reads_a_policy_files_game_and_writes_its_report(tmp_path, capsys):
    (policy,) = make_run(tmp_path / "run", "stockpile", [3], num_players=3)
    out = tmp_path / "out"
    assert main(["liveliness", "--player", str(policy), "--games", "6", "--out", str(out)]) == 0
    report = json.loads((out / "liveliness.json").read_text())
    assert (report["game"], report["num_players"], report["player"]["games"]) == ("stockpile", 3, 6)
    assert report["reference"]["player"] == "heuristic"
    assert report["player"]["player"] == "policy_0000000003.pt"  # a file by its name
    assert "points/game" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--player", "{policy}", "--game", "stonk_market"], "is a policy for 'stockpile', not for 'stonk_market'"),
        (["--player", "{policy}", "--env", "rounds=2"], "--env applies to built-in players only"),
        (["--player", "nobody"], "unknown player 'nobody'"),
    ],
)
def test_bad_input_exits_2_naming_it(tmp_path, capsys, args, message):
    (policy,) = make_run(tmp_path / "run", "stockpile", [3])
    out = tmp_path / "out"
    args = [a.format(policy=policy) for a in args]
    assert main(["liveliness", *args, "--games", "2", "--out", str(out)]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()
