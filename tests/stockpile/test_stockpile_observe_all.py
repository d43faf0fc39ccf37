"""The engine's every-seat observation writer against the straightforward one-seat writer.

``observe_all`` builds the other seats' rows from seat 0's by copies and rotations; these
tests check it bit for bit against ``observe`` (one seat, written from zeros) over played
games, including the last observations of finished games.
"""

import numpy as np
import pytest
from numba import njit
from sp_helpers import Table

from stonk_envs.games.stockpile import touched as tc
from stonk_envs.games.stockpile.observe import observe, observe_all_update
from stonk_envs.games.stockpile.state import (
    DIVIDEND_PHASE,
    EV_BANKRUPTCIES,
    EV_SPLITS,
    LED_BIDS,
    NUM_KINDS,
    REC_PAID,
)
from stonk_envs.games.stockpile.touched import EVERYTHING
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


@njit
def _games_with_stale_rows(states, obs, scratch):
    """How many games have a seat whose engine row differs from :func:`observe` written from zeros."""
    stale = 0
    for i in range(states.shape[0]):
        for seat in range(states[i].n):
            observe(states[i], seat, scratch)
            if (scratch != obs[i, seat]).any():
                stale += 1
                break
    return stale


@pytest.mark.parametrize("n", [3, 5])
def test_touched_sections_cover_every_change_over_long_play(n):
    """The rules' touched bits let the update skip sections: over thousands of steps, through
    splits, bankruptcies, debts and split-card dividends, no row may go stale."""
    game = make_game("stockpile", n)
    engine = BatchEngine(game, 64, parallel=False, observe="all")
    engine.reset(seed=40 + n)
    scratch = np.zeros(engine.obs_size, np.float32)
    stale, seen = 0, dict.fromkeys(("debt", "split reveal", "split", "bankruptcy"), False)
    for _ in range(2500):
        obs, _, _, terminated = engine.step(engine.random_actions())
        stale += _games_with_stale_rows(engine.states, obs, scratch)
        seen["debt"] |= bool((engine.states["debt_len"] > 0).any())
        seen["split reveal"] |= bool(((engine.states["phase"] == DIVIDEND_PHASE) & (engine.states["sub"] == 1)).any())
        events = engine.final_states["company_events"][terminated]
        seen["split"] |= bool(events[..., EV_SPLITS].any())
        seen["bankruptcy"] |= bool(events[..., EV_BANKRUPTCIES].any())
    assert stale == 0
    assert all(seen.values()), seen


def test_small_decisions_touch_only_what_they_change():
    """A placement touches the two piles and the placer's hand and round record; a first bid
    its pile and the bidder's public block and record (exact bits, so a decision that starts
    touching everything shows here); an outbid also the outbid seat's block."""
    t = Table(n=4, seed=2)
    first = t.actor
    t["touched"] = 0
    t.act(t.supply_action(0, 1, 3))
    assert t["touched"] == (1 << tc.PILES + 1) | (1 << tc.PILES + 3) | (1 << tc.HANDS + first) | (
        1 << tc.INPUTS + first
    )
    for _ in range(3):
        t.act(t.supply_action(0, 0, 2))
    bidder = t.actor
    t["touched"] = 0
    t.act(t.bid_action(2, t.game.config.bid_values[0]))
    assert t["touched"] == (1 << tc.PILES + 2) | (1 << tc.SEATS + bidder) | (1 << tc.INPUTS + bidder)
    t["touched"] = 0
    t.act(t.bid_action(2, t.game.config.bid_values[1]))  # outbids: the first bidder's block changes too
    assert t["touched"] & (1 << tc.SEATS + bidder)


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


def test_engine_records_are_read_only():
    """The rows are updated from what the rules report changed, so the records may change only
    through the engine."""
    engine = BatchEngine(make_game("stockpile", 4), 2, parallel=False, observe="all")
    engine.reset(seed=1)
    with pytest.raises(ValueError, match="read-only"):
        engine.states["cash"][0, 1] += 7


def test_records_edited_through_set_state_are_observed_exactly():
    """Records that come in from outside are checked section by section at the next step, so
    edits the rules never reported show there."""
    game = make_game("stockpile", 4)
    engine = BatchEngine(game, 2, parallel=False, observe="all")
    engine.reset(seed=3)
    for _ in range(40):
        engine.step(engine.random_actions())
    saved = engine.get_state()
    records = saved["arrays"]["states"]
    records["memory"][0, 2, 1, 0] += 3
    records["split"][0, 3, 5] += 1
    records["won_up"][0, 1, 4] += 2
    records["company_events"][0, 4, 0] += 1
    engine.set_state(saved)
    obs, _, _, terminated = engine.step(engine.random_actions())
    assert not terminated[0]
    assert obs[0].tobytes() == _reference(game, engine.states, 0, 4, engine.obs_size).tobytes()


@njit
def _update(states, i, out):
    """Check every section of game i's rows against its snapshots (as after records from outside)."""
    states[i].touched = EVERYTHING
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
    "past price": [("past_price", (0, 3), _plus(1))],
    "past forecast": [("past_fc", (0, 1), lambda v, n, st: (v + 1) % 6)],
    "past holder": [("past_holder", (0, 2), lambda v, n, st: (v + 1) % (n + 2))],
    "past record": [("past_rec", (0, 1, REC_PAID), _plus(2))],
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
    rows, states = engine.obs[i].copy(), engine.states.copy()
    for field, index, value in EDITS[case]:
        _edit(states, i, n, field, index, value)
    expected = _reference(game, states, i, n, engine.obs_size)
    assert expected.tobytes() != rows.tobytes(), "the edit does not show in the observation"
    _update(states, i, rows)
    assert rows.tobytes() == expected.tobytes()


@pytest.mark.parametrize(
    ("field", "index", "values"),
    [("memory", (1, 2, 3), (200, -56, -128, 5)), ("cash", (2,), (40_000, -25_536, -32_768, 9))],
)
def test_values_too_wide_for_a_snapshot_are_observed_exactly(field, index, values):
    """The snapshots are narrow integers: a value they cannot hold must never pass for one they can
    (200 wraps to -56 in 8 bits, 40,000 to -25,536 in 16)."""
    game, engine, i = _engine_mid_game(4)
    rows, states = engine.obs[i].copy(), engine.states.copy()
    for v in values:
        _edit(states, i, 4, field, index, _to(v))
        _update(states, i, rows)
        assert rows.tobytes() == _reference(game, states, i, 4, engine.obs_size).tobytes(), v
