"""Short games played with the heuristic players, shared by the picture, record and replay tests."""

import numpy as np
import pytest

from stonk_envs import records
from stonk_envs.games_index import game_module
from stonk_envs.policies import make_player

GAMES = ("stockpile", "stonk_market", "stocks_and_bombs")
SHORT = {
    "stockpile": {"rounds": 1},
    "stonk_market": {"tick_cap": 12, "num_rounds": 1},
    "stocks_and_bombs": {"tick_cap": 10, "round_cap": 2},
}


def play_recorded(name: str, seed: int = 0, **config) -> records.GameRecord:
    """A whole game in the Parallel env with heuristic players, recorded."""
    env = game_module(name).parallel_env(**{**SHORT[name], **config})
    recorder = records.record(env, players=["heuristic"] * env.table.game.num_players)
    player = make_player("heuristic", name, env.table.game.num_players)
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    while env.agents:
        actions = {}
        for agent, obs in observations.items():
            mask = obs["action_mask"]
            actions[agent] = int(player.act(obs["observation"][None], mask[None], rng)[0]) if mask.any() else 0
        observations, *_ = env.step(actions)
    return recorder.last


@pytest.fixture(scope="session", params=GAMES)
def game_record(request) -> records.GameRecord:
    return play_recorded(request.param)
