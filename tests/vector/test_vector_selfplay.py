"""The single-seat self-play views: SB3 VecEnv checks, Gymnasium vector env, MaskablePPO."""

import numpy as np
import pytest
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecCheckNan

from stonk_envs import vector
from stonk_envs.policies.base import Policy, RandomPolicy
from stonk_envs.policies.seats import LEARNER, RANDOM, SeatHolder, SeatKind
from stonk_envs.vector.gym_vector import EngineVectorEnv
from stonk_envs.vector.sb3_selfplay import SelfPlayVecEnv
from stonk_envs.vector.selfplay import SelfPlay

SHORT = {"num_players": 4, "tick_cap": 3, "round_cap": 1}


def first_legal(masks):
    return np.asarray(masks).argmax(axis=1)


class WaitPolicy(Policy):
    """Always the first legal action: WAIT, so games run to the tick cap."""

    def act(self, observations, masks, rng):
        return first_legal(masks)


class RecordingPolicy(Policy):
    """Random, and remembers the batch sizes it was asked for."""

    def __init__(self):
        self.sizes = []

    def act(self, observations, masks, rng):
        self.sizes.append(len(masks))
        return RandomPolicy().act(observations, masks, rng)


def test_vec_env_passes_the_sb3_vec_env_checks():
    venv = SelfPlayVecEnv(vector.make("stocks_and_bombs", 6, **SHORT), opponent=WaitPolicy(), seed=0)
    assert is_masking_supported(venv)
    venv.seed(5)
    obs = venv.reset()
    assert obs.shape == (6, 854) and obs.dtype == np.float32  # Stocks & Bombs with its public memory
    assert all(venv.observation_space.contains(row) for row in obs)
    engine = venv.selfplay.engine
    np.testing.assert_array_equal(obs, engine.obs[np.arange(6), np.arange(6) % 4])
    masks = get_action_masks(venv)
    assert masks.shape == (6, 149) and masks.dtype == np.bool_
    checked = VecCheckNan(venv, raise_exception=True)
    ended = 0
    for step in range(6):
        obs, rewards, dones, infos = checked.step(first_legal(get_action_masks(venv)))
        assert rewards.shape == (6,) and rewards.dtype == np.float32
        assert dones.shape == (6,) and dones.dtype == np.bool_
        assert isinstance(infos, list) and len(infos) == 6
        assert dones.all() == (step % 3 == 2)
        for i in np.flatnonzero(dones):
            ended += 1
            assert venv.observation_space.contains(infos[i]["terminal_observation"])
            assert infos[i]["episode"]["l"] == 3
            assert infos[i]["episode"]["r"] == pytest.approx(rewards[i])
        assert all(venv.observation_space.contains(row) for row in obs)
    assert ended == 12
    assert venv.get_attr("render_mode") == [None] * 6
    assert venv.env_is_wrapped(object, indices=[0, 1]) == [False, False]


def test_vec_env_reset_with_a_seed_is_reproducible():
    runs = []
    for opponent_seed in (1, 2):
        venv = SelfPlayVecEnv(vector.make("stocks_and_bombs", 3, num_players=5), seed=opponent_seed)
        venv.seed(42)
        trace = [venv.reset().copy()]
        for _ in range(5):
            trace.append(venv.step(first_legal(venv.action_masks()))[0].copy())
        runs.append(np.stack(trace))
    np.testing.assert_array_equal(*runs)


def test_opponents_play_every_other_seat():
    opponent = RecordingPolicy()
    view = SelfPlay(vector.make("stocks_and_bombs", 5, num_players=6), opponent=opponent, learner_seat=2)
    view.reset(seed=0)
    obs, masks = view.learner_obs()
    np.testing.assert_array_equal(obs, view.engine.obs[:, 2])
    view.step(first_legal(masks))
    # 5 games x 5 opponent seats, all acting in a tick
    assert opponent.sizes == [25]
    with pytest.raises(ValueError, match=r"learner_seat must be 0\.\.5, got 6"):
        SelfPlay(view.engine, learner_seat=6)
    with pytest.raises(ValueError, match="expected 5 actions"):
        view.step(np.zeros(4, np.int64))


