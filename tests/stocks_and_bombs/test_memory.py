"""The public memory (ruling B8, 2026-12-01): what it remembers, exactly, and what it must not see."""

import numpy as np
import pytest

from stonk_envs import stocks_and_bombs_v1, vector
from stonk_envs.core.validation import OptionTypeError
from stonk_envs.games.stocks_and_bombs.observe import observation_layout, observation_size
from stonk_envs.policies import make_player
from stonk_envs.policies.stocks_and_bombs_heuristic import StocksAndBombsHeuristic
from stonk_envs.stocks_and_bombs_v1 import score_round
from tests.stocks_and_bombs.scripting import WAIT, accept, place, play, propose, stop, table

N = 4
LAYOUT = observation_layout(N)
BASE_SIZE = 9 * N * N + 4 * N + 3
EVENT = 2 + 2 * N + 2 * 3 * N  # present, two seat one-hots, two piece one-hots, ticks ago


def section(obs, name):
    start, size = LAYOUT[name]
    return obs[start : start + size]


def view(env, seat):
    """``seat``'s observation and action mask now."""
    game = env.table.game
    obs = np.zeros(len(game.observation_bounds[0]), np.float32)
    mask = np.zeros(game.num_actions, np.int8)
    game.observe(env.table.states, 0, seat, obs)
    game.legal_mask(env.table.states, 0, seat, mask)
    return obs, mask


def observations(env):
    return [view(env, p)[0] for p in range(N)]


def run(actions_by_tick, **config):
    env, states = table(**config)
    for actions in actions_by_tick:
        play(env, actions)
    return env, states


def rel_piece(colour, size, seat):
    return ((colour - seat) % N) * 3 + size - 1


# ---------------------------------------------------------------------------- sizes and option
def test_memory_false_is_the_layout_without_memory_and_a_prefix_of_the_full_one():
    ticks = [[propose(0, (0, 1), (2, 3), N), WAIT, WAIT, WAIT], [WAIT, WAIT, accept(2, 0, N), WAIT]]
    with_memory, _ = run(ticks)
    without, _ = run(ticks, memory=False)
    assert without.observation_space("player_0")["observation"].shape == (BASE_SIZE,) == (163,)
    assert with_memory.observation_space("player_0")["observation"].shape == (854,)
    assert sum(size for _, size in LAYOUT.values()) == 854
    for short, full in zip(observations(without), observations(with_memory), strict=True):
        np.testing.assert_array_equal(short, full[:BASE_SIZE])
        assert full[BASE_SIZE:].any()


def test_the_memory_option_reaches_the_engine_and_is_checked():
    assert vector.make("stocks_and_bombs", 2, memory=False).obs_size == BASE_SIZE
    assert vector.make("stocks_and_bombs", 2, num_players=6).obs_size == observation_size(6, True) == 1654
    with pytest.raises(OptionTypeError, match="memory must be True or False, got 'yes'"):
        stocks_and_bombs_v1.parallel_env(memory="yes")


