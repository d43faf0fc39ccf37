"""Every game's observations and bounds, bit for bit, against digests recorded from the code.

Seeded random play in the batched engine, for every game, player count and memory setting:
the digest covers every row the engine writes each step (the incremental all-seat writer),
each seat's own ``observe`` of the same states, the final observations of ended games, and
the observation bounds under the default config and under one with other options. A change
to any observation entry changes a digest; a layout change must move the observation
version (``registry.OBSERVATION_VERSION``) and record new digests here.
"""

import hashlib

import numpy as np
import pytest

from stonk_envs import vector
from stonk_envs.vector.batch_ops import RNG_DTYPE, random_actions

NUM_ENVS, STEPS = 4, 400
OTHER_OPTIONS = {
    "stockpile": {"rounds": 3, "starting_cash": 25, "max_price": 9},
    "stocks_and_bombs": {"tick_cap": 7, "points_to_win": 12},
    "stonk_market": {"tick_cap": 9, "num_rounds": 2, "stonks_bonus": 5},
}
PLAYER_COUNTS = {"stockpile": (3, 4, 5), "stocks_and_bombs": (4, 5, 6), "stonk_market": (3, 4, 5, 6)}

DIGESTS = {
    ('stockpile', 3, True): '9639ac7fb38ff912',
    ('stockpile', 3, False): '5e4b45eaaa1d8317',
    ('stockpile', 4, True): 'fc3f6e0fb89280dd',
    ('stockpile', 4, False): '86a265b886c1c3cb',
    ('stockpile', 5, True): '2311cae664bf722c',
    ('stockpile', 5, False): '419918bdb1adda53',
    ('stocks_and_bombs', 4, True): '4dad537e43b2c825',
    ('stocks_and_bombs', 4, False): 'a4e174b8bd8e0c41',
    ('stocks_and_bombs', 5, True): '2c6d4ae3ffed1c0c',
    ('stocks_and_bombs', 5, False): 'dfb6df4676d3b845',
    ('stocks_and_bombs', 6, True): '845bf1aa341524c8',
    ('stocks_and_bombs', 6, False): '665e7d39c3449c99',
    ('stonk_market', 3, True): '8e5538546c189cf8',
    ('stonk_market', 3, False): '09aff89e43559867',
    ('stonk_market', 4, True): 'f77bc56652fc0c36',
    ('stonk_market', 4, False): '408aed03ab778e1a',
    ('stonk_market', 5, True): '8546d2e46e5e6fdb',
    ('stonk_market', 5, False): '17f5e23bcb5e6f85',
    ('stonk_market', 6, True): 'ce8d73565c547b9f',
    ('stonk_market', 6, False): '266682e52477965f',
}

CASES = [(game, n, memory) for game, counts in PLAYER_COUNTS.items() for n in counts for memory in (True, False)]


def play_digest(game: str, num_players: int, memory: bool) -> str:
    """The digest of seeded random play and of the bounds (see the module docstring)."""
    digest = hashlib.sha256()
    engine = vector.make(game, NUM_ENVS, num_players=num_players, memory=memory, parallel=False)
    for bound in engine.game.observation_bounds:
        digest.update(bound.tobytes())
    other = vector.make(game, 1, num_players=num_players, memory=memory, **OTHER_OPTIONS[game])
    for bound in other.game.observation_bounds:
        digest.update(bound.tobytes())
    obs, _ = engine.reset(seed=num_players + 10 * memory)
    stream = np.zeros(1, RNG_DTYPE)
    stream[0]["rng"] = 5
    actions = np.zeros((NUM_ENVS, num_players), np.int64)
    each = np.zeros(engine.obs_size, np.float32)
    for _ in range(STEPS):
        random_actions(stream[0], engine.masks, actions)
        obs, _, _, terminated = engine.step(actions)
        digest.update(obs.tobytes())
        digest.update(engine.final_obs[terminated].tobytes())
        for i in range(NUM_ENVS):
            for seat in range(num_players):
                engine.game.observe(engine.states, i, seat, each)
                digest.update(each.tobytes())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize(("game", "num_players", "memory"), CASES)
def test_observations_match_the_recorded_digest(game, num_players, memory):
    assert play_digest(game, num_players, memory) == DIGESTS[game, num_players, memory]
