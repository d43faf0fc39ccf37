"""RLlib on the batched engine: each env runner steps its games at once through the Gymnasium ``VectorEnv``.

The env is the game's Gymnasium id, which RLlib builds with ``gymnasium.make_vec`` in
``vector_entry_point`` mode: :class:`~stonk_envs.vector.gym_vector.EngineVectorEnv` with
``num_envs_per_env_runner`` games, one learning seat each, in one ``Box`` of the observation and
then the mask (``layout="flat"``), read by
:class:`~stonk_envs.integrations.rllib_modules.FlatMaskingTorchRLModule` with the inputs divided
by their bounds.

The other seats are a league drawn per seat at each new game (:meth:`EngineVectorEnv.set_league`):
the ``random`` and ``heuristic`` players, the learner itself (the env runner's copy of it, which
RLlib refreshes after every update) and frozen snapshots of the learner, each a
:class:`~stonk_envs.policies.torch_policy.MaskedMLP` converted from the learner's weights.
:class:`VectorLeagueCallback` sets the league on every env runner when its env is made and
again after each snapshot (taken every ``snapshot_every`` iterations, the oldest dropped
beyond ``max_snapshots``). League members sample from their policies, as the batched
trainer's do.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, field

from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core import DEFAULT_MODULE_ID
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModule

from stonk_envs import registry
from stonk_envs.policies.base import Policy
from stonk_envs.policies.rllib_policy import RLlibPolicy
from stonk_envs.policies.torch_policy import MaskedMLP, TorchPolicy

FROZEN = tuple[dict, dict]
"""A snapshot as it travels to the env runners: the ``MaskedMLP``'s ``hparams`` and ``state_dict``."""

COLLECTOR_THRESHOLD = 50_000
"""The env runner's first-generation garbage collector threshold (Python's default is 700).

A runner keeps hundreds of thousands of RLlib episode objects alive, and each collection that
reaches the oldest generation walks them all: at the default, those walks took about 7% of a
training iteration, and under 1% with this threshold."""


def vector_env_id(game: str) -> str:
    """The id RLlib makes: the game's Gymnasium id, with the module that registers it (for remote runners)."""
    return f"stonk_envs:{registry.spec(game).gym_id}"


def vector_env_config(num_players: int, env_config: dict) -> dict:
    """The keywords of ``gymnasium.make_vec`` for RLlib: the flat masking layout, the engine's serial kernels."""
    return {"num_players": num_players, "layout": "flat", "parallel": False, **env_config}


def runner_module(env_runner):
    """The learner module an env runner plays (RLlib may wrap it in a ``MultiRLModule``)."""
    module = env_runner.module
    return module[DEFAULT_MODULE_ID] if isinstance(module, MultiRLModule) else module


class RunnerLearner(Policy):
    """The env runner's copy of the learner, sampling: the league's self-play member.

    It reads the runner's module at every call, so it plays the weights RLlib last synced.
    """

    name = "learner"

    def __init__(self, env_runner):
        self.env_runner = env_runner

    def act(self, observations, masks, rng):
        return RLlibPolicy(runner_module(self.env_runner), deterministic=False).act(observations, masks, rng)


def frozen_policy(frozen: FROZEN) -> TorchPolicy:
    """A snapshot's network as a sampling player."""
    hparams, state_dict = frozen
    net = MaskedMLP(hparams["observation_size"], hparams["num_actions"], hparams["hidden"])
    net.load_state_dict(state_dict)
    return TorchPolicy(net, deterministic=False, name="snapshot")


@dataclass
class VectorLeague:
    """The league's draw weights (``current``, ``heuristic``, ``random``, ``past``) and its snapshots."""

    weights: dict[str, float]
    snapshots: list[FROZEN] = field(default_factory=list)

    def members(self, env_runner) -> tuple[list, list[float]]:
        """The players and weights for ``set_league``: the snapshots share theirs, given to random while none."""
        w, k = self.weights, len(self.snapshots)
        players = ["random", "heuristic", RunnerLearner(env_runner), *map(frozen_policy, self.snapshots)]
        weights = [w["random"] + (0.0 if k else w["past"]), w["heuristic"], w["current"], *[w["past"] / max(k, 1)] * k]
        return players, weights

    def apply(self, env_runner) -> None:
        """Set this league on the runner's env (every game in play draws its seats again)."""
        env_runner.env.unwrapped.set_league(*self.members(env_runner))


class VectorLeagueCallback(RLlibCallback):
    """Sets the league on each env runner's engine (and its GC threshold), takes the snapshots and logs the
    learner's win rate."""

    def __init__(self, weights: dict[str, float], snapshot_every: int, max_snapshots: int):
        super().__init__()
        self.league = VectorLeague(dict(weights))
        self.snapshot_every = snapshot_every
        self.max_snapshots = max_snapshots

    def on_environment_created(self, *, env_runner, **kwargs) -> None:
        gc.set_threshold(COLLECTOR_THRESHOLD, *gc.get_threshold()[1:])
        self.league.apply(env_runner)

    def on_episode_end(self, *, episode, metrics_logger=None, **kwargs) -> None:
        """A finished game with a positive return counts as a win: RLlib's return is the last sampled
        chunk's, so this is the game's result under ``win_loss`` (paid at the end) only."""
        if metrics_logger is not None and episode.is_terminated:
            metrics_logger.log_value("learner_win_rate", float(episode.get_return() > 0), reduce="mean", window=200)

    def on_train_result(self, *, algorithm, result, **kwargs) -> None:
        if self.snapshot_every >= 1 and algorithm.iteration % self.snapshot_every == 0:
            self.league.snapshots = [*self.league.snapshots, freeze(learner_net(algorithm))][-self.max_snapshots:]
            algorithm.env_runner_group.foreach_env_runner(self.league.apply)
        result["league_snapshots"] = len(self.league.snapshots)


def freeze(net: MaskedMLP) -> FROZEN:
    """A network as a snapshot to send to the env runners."""
    return dict(net.hparams), {key: value.detach().clone() for key, value in net.state_dict().items()}


def learner_net(algorithm) -> MaskedMLP:
    """The learner's actor (its input scale folded in) as the learner group holds it, as a :class:`MaskedMLP`."""
    from stonk_envs.integrations.rllib_league import learner_weights
    from stonk_envs.policies.convert import check_same_logits, to_masked_mlp

    module = algorithm.get_module(DEFAULT_MODULE_ID)  # the driver's copy, given the learner group's weights
    module.set_state(learner_weights(algorithm, DEFAULT_MODULE_ID))
    policy = RLlibPolicy(module)
    net = to_masked_mlp(policy, "the RLlib learner")
    check_same_logits(policy, net, "the RLlib learner")
    return net

