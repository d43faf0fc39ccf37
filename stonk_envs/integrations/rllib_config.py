"""The RLlib self-play config: a dataclass schema, loaded from YAML with OmegaConf and checked.

``env_path`` chooses how env runners play: ``vector`` (the default, fast) steps
``num_envs_per_env_runner`` games at once in the batched engine, one learning seat each;
``multi_agent`` steps one Python game per env, every seat an RLlib agent.

``load_rllib_config(path, overrides)`` merges a YAML file (or a shipped config, ``rllib_<game>``) and ``key=value``
overrides (e.g. ``num_env_runners=2 league.heuristic=0.5``). An unknown key, a wrong type or
a value out of range raises ``ValueError`` naming the key. The keys that name the same ideas as
the training config's (:mod:`stonk_envs.training.config`) have the same names; a key of the
earlier names is refused with the name it has now.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from omegaconf import OmegaConf
from omegaconf.errors import OmegaConfBaseException

from stonk_envs.configs import keys_set, load_yaml, merge
from stonk_envs.games_index import game_module

ENV_PATHS = ("vector", "multi_agent")
RENAMED = {
    "lr": "learning_rate", "entropy_coeff": "ent_coef", "hidden": "net_arch", "minibatch_size": "batch_size",
    "num_epochs": "n_epochs", "league.self_play": "league.current", "league.snapshots": "league.past",
    "league.snapshot_every": "league.snapshot_iterations",
}
"""Earlier keys and their names now (those of the training config where the idea is the same)."""
VECTOR_GAMES = 1024
"""Games per env runner on the vector path unless ``num_envs_per_env_runner`` says otherwise."""


@dataclass
class RLlibLeagueConfig:
    """Opponent seats: draw weights of each kind, and the learner's frozen snapshots."""

    current: float = 0.3
    """The learner itself (multi_agent: it learns from those seats too; vector: its env runner's copy, not learning
    from them)."""
    heuristic: float = 0.2
    """The game's rule-based player."""
    random: float = 0.2
    """Uniform over legal actions."""
    past: float = 0.3
    """Frozen copies of the learner, shared equally (given to random until the first is taken)."""
    snapshot_iterations: int = 5
    """Training iterations between snapshots (0: never)."""
    max_snapshots: int = 5
    """Snapshots kept in the league (the oldest leaves first)."""

    def __post_init__(self):
        weights = [self.current, self.heuristic, self.random, self.past]
        if min(weights) < 0 or sum(weights) <= 0:
            raise ValueError(f"league weights must be >= 0 with a positive sum, got {weights}")
        if self.snapshot_iterations < 0 or self.max_snapshots < 1:
            raise ValueError("league.snapshot_iterations must be >= 0 and league.max_snapshots >= 1")


