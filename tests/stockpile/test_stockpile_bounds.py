"""Every observation entry lies within its derived bounds over random and heuristic games."""

import numpy as np
import pytest

from stonk_envs.games.stockpile import Stockpile, StockpileConfig
from stonk_envs.games.stockpile.bounds import limits
from stonk_envs.games.stockpile.memory import memory_size
from stonk_envs.games.stockpile.observe import obs_size
from stonk_envs.policies.stockpile_heuristic import StockpileHeuristic
from stonk_envs.vector.engine import BatchEngine


def play(config, games, heuristic_seats, seed):
    """Play ``games`` games in a batch; returns every observation seen and the final ones."""
    engine = BatchEngine(Stockpile(config), games, parallel=False)
    obs, masks = engine.reset(seed)
    rng = np.random.default_rng(seed)
    heuristic = StockpileHeuristic(config.num_players)
    done = np.zeros(games, bool)
    seen = [obs.copy()]
    while not done.all():
        actions = engine.random_actions().copy()
        for p in heuristic_seats:
            acting = engine.actors[:, p]
            if acting.any():
                actions[acting, p] = heuristic.act(obs[acting, p], masks[acting, p], rng)
        obs, masks, _, terminated = engine.step(actions)[:4]
        seen.append(obs.copy())
        seen.append(engine.final_obs[terminated].copy())
        done |= terminated
    return np.concatenate([x.reshape(-1, x.shape[-1]) for x in seen])


@pytest.mark.parametrize(
    ("n", "heuristic_seats", "extra"),
    [
        (3, (), {}),
        (4, (), {}),
        (4, (0, 1, 2, 3), {}),
        (5, (1, 3), {}),
        (4, (), {"starting_cash": 3, "max_price": 6, "start_price": 6, "split_reset": 4, "stock_per_company": 15}),
    ],
)
def test_observations_lie_within_bounds(n, heuristic_seats, extra):
    config = StockpileConfig(num_players=n, **extra)
    low, high = Stockpile(config).observation_bounds
    assert np.isfinite(high).all() and (low <= high).all()
    seen = play(config, 48, heuristic_seats, seed=n)
    below = np.flatnonzero((seen < low).any(axis=0))
    above = np.flatnonzero((seen > high).any(axis=0))
    assert below.size == 0, f"entries {below} below their low bound"
    assert above.size == 0, f"entries {above} above their high bound: {seen.max(axis=0)[above]} > {high[above]}"


def test_default_bounds_have_no_placeholders():
    """The money and memory bounds are derived numbers (4 players, default rules), not 1e6/1e9."""
    lim = limits(StockpileConfig())
    assert lim["cash"] == 20 + 6 * 10 * 4 + 10 * 10 * 10 + 10 * 10 * 10 + 6 * 10 * 2 * 10 + 6 * 10
    assert (lim["debt"], lim["debt_cards"], lim["shares"]) == (24, 12, 55)
    assert (lim["splits_company"], lim["bankruptcies"], lim["unsplit"], lim["split_revealed"]) == (6, 5, 60, 60)
    low, high = Stockpile(StockpileConfig()).observation_bounds
    assert high.max() == lim["cash"] == 3520
    assert low.shape == high.shape == (obs_size(4) + memory_size(4),)


def test_memory_off_keeps_the_old_layout():
    """memory=False: the observation without the memory section, equal to the start of the full one."""
    with_memory = Stockpile(StockpileConfig())
    without = Stockpile(StockpileConfig(memory=False))
    assert without.observation_bounds[0].shape == (obs_size(4),) == (555,)
    assert with_memory.observation_bounds[0].shape == (555 + 390 + 10 * (18 + 7 * 4),)  # 10 past rounds
    np.testing.assert_array_equal(with_memory.observation_bounds[1][:555], without.observation_bounds[1])
    a = play(StockpileConfig(), 4, (), seed=9)
    b = play(StockpileConfig(memory=False), 4, (), seed=9)
    np.testing.assert_array_equal(a[:, :555], b)


def test_memory_option_is_checked():
    with pytest.raises(TypeError, match="memory must be True or False"):
        StockpileConfig(memory=1)
