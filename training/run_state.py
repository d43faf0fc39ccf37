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
import os
import tempfile
from pathlib import Path
from typing import Any

import torch

LATEST = "latest.json"


def atomic_write_bytes(path: Path, write) -> None:
    """Call ``write(file)`` on a temporary file in ``path``'s folder, then move it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically."""
    atomic_write_bytes(path, lambda handle: handle.write(text.encode()))


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


def latest_checkpoint(run_dir: Path) -> tuple[int, Path, Path]:
    """``(step, policy file, state file)`` of the newest complete checkpoint of a run."""
    pointer = run_dir / LATEST
    if not pointer.is_file():
        raise ValueError(f"{str(run_dir)!r} has no {LATEST}; it is not a training run folder with a checkpoint")
    try:
        latest = json.loads(pointer.read_text())
        step = int(latest["step"])
        policy = run_dir / "checkpoints" / latest["policy"]
        state = run_dir / "checkpoints" / latest["state"]
    except (ValueError, KeyError, TypeError) as err:
        raise ValueError(f"{pointer} is corrupt: {err}") from None
    for path in (policy, state):
        if not path.is_file():
            raise ValueError(f"{pointer} names {path.name}, which is missing")
    return step, policy, state


def load_state(path: Path) -> dict[str, Any]:
    """The training state saved by :func:`save_state`."""
    try:
        return torch.load(path, weights_only=False)
    except Exception as err:
        raise ValueError(f"cannot read training state {path}: {err}") from None
