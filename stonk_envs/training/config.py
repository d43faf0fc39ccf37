"""The training config: a dataclass schema, loaded from YAML with OmegaConf and validated.

``load_config(path, overrides)`` merges the YAML file and ``key=value`` overrides (OmegaConf
dotlist syntax, e.g. ``ppo.learning_rate=1e-3``) onto the schema. An unknown key, a value of
the wrong type or a value out of range raises ``ValueError`` naming the key.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from stonk_envs.configs import load_yaml, merge
from stonk_envs.core.validation import SEED_MAX, check_bool, check_choice, check_int, check_number
from stonk_envs.games_index import game_module
from stonk_envs.policies.players import builtin_player_names, make_player
from stonk_envs.training import config_shape

OPPONENT_KINDS = ("current", "past", "heuristic", "random")
"""League members: the live learner, its past snapshots, the heuristic and random players."""
"""What runs the training games: each game's PettingZoo Parallel env, or one batched engine for all."""
TRAINERS = ("ppo", "sb3")
"""ppo: the batched trainer (training/ppo), every seat the learner holds learns; sb3: sb3-contrib's MaskablePPO,
one learner seat per game."""
DEVICES = ("auto", "cpu", "cuda")
OBS_NORMS = ("running", "bounds")
PRECISIONS = ("auto", "float32", "bfloat16")
MEMORY_STARTS = ("random", "zero")
LEAGUE_MIXES = ("seat", "game")
"""How a new game's seats are given holders: each seat on its own, or one opponent kind per game."""
EXPLOITER_STARTS = ("learner", "scratch", "chain", "alternate")
"""Where each exploiter's weights start (``ppo.league.exploiter_start``)."""


BIG = 10**12
"""Upper bound of step counts and intervals (far beyond any run)."""


def _check(config: Any, prefix: str, checks: dict[str, Callable[[str, Any], Any]]) -> None:
    """Check and normalise each field with its check (called as ``check(full key, value)``)."""
    for name, check in checks.items():
        setattr(config, name, check(prefix + name, getattr(config, name)))


def _ints(low: int, high: int = BIG) -> Callable[[str, Any], int]:
    return lambda key, value: check_int(key, value, low, high)


def _numbers(low: float | None = None, high: float | None = None, above: float | None = None):
    return lambda key, value: check_number(key, value, low, high, above=above)


@dataclass
class PPOHyperparameters:
    """The PPO hyperparameters that both trainers take (sb3-contrib's names); each trainer's section adds its own."""

    SECTION: ClassVar[str] = ""
    """The section's key, which validation errors name."""

    learning_rate: float = 3e-4
    """Adam step size."""
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
        prefix = f"{self.SECTION}."
        _check(self, prefix, {
            "learning_rate": _numbers(high=1.0, above=0.0),
            "batch_size": _ints(1, 10**8),
            "n_epochs": _ints(1, 10**4),
            "gamma": _numbers(0.0, 1.0),
            "gae_lambda": _numbers(0.0, 1.0),
            "clip_range": _numbers(high=1e6, above=0.0),
            "ent_coef": _numbers(0.0, 1e6),
            "vf_coef": _numbers(0.0, 1e6),
            "max_grad_norm": _numbers(high=1e9, above=0.0),
        })
        if not self.net_arch or len(self.net_arch) > 64:
            raise ValueError(f"{prefix}net_arch must be a list of 1..64 layer widths, got {list(self.net_arch)}")
        self.net_arch = [check_int(f"each width of {prefix}net_arch", width, 1, 2**16) for width in self.net_arch]


