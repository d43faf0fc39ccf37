"""The engine's every-seat observation writer against the straightforward one-seat writer.

``observe_all`` builds the other seats' rows from seat 0's by copies and rotations; these
tests check it bit for bit against ``observe`` (one seat, written from zeros) over played
games, including the last observations of finished games.
"""

import numpy as np
import pytest
from numba import njit

from stonk_envs.games.stockpile.observe import observe_all_update
from stonk_envs.games.stockpile.state import DIVIDEND_PHASE, LED_BIDS, NUM_KINDS, REC_PAID
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


@njit
def _update(states, i, out):
    observe_all_update(states[i], out)


def _edit(states, i, n, field, index, value):
    """``states[i][field][index] := value(old)``; ``index`` may be a function of the slot's record."""
    column = states[field]
    where = (i, *(index(n, states[i]) if callable(index) else index))
    column[where] = value(column[where], n, states[i])


def _face_down_card(n, st):
    """(pile, place) of a face-down card, or None."""
    for t in range(n):
        for j in range(st["pile_len"][t]):
            if not st["pile_up"][t, j]:
                return t, j
    return None


def _plus(k):
    return lambda v, n, st: v + k


def _to(k):
    return lambda v, n, st: k


# Each case edits what one section of the observation is written from (its snapshot input).
EDITS = {
    "price": [("price", (2,), lambda v, n, st: v % 9 + 1)],
    "rounds": [("rounds", (), _plus(1))],
    "dividend company": [("phase", (), _to(DIVIDEND_PHASE)), ("div_company", (), lambda v, n, st: (v + 1) % 6)],
    "shown pair": [("pair_shown", (1,), lambda v, n, st: 1 - v)],
    "public pair": [("pair_fc", lambda n, st: (n,), lambda v, n, st: (v + 1) % 6)],
    "own pair": [("pair_comp", (0,), lambda v, n, st: (v + 1) % 6)],
    "deck": [("deck_len", (), _plus(1))],
    "discard": [("discard", (4,), _plus(1))],
    "pile card": [("pile", _face_down_card, lambda v, n, st: (v + 1) % NUM_KINDS)],
    "pile face": [("pile_up", _face_down_card, lambda v, n, st: 1 - v)],
    "pile owner": [("pile_by", _face_down_card, lambda v, n, st: (v + 1) % n)],
    "bid": [("bidder", (0,), _to(1)), ("bid_v", (0,), lambda v, n, st: (v + 1) % st["num_bids"])],
    "bidder": [("bidder", (1,), lambda v, n, st: (v + 2) % (n + 1) - 1)],
    "hand": [("hand", (1, 0), lambda v, n, st: (v + 2) % (NUM_KINDS + 1) - 1)],
    "regular": [("regular", (2, 3), _plus(1))],
    "action cards": [("busts", (1,), _plus(1))],
    "cash": [("cash", (1,), _plus(7))],
    "debt": [("debt_len", (2,), _to(1)), ("debt", (2, 0), _plus(3))],
    "track": [("track_of", (0,), lambda v, n, st: 1 if v < 0 else -1)],
    "tips": [("placed_won", (1, 2, 3), _plus(1))],
    "split": [("split", (2, 5), _plus(1))],
    "memory count": [("memory", (2, 1, 0), _plus(3))],
    "round record": [("round_rec", (2, REC_PAID), _plus(2))],
    "cards won": [("won_up", (1, 4), _plus(2))],
    "face-down won": [("down_from", (1, 2), _plus(1))],
    "bids placed": [("ledger", (2, LED_BIDS), _plus(1))],
    "dividends revealed": [("div_total", (0, 4, 1), _plus(1))],
    "company events": [("company_events", (4, 0), _plus(1))],
    "history price": [("hist_price", (0, 3), _plus(1))],
    "history holder": [("hist_holder", (0, 2), lambda v, n, st: (v + 1) % (n + 2))],
}


def _engine_mid_game(n):
    """An engine played until a slot has a round history and a face-down card on a pile, and that slot."""
    game = make_game("stockpile", n)
    engine = BatchEngine(game, 8, parallel=False, observe="all")
    engine.reset(seed=5)
    for _ in range(1000):
        engine.step(engine.random_actions())
        for i, st in enumerate(engine.states):
            if st["hist_fc"][0, 0] >= 0 and _face_down_card(n, st) and not st["game_over"]:
                return game, engine, i
    raise AssertionError("no slot reached a second round with a face-down card on a pile")


@pytest.mark.parametrize("n", [3, 5])
@pytest.mark.parametrize("case", sorted(EDITS))
def test_the_update_rewrites_a_section_whose_inputs_were_edited(case, n):
    """Edit one input of one section, update the engine's rows without a step: each section's
    snapshot must cover what it is written from (the edit must be visible, and observed)."""
    game, engine, i = _engine_mid_game(n)
    rows = engine.obs[i].copy()
    for field, index, value in EDITS[case]:
        _edit(engine.states, i, n, field, index, value)
    expected = _reference(game, engine.states, i, n, engine.obs_size)
    assert expected.tobytes() != rows.tobytes(), "the edit does not show in the observation"
    _update(engine.states, i, rows)
    assert rows.tobytes() == expected.tobytes()


@pytest.mark.parametrize(
    ("field", "index", "values"),
    [("memory", (1, 2, 3), (200, -56, -128, 5)), ("cash", (2,), (40_000, -25_536, -32_768, 9))],
)
def test_values_too_wide_for_a_snapshot_are_observed_exactly(field, index, values):
    """The snapshots are narrow integers: a value they cannot hold must never pass for one they can
    (200 wraps to -56 in 8 bits, 40,000 to -25,536 in 16)."""
    game, engine, i = _engine_mid_game(4)
    rows = engine.obs[i].copy()
    for v in values:
        _edit(engine.states, i, 4, field, index, _to(v))
        _update(engine.states, i, rows)
        assert rows.tobytes() == _reference(game, engine.states, i, 4, engine.obs_size).tobytes(), v
