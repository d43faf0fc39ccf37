"""Tianshou: a masked DQN learner in seat 0 of a game's AEC env, random players in the others."""

import sys

import pettingzoo
from tianshou.algorithm import DQN
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.utils.net.common import Net
from tianshou.utils.torch_utils import policy_within_training_step

import stonk_envs  # noqa: F401  (registers the ids)

game = sys.argv[1] if len(sys.argv) > 1 else "stocks_and_bombs"


def make_env() -> PettingZooEnv:
    # Tianshou reads the AEC env's {"observation", "action_mask"} (as obs.obs and obs.mask)
    return PettingZooEnv(pettingzoo.make("aec", f"stonk_envs/{game}-v1", num_players=4))


env = make_env()
obs_shape = env.observation_space["observation"].shape
learner = DQN(
    policy=DiscreteQLearningPolicy(
        model=Net(state_shape=obs_shape, action_shape=env.action_space.n, hidden_sizes=[64, 64]),
        action_space=env.action_space,
        eps_training=0.1,
    ),
    optim=AdamOptimizerFactory(lr=1e-3),
    gamma=0.99,
    target_update_freq=100,
)
players = [learner] + [MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in range(3)]
algorithm = MultiAgentOffPolicyAlgorithm(algorithms=players, env=env)
envs = DummyVectorEnv([make_env for _ in range(2)])
buffer = VectorReplayBuffer(2000, len(envs))
collector = Collector(algorithm, envs, buffer, exploration_noise=True)
collector.reset()
for _ in range(3):
    with policy_within_training_step(algorithm.policy):
        stats = collector.collect(n_step=200)
        algorithm.update(sample_size=64, buffer=buffer)
print(f"{game}: collected {len(buffer)} agent steps, {stats.n_collected_episodes} episodes in the last round")
