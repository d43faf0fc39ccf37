"""Seat holder codes of the batched rollouts: one integer per seat of every game in play."""

LEARNER, RANDOM, HEURISTIC = -1, -2, -3
"""Seat holder codes; a holder >= 0 is the snapshot taken at that step."""
KIND_CODES = {"current": LEARNER, "random": RANDOM}
HEURISTIC_STRIDE = 100
"""The i-th of ``ppo.league.heuristic_players`` holds code ``HEURISTIC - HEURISTIC_STRIDE * i`` (the first:
``HEURISTIC``, the code of checkpoints that predate the option)."""