@dataclass
class RLlibConfig:
    """One RLlib PPO self-play run (names as the training config's where the idea is the same, else RLlib's)."""

    game: str = "stocks_and_bombs"
    """Game name."""
    num_players: int = 4
    """Seats per game."""
    env_config: dict[str, Any] = field(default_factory=dict)
    """Further game options (as for ``parallel_env``)."""
    env_path: str = "vector"
    """``vector``: each env runner steps its games at once in the batched engine (fast); ``multi_agent``: one
    Python game per env, as an RLlib ``MultiAgentEnv``."""
    iterations: int = 40
    """Training iterations (each samples ``train_batch_size`` env steps, then updates)."""
    seed: int = 0
    """Seed of the algorithm and its envs."""
    address: str | None = None
    """A running Ray cluster's address (``ray://host:10001`` or ``auto``); None starts Ray here."""
    num_env_runners: int = 0
    """Remote sampling processes (0: sample in the training process)."""
    num_envs_per_env_runner: int | None = None
    """Games stepped by each env runner (None: 1024 on the vector path, 1 on multi_agent)."""
    sample_timeout_s: float | None = None
    """Seconds an iteration waits for the env runners' samples; None (the default): until they come.

    RLlib's own default, 60 s, is easily hit on a loaded machine: the late samples are dropped,
    the iteration trains on what came back (possibly nothing) and the weight sync skips runners
    still sampling, which then keep playing old weights. Set it only to survive stalled runners.
    """
    train_batch_size: int = 32768
    """Env steps per training iteration (vector: learner decisions; multi_agent: game steps of every seat)."""
    batch_size: int = 4096
    """Minibatch size of the update (RLlib's ``minibatch_size``)."""
    n_epochs: int = 2
    """Passes over each batch (RLlib's ``num_epochs``)."""
    learning_rate: float = 5e-4
    """Adam step size (RLlib's ``lr``)."""
    gamma: float = 0.99
    """Discount factor."""
    gae_lambda: float = 0.95
    """GAE's lambda (RLlib's ``lambda_``), as the batched trainer's ``ppo.gae_lambda``."""
    ent_coef: float = 0.01
    """Entropy bonus weight (RLlib's ``entropy_coeff``)."""
    net_arch: list[int] = field(default_factory=lambda: [128, 128])
    """Hidden layer widths of the learner's networks (RLlib's ``fcnet_hiddens``)."""
    torch_threads: int = 0
    """Torch threads of the training process (0: the cores other processes leave free, re-counted every
    iteration, as the batched trainer's ``torch_threads``)."""
    run_dir: str = "runs/rllib"
    """Output folder: ``policy/`` (the learner, evaluable), ``metrics.jsonl``."""
    league: RLlibLeagueConfig = field(default_factory=RLlibLeagueConfig)
    """Opponents."""

    def __post_init__(self):
        game_module(self.game)
        if self.env_path not in ENV_PATHS:
            raise ValueError(f"env_path must be one of {list(ENV_PATHS)}, got {self.env_path!r}")
        if self.num_envs_per_env_runner is None:
            self.num_envs_per_env_runner = VECTOR_GAMES if self.env_path == "vector" else 1
        if self.torch_threads < 0:
            raise ValueError(f"torch_threads must be >= 0 (0: the free cores), got {self.torch_threads}")
        if "num_players" in self.env_config:
            raise ValueError("give num_players at the top level of the config, not in env_config")
        for name in ("num_players", "iterations", "num_envs_per_env_runner", "train_batch_size",
                     "batch_size", "n_epochs"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        if self.sample_timeout_s is not None and self.sample_timeout_s <= 0:
            raise ValueError(f"sample_timeout_s must be > 0 or null (wait), got {self.sample_timeout_s}")
        if self.num_env_runners < 0:
            raise ValueError(f"num_env_runners must be >= 0, got {self.num_env_runners}")
        if self.batch_size > self.train_batch_size:
            raise ValueError(f"batch_size ({self.batch_size}) must be <= train_batch_size "
                             f"({self.train_batch_size})")
        if not 0 < self.learning_rate < 1 or not 0 <= self.gamma <= 1 or not 0 <= self.gae_lambda <= 1 \
                or self.ent_coef < 0:
            raise ValueError(f"need 0 < learning_rate < 1, 0 <= gamma <= 1, 0 <= gae_lambda <= 1, ent_coef >= 0; "
                             f"got {self.learning_rate}, {self.gamma}, {self.gae_lambda}, {self.ent_coef}")
        if not self.net_arch or min(self.net_arch) < 1:
            raise ValueError(f"net_arch must be a non-empty list of positive widths, got {list(self.net_arch)}")


def load_rllib_config(path: str | None, overrides: list[str] | None = None) -> RLlibConfig:
    """The config of ``path`` (YAML) with ``overrides`` on top, checked against :class:`RLlibConfig`."""
    try:
        merged = OmegaConf.structured(RLlibConfig)
        layers = [load_yaml(path)] if path is not None else []
        layers.append(OmegaConf.from_dotlist(list(overrides or [])))
        for layer in layers:
            _refuse_renamed(OmegaConf.to_container(layer, resolve=False))
        merged = merge(merged, *layers)
        config = OmegaConf.to_object(merged)
    except OmegaConfBaseException as error:
        key = getattr(error, "full_key", None)
        raise ValueError(str(error).splitlines()[0] + (f" (key: {key})" if key else "")) from None
    game_module(config.game).parallel_env(num_players=config.num_players, **config.env_config)  # checks the options
    return config


def _refuse_renamed(layer: dict) -> None:
    """``ValueError`` naming each key of the earlier names in ``layer`` and its name now."""
    found = [f"{old} is now {new}" for old, new in keys_set(layer, RENAMED).items()]
    if found:
        raise ValueError(f"{', '.join(found)} (the RLlib config names its keys as the training config does)")
