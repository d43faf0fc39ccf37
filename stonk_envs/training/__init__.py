"""Self-play training of stonk_envs policies: the batched PPO trainer or sb3-contrib's MaskablePPO.

- :mod:`stonk_envs.training.config`: the config schema (common keys, then the ``ppo`` and ``sb3`` sections) and
  its YAML loader; :mod:`stonk_envs.training.config_shape` translates configs saved in the earlier shape.
- :mod:`stonk_envs.training.run_loop`: the run loop both trainers share (schedule, checkpoints, evaluation,
  keeping, finishing).
- :mod:`stonk_envs.training.crossplay_curve` and :mod:`stonk_envs.training.exploit_curve`: cross-play and
  exploitability of a run's checkpoints, measured by the run loop.
- :mod:`stonk_envs.training.ppo`: the batched trainer (``trainer: ppo``, every seat the learner holds is a sample).
- :mod:`stonk_envs.training.sb3_run`: sb3-contrib's MaskablePPO (``trainer: sb3``) on the single-seat view.
- :mod:`stonk_envs.training.sb3_league_env`: that single-seat ``VecEnv`` of N games on one batched engine, with the
  league at the other seats.
- :mod:`stonk_envs.training.league`: the league: snapshots, PFSP, the draw of seat holders, and the sb3 trainer's
  opponents.
- :mod:`stonk_envs.training.trainer`: ``train`` and ``resume``, whatever the trainer.
- :mod:`stonk_envs.training.cli`: the ``stonk-envs train`` subcommand.
"""
