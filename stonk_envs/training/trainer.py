"""Starting and resuming training runs, whatever the trainer.

``train(config)`` starts a run in ``config.run_dir``; ``resume(run_dir)`` continues the run
from its newest checkpoint exactly where it stopped (model, optimiser, step count, league,
games in play and every random stream). The run is ``config.trainer``'s: the batched trainer
(:class:`~stonk_envs.training.ppo.run.PPORun`) or sb3-contrib's MaskablePPO
(:class:`~stonk_envs.training.sb3_run.SB3Run`), both on :class:`~stonk_envs.training.run_loop.RunLoop`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stonk_envs.files import check_output_dir
from stonk_envs.training import run_state
from stonk_envs.training.config import TrainConfig, check_opponents, load_saved_config, to_dict, to_yaml
from stonk_envs.training.device import resolve_device

RESUMABLE_KEYS = ("total_timesteps", "checkpoint_interval", "torch_threads", "progress", "eval", "ppo.device")
"""Config keys (and sections) a resumed run may change; anything else would not continue the same run."""


def run_class(config: TrainConfig) -> type:
    """The run of ``config.trainer``."""
    if config.trainer == "sb3":
        from stonk_envs.training.sb3_run import SB3Run

        return SB3Run
    from stonk_envs.training.ppo.run import PPORun

    return PPORun


def train(config: TrainConfig) -> dict[str, Any] | None:
    """Start a new run in ``config.run_dir`` and train it to the end."""
    run_dir = check_output_dir(config.run_dir, "run_dir")
    check_opponents(config)
    if config.trainer == "ppo":
        resolve_device(config.ppo.device)  # a device this machine lacks is refused before the run folder is made
    with run_state.locked(run_dir):  # a live run is named by its PID before anything else is said of it
        if (run_dir / run_state.LATEST).exists():
            raise ValueError(f"{run_dir} already holds a run; resume it with --resume {run_dir} or choose another "
                             "run_dir")
        run_state.atomic_write_text(run_dir / "config.yaml", to_yaml(config))
        run = run_class(config)(config)
        run.new_model()
        return run.learn()


def _flat(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """A nested dict as ``{"a.b": value}``."""
    flat = {}
    for key, value in tree.items():
        if isinstance(value, dict) and value:
            flat.update(_flat(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _resumable(key: str) -> bool:
    return key == "run_dir" or any(key == name or key.startswith(f"{name}.") for name in RESUMABLE_KEYS)


def resume(run_dir: str | Path, overrides: list[str] | tuple[str, ...] = ()) -> dict[str, Any] | None:
    """Continue the run in ``run_dir`` from its newest checkpoint (overrides: see ``RESUMABLE_KEYS``).

    A config saved in the config's earlier shape is translated (:mod:`stonk_envs.training.config_shape`)
    and saved back in today's.
    """
    run_dir = Path(run_dir)
    if not (run_dir / "config.yaml").is_file():
        raise ValueError(f"{str(run_dir)!r} is not a training run folder (it has no config.yaml)")
    saved = _flat(to_dict(load_saved_config(run_dir)))
    config = load_saved_config(run_dir, [*overrides, f"run_dir={run_dir}"])
    changed = sorted(key for key, value in _flat(to_dict(config)).items()
                     if not _resumable(key) and saved.get(key) != value)
    if changed:
        raise ValueError(f"cannot change {changed} when resuming; only {list(RESUMABLE_KEYS)} may change")
    check_opponents(config)
    with run_state.locked(run_dir):
        if removed := run_state.remove_temporaries(run_dir):
            names = ", ".join(path.name for path in removed)
            print(f"removed {len(removed)} temporary file(s) a stopped writer left: {names}")
        step, policy_file, state_file = run_state.latest_checkpoint(run_dir)
        run = run_class(config)(config)
        run.load(policy_file, state_file)
        run_state.atomic_write_text(run_dir / "config.yaml", to_yaml(config))
        print(f"resuming {run_dir} at step {step:,}")
        return run.learn()
