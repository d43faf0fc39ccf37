"""The self-play trainer: MaskablePPO on the self-play view, with league, checkpoints and evaluation.

``train(config)`` starts a run in ``config.run_dir``; ``resume(run_dir)`` continues the run
from its newest checkpoint exactly where it stopped (model, optimiser, step count, league,
games in play and every random stream).
"""

from __future__ import annotations

import random
from collections import deque
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import configure
from stable_baselines3.common.utils import set_random_seed
from tqdm import tqdm

from stonk_envs.configs import load_yaml
from stonk_envs.files import check_output_dir
from stonk_envs.policies import make_player
from stonk_envs.policies.checkpoint import make_metadata, save_sb3
from stonk_envs.policies.sb3_zip import SB3Zip
from stonk_envs.training import run_state
from stonk_envs.training.config import (
    TrainConfig,
    check_opponents,
    load_config,
    to_dict,
    to_yaml,
    torch_thread_count,
)
from stonk_envs.training.device import resolve_device
from stonk_envs.training.engine_selfplay import EngineSelfPlayVecEnv
from stonk_envs.training.league import League
from stonk_envs.training.report import evaluate_policy, format_table, plot_learning_curve
from stonk_envs.training.sb3_model import maskable_ppo
from stonk_envs.training.selfplay import SelfPlayVecEnv
from stonk_envs.training.stopping import StopRequested, stop_on_signals

BACKENDS = {"pettingzoo": SelfPlayVecEnv, "engine": EngineSelfPlayVecEnv}
"""The learner's view for each ``env_backend``."""
RESUMABLE_KEYS = ("total_timesteps", "checkpoint_interval", "torch_threads", "progress", "eval", "device")
"""Top-level config keys a resumed run may change; anything else would not continue the same run."""


