"""The compiled Stockpile heuristic takes exactly the reference (pure-Python) player's actions."""

import numpy as np
import pytest
from sp_reference_heuristic import ReferenceStockpileHeuristic

from stonk_envs import vector
from stonk_envs.policies.stockpile_heuristic import StockpileHeuristic


def compare(n, memory, heuristic_seats, games, seed):
    """Play ``games`` games; every actor's observation is decided by both players and compared.

    The seats in ``heuristic_seats`` play the compiled player's action, the others a random one.
    Returns the number of decisions compared.
    """
    engine = vector.make("stockpile", games, num_players=n, memory=memory, observe="actors", parallel=False)
    compiled, reference = StockpileHeuristic(n), ReferenceStockpileHeuristic(n)
    rng = np.random.default_rng(seed)
    engine.reset(seed)
    done = np.zeros(games, bool)
    compared = 0
    while not done.all():
        obs, masks = engine.obs[engine.actors], engine.masks[engine.actors]
        got = compiled.act(obs, masks, rng)
        want = reference.act(obs, masks, rng)
        wrong = np.flatnonzero(got != want)
        assert wrong.size == 0, f"{wrong.size} of {len(got)} differ, e.g. compiled {got[wrong[0]]} vs {want[wrong[0]]}"
        compared += len(got)
        actions = engine.random_actions().copy()
        heuristic = engine.actors.copy()
        heuristic[:, [p for p in range(n) if p not in heuristic_seats]] = False
        actions[heuristic] = got[heuristic[engine.actors]]
        done |= engine.step(actions)[3]
    return compared


@pytest.mark.parametrize("memory", [True, False])
@pytest.mark.parametrize(("n", "heuristic_seats"), [(3, (0,)), (4, (1, 2)), (4, (0, 1, 2, 3)), (5, (0, 2, 4))])
def test_same_actions_as_the_reference(n, heuristic_seats, memory):
    assert compare(n, memory, heuristic_seats, games=40, seed=n + 10 * memory) > 5_000
