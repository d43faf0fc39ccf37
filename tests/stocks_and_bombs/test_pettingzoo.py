"""PettingZoo's own test suite over the registry ids, for 4, 5 and 6 players."""

import pettingzoo
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, render_test, seed_test

import stonk_envs  # noqa: F401  (registers the ids)
from stonk_envs import stocks_and_bombs_v1

ENV_ID = "stonk_envs/stocks_and_bombs-v1"
PLAYERS = [4, 5, 6]


@pytest.mark.parametrize("n", PLAYERS)
def test_api_test(n):
    api_test(pettingzoo.make("aec", ENV_ID, num_players=n), num_cycles=300)
    api_test(stocks_and_bombs_v1.raw_env(num_players=n), num_cycles=300)


@pytest.mark.parametrize("n", PLAYERS)
def test_parallel_api_test(n):
    parallel_api_test(pettingzoo.make("parallel", ENV_ID, num_players=n), num_cycles=300)


@pytest.mark.parametrize("n", PLAYERS)
def test_seed_test(n):
    seed_test(lambda: pettingzoo.make("aec", ENV_ID, num_players=n), num_cycles=100)


@pytest.mark.parametrize("n", PLAYERS)
def test_parallel_seed_test(n):
    parallel_seed_test(lambda: pettingzoo.make("parallel", ENV_ID, num_players=n), num_cycles=100)


@pytest.mark.parametrize("n", PLAYERS)
def test_render_test(n):
    render_test(lambda render_mode=None: pettingzoo.make("aec", ENV_ID, num_players=n, render_mode=render_mode))


def test_spaces_are_cached_and_sized_by_player_count():
    env = stocks_and_bombs_v1.parallel_env(num_players=6)
    assert env.action_space("player_0") is env.action_space("player_3")
    assert env.observation_space("player_1") is env.observation_space("player_1")
    assert env.action_space("player_0").n == 331
    assert stocks_and_bombs_v1.parallel_env(num_players=4).action_space("player_0").n == 149