class Run:
    """One training run: its config, folder, model, league, games in play and history."""

    def __init__(self, config: TrainConfig):
        self.config = config
        self.run_dir = Path(config.run_dir)
        torch.set_num_threads(torch_thread_count(config.torch_threads))
        self.league = League(
            config.league.weights(),
            config.league.max_snapshots,
            lambda: make_player("heuristic", config.game, config.num_players),
        )
        self.venv = BACKENDS[config.env_backend](
            config.game, config.num_players, dict(config.env_config), config.num_envs, self.league, config.seed
        )
        self.model: MaskablePPO | None = None
        self.history: list[dict[str, Any]] = []
        """Evaluations so far: ``{"step", "results": [per opponent]}``."""
        self.training: list[dict[str, float]] = []
        """Training-game statistics after each rollout: step, episode reward, win rate."""
        self.due = {
            "snapshot": config.league.snapshot_interval,
            "checkpoint": config.checkpoint_interval,
            "eval": config.eval.interval or None,
        }
        """The learner steps at which the next snapshot, checkpoint and evaluation fall due."""

    # ------------------------------------------------------------------ building
    def new_model(self) -> None:
        c = self.config
        set_random_seed(c.seed)
        self.model = maskable_ppo(self.venv, c.ppo)
        self.league.set_learner(self.model.policy)
        self._attach_logger()

    def load(self, policy_file: Path, state_file: Path) -> None:
        """Restore the model from ``policy_file`` and everything else from ``state_file``."""
        state = run_state.load_state(state_file)
        self.model = _load_model(policy_file, self.venv, self.config)
        if self.model.num_timesteps != state["step"]:
            raise ValueError(f"{policy_file} is at step {self.model.num_timesteps}, {state_file} at {state['step']}")
        self.league.set_learner(self.model.policy)
        self.league.load_state_dict(state["league"])
        self.venv.set_state(state["venv"])
        self.model._last_obs = self.venv.current_obs()
        self.model._last_episode_starts = state["last_episode_starts"]
        self.model.ep_info_buffer = deque(state["ep_info_buffer"], maxlen=self.model._stats_window_size)
        self.history = state["history"]
        self.training = state["training"]
        self._restore_due(state["due"], state["intervals"])
        random.setstate(state["rng"]["python"])
        np.random.set_state(state["rng"]["numpy"])
        torch.set_rng_state(state["rng"]["torch"])
        self._attach_logger()

    def _restore_due(self, due: dict, intervals: dict) -> None:
        """Keep the saved due steps, except where the resumed config changed an interval."""
        step = int(self.model.num_timesteps)
        for key, interval in self._intervals().items():
            if interval == intervals[key]:
                self.due[key] = due[key]
            else:
                self.due[key] = _next_multiple(step, interval) if interval else None

    def _intervals(self) -> dict[str, int]:
        c = self.config
        return {"snapshot": c.league.snapshot_interval, "checkpoint": c.checkpoint_interval, "eval": c.eval.interval}

    def _attach_logger(self) -> None:
        self.model.set_logger(configure(str(self.run_dir / "tb"), ["tensorboard"]))

    # ------------------------------------------------------------------ saving
    def metadata(self) -> dict[str, Any]:
        c = self.config
        return make_metadata(
            c.game,
            c.num_players,
            int(self.venv.observation_space.shape[0]),
            int(self.venv.action_space.n),
            dict(c.env_config),
            kind="sb3",
            extra={"num_timesteps": int(self.model.num_timesteps), "train_config": to_dict(c)},
        )

    def checkpoint(self) -> Path:
        """Save the model (with metadata) and the training state at the current step."""
        step = int(self.model.num_timesteps)
        policy_file = save_sb3(self.model, run_state.policy_path(self.run_dir, step), self.metadata())
        run_state.save_state(
            self.run_dir,
            step,
            {
                "step": step,
                "league": self.league.state_dict(),
                "venv": self.venv.get_state(),
                "last_episode_starts": self.model._last_episode_starts,
                "ep_info_buffer": list(self.model.ep_info_buffer),
                "history": self.history,
                "training": self.training,
                "due": dict(self.due),
                "intervals": self._intervals(),
                "rng": {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()},
            },
        )
        return policy_file

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, policy_file: Path, num_games: int, seed: int | None = None) -> list[dict[str, Any]]:
        """The policy in ``policy_file`` against each configured opponent kind (games seeded ``seed``)."""
        c = self.config
        python_state, numpy_state = random.getstate(), np.random.get_state()
        with torch.random.fork_rng(devices=[]):  # evaluation must not shift training's random streams
            results = [
                evaluate_policy(
                    policy_file, c.game, c.num_players, dict(c.env_config), opponent, num_games,
                    c.seed + 1 if seed is None else seed, c.eval.workers,
                )
                for opponent in c.eval.opponents
            ]
        random.setstate(python_state)
        np.random.set_state(numpy_state)
        return results

    def record_evaluation(self, step: int, results: list[dict[str, Any]]) -> None:
        self.history.append({"step": step, "results": [{k: r[k] for k in ("opponent", "policy")} for r in results]})
        for result in results:
            self.model.logger.record(f"eval/win_rate_vs_{result['opponent']}", result["policy"]["win_rate"])
        run_state.write_json(self.run_dir / "evaluations.json", self.history)
        plot_learning_curve(self.history, self.training, self.config.num_players, self.run_dir / "learning_curve.png")

    # ------------------------------------------------------------------ training
    def learn(self) -> dict[str, Any] | None:
        """Train up to ``total_timesteps``, then write the final policy, evaluation and curve.

        SIGINT or SIGTERM stops the run at the next rollout boundary with a checkpoint (None is
        returned); a second signal stops it at once.
        """
        c = self.config
        remaining = c.total_timesteps - self.model.num_timesteps
        if remaining > 0:
            callback = SelfPlayCallback(self)
            try:
                with stop_on_signals(callback):
                    self.model.learn(remaining, callback=callback, reset_num_timesteps=False)
            except StopRequested:
                print(f"stopped at step {self.model.num_timesteps:,}; continue with --resume {self.run_dir}")
                return None
            finally:
                callback.close()
        step = int(self.model.num_timesteps)
        evaluated = bool(self.history) and self.history[-1]["step"] == step
        self.due["checkpoint"] = _next_multiple(step, c.checkpoint_interval)
        if not evaluated and c.eval.interval:
            self.due["eval"] = _next_multiple(step, c.eval.interval)
        policy_file = self.checkpoint()
        if not evaluated:
            self.record_evaluation(step, self.evaluate(policy_file, c.eval.num_games))
            self.checkpoint()  # the history now includes this evaluation
        chosen = self.best_step() if c.eval.keep_best else step
        final = self.run_dir / "policy.zip"
        source = run_state.policy_path(self.run_dir, chosen)
        run_state.atomic_write_bytes(final, lambda handle: handle.write(source.read_bytes()))
        results = self.evaluate(final, c.eval.final_num_games, seed=c.seed + 2)
        report = {
            "game": c.game,
            "num_players": c.num_players,
            "steps_trained": step,
            "policy_step": chosen,
            "policy": str(final),
            "results": results,
        }
        run_state.write_json(self.run_dir / "final_evaluation.json", report)
        plot_learning_curve(self.history, self.training, c.num_players, self.run_dir / "learning_curve.png")
        print(format_table(chosen, results, c.eval.final_num_games))
        print(f"policy: {final} (step {chosen:,} of {step:,})\nrun folder: {self.run_dir}")
        return report

    def best_step(self) -> int:
        """The evaluated step with the best win rate against the first of ``eval.opponents`` (latest on ties)."""
        first = self.config.eval.opponents[0]
        rates = [(p["results"][0]["policy"]["win_rate"], p["step"]) for p in self.history
                 if p["results"][0]["opponent"] == first]
        return max(rates)[1]


