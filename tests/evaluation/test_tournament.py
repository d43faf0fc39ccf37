"""The tournament runner: seat rotation, batching, fairness of equal players, errors."""

import numpy as np
import pytest

from stonk_envs.core.game import Game
from stonk_envs.evaluation import evaluate, league
from stonk_envs.evaluation.report import summarise
from stonk_envs.evaluation.runner import league_seatings, player_names, rotated_seatings
from stonk_envs.evaluation.tournament import play_batch
from stonk_envs.policies import Policy, RandomPolicy

SEAT_DTYPE = np.dtype([("steps", np.int32), ("over", np.bool_)])


class SeatZeroWins(Game):
    """A stub game that seat 0 always wins: three steps, score 1 for seat 0 and 0 for the rest."""

    name = "seat_zero_wins"
    simultaneous = True
    state_dtype = SEAT_DTYPE

    def __init__(self, num_players):
        self.num_players = num_players
        self.calls = []

    num_actions = 3
    observation_bounds = (np.zeros(2, np.float32), np.ones(2, np.float32))
    state_size = 1

    def reset(self, states, i, seed):
        states[i]["steps"] = 0
        states[i]["over"] = False

    def actors(self, states, i, out):
        out[: self.num_players] = True

    def legal_mask(self, states, i, seat, out):
        out[:] = 1

    def observe(self, states, i, seat, out):
        out[:] = [seat == 0, 0]

    def step(self, states, i, actions, rewards, voids):
        self.calls.append(actions.copy())
        states[i]["steps"] += 1
        states[i]["over"] = states[i]["steps"] == 3
        rewards[: self.num_players] = 0.0
        if states[i]["over"]:
            rewards[0] = 1.0
        return bool(states[i]["over"])

    def scores(self, states, i):
        return np.array([1.0] + [0.0] * (self.num_players - 1))

    def state_vector(self, states, i, out):
        pass

    def describe_action(self, seat, action):
        return str(action)

    def why_illegal(self, states, i, seat, action):
        return ""

    def render(self, states, i, seat):
        return ""


class Counting(Policy):
    """Plays action 1 + its index and counts its calls and the rows it was asked about."""

    def __init__(self, index):
        self.name = f"p{index}"
        self.action = index
        self.calls = 0
        self.rows = 0

    def act(self, observations, masks, rng):
        self.calls += 1
        self.rows += len(observations)
        return np.full(len(observations), self.action, np.int64)


def test_rotation_cancels_a_seat_biased_game():
    game = SeatZeroWins(4)
    players = [Counting(k % 3) for k in range(4)]
    seatings = rotated_seatings(12, 4)
    result = play_batch(game, players, seatings, list(range(12)), np.random.default_rng(0))
    report = summarise(
        [f"entry{k}" for k in range(4)], seatings, result.scores, result.rewards,
        game="stub", num_players=4, num_games=12, seed=0, env_config={}, seconds=0.0,
    )
    assert report.seat_win_rates == [1.0, 0.0, 0.0, 0.0]
    for entry in report.players:
        assert (entry.games, entry.wins, entry.win_rate) == (12, 3, 0.25)
        assert (entry.mean_reward, entry.mean_score) == (0.25, 0.25)
    # seat s of game g holds entry (s + g) mod 4: each entry visits every seat equally often
    assert seatings[:5].tolist() == [[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2], [0, 1, 2, 3]]
    assert all(np.bincount(seatings[:, s], minlength=4).tolist() == [3, 3, 3, 3] for s in range(4))


def test_one_call_per_player_per_step_over_the_whole_batch():
    game = SeatZeroWins(4)
    players = [Counting(k) for k in range(3)]
    seatings = np.array([[0, 1, 2, 2]] * 10)
    play_batch(game, players, seatings, list(range(10)), np.random.default_rng(0))
    assert [p.calls for p in players] == [3, 3, 3]  # three steps, one call each for all ten games
    assert [p.rows for p in players] == [30, 30, 60]
    assert all(call.tolist() == [0, 1, 2, 2] for call in game.calls)


def test_a_player_choosing_an_illegal_action_is_named():
    class Stubborn(Policy):
        name = "stubborn"

        def act(self, observations, masks, rng):
            return np.full(len(observations), 10_000, np.int64)

    with pytest.raises(ValueError, match="player 'stubborn' chose illegal action 10000"):
        evaluate("stocks_and_bombs", [Stubborn(), "random", "random", "random"], 2, progress=False)


def test_random_players_land_near_one_in_n():
    report = evaluate("stocks_and_bombs", ["random"] * 4, 400, seed=3, progress=False)
    shares = [p.win_share for p in report.players]
    assert sum(shares) == pytest.approx(1.0)
    assert all(abs(share - 0.25) < 0.05 for share in shares)
    assert sum(p.mean_reward for p in report.players) == pytest.approx(0.0, abs=1e-6)
    assert all(p.games == 400 for p in report.players)
    assert report.players[0].name == "random#1"


@pytest.mark.parametrize("game", ["stonk_market", "stockpile"])
def test_every_game_runs_through_the_harness(game):
    report = evaluate(game, ["heuristic", "random", "random", "random"], 8, progress=False)
    assert [p.games for p in report.players] == [8, 8, 8, 8]
    assert sum(p.win_share for p in report.players) == pytest.approx(1.0)


def test_league_seats_distinct_entries_and_rates_them():
    seatings = league_seatings(200, 5, 4, seed=0)
    assert all(len(set(row)) == 4 for row in seatings.tolist())
    assert np.bincount(seatings.ravel(), minlength=5).min() > 130  # each of 5 sits in about 4/5 of the games
    report = league("stocks_and_bombs", ["heuristic", "random", "random", "random", "random"], 40, progress=False)
    assert sum(p.games for p in report.players) == 160
    assert report.extra["league"] is True
    best = max(report.players, key=lambda p: p.rating_ordinal)
    assert best.name == "heuristic"


def test_bad_tournaments_are_refused():
    with pytest.raises(ValueError, match="needs 4 players, got 3"):
        evaluate("stocks_and_bombs", ["random"] * 3, 4, progress=False)
    with pytest.raises(ValueError, match=r"num_games must be 1\.\.1000000000, got 0"):
        evaluate("stocks_and_bombs", ["random"] * 4, 0, progress=False)
    with pytest.raises(ValueError, match="only be played with workers=1"):
        evaluate("stocks_and_bombs", [RandomPolicy(), "random", "random", "random"], 4, workers=2, progress=False)
    with pytest.raises(ValueError, match=r"workers must be 1\.\.1024, got"):
        evaluate("stocks_and_bombs", ["random"] * 4, 4, workers=0, progress=False)
    with pytest.raises(ValueError, match="needs at least 4 entries"):
        league("stocks_and_bombs", ["random"] * 3, 4, progress=False)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        evaluate("chess", ["random"] * 4, 4, progress=False)
    with pytest.raises(ValueError, match="unknown option"):
        evaluate("stocks_and_bombs", ["random"] * 4, 4, env_config={"speed": 2}, progress=False)


def test_names_of_repeated_entries_are_numbered():
    assert player_names(["heuristic", "random", "random", RandomPolicy()]) == [
        "heuristic", "random#1", "random#2", "random#3",
    ]