@dataclass
class PPOLeagueConfig:
    """How the batched trainer's league fills the seats beyond the common ``league`` weights."""

    heuristic_players: list[str] = field(default_factory=lambda: ["heuristic"])
    """The built-in players (``stonk-envs players``) that hold the ``heuristic`` seats, one drawn evenly for
    each seat; e.g. ``[heuristic, basic]`` adds a player that trades only for its own gain."""
    mix: str = "seat"
    """``seat``: each seat's holder is drawn with the weights on its own. ``game``: each seat is the learner
    with the weight of ``current``, and every other seat of the game is held by one opponent kind, drawn per
    game with the other weights (so games against three heuristic or three random players happen, as in an
    evaluation)."""
    pfsp_power: float = 0.0
    """How ``past`` seats choose among the kept snapshots and exploiters. 0: evenly. p > 0: prioritised
    fictitious self-play, each member weighted by ``(1 - x) ** p``, where x is the learner's recent win rate in
    games the member plays in (:class:`~stonk_envs.training.league.pfsp.PastResults`), so members that beat
    the learner come back more often."""
    exploiter_samples: int = 0
    """After each snapshot, an exploiter (:mod:`stonk_envs.training.exploiters`) trains this many learner
    samples against the learner from its weights, and joins the snapshots (drawn as ``past``, kept under the
    step after the snapshot's); 0: none."""
    exploiter_start: str = "learner"
    """The weights each exploiter starts from. ``learner``: the learner's. ``scratch``: fresh ones. ``chain``:
    fresh ones for the first, then each starts from the exploiter before it, so one exploiter keeps training
    against the newest learner (AlphaStar's main exploiters). ``alternate``: fresh ones for the first, the
    learner's for the second, and so on in turn, so the league meets both kinds of best response."""

    def __post_init__(self):
        _check(self, "ppo.league.", {
            "exploiter_samples": _ints(0),
            "pfsp_power": _numbers(0.0, 100.0),
        })
        self.mix = check_choice("ppo.league.mix", self.mix, LEAGUE_MIXES)
        self.exploiter_start = check_choice("ppo.league.exploiter_start", self.exploiter_start, EXPLOITER_STARTS)
        self.heuristic_players = list(self.heuristic_players)
        if not self.heuristic_players:
            raise ValueError("ppo.league.heuristic_players must name at least one built-in player")


@dataclass
class ImitationConfig:
    """A warm start that fits the network to a teacher's play before PPO begins.

    The teacher plays the learner's seats (against the league) for ``samples`` decisions; the
    actor is fitted to its actions (cross-entropy) and the critic to its returns (GAE targets),
    rollout by rollout, with ``ppo.n_steps`` engine steps and minibatches of ``ppo.batch_size``.
    With ``ppo_coef``, PPO keeps a term towards the teacher's choices afterwards.
    """

    samples: int = 0
    """Teacher decisions to fit on; 0: no warm start (pure self-play from random weights)."""
    teacher: str = "heuristic"
    """The built-in player whose play is imitated."""
    epochs: int = 2
    """Passes over each rollout of teacher decisions."""
    learning_rate: float = 1e-3
    """Adam step size of the warm start (PPO then starts a fresh optimiser at ``ppo.learning_rate``)."""
    ppo_coef: float = 0.0
    """During PPO, the weight of the cross-entropy of the teacher's action at each of the learner's own
    decisions (the teacher labels them from the same observation); 0: none."""

    def __post_init__(self):
        _check(self, "ppo.imitation.", {
            "samples": _ints(0),
            "epochs": _ints(1, 10**4),
            "learning_rate": _numbers(high=1.0, above=0.0),
            "ppo_coef": _numbers(0.0, 1e6),
        })


@dataclass
class MagnetConfig:
    """Magnetic mirror descent (:mod:`stonk_envs.training.ppo.magnet`): PPO pulled towards a slowly moving copy
    of the actor."""

    coef: float = 0.0
    """The weight of KL(policy || magnet) in each update's loss; 0: no magnet (plain PPO)."""
    rate: float = 0.05
    """After each update, the magnet's weights move this share of the way towards the actor's (0: the magnet
    stays the actor as PPO found it at the start)."""

    def __post_init__(self):
        _check(self, "ppo.magnet.", {"coef": _numbers(0.0, 1e6), "rate": _numbers(0.0, 1.0)})


