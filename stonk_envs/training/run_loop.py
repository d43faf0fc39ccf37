"""The run loop that every trainer shares: schedule, checkpoints, evaluation, keeping and finishing.

A trainer's run subclasses :class:`RunLoop` and supplies the learner, through these methods:

- ``kind``: the policy files' metadata kind (``ppo``, ``sb3``);
- ``obs_size`` and ``num_actions``: the network's input and output sizes;
- ``new_model()``: the start of a new run;
- ``train_rollout()``: collect one rollout and update on it; returns ``(decisions, losses)``;
- ``game_statistics()``: the mean episode reward and win rate of the learner's recent games;
- ``add_snapshot()``: freeze the learner into its league at the current step;
- ``save_policy(path, metadata)``: the learner's policy file;
- ``learner_state()`` and ``load_learner(policy_file, state)``: everything else that a resume needs
  (its random streams under ``"rng"``, beside the loop's);
- optionally ``before_training()`` (a warm start), ``extra_report()`` and ``final_notes()``.

Everything else is written once here. Snapshots, checkpoints and evaluations happen at rollout
boundaries (weights updated, no rollout half collected), so a checkpoint resumes bit for bit: the
loop saves its schedule, history and the global random states with the learner's state. An
evaluation leaves every random stream of training as it found it. The kept policy (``policy.zip``)
is chosen by ``eval.keep_best`` or ``eval.keep_least_exploitable``; cross-play and exploitability
are measured on the saved checkpoints, whatever the learner.
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.utils.tensorboard import SummaryWriter
from tqdm import tqdm

from stonk_envs.policies.checkpoint import make_metadata
from stonk_envs.training import run_state
from stonk_envs.training.config import TrainConfig, to_dict
from stonk_envs.training.crossplay_curve import plot_ratings, rate_checkpoints
from stonk_envs.training.report import evaluate_policy, format_table, plot_learning_curve
from stonk_envs.training.stopping import StopRequested, stop_on_signals


class RunLoop(ABC):
    """One training run: its config, folder, schedule, history and files; the learner comes from a subclass."""

    kind = ""
    """The policy files' metadata kind, and the saved state's ``trainer``."""

    def __init__(self, config: TrainConfig):
        c = self.config = config
        self.run_dir = Path(c.run_dir)
        self.step = 0
        """Training samples (learner decisions) so far."""
        self.seconds = {"training": 0.0, "wall": 0.0}
        """Seconds spent playing and updating (evaluation excluded), and in the whole run so far."""
        self.history: list[dict[str, Any]] = []
        """Evaluations so far: ``{"step", "training_seconds", "wall_seconds", "results": [per opponent]}``."""
        self.training: list[dict[str, float]] = []
        """Training-game statistics after each rollout: step, episode reward, win rate."""
        self.crossplay: list[dict[str, Any]] = []
        """The cross-play leagues so far (``eval.crossplay_games``)."""
        self.due = {
            "snapshot": c.league.snapshot_interval,
            "checkpoint": c.checkpoint_interval,
            "eval": c.eval.interval or None,
        }
        """The steps at which the next snapshot, checkpoint and evaluation fall due."""
        self.stop_requested = False
        self.bar: tqdm | None = None
        self.writer: SummaryWriter | None = None

    # ------------------------------------------------------------------ the learner (subclasses)
    obs_size: int
    """The network's input size (the policy files' metadata)."""
    num_actions: int
    """The network's output size (the policy files' metadata)."""

    @abstractmethod
    def new_model(self) -> None:
        """Start a new run's learner."""

    @abstractmethod
    def train_rollout(self) -> tuple[int, dict[str, float]]:
        """Collect one rollout and update on it: the samples it made and the update's losses by name."""

    @abstractmethod
    def game_statistics(self) -> dict[str, float]:
        """``episode_reward`` and ``win_rate`` of the learner's recent games."""

    @abstractmethod
    def add_snapshot(self) -> None:
        """Freeze the learner into its league at the current step."""

    @abstractmethod
    def save_policy(self, path: Path, metadata: dict[str, Any]) -> Path:
        """Write the learner's policy file at ``path`` with ``metadata``."""

    @abstractmethod
    def learner_state(self) -> dict[str, Any]:
        """Everything else a resume needs (its own random streams under ``"rng"``)."""

    @abstractmethod
    def load_learner(self, policy_file: Path, state: dict[str, Any]) -> None:
        """Restore the learner from its step's policy file and the saved state."""

    def before_training(self) -> None:  # noqa: B027 (a hook a learner may leave as it is)
        """Work before the first rollout of a new run (none by default)."""

    def extra_report(self) -> dict[str, Any]:
        """Entries of the final report beyond the loop's own."""
        return {}

    def final_notes(self) -> list[str]:
        """Lines printed before the final summary."""
        return []

    # ------------------------------------------------------------------ resuming
    def load(self, policy_file: Path, state_file: Path) -> None:
        """Restore the learner and the loop from a checkpoint (``policy_file`` is its step's policy)."""
        state = run_state.load_state(state_file)
        if state.get("trainer", "sb3") != self.kind:  # the sb3 trainer's states named no trainer before
            raise ValueError(f"{state_file} was not saved by the {self.kind} trainer")
        self.load_learner(policy_file, state)
        self.step = state["step"]
        self.seconds = dict(state.get("seconds", self.seconds))
        self.history, self.training = state["history"], state["training"]
        self.crossplay = state.get("crossplay", [])
        for key, interval in self._intervals().items():
            if interval == state["intervals"][key]:
                self.due[key] = state["due"][key]
            else:  # the resumed config changed the interval
                self.due[key] = next_multiple(self.step, interval) if interval else None
        random.setstate(state["rng"]["python"])
        np.random.set_state(state["rng"]["numpy"])
        torch.set_rng_state(state["rng"]["torch"])

    def _intervals(self) -> dict[str, int]:
        c = self.config
        return {"snapshot": c.league.snapshot_interval, "checkpoint": c.checkpoint_interval, "eval": c.eval.interval}

    # ------------------------------------------------------------------ saving
    def metadata(self) -> dict[str, Any]:
        c = self.config
        return make_metadata(
            c.game, c.num_players, self.obs_size, self.num_actions, dict(c.env_config), kind=self.kind,
            extra={"num_timesteps": self.step, "train_config": to_dict(c)},
        )

    def checkpoint(self) -> Path:
        """Save the policy file and the whole training state at the current step."""
        policy_file = self.save_policy(run_state.policy_path(self.run_dir, self.step), self.metadata())
        state = self.learner_state()
        run_state.save_state(self.run_dir, self.step, {
            **state,
            "trainer": self.kind,
            "step": self.step,
            "seconds": dict(self.seconds),
            "history": self.history,
            "training": self.training,
            "crossplay": self.crossplay,
            "due": dict(self.due),
            "intervals": self._intervals(),
            "rng": {
                **state.get("rng", {}),
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
        """The policy in ``policy_file`` against each configured opponent kind; training's random streams are
        left as they were."""
        c = self.config
        python_state, numpy_state = random.getstate(), np.random.get_state()
        with torch.random.fork_rng(devices=[]):
            results = [
                evaluate_policy(policy_file, c.game, c.num_players, dict(c.env_config), opponent, num_games, seed,
                                c.eval.workers)
                for opponent in c.eval.opponents
            ]
        random.setstate(python_state)
        np.random.set_state(numpy_state)
        return results

    def record_evaluation(self, results: list[dict[str, Any]]) -> None:
        """Add an evaluation to the history, then the cross-play and exploitability measurements it calls for."""
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
        from stonk_envs.training.exploit_target import MEASURE_SEED_OFFSET

        point = self.history[-1]
        folder = self.run_dir / "exploit" / f"step_{point['step']:010d}"
        with torch.random.fork_rng(devices=[]):
            point["exploit"] = exploit_curve.measure(run_state.policy_path(self.run_dir, point["step"]), self.config,
                                                     folder, self.config.seed + MEASURE_SEED_OFFSET)
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
        """Train up to ``total_timesteps`` samples, then keep a policy and evaluate it.

        SIGINT or SIGTERM stops the run at the next rollout boundary with a checkpoint (None is
        returned); a second signal stops it at once.
        """
        c = self.config
        self.writer = SummaryWriter(str(self.run_dir / "tb"))
        self.bar = tqdm(total=c.total_timesteps, initial=self.step, unit="sample", disable=not c.progress)
        try:
            with stop_on_signals(self):
                self.before_training()
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
            self.add_snapshot()
            due["snapshot"] = next_multiple(self.step, c.league.snapshot_interval)
        evaluate = due["eval"] is not None and self.step >= due["eval"]
        started = time.perf_counter()
        if evaluate or self.step >= due["checkpoint"]:
            due["checkpoint"] = next_multiple(self.step, c.checkpoint_interval)
            policy_file = self.checkpoint()  # with the evaluation still due: a run resumed from it redoes it
            if evaluate:
                results = self.evaluate(policy_file, c.eval.num_games, c.seed + 1)
                due["eval"] = next_multiple(self.step, c.eval.interval)
                self.record_evaluation(results)
                self.bar.write(format_table(self.step, results, c.eval.num_games))
                self.checkpoint()  # the history now includes this evaluation
        self.seconds["wall"] += time.perf_counter() - started

    def _train_one_rollout(self) -> None:
        started = time.perf_counter()
        decisions, losses = self.train_rollout()
        seconds = time.perf_counter() - started
        self.seconds["training"] += seconds
        self.seconds["wall"] += seconds
        self.step += decisions
        point = {"step": self.step, **self.game_statistics()}
        self.training.append(point)
        for key, value in losses.items():
            self.writer.add_scalar(f"train/{key}", value, self.step)
        self.writer.add_scalar("selfplay/win_rate", point["win_rate"], self.step)
        self.writer.add_scalar("selfplay/episode_reward", point["episode_reward"], self.step)
        self.writer.add_scalar("time/samples_per_second", decisions / seconds, self.step)
        self.bar.update(decisions)
        postfix = {"win": f"{point['win_rate']:.2f}"}
        if "approx_kl" in losses:
            postfix["kl"] = f"{losses['approx_kl']:.3f}"
        self.bar.set_postfix(**postfix, sps=f"{self.step / max(self.seconds['training'], 1e-9):,.0f}")

    def _finish(self) -> dict[str, Any]:
        c, step = self.config, self.step
        evaluated = bool(self.history) and self.history[-1]["step"] == step
        self.due["checkpoint"] = next_multiple(step, c.checkpoint_interval)
        if not evaluated and c.eval.interval:
            self.due["eval"] = next_multiple(step, c.eval.interval)
        policy_file = self.checkpoint()
        if not evaluated:
            self.record_evaluation(self.evaluate(policy_file, c.eval.num_games, c.seed + 1))
            self.checkpoint()  # the history now includes this evaluation
        chosen = self.kept_step()
        final = self.run_dir / "policy.zip"
        source = run_state.policy_path(self.run_dir, chosen)
        run_state.atomic_write_bytes(final, lambda handle: handle.write(source.read_bytes()))
        results = self.evaluate(final, c.eval.final_num_games, c.seed + 2)
        samples_per_second = step / max(self.seconds["training"], 1e-9)
        report = {
            "game": c.game,
            "num_players": c.num_players,
            "trainer": self.kind,
            "steps_trained": step,
            "policy_step": chosen,
            "policy": str(final),
            "training_seconds": self.seconds["training"],
            "samples_per_second": samples_per_second,
            **self.extra_report(),
            "results": results,
        }
        run_state.write_json(self.run_dir / "final_evaluation.json", report)
        plot_learning_curve(self.history, self.training, c.num_players, self.run_dir / "learning_curve.png")
        print(format_table(chosen, results, c.eval.final_num_games))
        for line in self.final_notes():
            print(line)
        print(f"policy: {final} (step {chosen:,} of {step:,}); {step:,} samples in "
              f"{self.seconds['training']:.0f} s of training ({samples_per_second:,.0f} samples/s, evaluation "
              f"excluded)\nrun folder: {self.run_dir}")
        return report


def next_multiple(step: int, interval: int) -> int:
    """The first multiple of ``interval`` after ``step``."""
    return (step // interval + 1) * interval
