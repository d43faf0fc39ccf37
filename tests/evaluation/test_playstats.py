"""Play statistics: exact counts from players whose play is known, and the command line."""

import json

import pytest

from stonk_envs.evaluation.playstats import main, play_stats


def test_four_basic_stocks_and_bombs_players_never_trade():
    # The basic player STOPs in the 6th tick of every round while nobody holds anything but
    # their own pieces, so every game runs to the 30-round cap as a four-way tie at 0.
    stats = play_stats("stocks_and_bombs", ["basic"] * 4, num_games=2, seed=3)
    assert (stats.num_games, stats.rounds, stats.ticks, stats.trades) == (2, 60, 360, 0)
    assert dict(stats.round_ends) == {"STOP": 60}
    assert dict(stats.game_ends) == {"round cap": 2}
    assert stats.ties == 2
    assert stats.decisions == 4 * 360 - 4 * 2  # the first call of each chunk is not timed
    summary = stats.summary()
    assert summary["trades_per_round"] == 0 and summary["tie_rate"] == 1.0
    assert summary["round_ends"] == {"STOP": 1.0}
    # per player: it proposes in ticks 1-5 and calls STOP in the 6th; one of the four STOPs ends each round
    assert [dict(c) for c in stats.chosen] == [{"PROPOSE": 300, "STOP": 60}] * 4
    assert sum(c["STOP"] for c in stats.called) == 60 and all(c["STOP"] > 0 for c in stats.called)
    assert stats.round_points == [0, 0, 0, 0]
    assert [p["player"] for p in summary["per_player"]] == ["basic#1", "basic#2", "basic#3", "basic#4"]
    assert summary["per_player"][0]["actions"] == {"PROPOSE": 300 / 360, "STOP": 60 / 360}


def test_trading_players_trade_and_end_rounds_by_calls():
    stats = play_stats("stonk_market", ["heuristic"] * 4, num_games=3, seed=1)
    assert stats.rounds == 9 and stats.trades + stats.exchanges > 0
    assert sum(stats.round_ends.values()) == 9
    assert set(stats.round_ends) <= {"STONKS valid", "tick cap"}  # it never calls a false STONKS


def test_per_player_figures_follow_each_player_through_the_seats():
    stats = play_stats("stonk_market", ["random", "heuristic", "heuristic", "heuristic"], num_games=8, seed=1)
    # the trader never calls a false STONKS, so every false call that ended a round was random's
    assert stats.called[0]["STONKS invalid"] == stats.round_ends["STONKS invalid"] > 0
    assert all(c["STONKS invalid"] == 0 for c in stats.called[1:])
    assert sum(sum(c.values()) for c in stats.called) == stats.rounds - stats.round_ends["tick cap"]
    assert sum(map(sum, (c.values() for c in stats.chosen))) == 4 * stats.ticks  # every seat acts every tick
    assert "WITHDRAW" not in stats.chosen[1]  # the trader never withdraws; random does sometimes


def test_command_line_prints_and_writes_json(tmp_path, capsys):
    out = tmp_path / "stats.json"
    assert main(["--game", "stocks_and_bombs", "--players", "basic", "basic", "basic", "basic",
                 "--games", "1", "--json", str(out)]) == 0
    assert "rounds end: STOP 1.000" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["counts"]["round_ends"] == {"STOP": 30} and data["games"] == 1


def test_bad_input_is_named(capsys):
    with pytest.raises(ValueError, match="num_games must be >= 1, got 0"):
        play_stats("stonk_market", ["random"] * 4, 0)
    with pytest.raises(ValueError, match="stockpile is not a real-time trading game"):
        play_stats("stockpile", ["random"] * 4, 1)
    players = ["grandmaster", "random", "random", "random"]
    assert main(["--game", "stonk_market", "--players", *players, "--games", "1"]) == 2
    assert "playstats: error: unknown player 'grandmaster'" in capsys.readouterr().err