@dataclass
class PPOConfig(PPOHyperparameters):
    """The batched trainer (``trainer: ppo``): every seat the learner holds in every game is a sample."""

    SECTION: ClassVar[str] = "ppo"

    device: str = "auto"
    """Torch device: ``auto`` (cuda when available), ``cpu`` or ``cuda``."""
    n_steps: int = 128
    """Engine steps per rollout (each steps every game of the engine once)."""
    obs_norm: str = "running"
    """Input scaling: ``running`` (standardise by running statistics, saved with the policy) or ``bounds``
    (divide by the observation space's bounds)."""
    hidden_precision: str = "float32"
    """The hidden layers' products and activations (most of the arithmetic): ``float32``, or ``bfloat16``
    (mixed precision: bfloat16 with float32 sums; the output layers, losses, weights and optimiser stay float32),
    or ``auto`` (bfloat16 where the device has it natively, else float32)."""
    memory_start: str = "zero"
    """The first layers' weights on the public memory's inputs: ``zero`` (the network starts as one without the
    memory would, and learns to read it) or ``random`` (drawn with the others)."""
    memory_scale: float = 1.0
    """The public memory's standardised inputs are multiplied by this (0 < scale <= 1) on their way into the
    first layers. Adam moves each weight by about the learning rate per step whatever its input's size, so a
    scale below 1 makes the memory's part of the first layers' input grow that much slower: a brake on fitting
    noise in hundreds of inputs. It is folded into the saved policy's input statistics."""
    league: PPOLeagueConfig = field(default_factory=PPOLeagueConfig)
    imitation: ImitationConfig = field(default_factory=ImitationConfig)
    magnet: MagnetConfig = field(default_factory=MagnetConfig)

    def __post_init__(self):
        super().__post_init__()
        _check(self, "ppo.", {
            "n_steps": _ints(1, 10**7),
            "memory_scale": _numbers(high=1.0, above=0.0),
        })
        self.device = check_choice("ppo.device", self.device, DEVICES)
        self.obs_norm = check_choice("ppo.obs_norm", self.obs_norm, OBS_NORMS)
        self.hidden_precision = check_choice("ppo.hidden_precision", self.hidden_precision, PRECISIONS)
        self.memory_start = check_choice("ppo.memory_start", self.memory_start, MEMORY_STARTS)


@dataclass
class SB3Config(PPOHyperparameters):
    """sb3-contrib's MaskablePPO (``trainer: sb3``): one learner seat in each game, on the CPU, inputs scaled by
    the observation space's bounds."""

    SECTION: ClassVar[str] = "sb3"

    n_steps: int = 128
    """Learner steps in each game per rollout (a rollout is ``num_envs * n_steps`` samples)."""

    def __post_init__(self):
        super().__post_init__()
        _check(self, "sb3.", {"n_steps": _ints(1, 10**7)})


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
        _check(self, "league.", {
            **dict.fromkeys(OPPONENT_KINDS, _numbers(0.0, 1e9)),
            "snapshot_interval": _ints(1),
            "max_snapshots": _ints(1, 10**4),
        })
        weights = {kind: getattr(self, kind) for kind in OPPONENT_KINDS}
        if sum(weights.values()) <= 0:
            raise ValueError(f"league weights {weights} must be >= 0 with a positive sum")

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
    workers: int = 1
    """Worker processes of the evaluation harness. 1 plays in the training process, where the game and
    players are already compiled; each extra process pays that start-up again at every evaluation."""
    keep_best: bool = True
    """The run's ``policy.zip`` is the evaluated checkpoint with the best win share (ties split) against the
    first of ``opponents`` (False: the final weights). The final evaluation plays it on fresh seeds."""
    crossplay_games: int = 0
    """At each evaluation, games of a league of the evaluated checkpoints (the newest ``crossplay_max``) with
    the heuristic and random players, rated by OpenSkill; 0: none."""
    crossplay_max: int = 8
    """Checkpoints in each cross-play league."""
    exploit_samples: int = 0
    """At each evaluation, train a best response of this many learner samples (the batched trainer's, with the
    ``ppo`` section's network and settings) against the evaluated checkpoint
    (:mod:`stonk_envs.training.exploit_curve`), its approximate exploitability, plotted beside the rating curve;
    0: none."""
    exploit_games: int = 1000
    """Games of each of those best responses against its checkpoint."""
    exploit_starts: list[str] = field(default_factory=lambda: ["frozen"])
    """Their starts: ``frozen`` (the checkpoint's own weights, so a policy file of the batched trainer) and/or
    ``scratch``."""
    exploit_from: int = 0
    """Measure only the evaluated checkpoints of this step or later (the final one too, when it is)."""
    keep_least_exploitable: bool = False
    """With ``exploit_samples``: the run's ``policy.zip`` is the measured checkpoint that
    its best response beat least (the latest on ties; the last checkpoint if the run ended before
    ``exploit_from``), not the one ``keep_best`` chooses."""

    def __post_init__(self):
        _check(self, "eval.", {
            "interval": _ints(0),
            "num_games": _ints(1, 10**9),
            "final_num_games": _ints(1, 10**9),
            "workers": _ints(1, 1024),
            "keep_best": check_bool,
            "keep_least_exploitable": check_bool,
            "crossplay_games": _ints(0, 10**9),
            "crossplay_max": _ints(1, 1024),
            "exploit_samples": _ints(0),
            "exploit_games": _ints(1, 10**9),
            "exploit_from": _ints(0),
        })
        starts = list(self.exploit_starts)
        if not starts or len(set(starts)) != len(starts) or set(starts) - {"scratch", "frozen"}:
            raise ValueError(f"eval.exploit_starts must be distinct names among scratch and frozen, got {starts}")
        self.exploit_starts = starts
        if not self.opponents:
            raise ValueError("eval.opponents must name at least one player spec")