def test_league_members_play_the_seats_assigned_to_them():
    first, second = RecordingPolicy(), RecordingPolicy()
    view = SelfPlay(vector.make("stocks_and_bombs", 5, num_players=4), learner_seat=0)
    heuristic, past = SeatHolder(SeatKind.BUILT_IN).code, SeatHolder(SeatKind.PAST, 7).code
    view.seat_players(np.tile([LEARNER, past, heuristic, past], (5, 1)), {heuristic: first, past: second})
    view.reset(seed=0)
    view.step(first_legal(view.learner_obs()[1]))
    # seat 2 of each game is the first member's, seats 1 and 3 the second's
    assert (first.sizes, second.sizes) == ([5], [10])
    with pytest.raises(ValueError, match=r"no player for the seat holder codes \[-2\]"):
        view.seat_players(np.full((5, 4), RANDOM), {heuristic: first})
    with pytest.raises(ValueError, match="shape"):
        view.seat_players(np.zeros((5, 3), np.int64), {0: first})


def test_rotating_learner_seats_move_on_at_each_new_game():
    venv = SelfPlayVecEnv(vector.make("stocks_and_bombs", 5, **SHORT), opponent=WaitPolicy(), rotate_seats=True)
    obs = venv.reset()
    for step in range(6):
        obs, _, dones, _ = venv.step(first_legal(venv.action_masks()))
        games = (step + 1) // 3
        seats = (np.arange(5) + games) % 4
        assert venv.selfplay.seats.tolist() == seats.tolist() and dones.all() == (step % 3 == 2)
        np.testing.assert_array_equal(obs, venv.selfplay.engine.obs[np.arange(5), seats])
        assert (venv.selfplay.is_opponent.sum(axis=1) == 3).all()
        assert not venv.selfplay.is_opponent[np.arange(5), seats].any()


class TurnEngine:
    """A stand-in turn-based engine: 2 seats alternate; a game ends after 4 turns, paying
    seat 0 +1 and seat 1 -1 on its last turn (and seat 1 ``opening`` on seat 0's first move)."""

    def __init__(self, num_envs, opening=0.0):
        self.num_envs, self.num_players, self.num_actions, self.obs_size = num_envs, 2, 2, 1
        self.opening = opening
        self.turn = np.zeros(num_envs, np.int64)
        self.rewards = np.zeros((num_envs, 2), np.float32)
        self.terminated = np.zeros(num_envs, np.bool_)
        self.final_obs = np.zeros((num_envs, 2, 1), np.float32)
        self.masks = np.ones((num_envs, 2, 2), np.int8)
        self.views()

    def views(self):
        self.actors = np.zeros((self.num_envs, 2), np.bool_)
        self.actors[np.arange(self.num_envs), self.turn % 2] = True
        self.obs = np.repeat(self.turn[:, None, None], 2, axis=1).astype(np.float32)

    def reset(self, seed):
        self.turn[:] = 0
        self.views()

    def step(self, joint, active=None):
        active = np.ones(self.num_envs, np.bool_) if active is None else active
        assert ((joint >= 0) == (self.actors & active[:, None])).all()
        self.turn += active
        self.terminated = self.turn == 4
        self.rewards[:] = np.where(self.terminated[:, None], [1.0, -1.0], 0.0)
        self.rewards[:, 1] += np.where(active & (self.turn == 1), self.opening, 0.0)
        self.final_obs[self.terminated] = 4.0
        self.turn[self.terminated] = 0
        self.views()


