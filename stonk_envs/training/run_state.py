"""A run folder's files: config, checkpoints, the pointer to the latest one, reports.

Layout of ``run_dir``::

    config.yaml                 the resolved training config
    checkpoints/policy_<step>.zip   the model (weights, optimiser, step count) with metadata
    checkpoints/state_<step>.pt     league, games in play, RNG states, evaluation history
    latest.json                 {"step", "policy", "state"} of the newest checkpoint
    policy.zip                  the final policy
    evaluations.json, final_evaluation.json, learning_curve.png, tb/
"""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from stonk_envs.files import atomic_write_bytes, atomic_write_text
from stonk_envs.policies.checkpoint import read_metadata

LATEST = "latest.json"
_STEP_FILE = re.compile(r"(?:policy|state)_(\d+)\.(?:zip|pt)")

__all__ = ["atomic_write_bytes", "atomic_write_text", "latest_checkpoint", "load_state", "save_state", "write_json"]


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` as indented JSON, atomically."""
    atomic_write_text(path, json.dumps(data, indent=2) + "\n")


def policy_path(run_dir: Path, step: int) -> Path:
    return run_dir / "checkpoints" / f"policy_{step:010d}.zip"


def state_path(run_dir: Path, step: int) -> Path:
    return run_dir / "checkpoints" / f"state_{step:010d}.pt"


def save_state(run_dir: Path, step: int, state: dict[str, Any]) -> Path:
    """Write the training state of ``step`` (policy file written before), then point ``latest.json`` at both."""
    path = state_path(run_dir, step)
    atomic_write_bytes(path, lambda handle: torch.save(state, handle))
    write_json(run_dir / LATEST, {"step": step, "policy": policy_path(run_dir, step).name, "state": path.name})
    return path


def _pointed(run_dir: Path) -> tuple[int | None, str]:
    """The step ``latest.json`` names (None if it is missing or unreadable) and why not."""
    pointer = run_dir / LATEST
    if not pointer.is_file():
        return None, f"{LATEST} is missing"
    try:
        return int(json.loads(pointer.read_text())["step"]), ""
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as err:
        return None, f"{LATEST} is unreadable ({type(err).__name__}: {err})"


def _saved_steps(run_dir: Path) -> set[int]:
    folder = run_dir / "checkpoints"
    if not folder.is_dir():
        return set()
    return {int(m.group(1)) for path in folder.iterdir() if (m := _STEP_FILE.fullmatch(path.name))}


def checkpoint_problem(run_dir: Path, step: int) -> str | None:
    """None when the checkpoint of ``step`` is intact (both files readable and of that step), else why not."""
    policy, state = policy_path(run_dir, step), state_path(run_dir, step)
    for path in (policy, state):
        if not path.is_file():
            return f"{path.name} is missing"
    try:
        if zipfile.is_zipfile(policy):
            with zipfile.ZipFile(policy) as archive:
                damaged = archive.testzip()
            if damaged is not None:
                return f"{policy.name} is damaged (member {damaged} fails its checksum)"
        saved_step = read_metadata(policy).get("extra", {}).get("num_timesteps", step)
    except (ValueError, OSError, zipfile.BadZipFile, EOFError) as err:
        return f"{policy.name} is unreadable: {err}"
    if saved_step != step:
        return f"{policy.name} holds step {saved_step}, not {step}"
    try:
        saved = load_state(state)
    except ValueError as err:
        return str(err)
    if not isinstance(saved, dict) or saved.get("step") != step:
        found = saved.get("step") if isinstance(saved, dict) else type(saved).__name__
        return f"{state.name} holds step {found}, not {step}"
    return None


def latest_checkpoint(run_dir: Path, say: Callable[[str], None] = print) -> tuple[int, Path, Path]:
    """``(step, policy file, state file)`` of the newest intact checkpoint of a run.

    Looks at the step ``latest.json`` names and every checkpoint in ``checkpoints/``, newest
    first. When the newest is damaged (truncated, garbage, a file missing, steps that disagree)
    it falls back to the newest intact one and says so through ``say``; ``ValueError`` when
    there is none.
    """
    pointed, pointer_problem = _pointed(run_dir)
    steps = _saved_steps(run_dir) | ({pointed} if pointed is not None else set())
    if not steps:
        raise ValueError(f"{str(run_dir)!r} has no checkpoints; it is not a training run folder with a checkpoint")
    skipped = [pointer_problem] if pointer_problem else []
    for step in sorted(steps, reverse=True):
        problem = checkpoint_problem(run_dir, step)
        if problem is None:
            if skipped:
                say(f"warning: skipped damaged checkpoint data in {run_dir} ({'; '.join(skipped)}); "
                    f"resuming from the newest intact checkpoint, step {step:,}")
            return step, policy_path(run_dir, step), state_path(run_dir, step)
        skipped.append(f"step {step:,}: {problem}")
    raise ValueError(f"{run_dir} has no intact checkpoint: {'; '.join(skipped)}")


def load_state(path: Path) -> dict[str, Any]:
    """The training state saved by :func:`save_state`."""
    try:
        return torch.load(path, weights_only=False)
    except Exception as err:
        raise ValueError(f"cannot read training state {path}: {err}") from None
