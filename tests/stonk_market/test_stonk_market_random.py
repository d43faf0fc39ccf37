"""500 random legal games, and observations that do not leak another seat's hidden cards."""

import numpy as np
import pytest

from stonk_envs import stonk_market_v1 as sm
from stonk_envs.core.rewards import win_loss

GAMES_PER_COUNT = 125  # 500 games over 3, 4, 5 and 6 players
SUITS = np.array(sm.SUIT_COUNTS)


def committed(s, p) -> np.ndarray:
    """Cards of each suit p's open offers need."""
    need = np.zeros(9, np.int64)
    if s["ann_count"][p]:
        need[s["ann_suit"][p]] = max(need[s["ann_suit"][p]], s["ann_count"][p])
    if s["bid_count"][p]:
        need[s["bid_suit"][p]] = max(need[s["bid_suit"][p]], s["bid_count"][p])
    return need


def hidden_swap(states, a, b) -> np.ndarray | None:
    """A copy in which a and b swap one hidden card each (no known or offered card), or None."""
    s = states[0]
    free_a = s["hand"][a] - np.maximum(s["known"][a], committed(s, a))
    free_b = s["hand"][b] - np.maximum(s["known"][b], committed(s, b))
    for x in np.flatnonzero(free_a > 0):
        for y in np.flatnonzero(free_b > 0):
            if x != y:
                other = states.copy()
                other["hand"][0, a, x] -= 1
                other["hand"][0, a, y] += 1
                other["hand"][0, b, y] -= 1
                other["hand"][0, b, x] += 1
                return other
    return None


def check_invariants(s, n):
    """61 cards conserved, public knowledge a lower bound, every open offer covered."""
    counts = s["hand"][:n].sum(axis=0)
    counts[s["exchange"]] += 1
    assert counts.tolist() == SUITS.tolist()
    assert (s["hand"][:n] >= 0).all() and (s["known"][:n] >= 0).all()
    assert (s["known"][:n] <= s["hand"][:n]).all()
    for p in range(n):
        if s["ann_count"][p]:
            assert s["hand"][p, s["ann_suit"][p]] >= s["ann_count"][p]
        if s["bid_count"][p]:
            j = s["bid_to"][p]
            assert j != p and s["ann_count"][j] > 0 and s["ann_suit"][j] != s["bid_suit"][p]
            assert s["hand"][p, s["bid_suit"][p]] >= s["bid_count"][p]


def check_no_leak(env, n, rng):
    """Swapping hidden cards between two seats changes no third seat's observation or mask."""
    table = env.table
    observer, a, b = rng.choice(n, 3, replace=False)
    other = hidden_swap(table.states, a, b)
    if other is None:
        return False
    game = table.game
    size = table.observation_space["observation"].shape[0]
    views = []
    for states in (table.states, other):
        obs = np.zeros(size, np.float32)
        mask = np.zeros(game.num_actions, np.int8)
        full = np.zeros(game.state_size, np.float32)
        game.observe(states, 0, int(observer), obs)
        game.legal_mask(states, 0, int(observer), mask)
        game.state_vector(states, 0, full)
        views.append((obs, mask, full))
    assert not np.array_equal(views[0][2], views[1][2])
    assert np.array_equal(views[0][0], views[1][0])
    assert np.array_equal(views[0][1], views[1][1])
    return True


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_legal_games(n):
    rng = np.random.default_rng(n)
    env = sm.parallel_env(num_players=n)
    space = env.observation_space("player_0")
    leak_checks = 0
    for game_index in range(GAMES_PER_COUNT):
        observations, _ = env.reset(seed=1000 * n + game_index)
        states = env.table.states
        returns = np.zeros(n)
        ticks = 0
        while env.agents:
            for agent in env.agents:
                assert space.contains(observations[agent])
            actions = {a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in env.agents}
            observations, rewards, terms, truncs, infos = env.step(actions)
            ticks += 1
            step_rewards = [rewards[f"player_{p}"] for p in range(n)]
            assert sum(step_rewards) == pytest.approx(0.0, abs=1e-6)
            returns += step_rewards
            assert not any(truncs.values())
            assert all(info.get("void") != "the action was illegal when it was submitted" for info in infos.values())
            check_invariants(states[0], n)
            if ticks % 7 == 0 and env.agents:
                leak_checks += check_no_leak(env, n, rng)
        assert all(terms.values())
        assert ticks <= 3 * 300 and states["round"][0] == 3
        totals = states["totals"][0, :n].astype(np.float64)
        expected = np.zeros(n)
        win_loss(totals, n, expected)
        assert returns == pytest.approx(expected, abs=1e-6)
        assert [infos[f"player_{p}"]["score"] for p in range(n)] == totals.tolist()
    assert leak_checks >= GAMES_PER_COUNT


def test_leak_from_a_constructed_position():
    env = sm.parallel_env(num_players=4)
    env.reset(seed=5)
    states = env.table.states
    states["hand"][0, :4] = [
        [2, 2, 1, 2, 3, 1, 2, 1, 1],
        [1, 1, 2, 2, 1, 2, 3, 2, 1],
        [1, 1, 1, 2, 2, 2, 1, 3, 2],
        [1, 1, 1, 1, 1, 2, 1, 2, 5],
    ]
    states["exchange"][0] = 7
    states["known"][0, 2] = [0, 0, 0, 0, 0, 0, 0, 2, 0]
    states["known"][0, 3] = [0, 0, 0, 0, 0, 0, 0, 0, 3]
    other = states.copy()
    # Seats 2 and 3 swap a hidden Glitch & Co. for a hidden BioHippo; sizes and known cards stay.
    other["hand"][0, 2] = [0, 1, 1, 2, 2, 2, 1, 3, 3]
    other["hand"][0, 3] = [2, 1, 1, 1, 1, 2, 1, 2, 4]
    game = env.table.game
    size = len(game.observation_bounds[0])
    for observer in (0, 1):
        views = []
        for table in (states, other):
            obs = np.zeros(size, np.float32)
            game.observe(table, 0, observer, obs)
            views.append(obs)
        assert np.array_equal(views[0], views[1])
    seen_by_2 = [np.zeros(size, np.float32), np.zeros(size, np.float32)]
    game.observe(states, 0, 2, seen_by_2[0])
    game.observe(other, 0, 2, seen_by_2[1])
    assert not np.array_equal(seen_by_2[0], seen_by_2[1])
