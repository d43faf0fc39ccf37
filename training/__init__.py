"""Self-play training of stonk_envs policies with sb3-contrib's MaskablePPO.

- :mod:`training.config`: the config schema and its YAML loader.
- :mod:`training.selfplay`: the learner's single-seat ``VecEnv`` view of N games (PettingZoo envs).
- :mod:`training.engine_selfplay`: the same view over one batched engine (``env_backend: engine``).
- :mod:`training.league`: the opponents (learner snapshots, heuristic, random).
- :mod:`training.trainer`: training, checkpoints, resume and evaluation.
- :mod:`training.cli`: the ``stonk-envs train`` subcommand.
"""
