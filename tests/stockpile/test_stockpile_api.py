"""PettingZoo conformance, illegal actions, the Parallel form, config errors and rendering."""

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, render_test, seed_test

import stonk_envs  # noqa: F401  (registers the ids)
from stonk_envs import stockpile_v1 as m
from stonk_envs.games.stockpile import StockpileConfig

COUNTS = (3, 4, 5)


@pytest.mark.parametrize("n", COUNTS)
def test_api_test(n):
    api_test(m.env(num_players=n), num_cycles=300)
    api_test(m.raw_env(num_players=n), num_cycles=300)


@pytest.mark.parametrize("n", COUNTS)
def test_parallel_api_test(n):
    parallel_api_test(m.parallel_env(num_players=n), num_cycles=1000)


@pytest.mark.parametrize("n", COUNTS)
def test_seed_tests(n):
    seed_test(lambda: m.env(num_players=n))
    parallel_seed_test(lambda: m.parallel_env(num_players=n))


@pytest.mark.parametrize("n", COUNTS)
def test_render_test(n):
    render_test(lambda render_mode=None: m.env(num_players=n, render_mode=render_mode))


def test_registry_ids():
    aec = pettingzoo.make("aec", "stonk_envs/stockpile-v1", num_players=5)
    aec.reset(seed=1)
    assert aec.num_agents == 5
    par = pettingzoo.make("parallel", "stonk_envs/stockpile-v1", num_players=3)
    observations, _ = par.reset(seed=1)
    assert set(observations) == {"player_0", "player_1", "player_2"}


def test_spaces_and_sizes():
    env = m.raw_env(num_players=4)
    env.reset(seed=0)
    assert env.action_space("player_0").n == 2 * 16 + 8 * 4 + 12 + 19 + 22
    memory = 4 * (38 + 4 * 4) + 18 + 2 * 6 * (9 + 4) + 10 * (3 * 6 + 7 * 4)
    assert env.observation_space("player_0")["observation"].shape == (123 + 104 * 4 + 16 + memory,)
    assert env.state().shape == env.state_space.shape
    without = m.raw_env(num_players=4, memory=False)
    assert without.observation_space("player_0")["observation"].shape == (123 + 104 * 4 + 16,)


def test_illegal_action_raises_and_changes_nothing():
    env = m.raw_env(num_players=3)
    env.reset(seed=5)
    for _ in range(3):  # finish the supply phase
        env.step(0)
    agent = env.agent_selection
    env.table.states["cash"][0][env.table.seat_of[agent]] = 2
    env.table.state_edited()
    before = env.table.states.copy()
    bid_6 = 2 * 9 + 3  # track 0, $6K
    expected = rf"{agent}: action {bid_6} \(bid \$6K on pile 0\) is illegal: the bid \$6K is above"
    with pytest.raises(ValueError, match=expected):
        env.step(bid_6)
    assert env.table.states.tobytes() == before.tobytes()
    assert env.agent_selection == agent
    with pytest.raises(ValueError, match="a selling action is not allowed in the demand phase"):
        env.step(2 * 9 + 8 * 3 + 12 + 18)
    with pytest.raises(ValueError, match="outside"):
        env.step(10_000)
    assert env.table.states.tobytes() == before.tobytes()


def test_parallel_uses_only_the_deciding_seat():
    a = m.parallel_env(num_players=3)
    b = m.parallel_env(num_players=3)
    obs_a, _ = a.reset(seed=9)
    b.reset(seed=9)
    rng = np.random.default_rng(0)
    while a.agents:
        actors = a.acting_agents
        assert len(actors) == 1
        actor = actors[0]
        action = int(rng.choice(np.flatnonzero(obs_a[actor]["action_mask"])))
        noisy = {agent: (action if agent == actor else 0) for agent in a.agents}
        obs_a, rew_a, term_a, _, _ = a.step(noisy)
        last = b.action_space(actor).n - 1  # in the action space, illegal for a waiting seat
        _, rew_b, term_b, _, _ = b.step({actor: action, **{x: last for x in b.agents if x != actor}})
        assert rew_a == rew_b and term_a == term_b
    assert a.state().tobytes() == b.state().tobytes()
    b.reset(seed=9)
    waiting = [x for x in b.agents if x not in b.acting_agents]
    with pytest.raises(ValueError, match="outside the action space"):
        b.step({agent: 10_000 for agent in waiting})


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"num_players": 6}, "num_players"),
        ({"num_players": 2}, "num_players"),
        ({"bid_values": (1, 3, 6)}, "bid_values must start at 0"),
        ({"bid_values": (0, 3, 3)}, "strictly increase"),
        ({"rounds": 9}, "need 108 market cards"),
        ({"start_price": 11}, "start_price"),
        ({"reward_mode": "points"}, "reward_mode"),
        ({"reward_scale": 0}, "reward_scale"),
        ({"colour": 1}, "unknown option"),
    ],
)
def test_config_errors(options, message):
    with pytest.raises(ValueError, match=message):
        m.raw_env(**options)


def test_config_defaults_are_the_rulings():
    c = StockpileConfig()
    assert (c.num_players, c.num_rounds, c.starting_cash, c.deck_size) == (4, 6, 20, 80)
    assert c.bid_values == (0, 1, 3, 6, 10, 15, 20, 25)
    assert [StockpileConfig(num_players=n).num_rounds for n in COUNTS] == [7, 6, 5]


def test_render_from_a_seat_hides_other_hands():
    env = m.raw_env(num_players=3, render_mode="ansi", render_seat=1)
    env.reset(seed=2)
    text = env.render()
    lines = {line.split(":")[0].split(" ")[0]: line for line in text.splitlines() if line.startswith("player_")}
    assert "hand" in lines["player_1"] and "hand" not in lines["player_0"]
    assert "regular card(s)" in lines["player_0"]
    assert "prices" in text and "pile 0" in text and "cash $20K" in text
    full = m.raw_env(num_players=3, render_mode="ansi")
    full.reset(seed=2)
    assert full.render().count("hand") == 3
