"""Self-play on RLlib: a league of modules matched to seats through ``policy_mapping_fn``.

One shared learner module, ``"main"``, plays one seat of every game (drawn per game) and,
with weight ``current``, each other seat too, learning from all of them. Every other seat is a
league member drawn per seat, a :class:`~stonk_envs.policies.seats.SeatHolder` played by the module
:func:`module_id` names: the ``"heuristic"`` and ``"random"`` players, or a frozen snapshot
``"main_v<k>"`` of the learner (the past member numbered ``k``), taken every ``snapshot_iterations``
training iterations by :class:`LeagueCallback` (the oldest dropped beyond ``max_snapshots``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

from stonk_envs.policies.seats import KIND_HOLDERS, SeatHolder, SeatKind

LEARNER = "main"


def module_id(holder: SeatHolder) -> str:
    """The RLlib module that plays ``holder``: the learner, its numbered snapshot, or a built-in player."""
    if holder.kind is SeatKind.LEARNER:
        return LEARNER
    if holder.kind is SeatKind.PAST:
        return f"{LEARNER}_v{holder.number}"
    return holder.key


@dataclass
class LeagueMapping:
    """The ``policy_mapping_fn``: which module plays each agent of a game (fixed per game).

    ``weights`` are the draw weights of the opponent kinds ``current``, ``heuristic``, ``random``
    and ``past`` (shared equally by the snapshots, numbered in ``snapshots``; given to ``random``
    while there is none).
    """

    agents: list[str]
    weights: dict[str, float]
    snapshots: list[int] = field(default_factory=list)

    def __call__(self, agent_id, episode, **kwargs) -> str:
        rng = random.Random(f"{episode.id_}")  # one stream per game: every agent sees the same draws
        learner_seat = rng.randrange(len(self.agents))
        draws = [rng.random() for _ in self.agents]
        seat = self.agents.index(agent_id)
        if seat == learner_seat:
            return LEARNER
        return module_id(self._member(draws[seat], random.Random(f"{episode.id_}/{seat}")))

    def _member(self, u: float, rng: random.Random) -> SeatHolder:
        kinds = {
            "current": self.weights["current"],
            "heuristic": self.weights["heuristic"],
            "random": self.weights["random"] + (0.0 if self.snapshots else self.weights["past"]),
            "past": self.weights["past"] if self.snapshots else 0.0,
        }
        total = sum(kinds.values())
        for kind, weight in kinds.items():
            u -= weight / total
            if u < 0 and weight > 0:
                return SeatHolder(SeatKind.PAST, rng.choice(self.snapshots)) if kind == "past" else KIND_HOLDERS[kind]
        return KIND_HOLDERS["random"]


class LeagueCallback(RLlibCallback):
    """Logs the learner's win rate per game and grows the league with frozen snapshots."""

    def __init__(self, mapping: LeagueMapping, snapshot_every: int, max_snapshots: int):
        super().__init__()
        self.mapping = mapping
        self.snapshot_every = snapshot_every
        self.max_snapshots = max_snapshots
        self.taken = 0

    def on_episode_end(self, *, episode, metrics_logger=None, **kwargs) -> None:
        """A game won (alone or shared: a positive return) by a learner seat counts as a win."""
        if metrics_logger is None or not episode.is_terminated:
            return
        modules = {agent_id: episode.module_for(agent_id) for agent_id in episode.agent_ids}
        for agent_id, module in modules.items():
            if module == LEARNER:
                won = float(episode.agent_episodes[agent_id].get_return() > 0)
                metrics_logger.log_value("learner_win_rate", won, reduce="mean", window=200)
                break

    def on_train_result(self, *, algorithm, result, **kwargs) -> None:
        if self.snapshot_every >= 1 and algorithm.iteration % self.snapshot_every == 0:
            self._snapshot(algorithm)
        result["league_snapshots"] = len(self.mapping.snapshots)

    def _snapshot(self, algorithm) -> None:
        """Freeze the learner's current weights as a new league member, on the learner and every env runner.

        The weights come from the learner group (where ``main`` trains) and are set on every env
        runner directly: RLlib's ``sync_weights`` sends them without waiting and skips a remote
        runner that still has a request in flight, which left remote runners playing a freshly
        initialised network under the snapshot's name.
        """
        self.taken += 1
        new_id = module_id(SeatHolder(SeatKind.PAST, self.taken))
        spec = RLModuleSpec.from_module(algorithm.get_module(LEARNER))
        self.mapping.snapshots.append(self.taken)
        algorithm.add_module(module_id=new_id, module_spec=spec, new_agent_to_module_mapping_fn=self.mapping)
        algorithm.set_state({"learner_group": {"learner": {"rl_module": {new_id: learner_weights(algorithm)}}}})
        frozen = learner_weights(algorithm, inference_only=True)
        algorithm.env_runner_group.foreach_env_runner(lambda runner: runner.module[new_id].set_state(frozen))
        if len(self.mapping.snapshots) > self.max_snapshots:
            oldest = module_id(SeatHolder(SeatKind.PAST, self.mapping.snapshots.pop(0)))
            algorithm.remove_module(oldest, new_agent_to_module_mapping_fn=self.mapping)


def learner_weights(algorithm, module_id: str = LEARNER, inference_only: bool = False) -> dict:
    """A trained module's weights as the learner group holds them (not an env runner's copy)."""
    state = algorithm.learner_group.get_state(components=f"learner/rl_module/{module_id}",
                                              inference_only=inference_only)
    return state["learner"]["rl_module"][module_id]