@dataclass
class TrainConfig:
    """One self-play training run: the common keys, then each trainer's own section."""

    trainer: str = "ppo"
    """``ppo`` (the batched trainer, section ``ppo``: every seat the learner holds in every game is a training
    sample) or ``sb3`` (sb3-contrib's MaskablePPO, section ``sb3``: one learner seat per game)."""
    game: str = "stocks_and_bombs"
    """Game name: stockpile, stonk_market or stocks_and_bombs."""
    num_players: int = 4
    """Seats per game."""
    env_config: dict[str, Any] = field(default_factory=dict)
    """Extra game options (the game's config fields other than num_players), e.g. reward_mode."""
    total_timesteps: int = 300_000
    """Training samples (learner decisions, one per transition) to train for."""
    num_envs: int = 16
    """Games played side by side."""
    seed: int = 0
    """Seed of the games, the league draws and torch."""
    run_dir: str = "runs/stocks_and_bombs"
    """Folder of the run: config, checkpoints, logs, curves and reports."""
    checkpoint_interval: int = 100_000
    """Learner steps between checkpoints (also written at every evaluation and at the end)."""
    torch_threads: int = 1
    """Threads torch may use; 0: one per core left free by other processes (re-counted before every rollout by
    the batched trainer; see stonk_envs/training/threads.py)."""
    progress: bool = True
    """Show a progress bar."""
    league: LeagueConfig = field(default_factory=LeagueConfig)
    eval: EvalConfig = field(default_factory=EvalConfig)
    ppo: PPOConfig = field(default_factory=PPOConfig)
    sb3: SB3Config = field(default_factory=SB3Config)

    def __post_init__(self):
        game_module(self.game)  # names the choices for an unknown game
        if "num_players" in self.env_config:
            raise ValueError("env_config must not set num_players; use the top-level num_players")
        _check(self, "", {
            "trainer": lambda key, value: check_choice(key, value, TRAINERS),
            "num_players": _ints(1, 64),
            "total_timesteps": _ints(1),
            "num_envs": _ints(1, 2**20),
            "seed": _ints(0, SEED_MAX),
            "checkpoint_interval": _ints(1),
            "torch_threads": _ints(0, 1024),
            "progress": check_bool,
        })
        e, league, im = self.eval, self.ppo.league, self.ppo.imitation
        if e.keep_least_exploitable and not e.exploit_samples:
            raise ValueError("eval.keep_least_exploitable needs eval.exploit_samples > 0 (the best responses "
                             "that measure the checkpoints)")
        if e.keep_least_exploitable and e.keep_best:
            raise ValueError("eval.keep_least_exploitable and eval.keep_best each choose the kept policy; "
                             "set eval.keep_best=false")
        if e.exploit_samples and self.trainer == "sb3" and "scratch" not in e.exploit_starts:
            raise ValueError("eval.exploit_starts must include scratch for an sb3 run: the frozen start takes the "
                             "checkpoint's weights, which only the batched trainer's policy files hold")
        if league.exploiter_start == "chain" and self.league.max_snapshots < 2:
            raise ValueError("ppo.league.exploiter_start=chain needs league.max_snapshots >= 2 (the snapshot taken "
                             f"with each exploiter and the exploiter before it), got {self.league.max_snapshots}")
        weights = {kind: getattr(self.league, kind) for kind in OPPONENT_KINDS}
        if league.mix == "game" and sum(w for kind, w in weights.items() if kind != "current") <= 0:
            raise ValueError(f"ppo.league.mix=game needs a positive weight for an opponent kind, got {weights}")
        uses_teacher = im.samples or im.ppo_coef
        if uses_teacher and im.teacher not in builtin_player_names(self.game):
            raise ValueError(
                f"ppo.imitation.teacher: {im.teacher!r} is not a built-in {self.game} player; "
                f"choose one of {builtin_player_names(self.game)}"
            )
        if not self.run_dir:
            raise ValueError("run_dir must not be empty")
        rollout = self.num_envs * self.sb3.n_steps
        if self.trainer == "sb3" and self.sb3.batch_size > rollout:
            raise ValueError(f"sb3.batch_size ({self.sb3.batch_size}) exceeds num_envs * sb3.n_steps ({rollout})")
        try:
            game_module(self.game).parallel_env(num_players=self.num_players, **self.env_config)
        except (TypeError, ValueError) as err:
            raise ValueError(f"bad game settings for {self.game}: {err}") from err
        uses_heuristic = self.league.heuristic > 0 or "heuristic" in self.eval.opponents
        if uses_heuristic and "heuristic" not in builtin_player_names(self.game):
            raise ValueError(
                f"{self.game} has no heuristic player; set league.heuristic=0 and drop it from eval.opponents"
            )
        unknown = [name for name in league.heuristic_players if name not in builtin_player_names(self.game)]
        if unknown:
            raise ValueError(f"ppo.league.heuristic_players: {unknown} are not built-in {self.game} players; "
                             f"choose among {builtin_player_names(self.game)}")
        for spec in self.eval.opponents:
            if spec not in builtin_player_names(self.game) and not Path(spec).is_file():
                raise ValueError(f"eval.opponents: {spec!r} is not a built-in {self.game} player or a policy file")