# ---------------------------------------------------------------------------- omissions
def test_a_replaced_proposal_is_remembered():
    # Player 0 offers 0S for 2L, then 0S for 3L; versus waiting, then 0S for 3L.
    replaced, _ = run([[propose(0, (0, 1), (2, 3), N)] + [WAIT] * 3, [propose(0, (0, 1), (3, 3), N)] + [WAIT] * 3])
    waited, _ = run([[WAIT] * 4, [propose(0, (0, 1), (3, 3), N)] + [WAIT] * 3])
    for seat, (a, b) in enumerate(zip(observations(replaced), observations(waited), strict=True)):
        np.testing.assert_array_equal(a[:BASE_SIZE], b[:BASE_SIZE])  # the old view could not tell
        proposer = (0 - seat) % N
        asked_a = section(a, "asked_round").reshape(N, 3 * N)
        asked_b = section(b, "asked_round").reshape(N, 3 * N)
        assert asked_a[proposer, rel_piece(2, 3, seat)] == 1 and asked_b[proposer, rel_piece(2, 3, seat)] == 0
        assert asked_a[proposer, rel_piece(3, 3, seat)] == 1 == asked_b[proposer, rel_piece(3, 3, seat)]
        assert asked_a.sum() == 2 and asked_b.sum() == 1
        assert section(a, "offered_game").reshape(N, 3 * N)[proposer, rel_piece(0, 1, seat)] == 2
        assert section(b, "offered_game").reshape(N, 3 * N)[proposer, rel_piece(0, 1, seat)] == 1
        to_a = section(a, "proposed_to_round").reshape(N, N)
        assert to_a[proposer, (2 - seat) % N] == 1 and to_a[proposer, (3 - seat) % N] == 1 and to_a.sum() == 2
    # Player 1's view of the event slots, newest first.
    slots = section(observations(replaced)[1], "proposal_events").reshape(4, EVENT)
    m = 3 * N
    for slot, (asked, to, ago) in zip(slots[:2], [((3, 3), 3, 1), ((2, 3), 2, 2)], strict=True):
        expected = np.zeros(EVENT)
        expected[0] = 1
        expected[1 + 3] = 1  # proposer: seat 0 is relative seat 3 of player 1
        expected[1 + N + rel_piece(0, 1, 1)] = 1
        expected[1 + N + m + rel_piece(*asked, 1)] = 1
        expected[1 + N + 2 * m + (to - 1) % N] = 1
        expected[-1] = ago
        np.testing.assert_array_equal(slot, expected)
    assert not slots[2:].any()


def trade_and_reversal():
    return [
        [propose(0, (0, 1), (1, 1), N), WAIT, WAIT, WAIT],
        [WAIT, accept(1, 0, N), WAIT, WAIT],
        [propose(0, (1, 1), (0, 1), N), WAIT, WAIT, WAIT],
        [WAIT, accept(1, 0, N), WAIT, WAIT],
    ]


def test_a_trade_and_its_reversal_differ_from_no_trade():
    traded, states = run(trade_and_reversal())
    idle, idle_states = run([[WAIT] * 4] * 4)
    np.testing.assert_array_equal(states["holder"], idle_states["holder"])
    for seat, (a, b) in enumerate(zip(observations(traded), observations(idle), strict=True)):
        np.testing.assert_array_equal(a[:BASE_SIZE], b[:BASE_SIZE])
        assert not b[BASE_SIZE:].any()
        trades = section(a, "trades_round").reshape(N, N)
        assert trades[(0 - seat) % N, (1 - seat) % N] == 2 and trades.sum() == 2
        np.testing.assert_array_equal(section(a, "trades_game"), section(a, "trades_round"))
        moves = section(a, "moves_round")
        assert moves[rel_piece(0, 1, seat)] == 2 and moves[rel_piece(1, 1, seat)] == 2 and moves.sum() == 4
    m = 3 * N
    slots = section(observations(traded)[0], "trade_events").reshape(4, EVENT)
    for slot, (gave, got, ago) in zip(slots[:2], [(3, 0, 1), (0, 3, 3)], strict=True):
        expected = np.zeros(EVENT)
        expected[[0, 1 + 0, 1 + N + 1, 1 + 2 * N + gave, 1 + 2 * N + m + got]] = 1
        expected[-1] = ago
        np.testing.assert_array_equal(slot, expected)
    assert not slots[2:].any()


OWN = [[(p, 1), (p, 2), (p, 3)] for p in range(N)]
RULE_EXAMPLE = [[(1, 1), (1, 2), (2, 3)], [(3, 1), (0, 2), (3, 3)], [(0, 1), (2, 2), (1, 3)], [(2, 1), (0, 3), (3, 2)]]
TARGETS = [1, 0, 2, 3]


def stopped_round(caller):
    env, states = table()
    place(env, RULE_EXAMPLE, TARGETS)
    play(env, [stop(N) if p == caller else WAIT for p in range(N)])
    return env, states


