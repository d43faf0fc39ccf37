"""The batched best response: its seats, its two starts, its games against the frozen player."""

import numpy as np
import pytest
import torch

from stonk_envs.policies.base import Policy, RandomPolicy
from stonk_envs.policies.games import game_sizes
from stonk_envs.policies.seats import FROZEN, LEARNER
from stonk_envs.policies.torch_policy import MaskedMLP, TorchPolicy
from stonk_envs.training.best_response import BestResponse, LearnerSetup, play_against
from stonk_envs.training.config import PPOConfig

GAME = "stocks_and_bombs"
TINY_GAME = {"tick_cap": 6, "round_cap": 1}
TINY_PPO = PPOConfig(n_steps=8, batch_size=64, n_epochs=1, net_arch=[16])


def tiny_setup(samples: int = 200, num_envs: int = 4, **env) -> LearnerSetup:
    return LearnerSetup(GAME, 4, {**TINY_GAME, **env}, samples, num_envs, TINY_PPO, "cpu", 1, seed=3)


def frozen_net(seed: int = 0, **env) -> MaskedMLP:
    """A small random network with input statistics, as the batched trainer saves its actor."""
    torch.manual_seed(seed)
    size, actions = game_sizes(GAME, 4, {**TINY_GAME, **env})
    net = MaskedMLP(size, actions, (16,), normalise=True)
    with torch.no_grad():
        net.obs_mean.uniform_(-1, 1)
        net.obs_var.uniform_(0.5, 2.0)
    return net


class Recorder(Policy):
    """Plays uniformly at random and keeps every batch it was asked to play."""

    name = "recorder"

    def __init__(self):
        self.batches: list[np.ndarray] = []
        self.actions: list[np.ndarray] = []
        self.inner = RandomPolicy()

    def act(self, observations, masks, rng):
        self.batches.append(np.array(observations))
        self.actions.append(self.inner.act(observations, masks, rng))
        return self.actions[-1]


def test_every_game_has_one_learner_seat_that_moves_on_game_by_game():
    learner = BestResponse(tiny_setup(num_envs=6), RandomPolicy(), "scratch")
    rollouts = learner.rollouts
    rollouts.deal(1)
    assert (rollouts.holder == LEARNER).sum(axis=1).tolist() == [1] * 6
    assert ((rollouts.holder == LEARNER) | (rollouts.holder == FROZEN)).all()
    assert np.flatnonzero(rollouts.holder[:, :] == LEARNER).tolist() == [g * 4 + g % 4 for g in range(6)]
    seats = {g: [g % 4] for g in range(6)}
    draw = rollouts._draw_holders

    def recording(games):
        draw(games)
        for g in games:
            seats[int(g)].append(int(np.flatnonzero(rollouts.holder[g] == LEARNER)[0]))

    rollouts._draw_holders = recording
    rollouts.collect(40)  # one round of 6 ticks: every slot plays several games
    for g, sequence in seats.items():
        assert len(sequence) >= 4
        assert sequence == [(g + k) % 4 for k in range(len(sequence))]


def test_the_frozen_player_plays_every_other_seat_in_one_call_per_step():
    recorder = Recorder()
    learner = BestResponse(tiny_setup(), recorder, "scratch")
    rollouts, engine = learner.rollouts, learner.engine
    rollouts.deal(2)
    played = []
    step = engine.step

    def recording(joint):
        frozen_seats = rollouts.holder == FROZEN
        played.append((np.array(engine.obs[frozen_seats]), np.array(joint[frozen_seats])))
        return step(joint)

    engine.step = recording
    _, decisions = rollouts.collect(8)
    assert len(recorder.batches) == 8  # every seat decides every tick in Stocks & Bombs: one call each step
    assert [len(b) for b in recorder.batches] == [4 * 3] * 8  # three frozen seats in each of 4 games
    for (obs, joint), seen, chosen in zip(played, recorder.batches, recorder.actions, strict=True):
        assert np.array_equal(obs, seen) and np.array_equal(joint, chosen)  # its seats, its choices
    assert decisions == 4 * 8  # the learner's one seat per game, each step


def test_the_frozen_start_begins_as_the_frozen_policy_and_both_starts_train():
    net = frozen_net()
    frozen = TorchPolicy(net, deterministic=True)
    start = BestResponse(tiny_setup(), frozen, "frozen", net)
    obs = torch.randn(5, net.hparams["observation_size"]) * 3
    masks = torch.ones(5, net.hparams["num_actions"], dtype=torch.int8)
    assert torch.equal(start.actor()(obs, masks), net(obs, masks))
    before = {k: v.clone() for k, v in start.net.actor.state_dict().items()}
    start.train()
    after = start.net.actor.state_dict()
    assert start.step >= 200 and start.curve[-1]["step"] == start.step
    assert torch.equal(after["obs_mean"], before["obs_mean"]) and torch.equal(after["obs_var"], before["obs_var"])
    assert not torch.equal(after["body.0.weight"], before["body.0.weight"])  # PPO moved it after the warm-up
    scratch = BestResponse(tiny_setup(), frozen, "scratch")
    scratch.train()
    assert scratch.step >= 200
    assert not torch.equal(scratch.net.actor.obs_mean, torch.zeros_like(scratch.net.actor.obs_mean))  # fitted


def test_the_frozen_start_needs_a_network_with_statistics():
    with pytest.raises(ValueError, match="frozen start needs"):
        BestResponse(tiny_setup(), RandomPolicy(), "frozen")
    size, actions = game_sizes(GAME, 4, TINY_GAME)
    with pytest.raises(ValueError, match="does not read this game's observations"):
        BestResponse(tiny_setup(), RandomPolicy(), "frozen", MaskedMLP(size, actions, (16,)))
    with pytest.raises(ValueError, match="start must be one of"):
        BestResponse(tiny_setup(), RandomPolicy(), "warm")


def test_play_against_rotates_the_seats_and_plays_each_slot_one_counted_game():
    recorder = Recorder()
    scores, seats = play_against(RandomPolicy(), recorder, GAME, 4, TINY_GAME, 10, seed=4)
    assert seats.tolist() == [g % 4 for g in range(10)]
    assert scores.shape == (10, 4) and np.isfinite(scores).all()
    assert all(len(batch) == 30 for batch in recorder.batches[:6])  # 3 frozen seats of 10 games, every tick
    again, _ = play_against(RandomPolicy(), RandomPolicy(), GAME, 4, TINY_GAME, 10, seed=4)
    assert np.array_equal(scores, again)  # the same seed, the same games
