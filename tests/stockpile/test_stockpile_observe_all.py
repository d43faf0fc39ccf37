"""The engine's every-seat observation writer against the straightforward one-seat writer.

``observe_all`` builds the other seats' rows from seat 0's by copies and rotations; these
tests check it bit for bit against ``observe`` (one seat, written from zeros) over played
games, including the last observations of finished games.
"""

import numpy as np
import pytest

from stonk_envs.policies.games import make_game
from stonk_envs.vector.engine import BatchEngine

STEPS = 400
GAMES = 6


def _reference(game, states, i, n, size):
    rows = np.zeros((n, size), np.float32)
    for seat in range(n):
        game.observe(states, i, seat, rows[seat])
    return rows


@pytest.mark.parametrize(("n", "memory"), [(3, True), (4, True), (5, True), (4, False)])
def test_engine_rows_match_one_seat_writer_bit_for_bit(n, memory):
    game = make_game("stockpile", n, {"memory": memory})
    engine = BatchEngine(game, GAMES, parallel=False, observe="all")
    obs, _ = engine.reset(seed=100 + n)
    finished = 0
    for _ in range(STEPS):
        for i in range(GAMES):
            expected = _reference(game, engine.states, i, n, engine.obs_size)
            assert obs[i].tobytes() == expected.tobytes(), f"game {i}"
        obs, _, _, terminated = engine.step(engine.random_actions())
        for i in np.flatnonzero(terminated):
            expected = _reference(game, engine.final_states, i, n, engine.obs_size)
            assert engine.final_obs[i].tobytes() == expected.tobytes(), f"final observation of game {i}"
            finished += 1
    assert finished > 0


def test_observe_all_ignores_what_the_buffer_held():
    game = make_game("stockpile", 4)
    engine = BatchEngine(game, 2, parallel=False, observe="all")
    engine.reset(seed=7)
    for _ in range(60):
        engine.step(engine.random_actions())
    rows = np.full((4, engine.obs_size), np.nan, np.float32)
    game.observe_all(engine.states, 1, rows)
    assert rows.tobytes() == _reference(game, engine.states, 1, 4, engine.obs_size).tobytes()


def test_engine_observations_are_read_only():
    engine = BatchEngine(make_game("stockpile", 4), 2, parallel=False, observe="all")
    obs, _ = engine.reset(seed=1)
    with pytest.raises(ValueError, match="read-only"):
        obs[0, 0, 0] = 1.0


def test_a_state_edited_between_steps_is_observed_exactly():
    """The engine skips a seat's blocks by comparing what they are written from, not by
    trusting the rules to report changes: an edit from outside shows in the next step."""
    game = make_game("stockpile", 4)
    engine = BatchEngine(game, 2, parallel=False, observe="all")
    engine.reset(seed=3)
    for _ in range(40):
        engine.step(engine.random_actions())
    engine.states["memory"][0, 2, 1, 0] += 3
    engine.states["split"][0, 3, 5] += 1
    engine.states["won_up"][0, 1, 4] += 2
    engine.states["company_events"][0, 4, 0] += 1
    obs, _, _, terminated = engine.step(engine.random_actions())
    assert not terminated[0]
    assert obs[0].tobytes() == _reference(game, engine.states, 0, 4, engine.obs_size).tobytes()