class SelfPlayCallback(BaseCallback):
    """Progress bar, training statistics, snapshots, checkpoints and periodic evaluation.

    Snapshots, checkpoints and evaluations happen at the start of a rollout, when the
    weights are updated and no rollout is half collected, so a checkpoint resumes exactly.
    """

    def __init__(self, run: Run):
        super().__init__()
        self.run = run
        c = run.config
        self.stop_requested = False
        self.wins: deque[float] = deque(maxlen=200)
        self.bar = tqdm(
            total=c.total_timesteps, initial=int(run.model.num_timesteps), unit="step", disable=not c.progress
        )

    def _on_rollout_start(self) -> None:
        step = int(self.model.num_timesteps)
        run, c, due = self.run, self.run.config, self.run.due
        if self.stop_requested:
            run.checkpoint()
            raise StopRequested
        if step > 0 and (not run.training or run.training[-1]["step"] != step):
            self._record_training(step)
        if step >= due["snapshot"]:
            run.league.add_snapshot(step)
            due["snapshot"] = _next_multiple(step, c.league.snapshot_interval)
        evaluate = due["eval"] is not None and step >= due["eval"]
        if evaluate or step >= due["checkpoint"]:
            due["checkpoint"] = _next_multiple(step, c.checkpoint_interval)
            policy_file = run.checkpoint()  # with the evaluation still due: a run resumed from it redoes it
            if evaluate:
                results = run.evaluate(policy_file, c.eval.num_games)
                due["eval"] = _next_multiple(step, c.eval.interval)
                run.record_evaluation(step, results)
                self.bar.write(format_table(step, results, c.eval.num_games))
                run.checkpoint()  # the history now includes this evaluation

    def _record_training(self, step: int) -> None:
        buffer = self.model.ep_info_buffer
        point = {
            "step": step,
            "episode_reward": float(np.mean([e["r"] for e in buffer])) if buffer else 0.0,
            "win_rate": float(np.mean(self.wins)) if self.wins else 0.0,
        }
        self.run.training.append(point)
        self.logger.record("selfplay/win_rate", point["win_rate"])
        self.logger.record("selfplay/snapshots", len(self.run.league.snapshot_steps))
        self.bar.set_postfix(reward=f"{point['episode_reward']:.3f}", win=f"{point['win_rate']:.2f}")

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "win" in info:
                self.wins.append(float(info["win"]))
        self.bar.update(self.training_env.num_envs)
        return True

    def close(self) -> None:
        self.bar.close()


