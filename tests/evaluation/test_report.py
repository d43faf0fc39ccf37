"""The report: exact counts, Wilson intervals, shares, ratings and the JSON form."""

import json

import numpy as np
import pytest

from stonk_envs.evaluation.ratings import rate_games
from stonk_envs.evaluation.report import summarise
from stonk_envs.evaluation.stats import wilson_interval


def test_wilson_interval_matches_the_textbook_values():
    assert wilson_interval(7, 10) == pytest.approx((0.3968, 0.8922), abs=1e-4)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(500, 1000) == pytest.approx((0.4691, 0.5309), abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def constructed_report():
    # three entries at three seats, four games; game 3 is a two-way tie, game 4 a three-way tie
    seatings = np.array([[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 1, 2]])
    scores = np.array([[9.0, 3.0, 1.0], [5.0, 2.0, 4.0], [6.0, 6.0, 0.0], [2.0, 2.0, 2.0]])
    rewards = np.array([[1.0, -0.5, -0.5], [1.0, -0.5, -0.5], [0.25, 0.25, -0.5], [0.0, 0.0, 0.0]])
    return summarise(
        ["a", "b", "c"], seatings, scores, rewards,
        game="stocks_and_bombs", num_players=3, num_games=4, seed=9, env_config={"tick_cap": 50}, seconds=1.5,
    )


def test_counts_shares_and_means_from_constructed_games():
    report = constructed_report()
    a, b, c = report.players
    # a: won game 1 (seat 0), lost game 2 (seat 2, 4 < 5), tied game 3 (seat 1), tied game 4
    assert (a.games, a.wins, a.shared_wins) == (4, 3, 2)
    assert a.win_share == pytest.approx((1 + 0 + 1 / 2 + 1 / 3) / 4)
    assert a.mean_score == pytest.approx((9 + 4 + 6 + 2) / 4)
    assert a.mean_reward == pytest.approx((1 - 0.5 + 0.25 + 0) / 4)
    assert (a.ci_low, a.ci_high) == pytest.approx(wilson_interval(3, 4))
    # b: lost game 1, won game 2 (seat 0), lost game 3 (seat 2), tied game 4
    assert (b.wins, b.shared_wins, b.win_rate) == (2, 1, 0.5)
    assert b.win_share == pytest.approx((1 + 1 / 3) / 4)
    # c: lost games 1 and 2, tied game 3 (seat 0), tied game 4
    assert (c.wins, c.shared_wins) == (2, 2)
    assert sum(p.win_share for p in report.players) == pytest.approx(1.0)
    assert report.seat_win_rates == [1.0, 0.5, 0.25]


def test_ratings_follow_the_results():
    seatings = np.array([[0, 1, 2]] * 30)
    scores = np.array([[3.0, 2.0, 1.0]] * 30)
    ratings = rate_games(3, seatings, scores)
    assert ratings[0].mu > ratings[1].mu > ratings[2].mu
    assert ratings[0].sigma < 25 / 3  # more certain than a fresh rating
    assert ratings[0].ordinal == pytest.approx(ratings[0].mu - 3 * ratings[0].sigma)
    tied = rate_games(2, np.array([[0, 1]] * 10), np.array([[1.0, 1.0]] * 10))
    assert tied[0].mu == pytest.approx(tied[1].mu)


def test_json_report_holds_settings_and_every_player(tmp_path):
    report = constructed_report()
    path = report.write_json(tmp_path / "sub" / "report.json")
    data = json.loads(path.read_text())
    assert data == report.to_dict()
    assert {k: data[k] for k in ("game", "num_players", "num_games", "seed", "env_config")} == {
        "game": "stocks_and_bombs", "num_players": 3, "num_games": 4, "seed": 9, "env_config": {"tick_cap": 50},
    }
    assert [p["name"] for p in data["players"]] == ["a", "b", "c"]
    assert set(data["players"][0]) == {
        "name", "games", "wins", "shared_wins", "win_rate", "ci_low", "ci_high", "win_share",
        "mean_reward", "mean_score", "rating_mu", "rating_sigma", "rating_ordinal",
    }
    assert data["players"][0]["wins"] == 3
    assert "a " in report.table() and "win rate by seat: 1.000, 0.500, 0.250" in report.table()
