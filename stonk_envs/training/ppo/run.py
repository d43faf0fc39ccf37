"""A run of the batched PPO trainer, with the sb3 path's contract (see :mod:`stonk_envs.training.trainer`).

``PPORun(config)`` has the same three entry points as :class:`stonk_envs.training.trainer.Run`:
``new_model()``, ``load(policy_file, state_file)`` and ``learn()``. Everything happens at
rollout boundaries (weights updated, no rollout half played), so a checkpoint resumes bit
for bit: the network, optimiser, observation statistics, snapshots, games in play with their
seat holders and open decisions, and every random stream are saved.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.utils.tensorboard import SummaryWriter
from tqdm import tqdm

from stonk_envs import vector
from stonk_envs.games_index import memory_start
from stonk_envs.policies import make_player
from stonk_envs.policies.base import Policy
from stonk_envs.policies.checkpoint import make_metadata, save_torch
from stonk_envs.training import run_state
from stonk_envs.training.config import TrainConfig, to_dict
from stonk_envs.training.device import resolve_device
from stonk_envs.training.ppo.crossplay import plot_ratings, rate_checkpoints
from stonk_envs.training.ppo.imitation import imitation_update
from stonk_envs.training.ppo.network import ActorCritic, observation_bounds_scale, resolve_hidden_dtype
from stonk_envs.training.ppo.normaliser import RunningStats
from stonk_envs.training.ppo.rollout import Rollouts, Samples, Snapshots
from stonk_envs.training.ppo.update import ppo_update
from stonk_envs.training.report import evaluate_policy, format_table, plot_learning_curve
from stonk_envs.training.stopping import StopRequested, stop_on_signals
from stonk_envs.training.threads import ThreadBudget


class PPORun:
    """One run of the batched trainer: games, network, league, history, files."""

    def __init__(self, config: TrainConfig):
        c = self.config = config
        self.run_dir = Path(c.run_dir)
        self.threads = ThreadBudget(c.torch_threads)
        self.device = resolve_device(c.device)
        self.engine = vector.make(c.game, c.num_envs, num_players=c.num_players, observe="actors", parallel=False,
                                  **c.env_config)
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
        self.rollouts = Rollouts(
            self.engine, self.net, c.league.weights(), self.snapshots, (c.game, c.num_players),
            self.rng, self.sampler, self.device, c.league.mix, tuple(c.league.heuristic_players),
            c.league.pfsp_power,
        )
        self.step = 0
        self.seconds = {"training": 0.0, "wall": 0.0}
        """Seconds spent playing and updating (evaluation excluded), and in the whole run so far."""
        self.history: list[dict[str, Any]] = []
        self.training: list[dict[str, float]] = []
        self.crossplay: list[dict[str, Any]] = []
        self.imitation: dict[str, Any] | None = None
        """The warm start's summary once it has run (see :meth:`_imitate`)."""
        self.due = {
            "snapshot": c.league.snapshot_interval,
            "checkpoint": c.checkpoint_interval,
            "eval": c.eval.interval or None,
        }
        self.labeler = make_player(c.imitation.teacher, c.game, c.num_players) if c.imitation.ppo_coef else None
        """The teacher that labels the learner's PPO decisions (``imitation.ppo_coef``), if any."""
        self.stop_requested = False
        self.gradient_sync = None
        """Data-parallel runs: what the workers agree on in each update (:mod:`stonk_envs.training.distributed`)."""
        self.bar: tqdm | None = None
        self.writer: SummaryWriter | None = None

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

    def load(self, policy_file: Path, state_file: Path) -> None:
        """Restore everything from ``state_file`` (``policy_file`` is its step's saved actor)."""
        state = run_state.load_state(state_file)
        if state.get("trainer") != "ppo":
            raise ValueError(f"{state_file} was not saved by the ppo trainer")
        self.net.load_state_dict(state["net"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.stats.load_state_dict(state["stats"])
        self.snapshots.load_state_dict(state["snapshots"])
        self.rollouts.load_state_dict(state["rollouts"])
        self.rng.bit_generator.state = state["rng"]["numpy_generator"]
        self.sampler.set_state(state["rng"]["sampler"])
        self.shuffler.set_state(state["rng"]["shuffler"])
        random.setstate(state["rng"]["python"])
        np.random.set_state(state["rng"]["numpy"])
        torch.set_rng_state(state["rng"]["torch"])
        self.step = state["step"]
        self.seconds = dict(state["seconds"])
        self.history, self.training, self.crossplay = state["history"], state["training"], state["crossplay"]
        self.imitation = state.get("imitation")
        step = self.step
        for key, interval in self._intervals().items():
            if interval == state["intervals"][key]:
                self.due[key] = state["due"][key]
            else:
                self.due[key] = _next_multiple(step, interval) if interval else None

    def _intervals(self) -> dict[str, int]:
        c = self.config
        return {"snapshot": c.league.snapshot_interval, "checkpoint": c.checkpoint_interval, "eval": c.eval.interval}

    # ------------------------------------------------------------------ saving
    def metadata(self) -> dict[str, Any]:
        c = self.config
        return make_metadata(
            c.game, c.num_players, self.engine.obs_size, self.engine.num_actions, dict(c.env_config), kind="ppo",
            extra={"num_timesteps": self.step, "train_config": to_dict(c)},
        )

    def checkpoint(self) -> Path:
        """Save the actor (a policy file) and the whole training state at the current step."""
        actor = self.net.actor
        if self.device.type != "cpu":
            actor = type(actor)(**actor.hparams)
            actor.load_state_dict({k: v.cpu() for k, v in self.net.actor.state_dict().items()})
        policy_file = save_torch(actor, run_state.policy_path(self.run_dir, self.step), self.metadata())
        run_state.save_state(self.run_dir, self.step, {
            "trainer": "ppo",
            "step": self.step,
            "net": self.net.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "stats": self.stats.state_dict(),
            "snapshots": self.snapshots.state_dict(),
            "rollouts": self.rollouts.state_dict(),
            "seconds": dict(self.seconds),
            "history": self.history,
            "training": self.training,
            "crossplay": self.crossplay,
            "imitation": self.imitation,
            "due": dict(self.due),
            "intervals": self._intervals(),
            "rng": {
                "numpy_generator": self.rng.bit_generator.state,
                "sampler": self.sampler.get_state(),
                "shuffler": self.shuffler.get_state(),
                "python": random.getstate(),
                "numpy": np.random.get_state(),
                "torch": torch.get_rng_state(),
            },
        })
        if self.writer is not None:
            self.writer.flush()
        return policy_file

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, policy_file: Path, num_games: int, seed: int) -> list[dict[str, Any]]:
        """The policy in ``policy_file`` against each configured opponent kind."""
        c = self.config
        with torch.random.fork_rng(devices=[]):
            return [
                evaluate_policy(policy_file, c.game, c.num_players, dict(c.env_config), opponent, num_games, seed,
                                c.eval.workers)
                for opponent in c.eval.opponents
            ]

    def record_evaluation(self, results: list[dict[str, Any]]) -> None:
        c = self.config
        self.history.append({
            "step": self.step,
            "training_seconds": self.seconds["training"],
            "wall_seconds": self.seconds["wall"],
            "results": [{k: r[k] for k in ("opponent", "policy")} for r in results],
        })
        for result in results:
            self.writer.add_scalar(f"eval/win_rate_vs_{result['opponent']}", result["policy"]["win_rate"], self.step)
            self.writer.add_scalar(f"eval/win_share_vs_{result['opponent']}", result["policy"]["win_share"], self.step)
        run_state.write_json(self.run_dir / "evaluations.json", self.history)
        plot_learning_curve(self.history, self.training, c.num_players, self.run_dir / "learning_curve.png")
        steps = [point["step"] for point in self.history][-c.eval.crossplay_max:]
        if c.eval.crossplay_games and len(steps) + 2 >= c.num_players:
            self.crossplay.append(rate_checkpoints(
                self.run_dir, steps, c.game, c.num_players, dict(c.env_config), c.eval.crossplay_games, c.seed + 3,
                c.eval.workers,
            ))
            run_state.write_json(self.run_dir / "crossplay.json", self.crossplay)
            plot_ratings(self.crossplay, self.run_dir / "crossplay.png")
        if c.eval.exploit_samples and self.step >= c.eval.exploit_from:
            self._measure_exploitability()

    def _measure_exploitability(self) -> None:
        """The newest evaluation's checkpoint against a best response (``eval.exploit_samples``)."""
        from stonk_envs.training import exploit_curve

        point = self.history[-1]
        folder = self.run_dir / "exploit" / f"step_{point['step']:010d}"
        with torch.random.fork_rng(devices=[]):
            point["exploit"] = exploit_curve.measure(run_state.policy_path(self.run_dir, point["step"]), self.config,
                                                     folder, self.config.seed + 4)
        self.bar.write(f"approximate exploitability at step {point['step']:,}: best response's win share "
                       f"{point['exploit']['win_share']:.3f} [{point['exploit']['share_ci_low']:.3f}, "
                       f"{point['exploit']['share_ci_high']:.3f}] ({point['exploit']['best_start']} start)")
        run_state.write_json(self.run_dir / "evaluations.json", self.history)
        exploit_curve.plot_exploitability(self.history, self.crossplay, self.run_dir / "exploitability.png")

    def kept_step(self) -> int:
        """The step whose checkpoint becomes ``policy.zip`` (``eval.keep_least_exploitable``, ``eval.keep_best``)."""
        e = self.config.eval
        if e.keep_least_exploitable:
            return self.least_exploitable_step()
        return self.best_step() if e.keep_best else self.step

    def least_exploitable_step(self) -> int:
        """The measured step whose best response won the smallest share (latest on ties); the last step
        when none was measured (the run ended before ``eval.exploit_from``)."""
        shares = [(p["exploit"]["win_share"], -p["step"]) for p in self.history if "exploit" in p]
        return -min(shares)[1] if shares else self.step

    def best_step(self) -> int:
        """The evaluated step with the best win share against the first of ``eval.opponents`` (latest on ties)."""
        first = self.config.eval.opponents[0]
        shares = [(p["results"][0]["policy"]["win_share"], p["step"]) for p in self.history
                  if p["results"][0]["opponent"] == first]
        return max(shares)[1]

    # ------------------------------------------------------------------ training
    def learn(self) -> dict[str, Any] | None:
        """Train up to ``total_timesteps`` samples, then keep the best policy and evaluate it.

        SIGINT or SIGTERM stops the run at the next rollout boundary with a checkpoint (None is
        returned); a second signal stops it at once.
        """
        c = self.config
        self.writer = SummaryWriter(str(self.run_dir / "tb"))
        self.bar = tqdm(total=c.total_timesteps, initial=self.step, unit="sample", disable=not c.progress)
        try:
            with stop_on_signals(self):
                if c.imitation.samples and self.imitation is None and self.step == 0:
                    self._imitate()
                while self.step < c.total_timesteps:
                    self._at_rollout_start()
                    self._train_one_rollout()
        except StopRequested:
            print(f"stopped at step {self.step:,}; continue with --resume {self.run_dir}")
            return None
        finally:
            self.bar.close()
        report = self._finish()
        self.writer.close()
        return report

    def _at_rollout_start(self) -> None:
        c, due = self.config, self.due
        if self.stop_requested:
            self.checkpoint()
            raise StopRequested
        if self.step >= due["snapshot"]:
            self.snapshots.add(self.step, self.net.actor)
            if c.league.exploiter_samples:
                self._add_exploiter()
            due["snapshot"] = _next_multiple(self.step, c.league.snapshot_interval)
        evaluate = due["eval"] is not None and self.step >= due["eval"]
        started = time.perf_counter()
        if evaluate or self.step >= due["checkpoint"]:
            due["checkpoint"] = _next_multiple(self.step, c.checkpoint_interval)
            policy_file = self.checkpoint()  # with the evaluation still due: a run resumed from it redoes it
            if evaluate:
                results = self.evaluate(policy_file, c.eval.num_games, c.seed + 1)
                due["eval"] = _next_multiple(self.step, c.eval.interval)
                self.record_evaluation(results)
                self.bar.write(format_table(self.step, results, c.eval.num_games))
                self.checkpoint()  # the history now includes this evaluation
        self.seconds["wall"] += time.perf_counter() - started

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

    def _imitate(self) -> None:
        """The warm start of ``config.imitation`` (:mod:`stonk_envs.training.ppo.imitation`), then fresh games.

        It runs to its end even when a stop is asked for, then saves a checkpoint at step 0, so a
        resumed run continues after it exactly as an unbroken run does.
        """
        c, im, started = self.config, self.config.imitation, time.perf_counter()
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

    def _add_exploiter(self) -> None:
        """Train an exploiter against the learner and add it to the league (``league.exploiter_samples``)."""
        from stonk_envs.training.exploiters import add_exploiter

        add_exploiter(self)

    def _train_one_rollout(self) -> None:
        c, started = self.config, time.perf_counter()
        coef = c.imitation.ppo_coef
        losses, decisions = self._one_rollout(
            lambda samples: ppo_update(self.net, self.optimizer, samples, c.ppo, self.shuffler, coef,
                                       self.gradient_sync),
            labeler=self.labeler,
        )
        seconds = time.perf_counter() - started
        self.seconds["training"] += seconds
        self.seconds["wall"] += seconds
        self.step += decisions
        finished = self.rollouts.finished
        point = {
            "step": self.step,
            "episode_reward": float(np.mean([r for r, _ in finished])) if finished else 0.0,
            "win_rate": float(np.mean([w for _, w in finished])) if finished else 0.0,
        }
        self.training.append(point)
        for key, value in losses.items():
            self.writer.add_scalar(f"train/{key}", value, self.step)
        self.writer.add_scalar("selfplay/win_rate", point["win_rate"], self.step)
        self.writer.add_scalar("selfplay/episode_reward", point["episode_reward"], self.step)
        self.writer.add_scalar("time/samples_per_second", decisions / seconds, self.step)
        self.bar.update(decisions)
        self.bar.set_postfix(win=f"{point['win_rate']:.2f}", kl=f"{losses['approx_kl']:.3f}",
                             sps=f"{self.step / max(self.seconds['training'], 1e-9):,.0f}")

    def _finish(self) -> dict[str, Any]:
        c, step = self.config, self.step
        evaluated = bool(self.history) and self.history[-1]["step"] == step
        self.due["checkpoint"] = _next_multiple(step, c.checkpoint_interval)
        if not evaluated and c.eval.interval:
            self.due["eval"] = _next_multiple(step, c.eval.interval)
        policy_file = self.checkpoint()
        if not evaluated:
            self.record_evaluation(self.evaluate(policy_file, c.eval.num_games, c.seed + 1))
            self.checkpoint()
        chosen = self.kept_step()
        final = self.run_dir / "policy.zip"
        source = run_state.policy_path(self.run_dir, chosen)
        run_state.atomic_write_bytes(final, lambda handle: handle.write(source.read_bytes()))
        results = self.evaluate(final, c.eval.final_num_games, c.seed + 2)
        samples_per_second = step / max(self.seconds["training"], 1e-9)
        report = {
            "game": c.game,
            "num_players": c.num_players,
            "trainer": "ppo",
            "steps_trained": step,
            "policy_step": chosen,
            "policy": str(final),
            "training_seconds": self.seconds["training"],
            "samples_per_second": samples_per_second,
            "imitation": self.imitation,
            "results": results,
        }
        run_state.write_json(self.run_dir / "final_evaluation.json", report)
        plot_learning_curve(self.history, self.training, c.num_players, self.run_dir / "learning_curve.png")
        print(format_table(chosen, results, c.eval.final_num_games))
        if self.imitation:
            print(f"imitation warm start: {self.imitation['samples']:,} decisions of {self.imitation['teacher']} "
                  f"in {self.imitation['seconds']:.0f} s (not counted as training samples)")
        print(f"policy: {final} (step {chosen:,} of {step:,}); {step:,} samples in "
              f"{self.seconds['training']:.0f} s of training ({samples_per_second:,.0f} samples/s, evaluation "
              f"excluded)\nrun folder: {self.run_dir}")
        return report


def _next_multiple(step: int, interval: int) -> int:
    return (step // interval + 1) * interval
