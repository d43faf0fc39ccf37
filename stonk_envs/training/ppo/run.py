"""The batched PPO trainer's run: its learner in :class:`~stonk_envs.training.run_loop.RunLoop`.

The learner is every seat the learner holds in every game of one batched engine: the network,
optimiser, observation statistics, snapshots and exploiters, the games in play with their seat
holders and open decisions, and the trainer's own random streams, all saved with each checkpoint
so that a resume continues bit for bit. ``ppo.imitation`` warm-starts it before the first rollout.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

from stonk_envs import vector
from stonk_envs.games_index import memory_start
from stonk_envs.policies import make_player
from stonk_envs.policies.base import Policy
from stonk_envs.policies.checkpoint import save_torch
from stonk_envs.policies.torch_policy import MaskedMLP
from stonk_envs.training.config import TrainConfig
from stonk_envs.training.device import resolve_device
from stonk_envs.training.league.draw import SeatDraw
from stonk_envs.training.league.snapshots import Snapshots
from stonk_envs.training.ppo.imitation import imitation_update
from stonk_envs.training.ppo.magnet import Magnet
from stonk_envs.training.ppo.network import ActorCritic, observation_bounds_scale, resolve_hidden_dtype
from stonk_envs.training.ppo.normaliser import RunningStats
from stonk_envs.training.ppo.rollout import Rollouts, Samples
from stonk_envs.training.ppo.update import ppo_update
from stonk_envs.training.run_loop import RunLoop
from stonk_envs.training.threads import ThreadBudget


class PPORun(RunLoop):
    """One run of the batched trainer: games, network, league (see the module docstring)."""

    kind = "ppo"

    def __init__(self, config: TrainConfig):
        super().__init__(config)
        c = config
        self.threads = ThreadBudget(c.torch_threads)
        self.device = resolve_device(c.ppo.device)
        self.engine = vector.make(c.game, c.num_envs, num_players=c.num_players, observe="actors", parallel=False,
                                  **c.env_config)
        self.obs_size, self.num_actions = self.engine.obs_size, self.engine.num_actions
        self.rng = np.random.default_rng(c.seed)
        self.sampler = torch.Generator(device=self.device).manual_seed(c.seed)
        self.shuffler = torch.Generator().manual_seed(c.seed + 1)
        torch.manual_seed(c.seed)
        low, high = self.engine.game.observation_bounds
        bounds = observation_bounds_scale(low, high) if c.ppo.obs_norm == "bounds" else None
        self.net = ActorCritic(self.engine.obs_size, self.engine.num_actions, list(c.ppo.net_arch), bounds,
                               resolve_hidden_dtype(c.ppo.hidden_precision, self.device), self._memory_from(),
                               c.ppo.memory_start, c.ppo.memory_scale)
        self.net.to(self.device)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=c.ppo.learning_rate, eps=1e-5)
        self.stats = RunningStats(self.engine.obs_size)
        self.snapshots = Snapshots(c.league.max_snapshots)
        seats = SeatDraw(c.league.weights(), self.snapshots, c.game, c.num_players, self.rng, c.ppo.league.mix,
                         tuple(c.ppo.league.heuristic_players), c.ppo.league.pfsp_power)
        self.rollouts = Rollouts(self.engine, self.net, seats, self.rng, self.sampler, self.device)
        self.imitation: dict[str, Any] | None = None
        """The warm start's summary once it has run (see :meth:`_imitate`)."""
        self.labeler = make_player(c.ppo.imitation.teacher, c.game, c.num_players) if c.ppo.imitation.ppo_coef else None
        """The teacher that labels the learner's PPO decisions (``ppo.imitation.ppo_coef``), if any."""
        self.gradient_sync = None
        """Data-parallel runs: what the workers agree on in each update (:mod:`stonk_envs.training.distributed`)."""
        self.magnet: Magnet | None = None
        """With ``ppo.magnet.coef``: the magnet, a copy of the actor as PPO began, following it since."""

    # ------------------------------------------------------------------ building
    def _memory_from(self) -> int | None:
        """Where the public memory starts in the observation (None: no memory)."""
        c = self.config
        return memory_start(c.game, num_players=c.num_players, **c.env_config)

    def new_model(self) -> None:
        """Deal the first games and fit the observation statistics to their first decisions."""
        self.rollouts.deal(int(self.rng.integers(2**62)))
        e = self.engine
        self.stats.update(e.obs[e.actors])
        self.net.set_statistics(self.stats)

    def load_learner(self, policy_file: Path, state: dict[str, Any]) -> None:
        """Restore the learner from the saved state (``policy_file`` is its step's saved actor)."""
        self.net.load_state_dict(state["net"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.stats.load_state_dict(state["stats"])
        self.snapshots.load_state_dict(state["snapshots"])
        self.rollouts.load_state_dict(state["rollouts"])
        self.rng.bit_generator.state = state["rng"]["numpy_generator"]
        self.sampler.set_state(state["rng"]["sampler"])
        self.shuffler.set_state(state["rng"]["shuffler"])
        self.imitation = state.get("imitation")
        if state.get("magnet") is not None:
            self.magnet = Magnet(self.net.actor.body, self.config.ppo.magnet.rate)
            self.magnet.load_state_dict(state["magnet"])

    # ------------------------------------------------------------------ saving
    def save_policy(self, path: Path, metadata: dict[str, Any]) -> Path:
        """The actor as a torch policy file (from the CPU)."""
        actor = self.net.actor
        if self.device.type != "cpu":
            actor = type(actor)(**actor.hparams)
            actor.load_state_dict({k: v.cpu() for k, v in self.net.actor.state_dict().items()})
        return save_torch(actor, path, metadata)

    def learner_state(self) -> dict[str, Any]:
        return {
            "net": self.net.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "stats": self.stats.state_dict(),
            "snapshots": self.snapshots.state_dict(),
            "rollouts": self.rollouts.state_dict(),
            "imitation": self.imitation,
            "magnet": None if self.magnet is None else self.magnet.state_dict(),
            "rng": {
                "numpy_generator": self.rng.bit_generator.state,
                "sampler": self.sampler.get_state(),
                "shuffler": self.shuffler.get_state(),
            },
        }

    # ------------------------------------------------------------------ the league
    def add_snapshot(self) -> None:
        """Freeze the actor into the league, then train an exploiter against it (``ppo.league.exploiter_samples``)."""
        self.snapshots.add(self.step, self.net.actor)
        if self.config.ppo.league.exploiter_samples:
            self._add_exploiter()

    def _add_exploiter(self) -> None:
        """Train an exploiter against the learner and add it to the league."""
        from stonk_envs.training.exploiters import add_exploiter

        add_exploiter(self)

    def learner_actor(self) -> MaskedMLP:
        """A CPU copy of the learner's actor now."""
        actor = MaskedMLP(**self.net.actor.hparams)
        actor.load_state_dict({k: v.detach().cpu().clone() for k, v in self.net.actor.state_dict().items()})
        return actor

    def past_member(self, step: int) -> MaskedMLP | None:
        """The snapshot or exploiter kept under ``step``, if the league still holds it."""
        return self.snapshots.nets.get(step)

    def add_past_member(self, step: int, actor: MaskedMLP) -> None:
        """Add ``actor`` to the league's past members, kept under ``step``."""
        self.snapshots.add(step, actor)

    def report(self, message: str, scalars: dict[str, float], seconds: float) -> None:
        """Show ``message``, log ``scalars`` at this step, and count ``seconds`` of wall time."""
        self.seconds["wall"] += seconds
        if self.writer is not None:
            for name, value in scalars.items():
                self.writer.add_scalar(name, value, self.step)
        if self.bar is not None:
            self.bar.write(message)

    # ------------------------------------------------------------------ training
    def _one_rollout(
        self, fit: Callable[[Samples], dict[str, float]], teacher: Policy | None = None, labeler: Policy | None = None
    ):
        """Collect a rollout, ``fit`` the network to its samples, then refit the observation statistics.

        Returns ``(losses, decisions)``; the rollout's open decisions are carried to the next one.
        """
        c = self.config
        self.threads.adjust()
        carried = len(self.rollouts.carried["columns"])
        table, decisions = self.rollouts.collect(c.ppo.n_steps, teacher, labeler)
        losses = fit(self.rollouts.samples(table, c.ppo.gamma, c.ppo.gae_lambda))
        self.stats.update(table["obs"][carried:])
        self.net.set_statistics(self.stats)
        self.rollouts.carry(table)
        return losses, decisions

    def train_rollout(self) -> tuple[int, dict[str, float]]:
        c = self.config
        coef = c.ppo.imitation.ppo_coef
        if c.ppo.magnet.coef and self.magnet is None:
            self.magnet = Magnet(self.net.actor.body, c.ppo.magnet.rate)
        losses, decisions = self._one_rollout(
            lambda samples: ppo_update(self.net, self.optimizer, samples, c.ppo, self.shuffler, coef,
                                       self.gradient_sync, self.magnet),
            labeler=self.labeler,
        )
        if self.magnet is not None:
            self.magnet.follow(self.net.actor.body)
        return decisions, losses

    def game_statistics(self) -> dict[str, float]:
        finished = self.rollouts.finished
        return {
            "episode_reward": float(np.mean([r for r, _ in finished])) if finished else 0.0,
            "win_rate": float(np.mean([w for _, w in finished])) if finished else 0.0,
        }

    def before_training(self) -> None:
        """The imitation warm start, once, at the start of a new run (``ppo.imitation.samples``)."""
        if self.config.ppo.imitation.samples and self.imitation is None and self.step == 0:
            self._imitate()

    def _imitate(self) -> None:
        """The warm start of ``ppo.imitation`` (:mod:`stonk_envs.training.ppo.imitation`), then fresh games.

        It runs to its end even when a stop is asked for, then saves a checkpoint at step 0, so a
        resumed run continues after it exactly as an unbroken run does.
        """
        c, im, started = self.config, self.config.ppo.imitation, time.perf_counter()
        teacher = make_player(im.teacher, c.game, c.num_players)
        optimizer = torch.optim.Adam(self.net.parameters(), lr=im.learning_rate, eps=1e-5)

        def fit(samples: Samples) -> dict[str, float]:
            return imitation_update(self.net, optimizer, samples, im.epochs, c.ppo.batch_size, c.ppo.vf_coef,
                                    c.ppo.max_grad_norm, self.shuffler, self.gradient_sync)

        made, losses, warned = 0, {}, False
        with tqdm(total=im.samples, unit="sample", desc=f"imitating {im.teacher}", disable=not c.progress) as bar:
            while made < im.samples:
                losses, decisions = self._one_rollout(fit, teacher)
                made += decisions
                for key, value in losses.items():
                    self.writer.add_scalar(f"imitation/{key}", value, made)
                bar.update(decisions)
                bar.set_postfix(accuracy=f"{losses['accuracy']:.3f}")
                if self.stop_requested and not warned:
                    bar.write("the imitation warm start finishes first; the run then stops with a checkpoint")
                    warned = True
        self.rollouts.deal(int(self.rng.integers(2**62)))
        self.rollouts.finished.clear()
        seconds = time.perf_counter() - started
        self.imitation = {"teacher": im.teacher, "samples": made, "seconds": seconds, **losses}
        self.seconds["wall"] += seconds
        self.bar.write(f"imitation warm start: {made:,} decisions of {im.teacher} in {seconds:.0f} s, last "
                       f"accuracy {losses['accuracy']:.3f}, cross-entropy {losses['cross_entropy']:.3f}")
        self.checkpoint()

    # ------------------------------------------------------------------ the report
    def extra_report(self) -> dict[str, Any]:
        return {"imitation": self.imitation}

    def final_notes(self) -> list[str]:
        if not self.imitation:
            return []
        return [f"imitation warm start: {self.imitation['samples']:,} decisions of {self.imitation['teacher']} "
                f"in {self.imitation['seconds']:.0f} s (not counted as training samples)"]