def test_last_round_holdings_targets_caller_and_penalty():
    scores = score_round(RULE_EXAMPLE, TARGETS)
    assert scores == [1, -1, 1, 4]
    for caller, penalty in ((1, 1), (3, 0)):
        env, states = stopped_round(caller)
        assert states["round"][0] == 1 and states["tick"][0] == 0
        for seat, obs in enumerate(observations(env)):
            last = section(obs, "last_round")
            assert last[0] == 1 and last[1] == 1  # a round was scored, after one tick
            holder = last[2 : 2 + 12 * N].reshape(3 * N, N)
            for p, pieces in enumerate(RULE_EXAMPLE):
                for colour, size in pieces:
                    assert holder[rel_piece(colour, size, seat), (p - seat) % N] == 1
            assert holder.sum() == 3 * N
            targets = last[2 + 12 * N : 2 + 12 * N + N * N].reshape(N, N)
            expected = np.zeros((N, N))
            for p, t in enumerate(TARGETS):
                expected[(p - seat) % N, (t - seat) % N] = 1
            np.testing.assert_array_equal(targets, expected)
            callers = last[2 + 12 * N + N * N : -1]
            np.testing.assert_array_equal(callers, np.eye(N)[(caller - seat) % N])
            assert last[-1] == penalty
            stops, penalties = section(obs, "stops_game"), section(obs, "penalties_game")
            np.testing.assert_array_equal(stops, np.eye(N)[(caller - seat) % N])
            np.testing.assert_array_equal(penalties, penalty * np.eye(N)[(caller - seat) % N])
    a, b = observations(stopped_round(1)[0])[0], observations(stopped_round(3)[0])[0]
    assert (a != b).any()


def test_a_round_ended_by_the_tick_cap_has_no_caller():
    env, _ = run([[WAIT] * 4] * 3, tick_cap=3)
    last = section(observations(env)[2], "last_round")
    assert last[0] == 1 and last[1] == 3
    assert not last[2 + 12 * N + N * N :].any()


# ---------------------------------------------------------------------------- leaks
@pytest.mark.parametrize("seed", range(4))
def test_other_seats_targets_do_not_reach_the_memory(seed):
    """Swap two seats' targets and play the same random public moves: the others see the same."""
    rng = np.random.default_rng(seed)
    envs = []
    for swapped in (False, True):
        env, states = table(seed=seed)
        targets = [int(t) for t in states["target"][0, :N]]
        if swapped:
            targets[1], targets[2] = targets[2], targets[1]
        place(env, OWN, targets)
        envs.append(env)
    steps = 0
    while envs[0].table.states["round"][0] == 0 and steps < 100:
        masks = [view(envs[0], p)[1] for p in range(N)]
        actions = [int(rng.choice(np.flatnonzero(mask[:-1]))) for mask in masks]  # no STOP
        for env in envs:
            play(env, actions)
        if envs[0].table.states["round"][0] == 0:
            for seat in (0, 3):
                a, b = (view(env, seat)[0] for env in envs)
                np.testing.assert_array_equal(a, b)
        steps += 1
    assert steps > 10
    assert (envs[0].state() != envs[1].state()).any()


# ---------------------------------------------------------------------------- bounds
def test_round_score_bounds_are_reached():
    # n = 4: own target, two Larges and a Medium of two colours, own pieces at the third seat
    four = [[(1, 3), (1, 2), (2, 3)], [(1, 1), (3, 1), (3, 2)], [(2, 1), (2, 2), (3, 3)], OWN[0]]
    assert score_round(four, [0, 1, 2, 3])[0] == 8
    five = [
        [(1, 3), (2, 3), (3, 3)],
        [(1, 1), (1, 2), (2, 1)],
        [(2, 2), (3, 1), (3, 2)],
        [(4, 1), (4, 2), (4, 3)],
        OWN[0],
    ]
    assert score_round(five, [0, 1, 2, 3, 4])[0] == 9
    worst = [[(2, 1), (2, 2), (2, 3)], OWN[0], [(1, 1), (1, 2), (1, 3)], OWN[3]]
    assert score_round(worst, [1, 0, 2, 3])[0] == -6
    for n, best in ((4, 8), (5, 9), (6, 9)):
        env = stocks_and_bombs_v1.parallel_env(num_players=n, points_to_win=12, round_cap=30)
        low, high = env.table.game.observation_bounds
        start = 9 * n * n + 3 * n  # the round scores; the totals before them
        assert (high[start - n : start] == 12 - 1 + best).all()
        assert (low[start : start + n] == -6).all() and (high[start : start + n] == best).all()


