"""Ray RLlib: one shared PPO policy with RLlib's action-masking module plays every seat of a game."""

import sys

from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

from stonk_envs.integrations.rllib_env import StonkMultiAgentEnv

game = sys.argv[1] if len(sys.argv) > 1 else "stocks_and_bombs"
config = (
    PPOConfig()
    # observations {"observations", "action_mask"}, only for the seats that act next
    .environment(StonkMultiAgentEnv, env_config={"game": game, "num_players": 4})
    .env_runners(num_env_runners=0)  # sample in this process; raise it to sample on more cores
    .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kwargs: "shared")
    .rl_module(
        rl_module_spec=MultiRLModuleSpec(
            rl_module_specs={
                "shared": RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config={"fcnet_hiddens": [64]})
            }
        )
    )
    .training(train_batch_size_per_learner=256, minibatch_size=64, num_epochs=1)
)
algorithm = config.build_algo()
result = algorithm.train()
print(f"{game}: {result['env_runners']['num_env_steps_sampled_lifetime']:.0f} env steps sampled and learned from")
algorithm.stop()
