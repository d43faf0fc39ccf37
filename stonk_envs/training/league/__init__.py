"""The league: who holds the seats that the learner does not (each a
:class:`~stonk_envs.policies.seats.SeatHolder`).

- :mod:`~stonk_envs.training.league.snapshots`: frozen copies of the learner's actor.
- :mod:`~stonk_envs.training.league.pfsp`: the learner's results against them, and the draw they set.
- :mod:`~stonk_envs.training.league.draw`: the draw of each new game's seat holders, and the fixed players.
- :mod:`~stonk_envs.training.league.opponents`: the league of the sb3 trainer and single-seat self-play.
"""
