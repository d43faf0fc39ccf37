"""The training config: a dataclass schema, loaded from YAML with OmegaConf and validated.

``load_config(path, overrides)`` merges the YAML file and ``key=value`` overrides (OmegaConf
dotlist syntax, e.g. ``ppo.learning_rate=1e-3``) onto the schema. An unknown key, a value of
the wrong type or a value out of range raises ``ValueError`` naming the key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from stonk_envs.games_index import game_module
from stonk_envs.policies.players import HEURISTICS, builtin_player_names

OPPONENT_KINDS = ("current", "past", "heuristic", "random")
"""League members: the live learner, its past snapshots, the heuristic and random players."""
ENV_BACKENDS = ("pettingzoo", "engine")
"""What runs the training games: each game's PettingZoo Parallel env, or one batched engine for all."""


def _positive(name: str, value: float) -> None:
    if value <= 0:
        raise ValueError(f"{name} must be > 0, got {value}")


def _in_range(name: str, value: float, low: float, high: float) -> None:
    if not low <= value <= high:
        raise ValueError(f"{name} must be in [{low}, {high}], got {value}")


@dataclass
class PPOConfig:
    """MaskablePPO hyperparameters (sb3-contrib names)."""

    learning_rate: float = 3e-4
    """Adam step size."""
    n_steps: int = 128
    """Learner steps per environment per rollout."""
    batch_size: int = 512
    """Minibatch size of the update."""
    n_epochs: int = 4
    """Passes over each rollout."""
    gamma: float = 0.99
    """Discount factor."""
    gae_lambda: float = 0.95
    """GAE smoothing."""
    clip_range: float = 0.2
    """PPO ratio clip."""
    ent_coef: float = 0.01
    """Entropy bonus weight."""
    vf_coef: float = 0.5
    """Value loss weight."""
    max_grad_norm: float = 0.5
    """Gradient norm clip."""
    net_arch: list[int] = field(default_factory=lambda: [128, 128])
    """Hidden layer widths of the policy and value networks (separate networks)."""

    def __post_init__(self):
        _positive("ppo.learning_rate", self.learning_rate)
        for name in ("n_steps", "batch_size", "n_epochs"):
            _positive(f"ppo.{name}", getattr(self, name))
        _in_range("ppo.gamma", self.gamma, 0.0, 1.0)
        _in_range("ppo.gae_lambda", self.gae_lambda, 0.0, 1.0)
        _positive("ppo.clip_range", self.clip_range)
        for name in ("ent_coef", "vf_coef"):
            if getattr(self, name) < 0:
                raise ValueError(f"ppo.{name} must be >= 0, got {getattr(self, name)}")
        _positive("ppo.max_grad_norm", self.max_grad_norm)
        if not self.net_arch or any(width <= 0 for width in self.net_arch):
            raise ValueError(f"ppo.net_arch must be a non-empty list of positive widths, got {list(self.net_arch)}")


@dataclass
class LeagueConfig:
    """Who plays the opponent seats: relative weights of each kind, and snapshotting."""

    current: float = 0.4
    """Weight of the live learner (pure self-play)."""
    past: float = 0.2
    """Weight of a past snapshot, drawn uniformly among those kept (the live learner until one exists)."""
    heuristic: float = 0.1
    """Weight of the game's heuristic player."""
    random: float = 0.3
    """Weight of the uniform random player."""
    snapshot_interval: int = 50_000
    """Learner steps between snapshots added to the league."""
    max_snapshots: int = 10
    """Snapshots kept; the oldest is dropped first."""

    def __post_init__(self):
        weights = {kind: getattr(self, kind) for kind in OPPONENT_KINDS}
        if any(w < 0 for w in weights.values()) or sum(weights.values()) <= 0:
            raise ValueError(f"league weights {weights} must be >= 0 with a positive sum")
        _positive("league.snapshot_interval", self.snapshot_interval)
        _positive("league.max_snapshots", self.max_snapshots)

    def weights(self) -> dict[str, float]:
        """The opponent mix as probabilities."""
        raw = {kind: float(getattr(self, kind)) for kind in OPPONENT_KINDS}
        total = sum(raw.values())
        return {kind: w / total for kind, w in raw.items()}


@dataclass
class EvalConfig:
    """Evaluation against fixed players during and after training."""

    interval: int = 100_000
    """Learner steps between evaluations (each saves a checkpoint first); 0: only at the end."""
    num_games: int = 200
    """Games per opponent in a periodic evaluation."""
    final_num_games: int = 1000
    """Games per opponent in the final evaluation."""
    opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"])
    """Player specs filling every other seat, one evaluation each."""
    workers: int = 2
    """Worker processes of the evaluation harness."""
    keep_best: bool = True
    """The run's ``policy.zip`` is the evaluated checkpoint with the best win rate against the first
    of ``opponents`` (False: the final weights). The final evaluation plays it on fresh seeds."""

    def __post_init__(self):
        if self.interval < 0:
            raise ValueError(f"eval.interval must be >= 0, got {self.interval}")
        _positive("eval.num_games", self.num_games)
        _positive("eval.final_num_games", self.final_num_games)
        _positive("eval.workers", self.workers)
        if not self.opponents:
            raise ValueError("eval.opponents must name at least one player spec")