def test_memory_bounds_follow_the_caps():
    env = stocks_and_bombs_v1.parallel_env(tick_cap=10, round_cap=3)
    low, high = env.table.game.observation_bounds
    assert (low == 0).sum() == len(low) - N  # only round scores go below 0

    def part(name):
        start, size = LAYOUT[name]
        return high[start : start + size]

    asked = part("asked_round").reshape(N, 3 * N)
    assert asked[0, :3].tolist() == [8] * 3 and asked[0, 3:].tolist() == [10] * 9  # own colour from tick 3
    assert asked[2, 6:9].tolist() == [8] * 3 and asked[2, :6].tolist() == [10] * 6
    assert part("offered_game").reshape(N, 3 * N)[1, 3:6].tolist() == [30] * 3
    assert part("offered_game").reshape(N, 3 * N)[1, :3].tolist() == [24] * 3
    np.testing.assert_array_equal(part("trades_round").reshape(N, N), 9 * (1 - np.eye(N)))
    np.testing.assert_array_equal(part("proposed_to_game").reshape(N, N), 30 * (1 - np.eye(N)))
    assert set(part("moves_round")) == {5} and set(part("moves_game")) == {15}
    assert set(part("stops_game")) == {3}
    assert part("last_round")[:2].tolist() == [1, 10]


@pytest.mark.parametrize("n", [4, 6])
def test_heuristic_games_with_short_caps_stay_in_bounds(n):
    env = stocks_and_bombs_v1.parallel_env(num_players=n, tick_cap=7, round_cap=4)
    low, high = env.table.game.observation_bounds
    assert np.isfinite(high).all()
    player = StocksAndBombsHeuristic(n, patience=3)
    rng = np.random.default_rng(n)
    seen = np.zeros_like(high)
    for game in range(6):
        obs, _ = env.reset(seed=game)
        while env.agents:
            stacked = np.stack([obs[a]["observation"] for a in env.agents])
            masks = np.stack([obs[a]["action_mask"] for a in env.agents])
            assert (stacked >= low).all() and (stacked <= high).all()
            seen = np.maximum(seen, stacked.max(axis=0))
            if game % 2:
                actions = player.act(stacked, masks, rng)
            else:
                actions = [rng.choice(np.flatnonzero(mask)) for mask in masks]
            obs, *_ = env.step(dict(zip(env.agents, (int(a) for a in actions), strict=True)))
    assert seen[observation_layout(n)["asked_round"][0] :].max() > 1  # the memory is exercised


# ---------------------------------------------------------------------------- state()
def test_state_tells_apart_a_trade_and_its_reversal_from_no_trade():
    for memory in (True, False):
        traded, _ = run(trade_and_reversal(), memory=memory)
        idle, _ = run([[WAIT] * 4] * 4, memory=memory)
        a, b = traded.state(), idle.state()
        old = 3 * N + 6 * N + 3
        np.testing.assert_array_equal(a[:old], b[:old])  # the old state vector could not tell
        assert (a != b).any()


def test_state_holds_the_random_stream_and_the_options():
    env_a, _ = table(seed=3)
    env_b, states_b = table(seed=3)
    np.testing.assert_array_equal(env_a.state(), env_b.state())
    states_b["rng"][0] += np.uint64(1)  # the next resolution order and deal differ
    assert (env_a.state() != env_b.state()).any()
    env_c, _ = table(seed=3, tick_cap=50)
    assert (env_a.state() != env_c.state()).any()
    assert env_a.state().shape == env_a.state_space.shape


