"""The batched engine: shapes, legal masks, auto-reset, bad input, partial steps, threads."""

import os
import subprocess
import sys

import numpy as np
import pytest

from stonk_envs import vector
from stonk_envs.vector.batch_ops import RNG_DTYPE, random_actions

SHORT = {"tick_cap": 3, "round_cap": 1}
"""One round of three ticks: every game ends on its third step."""


def random_play(engine, steps, seed=0):
    """Step ``engine`` with compiled random legal actions; yields each step's results."""
    stream = np.zeros(1, RNG_DTYPE)
    stream[0]["rng"] = seed
    actions = np.zeros((engine.num_envs, engine.num_players), np.int64)
    for _ in range(steps):
        random_actions(stream[0], engine.masks, actions)
        yield actions.copy(), engine.step(actions)


def test_shapes_and_dtypes_at_five_players():
    engine = vector.make("stocks_and_bombs", 3, num_players=5)
    obs, masks = engine.reset(seed=0)
    # 9n^2 + n + 1 actions; 9n^2 + 4n + 3 observation entries and 23n^2 + 76n + 19 of memory (n = 5)
    assert (engine.num_actions, engine.obs_size) == (231, 248 + 974)
    assert obs.shape == (3, 5, 1222) and obs.dtype == np.float32
    assert masks.shape == (3, 5, 231) and masks.dtype == np.int8
    assert engine.actors.shape == (3, 5) and engine.actors.all()
    _, (_, _, rewards, terminated) = next(random_play(engine, 1))
    assert rewards.shape == (3, 5) and rewards.dtype == np.float32
    assert terminated.shape == (3,) and terminated.dtype == np.bool_
    states = engine.state_vectors()
    assert states.shape == (3, 656)  # holders, seats, round, tick, caller (48), then options, stream, memory
    # holders of the 15 pieces on a fresh deal: each seat holds its own three
    assert states[:, :15].tolist() == [[p // 3 for p in range(15)]] * 3


def test_memory_per_game_counts_state_and_buffers():
    engine = vector.make("stocks_and_bombs", 2, num_players=4)
    n, o, a = 4, 854, 149  # Stocks & Bombs at 4 players, public memory included
    expected = 2 * engine.states.itemsize + 2 * n * o * 4 + n * a + n * 4 + n * 8 + n + n + 1 + 8 + 1 + 8 + n * 8
    assert engine.nbytes_per_game == expected


def test_masks_are_legal_and_every_seat_can_act():
    engine = vector.make("stocks_and_bombs", 8, num_players=4)
    engine.reset(seed=3)
    # a fresh deal: each seat holds its own 3 pieces and may propose any of the 9 others for
    # each of them (27), WAIT and STOP; nobody has proposed, so no ACCEPT is legal
    assert (engine.masks.sum(axis=2) == 27 + 2).all()
    for actions, (_, masks, _, _) in random_play(engine, 200, seed=5):
        assert actions.min() >= 0
        assert (masks[:, :, 0] == 1).all() and (masks[:, :, -1] == 1).all()
        assert masks.max() == 1 and masks.min() == 0


def win_loss(totals):
    """The win_loss rewards of final totals, written out (rewards.py)."""
    n, best = len(totals), max(totals)
    w = sum(t == best for t in totals)
    return [0.0 if w == n else (n - w) / (w * (n - 1)) if t == best else -1 / (n - 1) for t in totals]


@pytest.mark.parametrize("observe", ["all", "actors"])
def test_every_seats_mask_is_the_games_own_across_turns_and_resets(observe):
    """A turn-based engine rewrites only the masks of the seats that act now or acted last; every
    seat's mask must still be exactly the game's, all zero for the seats that do not act."""
    engine = vector.make("stockpile", 6, parallel=False, observe=observe, num_players=3, rounds=1)
    engine.reset(seed=2)
    own = np.zeros(engine.num_actions, np.int8)
    resets = 0
    for _, (_, masks, _, terminated) in random_play(engine, 150, seed=4):
        resets += int(terminated.sum())
        for i in range(engine.num_envs):
            for seat in range(engine.num_players):
                engine.game.legal_mask(engine.states, i, seat, own)
                assert (masks[i, seat] == own).all(), (i, seat)
                assert own.any() == engine.actors[i, seat]
    assert resets > 0


def test_auto_reset_starts_the_next_game_in_the_same_step():
    engine = vector.make("stocks_and_bombs", 16, num_players=4, tick_cap=6, round_cap=1)
    obs, _ = engine.reset(seed=1)
    first = obs.copy()
    stream = np.zeros(1, RNG_DTYPE)
    actions = np.zeros((16, 4), np.int64)
    for tick in range(6):
        # random proposals, never STOP, and accept a proposal whenever one may be accepted
        no_stop = engine.masks.copy()
        no_stop[:, :, -1] = 0
        random_actions(stream[0], no_stop, actions)
        accept = engine.masks[:, :, 145:148]
        actions = np.where(accept.any(axis=2), 145 + accept.argmax(axis=2), actions)
        obs, masks, rewards, terminated = engine.step(actions)
        assert terminated.all() == (tick == 5) and terminated.any() == (tick == 5)
    # each ended game paid win_loss on its final totals (seat 0's view: relative = absolute)
    totals = engine.final_obs[:, 0, 152:156]
    for i in range(16):
        np.testing.assert_allclose(rewards[i], win_loss(list(totals[i])), rtol=1e-6)
    assert (totals.sum(axis=1) > 0).sum() >= 4
    # the last state record keeps the final scores the last observation showed
    for i in range(16):
        assert engine.game.scores(engine.final_states, i).tolist() == totals[i].tolist()
    assert (engine.states["round"] == 0).all() and (engine.final_states["round"] == 1).all()
    # the last observation: round 1 after the only round; the new game: round 0, tick 0, 3 left
    round_at = 9 * 16 + 4 * 4  # round, tick, ticks left at 4 players, before the public memory
    assert (engine.final_obs[:, :, round_at] == 1).all()
    assert (obs[:, :, round_at : round_at + 3] == [0, 0, 6]).all()
    # the second games are new deals, not the first ones again, and start with fresh masks
    assert not np.array_equal(obs, first)
    assert (masks.sum(axis=2) == 29).all()


def test_an_illegal_action_raises_and_changes_nothing():
    engine = vector.make("stocks_and_bombs", 2, num_players=4)
    engine.reset(seed=0)
    before = engine.states.copy()
    actions = np.zeros((2, 4), np.int64)
    actions[1, 2] = 5 * 12 + 1  # PROPOSE giving relative piece 5, which seat 2 does not hold
    with pytest.raises(ValueError, match=r"game 1, player_2: action 61 is illegal"):
        engine.step(actions)
    assert engine.states.tobytes() == before.tobytes()
    with pytest.raises(ValueError, match="shape"):
        engine.step(np.zeros((2, 3), np.int64))
    with pytest.raises(ValueError, match="shape"):
        engine.step(np.zeros((2, 4), np.float32))


def test_bad_make_arguments_name_the_problem():
    with pytest.raises(ValueError, match="no batched engine for game 'chess'"):
        vector.make("chess", 4)
    with pytest.raises(ValueError, match=r"num_envs must be 1\.\.16777216, got"):
        vector.make("stocks_and_bombs", 0)
    with pytest.raises(ValueError, match="unknown option"):
        vector.make("stocks_and_bombs", 4, tick_limit=3)
    with pytest.raises(ValueError, match=r"num_players must be 4\.\.6"):
        vector.make("stocks_and_bombs", 4, num_players=7)
    with pytest.raises(ValueError, match="before reset"):
        vector.make("stocks_and_bombs", 1).step(np.zeros((1, 4), np.int64))
    with pytest.raises(ValueError, match="observe must be one of"):
        vector.make("stocks_and_bombs", 1, observe="some")
    with pytest.raises(ValueError, match="seed must be"):
        vector.make("stocks_and_bombs", 1).reset(seed=-1)


def test_inactive_games_keep_their_state():
    engine = vector.make("stocks_and_bombs", 3, num_players=4)
    engine.reset(seed=2)
    before = engine.states.copy()
    engine.step(np.zeros((3, 4), np.int64), active=np.array([True, False, True]))
    assert engine.states[1].tobytes() == before[1].tobytes()
    assert engine.states["tick"].tolist() == [1, 0, 1]
    assert (engine.rewards[1] == 0).all() and not engine.terminated[1]


def test_threaded_kernels_match_the_serial_ones():
    engines = [vector.make("stocks_and_bombs", 80, num_players=4, parallel=p, **SHORT) for p in (True, None)]
    assert engines[0].parallel and not engines[1].parallel
    assert vector.make("stocks_and_bombs", 256).parallel
    assert not vector.make("stocks_and_bombs", 256, parallel=False).parallel
    for engine in engines:
        engine.reset(seed=9)
    runs = [[actions for actions, _ in random_play(engine, 7, seed=4)] for engine in engines]
    np.testing.assert_array_equal(np.stack(runs[0]), np.stack(runs[1]))
    for name in ("obs", "masks", "rewards", "terminated", "final_obs", "actors", "voids"):
        np.testing.assert_array_equal(getattr(engines[0], name), getattr(engines[1], name))
    assert engines[0].states.tobytes() == engines[1].states.tobytes()


def test_observing_actors_only_leaves_the_other_rows_zero_across_resets():
    engine = vector.make("stockpile", 5, num_players=3, observe="actors")
    for seed in (0, 1):
        obs, _ = engine.reset(seed=seed)
        for _, (obs, masks, _, _) in random_play(engine, 40, seed=seed):
            # one seat acts in a Stockpile step: its row is observed, the other two are zero
            assert (engine.actors.sum(axis=1) == 1).all()
            assert (np.abs(obs).sum(axis=2) > 0).tolist() == engine.actors.tolist()
            assert (masks.any(axis=2) == engine.actors).all()


@pytest.mark.parametrize(("game", "parallel"), [("stockpile", False), ("stockpile", True), ("stonk_market", False)])
def test_random_actions_are_legal_for_actors_and_minus_one_elsewhere(game, parallel):
    engine = vector.make(game, 32, num_players=4, parallel=parallel)
    with pytest.raises(ValueError, match=r"random_actions\(\) called before reset\(\)"):
        engine.random_actions()
    engine.reset(seed=2)
    for _ in range(300):
        before = engine.states.copy()
        actions = engine.random_actions()
        assert np.array_equal(engine.states, before)  # drawing does not touch the games
        rows, seats = np.nonzero(engine.actors)
        assert (engine.masks[rows, seats, actions[rows, seats]] == 1).all()
        assert (actions[~engine.actors] == -1).all()
        engine.step(actions)



def test_threaded_random_actions_match_the_serial_ones():
    # 200 Stonk Market games hold 271,200 mask entries, above PARALLEL_DRAW_FROM: drawn on threads
    engines = [vector.make("stonk_market", 200, num_players=4, parallel=p) for p in (True, False)]
    assert engines[0]._parallel_draw and not engines[1]._parallel_draw
    assert not vector.make("stockpile", 1024, num_players=4)._parallel_draw
    for engine in engines:
        engine.reset(seed=3)
    for _ in range(20):
        actions = [engine.random_actions().copy() for engine in engines]
        np.testing.assert_array_equal(actions[0], actions[1])
        for engine, a in zip(engines, actions, strict=True):
            engine.step(a)

def test_random_actions_are_uniform_over_the_legal_ones_and_seeded():
    # a fresh Stocks & Bombs deal: every seat has the same 29 legal actions (27 PROPOSEs, WAIT, STOP)
    engine = vector.make("stocks_and_bombs", 64, num_players=4)
    engine.reset(seed=5)
    legal = np.flatnonzero(engine.masks[0, 0])
    assert len(legal) == 29 and (engine.masks == engine.masks[0, 0]).all()
    draws = np.concatenate([engine.random_actions().ravel().copy() for _ in range(200)])
    counts = np.bincount(draws, minlength=engine.num_actions)
    assert counts.sum() == 200 * 64 * 4 and set(np.flatnonzero(counts)) == set(legal)
    # 51,200 draws over 29 actions: about 1,766 each; five standard deviations is about 205
    assert np.abs(counts[legal] - 51_200 / 29).max() < 205
    # the same seed gives the same draws; another seed does not
    again = vector.make("stocks_and_bombs", 64, num_players=4)
    again.reset(seed=5)
    assert np.array_equal(np.concatenate([again.random_actions().ravel().copy() for _ in range(200)]), draws)
    again.reset(seed=6)
    assert not np.array_equal(again.random_actions(), draws[: 64 * 4].reshape(64, 4))


@pytest.mark.parametrize(("user_policy", "left"), [(None, None), ("ACTIVE", "ACTIVE")])
def test_passive_omp_wait_policy_is_set_only_while_numbas_threads_start(user_policy, left):
    """torch's OpenMP runtime, loaded after the engine's threads start, must not inherit PASSIVE."""
    script = (
        "import os\n"
        "from stonk_envs import vector\n"
        "assert 'OMP_WAIT_POLICY' not in os.environ or os.environ['OMP_WAIT_POLICY'] == 'ACTIVE'\n"
        "engine = vector.make('stockpile', 4, num_players=4, parallel=True)\n"
        "engine.reset(seed=0)\n"
        "engine.step(engine.random_actions())\n"
        "print(os.environ.get('OMP_WAIT_POLICY'))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if user_policy:
        env["OMP_WAIT_POLICY"] = user_policy
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(left)


def test_numbas_threads_start_under_the_passive_policy(monkeypatch):
    from stonk_envs.vector import engine as engine_module

    seen = []
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    monkeypatch.setattr(engine_module, "_launch_threads", lambda: seen.append(os.environ.get("OMP_WAIT_POLICY")))
    vector.make("stockpile", 4, num_players=4, parallel=True)
    vector.make("stockpile", 4, num_players=4, parallel=False)  # no threads: nothing started
    assert seen == ["PASSIVE"] and "OMP_WAIT_POLICY" not in os.environ