def _next_multiple(step: int, interval: int) -> int:
    return (step // interval + 1) * interval


def _load_model(policy_file: Path, venv: Any, config: TrainConfig) -> MaskablePPO:
    """The run's MaskablePPO at a checkpoint, rebuilt from the config and the zip's tensors (nothing unpickled)."""
    saved = SB3Zip(policy_file)
    model = maskable_ppo(venv, config.ppo)
    model.set_parameters(
        {"policy": saved.tensors("policy"), "policy.optimizer": saved.tensors("policy.optimizer")}, exact_match=True
    )
    model.num_timesteps = saved.plain("num_timesteps", int)
    model._n_updates = saved.plain("_n_updates", int)
    model._episode_num = saved.plain("_episode_num", int)
    model.ep_success_buffer = deque(maxlen=model._stats_window_size)  # the games report no successes
    return model


def _run_class(config: TrainConfig) -> type:
    """The run of ``config.trainer``: :class:`Run` (sb3) or :class:`stonk_envs.training.ppo.run.PPORun` (ppo)."""
    if config.trainer == "ppo":
        from stonk_envs.training.ppo.run import PPORun

        return PPORun
    return Run


def train(config: TrainConfig) -> dict[str, Any] | None:
    """Start a new run in ``config.run_dir`` and train it to the end."""
    run_dir = check_output_dir(config.run_dir, "run_dir")
    check_opponents(config)
    resolve_device(config.device)  # a device this machine lacks is refused before the run folder is made
    with run_state.locked(run_dir):  # a live run is named by its PID before anything else is said of it
        if (run_dir / run_state.LATEST).exists():
            raise ValueError(f"{run_dir} already holds a run; resume it with --resume {run_dir} or choose another "
                             "run_dir")
        run_state.atomic_write_text(run_dir / "config.yaml", to_yaml(config))
        run = _run_class(config)(config)
        run.new_model()
        return run.learn()


def resume(run_dir: str | Path, overrides: list[str] | tuple[str, ...] = ()) -> dict[str, Any] | None:
    """Continue the run in ``run_dir`` from its newest checkpoint (overrides: see ``RESUMABLE_KEYS``)."""
    run_dir = Path(run_dir)
    if not (run_dir / "config.yaml").is_file():
        raise ValueError(f"{str(run_dir)!r} is not a training run folder (it has no config.yaml)")
    load_config(run_dir / "config.yaml")  # a malformed file is named here, before it is read as plain YAML
    # a run saved before env_backend existed ran on the Parallel envs, which is not today's default
    era = [] if "env_backend" in load_yaml(run_dir / "config.yaml") else ["env_backend=pettingzoo"]
    saved = load_config(run_dir / "config.yaml", era)
    config = load_config(run_dir / "config.yaml", [*era, *overrides, f"run_dir={run_dir}"])
    changed = sorted(
        key for key, value in to_dict(config).items() if key not in (*RESUMABLE_KEYS, "run_dir")
        and to_dict(saved)[key] != value
    )
    if changed:
        raise ValueError(f"cannot change {changed} when resuming; only {list(RESUMABLE_KEYS)} may change")
    check_opponents(config)
    with run_state.locked(run_dir):
        if removed := run_state.remove_temporaries(run_dir):
            names = ", ".join(path.name for path in removed)
            print(f"removed {len(removed)} temporary file(s) a stopped writer left: {names}")
        step, policy_file, state_file = run_state.latest_checkpoint(run_dir)
        run = _run_class(config)(config)
        run.load(policy_file, state_file)
        run_state.atomic_write_text(run_dir / "config.yaml", to_yaml(config))
        print(f"resuming {run_dir} at step {step:,}")
        return run.learn()