def test_state_remembers_the_last_round():
    a, b = stopped_round(1)[0].state(), stopped_round(3)[0].state()
    assert (a != b).any()


@pytest.mark.parametrize("player", ["basic", "heuristic"])
def test_shipped_players_play_the_same_with_and_without_memory(player):
    """They read fixed offsets before the memory, so the appended entries change nothing."""
    envs = [stocks_and_bombs_v1.parallel_env(tick_cap=12, round_cap=3, memory=memory) for memory in (True, False)]
    players = [make_player(player, "stocks_and_bombs", N) for _ in envs]
    states = [env.reset(seed=5)[0] for env in envs]
    while envs[0].agents:
        chosen = []
        for env, obs, p in zip(envs, states, players, strict=True):
            stacked = np.stack([obs[a]["observation"] for a in env.agents])
            masks = np.stack([obs[a]["action_mask"] for a in env.agents])
            chosen.append(p.act(stacked, masks, np.random.default_rng(0)))
        np.testing.assert_array_equal(chosen[0], chosen[1])
        states = [
            env.step(dict(zip(env.agents, map(int, c), strict=True)))[0] for env, c in zip(envs, chosen, strict=True)
        ]
    assert not envs[1].agents


def test_proposals_beyond_the_last_four_events_keep_their_pairing():
    # player_1 pairs c1S and c1M with c2M and c2S one way or the other, then makes four more
    # proposals: the counts and the event slots are the same; the pairings are not.
    later = [[WAIT, propose(1, (1, 3), (3, 1), N), WAIT, WAIT]] * 4
    views = []
    for first, second in (((2, 2), (2, 1)), ((2, 1), (2, 2))):
        pairs = [[WAIT, propose(1, (1, 1), first, N), WAIT, WAIT], [WAIT, propose(1, (1, 2), second, N), WAIT, WAIT]]
        env, _ = run([*pairs, *later])
        views.append(view(env, 0)[0])
    memory_start = LAYOUT["offered_for"][0]
    assert (views[0][:memory_start] == views[1][:memory_start]).all()
    assert (section(views[0], "offered_for") != section(views[1], "offered_for")).any()
    # player_1 (relative seat 1 for player_0) offered c1S (relative piece 3) for c2M in the first history
    assert section(views[0], "offered_for")[1 * 3 * N + rel_piece(2, 2, 0)] == 1 + rel_piece(1, 1, 0)


def test_an_earlier_rounds_trades_keep_which_pieces_changed_hands():
    # Round 1: player_0 trades c0S and c0M for c1S and c1M, paired one way or the other; the
    # final holdings, counts and scores are the same. Player_2 sees the round after.
    views = []
    for first, second in (((1, 1), (1, 2)), ((1, 2), (1, 1))):
        env, states = run(
            [
                [propose(0, (0, 1), first, N), WAIT, WAIT, WAIT],
                [WAIT, accept(1, 0, N), WAIT, WAIT],
                [propose(0, (0, 2), second, N), WAIT, WAIT, WAIT],
                [WAIT, accept(1, 0, N), WAIT, WAIT],
                [stop(N), WAIT, WAIT, WAIT],
            ]
        )
        assert states["round"][0] == 1 and states["tick"][0] == 0
        views.append(view(env, 2)[0])
    memory_start = LAYOUT["offered_for"][0]
    assert (views[0][:memory_start] == views[1][:memory_start]).all()
    traded = section(views[0], "traded_for"), section(views[1], "traded_for")
    assert traded[0][rel_piece(0, 1, 2)] == 1 + rel_piece(1, 1, 2)  # c0S went for c1S in the first history
    assert traded[1][rel_piece(0, 1, 2)] == 1 + rel_piece(1, 2, 2)  # and for c1M in the second
