"""The batched PPO trainer (``trainer: ppo``): every seat the policy holds in every game learns.

- :mod:`training.ppo.gae`: advantages per seat over irregular turns.
- :mod:`training.ppo.normaliser`: running observation statistics.
- :mod:`training.ppo.network`: the actor-critic (its actor is the saved :class:`MaskedMLP`).
- :mod:`training.ppo.rollout`: playing a rollout on the batched engine, with league seats.
- :mod:`training.ppo.update`: the clipped PPO update.
- :mod:`training.ppo.crossplay`: cross-play leagues of a run's checkpoints and their rating curve.
- :mod:`training.ppo.run`: the run (checkpoints, resume, evaluation), as :class:`training.trainer.Run`.
"""
