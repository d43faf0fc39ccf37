"""Every seat's observation at once (``observe_all``) equals each seat's own ``observe``.

Stockpile writes seat 0's view and derives the others from it (copied public part, rotated
seat blocks); the real-time games fall back to one ``observe`` per seat. Both must match
``observe`` entry for entry in every position random play reaches, at every player count.
"""

import numpy as np
import pytest

from stonk_envs import vector
from stonk_envs.vector.batch_ops import RNG_DTYPE, random_actions

PLAYER_COUNTS = {"stockpile": (3, 4, 5), "stocks_and_bombs": (4, 6), "stonk_market": (3, 6)}
CASES = [(game, n) for game, counts in PLAYER_COUNTS.items() for n in counts]


@pytest.mark.parametrize(("game", "num_players"), CASES)
def test_observe_all_matches_observe_of_each_seat(game, num_players):
    engine = vector.make(game, 16, num_players=num_players, observe="actors")
    engine.reset(seed=num_players)
    stream = np.zeros(1, RNG_DTYPE)
    stream[0]["rng"] = 11
    actions = np.zeros((16, num_players), np.int64)
    every = np.full((num_players, engine.obs_size), -7.0, np.float32)
    each = np.zeros_like(every)
    positions = 0
    for _ in range(150):
        random_actions(stream[0], engine.masks, actions)
        engine.step(actions)
        for i in range(16):
            every[:] = -7.0  # stale values must all be overwritten
            engine.game.observe_all(engine.states, i, every)
            for seat in range(num_players):
                engine.game.observe(engine.states, i, seat, each[seat])
            np.testing.assert_array_equal(every, each)
            positions += 1
    assert positions == 150 * 16
    # the views differ between seats, so a copied row would have been caught
    assert not np.array_equal(every[0], every[1])
