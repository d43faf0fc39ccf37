"""Self-play training of stonk_envs policies: the batched PPO trainer or sb3-contrib's MaskablePPO.

- :mod:`stonk_envs.training.config`: the config schema and its YAML loader.
- :mod:`stonk_envs.training.selfplay`: the learner's single-seat ``VecEnv`` view of N games (PettingZoo envs).
- :mod:`stonk_envs.training.engine_selfplay`: the same view over one batched engine (``env_backend: engine``).
- :mod:`stonk_envs.training.league`: the opponents (learner snapshots, heuristic, random).
- :mod:`stonk_envs.training.trainer`: training, checkpoints, resume and evaluation (``trainer: sb3``), and the
  dispatch to :mod:`stonk_envs.training.ppo` (``trainer: ppo``, every seat the learner holds is a sample).
- :mod:`stonk_envs.training.cli`: the ``stonk-envs train`` subcommand.
"""
