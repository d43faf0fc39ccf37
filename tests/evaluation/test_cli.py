"""``stonk-envs evaluate`` end to end: worker processes, the JSON report, the figure, errors."""

import json

from stonk_envs.cli import main
from stonk_envs.evaluation import evaluate


def test_cli_with_two_workers_matches_the_api_in_one_process(tmp_path, capsys):
    out = tmp_path / "eval"
    code = main(
        ["evaluate", "--game", "stocks_and_bombs", "--players", "heuristic", "random", "random", "random",
         "--games", "60", "--seed", "4", "--workers", "2", "--env", "tick_cap=60", "--out", str(out), "--no-progress"]
    )
    assert code == 0
    data = json.loads((out / "report.json").read_text())
    assert (out / "report.png").stat().st_size > 10_000
    assert (data["game"], data["num_players"], data["num_games"], data["env_config"]) == (
        "stocks_and_bombs", 4, 60, {"tick_cap": 60},
    )
    assert data["extra"]["workers"] == 2
    same = evaluate("stocks_and_bombs", ["heuristic", "random", "random", "random"], 60, seed=4,
                    env_config={"tick_cap": 60}, progress=False)
    assert [p["wins"] for p in data["players"]] == [p.wins for p in same.players]
    assert [p["mean_score"] for p in data["players"]] == [p.mean_score for p in same.players]
    assert "heuristic" in capsys.readouterr().out


def test_cli_league_and_errors(tmp_path, capsys):
    out = tmp_path / "league"
    args = ["evaluate", "--players", "heuristic", "random", "random", "random", "random", "--games", "10",
            "--out", str(out), "--no-plot", "--no-progress"]
    assert main(args) == 2
    assert "needs 4 players, got 5" in capsys.readouterr().err
    assert main([*args, "--league"]) == 0
    data = json.loads((out / "report.json").read_text())
    assert sum(p["games"] for p in data["players"]) == 40
    assert not (out / "report.png").exists()
    assert main(["evaluate", "--players", "nobody", "random", "random", "random", "--games", "2", "--no-progress",
                 "--out", str(out)]) == 2
    assert "unknown player 'nobody'" in capsys.readouterr().err


def test_cli_default_players_fill_every_seat(tmp_path):
    out = tmp_path / "five"
    args = ["evaluate", "--num-players", "5", "--games", "5", "--out", str(out), "--no-plot", "--no-progress"]
    assert main(args) == 0
    data = json.loads((out / "report.json").read_text())
    assert [p["name"] for p in data["players"]] == ["heuristic", "random#1", "random#2", "random#3", "random#4"]
