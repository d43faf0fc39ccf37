"""The batched PPO trainer (``trainer: ppo``): every seat the policy holds in every game learns.

- :mod:`stonk_envs.training.ppo.gae`: advantages per seat over irregular turns.
- :mod:`stonk_envs.training.ppo.normaliser`: running observation statistics.
- :mod:`stonk_envs.training.ppo.network`: the actor-critic (its actor is the saved :class:`MaskedMLP`).
- :mod:`stonk_envs.training.ppo.rollout`: playing a rollout on the batched engine, with league seats.
- :mod:`stonk_envs.training.ppo.update`: the clipped PPO update.
- :mod:`stonk_envs.training.ppo.run`: its learner in the shared run loop
  (:class:`stonk_envs.training.run_loop.RunLoop`).
"""
