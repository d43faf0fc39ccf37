"""Prioritised fictitious self-play (``league.pfsp_power``): the learner's results against each past
member, and the draw of the ``past`` seats they weight."""

import numpy as np
import pytest
import torch

from stonk_envs import vector
from stonk_envs.policies.seats import LEARNER
from stonk_envs.training.config import load_config
from stonk_envs.training.league.draw import SeatDraw
from stonk_envs.training.league.pfsp import PastResults
from stonk_envs.training.league.snapshots import Snapshots
from stonk_envs.training.ppo.network import ActorCritic
from stonk_envs.training.ppo.rollout import Rollouts


def test_each_game_moves_its_members_win_rates_towards_the_learners_result():
    results = PastResults(power=2.0, num_players=4)
    results.record(np.array([7, 7, 9]), learner_won=1.0)  # a member in two seats counts once
    assert results.win_rate == pytest.approx({7: 0.265, 9: 0.265})  # 0.25 + 0.02 * (1 - 0.25)
    results.record(np.array([9]), learner_won=0.0)
    assert results.win_rate[9] == pytest.approx(0.2597)  # 0.265 - 0.02 * 0.265
    weights = np.array([0.735**2, 0.7403**2, 0.75**2])  # member 11 has no games: the equal share 1/4
    np.testing.assert_allclose(results.probabilities([7, 9, 11]), weights / weights.sum())
    results.forget([9, 11])
    assert list(results.win_rate) == [9]


def test_power_zero_draws_evenly_and_keeps_no_results():
    results = PastResults(power=0.0, num_players=4)
    results.record(np.array([3]), learner_won=1.0)
    assert results.probabilities([3, 5]) is None
    assert results.win_rate == {}


def make_rollouts(num_envs, power, seed=0):
    engine = vector.make("stonk_market", num_envs, num_players=4, observe="actors", parallel=False)
    torch.manual_seed(seed)
    net = ActorCritic(engine.obs_size, engine.num_actions, [16], None)
    snapshots = Snapshots(3)
    for step in (100, 200):
        snapshots.add(step, net.actor)
    rng = np.random.default_rng(seed)
    seats = SeatDraw({"current": 0.25, "past": 0.75}, snapshots, "stonk_market", 4, rng, pfsp_power=power)
    rollouts = Rollouts(engine, net, seats, rng, torch.Generator().manual_seed(seed), torch.device("cpu"))
    return rollouts


def test_past_seats_go_mostly_to_the_member_that_beats_the_learner():
    rollouts = make_rollouts(2000, power=2.0)
    rollouts.seats.past_results.win_rate = {100: 0.9, 200: 0.1}  # the learner beats 100, 200 beats it
    rollouts.deal(0)
    past = rollouts.holder[rollouts.holder != LEARNER]
    assert np.mean(past == 100) == pytest.approx(0.1**2 / (0.1**2 + 0.9**2), abs=0.01)  # 0.012
    even = make_rollouts(2000, power=0.0)
    even.deal(0)
    assert np.mean(even.holder[even.holder != LEARNER] == 100) == pytest.approx(0.5, abs=0.03)


def test_finished_games_are_recorded_and_survive_the_saved_state():
    rollouts = make_rollouts(16, power=1.0)
    rollouts.deal(0)
    rollouts.collect(200)
    assert set(rollouts.seats.past_results.win_rate) == {100, 200}
    assert all(0.0 <= x <= 1.0 and x != 0.25 for x in rollouts.seats.past_results.win_rate.values())
    restored = make_rollouts(16, power=1.0)
    restored.load_state_dict(rollouts.state_dict())
    assert restored.seats.past_results.win_rate == rollouts.seats.past_results.win_rate


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (["ppo.league.pfsp_power=-1"], r"ppo.league.pfsp_power must be"),
        (["league.pfsp_power=2"], "league.pfsp_power is now ppo.league.pfsp_power"),
    ],
)
def test_config_errors_name_the_key(overrides, message):
    with pytest.raises(ValueError, match=message):
        load_config(None, overrides)