def test_a_turn_based_learner_skips_the_opponents_turns():
    view = SelfPlay(TurnEngine(2), learner_seat=1)
    view.reset(seed=0)
    # seat 0 moved first, inside reset: the learner sees turn 1
    assert view.learner_obs()[0][:, 0].tolist() == [1.0, 1.0]
    rewards, done, _ = view.step(np.zeros(2, np.int64))
    assert view.learner_obs()[0][:, 0].tolist() == [3.0, 3.0] and not done.any()
    rewards, done, final_obs = view.step(np.zeros(2, np.int64))
    # the learner's move ended the game (-1 to seat 1); the opponent opened the next one
    assert done.all() and rewards.tolist() == [-1.0, -1.0]
    assert final_obs[:, 0].tolist() == [4.0, 4.0]
    assert view.learner_obs()[0][:, 0].tolist() == [1.0, 1.0]


def test_the_next_game_counts_from_the_learners_first_decision():
    view = SelfPlay(TurnEngine(2, opening=0.5), learner_seat=1)
    view.reset(seed=0)
    assert (view.steps_played, view.opponent_calls) == (2, 1)  # the opponents' opening moves
    rewards, done, _ = view.step(np.zeros(2, np.int64))
    # the learner's move and the opponents' reply in both games, one call for both replies
    assert rewards.tolist() == [0.0, 0.0] and (view.steps_played, view.opponent_calls) == (6, 2)
    rewards, done, _ = view.step(np.zeros(2, np.int64))
    # the game ends at -1; the next game's opening move pays the learner seat 0.5 before it
    # decides: that is not part of the ended game's transition
    assert done.all() and rewards.tolist() == [-1.0, -1.0]
    assert view.pop_episodes(done)[0]["r"] == -1.0
    assert (view.steps_played, view.opponent_calls) == (10, 3)


def test_gymnasium_vector_env_same_step_autoreset():
    venv = EngineVectorEnv(4, "stocks_and_bombs", opponents=WaitPolicy(), autoreset_mode="SameStep", **SHORT)
    assert venv.single_action_space == spaces.Discrete(149)
    obs, info = venv.reset(seed=3)
    assert venv.observation_space.contains(obs)
    for step in range(3):
        obs, rewards, terminations, truncations, infos = venv.step(first_legal(info["action_mask"]))
        info = infos
        assert venv.observation_space.contains(obs)
        assert not truncations.any() and terminations.all() == (step == 2)
    assert infos["_final_obs"].all()
    for i in range(4):
        final = infos["final_obs"][i]
        assert venv.single_observation_space.contains(final)
        assert final[160] == 1  # the round entry
    # a four-way tie at 0 points pays nobody
    assert rewards.shape == (4,) and (rewards == 0).all()


def test_maskable_ppo_learns_on_the_vec_env():
    venv = SelfPlayVecEnv(vector.make("stocks_and_bombs", 4, **SHORT), opponent=WaitPolicy(), seed=0)
    model = MaskablePPO("MlpPolicy", venv, n_steps=12, batch_size=24, n_epochs=1, seed=0, device="cpu")
    model.learn(96)
    assert model.num_timesteps == 96
    # 96 steps over 4 slots of games of at most 3 steps: at least 32 reached the episode log
    assert len(model.ep_info_buffer) >= 32
    assert all(1 <= info["l"] <= 3 for info in model.ep_info_buffer)
    actions, _ = model.predict(venv.reset(), action_masks=venv.action_masks())
    assert venv.action_masks()[np.arange(4), actions].all()


@pytest.mark.parametrize("game", ["stockpile", "stonk_market"])
def test_the_learner_may_act_at_every_view_step(game):
    # every seat the views read acts, so observing only the acting seats is enough
    venv = SelfPlayVecEnv(vector.make(game, 4, num_players=3, observe="actors"), seed=0)
    venv.seed(1)
    obs = venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(60):
        masks = venv.action_masks()
        assert masks.any(axis=1).all() and (np.abs(obs).sum(axis=1) > 0).all()
        assert all(venv.observation_space.contains(row) for row in obs)
        obs, _, dones, infos = venv.step((rng.random(masks.shape) * masks).argmax(axis=1))
        assert all("terminal_observation" in infos[i] for i in np.flatnonzero(dones))
    assert venv.selfplay.engine.states.shape == (4,)
