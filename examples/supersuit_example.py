"""SuperSuit: a game's Parallel env as a vector env of seats, trained with Stable-Baselines3 PPO.

Each seat of each game is one slot of the vector env, so one policy plays every seat. SB3's
PPO does not mask: an illegal action is void (``illegal_action="void"``, the Parallel env's
default) and the seat does nothing that step; the mask is part of the observation.
"""

import sys

import numpy as np
import pettingzoo
import supersuit as ss
from stable_baselines3 import PPO

import stonk_envs  # noqa: F401  (registers the ids)

game = sys.argv[1] if len(sys.argv) > 1 else "stocks_and_bombs"
env = pettingzoo.make("parallel", f"stonk_envs/{game}-v1", num_players=4)
vec_env = ss.pettingzoo_env_to_vec_env_v1(env)  # 4 slots: the seats of one game
vec_env = ss.concat_vec_envs_v1(vec_env, 2, num_cpus=0, base_class="stable_baselines3")  # 2 games, 8 slots

obs = vec_env.reset()
masks = obs["action_mask"]
assert masks.shape[0] == 8 and masks.any(axis=1).all(), "every live seat has a legal action"
random_legal = (np.random.default_rng(0).random(masks.shape) * masks).argmax(axis=1)
vec_env.step(random_legal)

model = PPO("MultiInputPolicy", vec_env, n_steps=32, batch_size=64, n_epochs=1)
model.learn(total_timesteps=256)
print(f"{game}: PPO trained {model.num_timesteps} seat steps on {vec_env.num_envs} slots")
