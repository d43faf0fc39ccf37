"""Saving and restoring a batched engine: a restored engine continues exactly like the original."""

import pickle

import numpy as np
import pytest

from stonk_envs import vector
from stonk_envs.vector.batch_ops import RNG_DTYPE, random_actions

SHORT = {"tick_cap": 3, "round_cap": 1}
"""One round of three ticks: every game ends on its third step."""

BUFFERS = ("obs", "masks", "actors", "rewards", "voids", "terminated", "final_obs")


def play(engine, stream, steps, partial):
    """Random legal steps (every other one on the even games only when ``partial``); returns the trace."""
    actions = np.zeros((engine.num_envs, engine.num_players), np.int64)
    active = np.arange(engine.num_envs) % 2 == 0
    trace = []
    for k in range(steps):
        random_actions(stream[0], engine.masks, actions)
        engine.step(actions, active if partial and k % 2 else None)
        trace.append([getattr(engine, name).copy() for name in BUFFERS] + [engine.states.copy()])
    return trace


@pytest.mark.parametrize(("game", "config"), [("stocks_and_bombs", SHORT), ("stockpile", {"rounds": 1})])
def test_a_restored_engine_continues_exactly_like_the_original(game, config):
    engine = vector.make(game, 4, num_players=4, **config)
    engine.reset(seed=11)
    stream = np.zeros(1, RNG_DTYPE)
    stream[0]["rng"] = 3
    play(engine, stream, 7, partial=True)
    saved = pickle.loads(pickle.dumps(engine.get_state()))
    saved_stream = stream.copy()
    original = play(engine, stream, 40, partial=True)
    assert sum(int(step[5].sum()) for step in original) >= 4  # games ended and were dealt again on the way
    restored = vector.make(game, 4, num_players=4, **config)
    restored.reset(seed=999)
    restored.set_state(saved)
    again = play(restored, saved_stream, 40, partial=True)
    for a, b in zip(original, again, strict=True):
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)
    np.testing.assert_array_equal(engine.final_states, restored.final_states)
    # the engine's own random-action streams continue too
    np.testing.assert_array_equal(engine.random_actions(), restored.random_actions())


def test_the_saved_state_is_a_copy():
    engine = vector.make("stocks_and_bombs", 2, num_players=4, **SHORT)
    engine.reset(seed=0)
    saved = engine.get_state()
    before = saved["arrays"]["obs"].copy()
    play(engine, np.zeros(1, RNG_DTYPE), 2, partial=False)
    np.testing.assert_array_equal(saved["arrays"]["obs"], before)
    assert not np.array_equal(engine.obs, before)


@pytest.mark.parametrize(
    ("game", "num_envs", "config", "message"),
    [
        ("stockpile", 2, {"num_players": 4}, "saved engine state is of 2 stocks_and_bombs games at 4 players, "
         "this engine has 2 stockpile games at 4 players"),
        ("stocks_and_bombs", 2, {"num_players": 5}, "this engine has 2 stocks_and_bombs games at 5 players"),
        ("stocks_and_bombs", 3, {"num_players": 4}, "this engine has 3 stocks_and_bombs games at 4 players"),
        ("stocks_and_bombs", 2, {"num_players": 4, "tick_cap": 4}, "saved engine state has game config"),
    ],
)
def test_a_mismatched_engine_refuses_the_state(game, num_envs, config, message):
    engine = vector.make("stocks_and_bombs", 2, num_players=4)
    engine.reset(seed=0)
    other = vector.make(game, num_envs, **config)
    other.reset(seed=1)
    obs = other.obs.copy()
    with pytest.raises(ValueError) as info:
        other.set_state(engine.get_state())
    assert message in str(info.value)
    np.testing.assert_array_equal(other.obs, obs)


def test_records_of_another_layout_are_refused():
    """A state saved by another version of a game (its record has other fields) is refused
    before anything changes."""
    engine = vector.make("stockpile", 2, num_players=4)
    engine.reset(seed=0)
    saved = engine.get_state()
    old = saved["arrays"]["states"]
    fields = [(name, old.dtype.fields[name][0]) for name in old.dtype.names if name != "touched"]
    saved["arrays"]["states"] = np.zeros(old.shape, np.dtype(fields))
    before = engine.states.copy()
    with pytest.raises(ValueError, match="records of another layout"):
        engine.set_state(saved)
    assert engine.states.tobytes() == before.tobytes()