@dataclass
class TrainConfig:
    """One self-play training run."""

    game: str = "stocks_and_bombs"
    """Game name: stockpile, stonk_market or stocks_and_bombs."""
    num_players: int = 4
    """Seats per game."""
    env_config: dict[str, Any] = field(default_factory=dict)
    """Extra game options (the game's config fields other than num_players), e.g. reward_mode."""
    total_timesteps: int = 300_000
    """Learner steps (transitions) to train for."""
    num_envs: int = 16
    """Games played side by side, one learner seat in each."""
    env_backend: str = "engine"
    """What runs those games: ``engine`` (one batched engine, stonk_envs.vector) or ``pettingzoo`` (a
    Parallel env each); the same self-play either way, on other game seeds."""
    seed: int = 0
    """Seed of the games, the league draws and torch."""
    run_dir: str = "runs/stocks_and_bombs"
    """Folder of the run: config, checkpoints, logs, curves and reports."""
    checkpoint_interval: int = 100_000
    """Learner steps between checkpoints (also written at every evaluation and at the end)."""
    torch_threads: int = 1
    """Threads torch may use."""
    progress: bool = True
    """Show a progress bar."""
    ppo: PPOConfig = field(default_factory=PPOConfig)
    league: LeagueConfig = field(default_factory=LeagueConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)

    def __post_init__(self):
        game_module(self.game)  # names the choices for an unknown game
        if "num_players" in self.env_config:
            raise ValueError("env_config must not set num_players; use the top-level num_players")
        if self.env_backend not in ENV_BACKENDS:
            raise ValueError(f"env_backend must be one of {list(ENV_BACKENDS)}, got {self.env_backend!r}")
        for name in ("total_timesteps", "num_envs", "checkpoint_interval", "torch_threads"):
            _positive(name, getattr(self, name))
        if self.seed < 0:
            raise ValueError(f"seed must be >= 0, got {self.seed}")
        if not self.run_dir:
            raise ValueError("run_dir must not be empty")
        rollout = self.num_envs * self.ppo.n_steps
        if self.ppo.batch_size > rollout:
            raise ValueError(f"ppo.batch_size ({self.ppo.batch_size}) exceeds num_envs * ppo.n_steps ({rollout})")
        try:
            game_module(self.game).parallel_env(num_players=self.num_players, **self.env_config)
        except (TypeError, ValueError) as err:
            raise ValueError(f"bad game settings for {self.game}: {err}") from err
        uses_heuristic = self.league.heuristic > 0 or "heuristic" in self.eval.opponents
        if uses_heuristic and self.game not in HEURISTICS:
            raise ValueError(
                f"{self.game} has no heuristic player; set league.heuristic=0 and drop it from eval.opponents"
            )
        for spec in self.eval.opponents:
            if spec not in builtin_player_names(self.game) and not Path(spec).is_file():
                raise ValueError(f"eval.opponents: {spec!r} is not a built-in {self.game} player or a policy file")


def load_config(path: str | Path | None = None, overrides: list[str] | tuple[str, ...] = ()) -> TrainConfig:
    """The schema's defaults, then the YAML file at ``path``, then ``key=value`` overrides."""
    try:
        merged: DictConfig = OmegaConf.structured(TrainConfig, flags={"allow_objects": False})
        layers = []
        if path is not None:
            path = Path(path)
            if not path.is_file():
                raise ValueError(f"config file {str(path)!r} does not exist")
            layers.append(OmegaConf.load(path))
        bad = [item for item in overrides if "=" not in item]
        if bad:
            raise ValueError(f"overrides must be key=value, got {bad}")
        layers.append(OmegaConf.from_dotlist(list(overrides)))
        merged = OmegaConf.merge(merged, *layers)
        return OmegaConf.to_object(merged)
    except OmegaConfBaseException as err:
        raise ValueError(f"invalid training config: {_describe(err)}") from None


def _describe(err: OmegaConfBaseException) -> str:
    """The first line of an OmegaConf error, with the full key when it knows it."""
    message = str(err).splitlines()[0]
    key = getattr(err, "full_key", None)
    return f"{message} (key: {key})" if key and key not in message else message


def to_yaml(config: TrainConfig) -> str:
    """The config as YAML text (what the run folder keeps)."""
    return OmegaConf.to_yaml(OmegaConf.structured(config))


def to_dict(config: TrainConfig) -> dict[str, Any]:
    """The config as plain JSON-ready containers."""
    return OmegaConf.to_container(OmegaConf.structured(config))