def check_opponents(config: TrainConfig) -> None:
    """Load each of ``eval.opponents`` once, so a refused or unfit policy file fails before a run writes anything."""
    for spec in config.eval.opponents:
        try:
            make_player(spec, config.game, config.num_players)
        except ValueError as err:
            raise ValueError(f"eval.opponents: {err}") from None


def torch_thread_count(setting: int) -> int:
    """The threads a ``torch_threads`` setting asks for (0: the cores this process may run on)."""
    return setting or len(os.sched_getaffinity(0))


def load_config(
    source: str | Path | Mapping[str, Any] | None = None, overrides: list[str] | tuple[str, ...] = ()
) -> TrainConfig:
    """The schema's defaults, then the YAML file at ``source`` (or a mapping), then ``key=value`` overrides.

    A key of the config's earlier shape is refused with the key it is now (see
    :mod:`stonk_envs.training.config_shape`).
    """
    try:
        merged: DictConfig = OmegaConf.structured(TrainConfig, flags={"allow_objects": False})
        layers = []
        if isinstance(source, Mapping):
            layers.append(OmegaConf.create(dict(source)))
        elif source is not None:
            layers.append(load_yaml(source))
        bad = [item for item in overrides if "=" not in item]
        if bad:
            raise ValueError(f"overrides must be KEY=VALUE, got {bad}")
        layers.append(OmegaConf.from_dotlist(list(overrides)))
        for layer in layers:
            _refuse_moved(OmegaConf.to_container(layer, resolve=False))
        merged = merge(merged, *layers)
        return OmegaConf.to_object(merged)
    except OmegaConfBaseException as err:
        raise ValueError(f"invalid training config: {_describe(err)}") from None


def load_saved_config(run_dir: str | Path, overrides: list[str] | tuple[str, ...] = ()) -> TrainConfig:
    """A run folder's ``config.yaml`` (translated when it has the earlier shape), then ``key=value`` overrides."""
    saved = OmegaConf.to_container(load_yaml(Path(run_dir) / "config.yaml"), resolve=False)
    if config_shape.is_earlier_shape(saved):
        saved = config_shape.upgrade(saved)
    return load_config(config_shape.drop_removed(saved), overrides)


def _refuse_moved(layer: dict) -> None:
    """``ValueError`` naming each removed key in ``layer`` and why, or each key of the earlier shape and where it
    is now."""
    removed = config_shape.removed_keys(layer)
    if removed:
        why = ", ".join(f"{key} is gone: {reason}" for key, reason in removed.items())
        raise ValueError(f"invalid training config: {why}")
    moved = config_shape.moved_keys(layer)
    if moved:
        where = ", ".join(f"{old} is now {new}" for old, new in moved.items())
        raise ValueError(f"invalid training config: {where} (each trainer's keys are in its own section; "
                         "--resume translates a saved run folder)")


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
