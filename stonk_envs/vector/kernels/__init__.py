"""One module of batch kernels per game, each over that game's compiled core functions.

Every kernel module exposes the same names: ``GAME`` and ``CONFIG`` (the game's ``Game``
subclass and config dataclass), ``init_args(config)`` (the tuple of arguments its core's
``init`` takes after the seed), and the compiled ``reset_serial``/``reset_parallel`` and
``step_serial``/``step_parallel`` loops described in :mod:`stonk_envs.vector.engine`, and
``state_vectors``.
"""
