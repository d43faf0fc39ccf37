"""A run folder's files: config, checkpoints, the pointer to the latest one, reports.

Layout of ``run_dir``::

    config.yaml                 the resolved training config
    checkpoints/policy_<step>.zip   the model (weights, optimiser, step count) with metadata
    checkpoints/state_<step>.pt     league, games in play, RNG states, evaluation history
    latest.json                 {"step", "policy", "state"} of the newest checkpoint
    policy.zip                  the final policy
    evaluations.json, final_evaluation.json, learning_curve.png, tb/
    .lock                       the PID of the trainer writing the folder (:func:`locked`)

Everything is read without running code from the files: the state with
``torch.load(weights_only=True)`` (tensors, NumPy arrays, plain values), the pointer as JSON.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import torch

from stonk_envs import registry
from stonk_envs.files import atomic_write_bytes, atomic_write_text
from stonk_envs.policies.checkpoint import read_metadata
from stonk_envs.safe_load import load_tensors, read_json

LATEST = "latest.json"
LOCK = ".lock"
_STEP_FILE = re.compile(r"(?:policy|state)_(\d+)\.(?:zip|pt)")
_TEMPORARY = re.compile(r"\..+\.[A-Za-z0-9_]+\.tmp")
"""The temporary files of :func:`stonk_envs.files.atomic_write` (``.<name>.<random>.tmp``)."""


def game_configs() -> tuple[type, ...]:
    """The registered games' frozen config dataclasses, which an engine state holds (plain fields, no code to run)."""
    return tuple(registry.spec(name).config_class() for name in registry.names())


__all__ = ["atomic_write_bytes", "atomic_write_text", "latest_checkpoint", "load_state", "locked", "save_state",
           "write_json"]


class RunFolderBusy(ValueError):
    """Another live process holds the run folder's lock."""


@contextlib.contextmanager
def locked(run_dir: Path) -> Iterator[None]:
    """Hold ``run_dir``'s lock while training; :class:`RunFolderBusy` naming the holder's PID if taken.

    The lock is an ``flock`` on ``run_dir/.lock``: the system drops it when its process ends,
    however it ends, so a killed trainer never leaves a stale lock behind. The file keeps the
    PID of the last holder, for the message.
    """
    run_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(run_dir / LOCK, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            raise RunFolderBusy(
                f"{run_dir} is in use by another trainer (process {holder}); wait for it to finish or stop it, "
                "then --resume"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)


def remove_temporaries(run_dir: Path) -> list[Path]:
    """Delete the temporary files a killed writer left in ``run_dir`` and ``checkpoints/`` (hold the lock)."""
    removed = []
    for folder in (run_dir, run_dir / "checkpoints"):
        if folder.is_dir():
            for path in folder.iterdir():
                if _TEMPORARY.fullmatch(path.name) and path.is_file():
                    path.unlink()
                    removed.append(path)
    return removed


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
        return int(read_json(pointer, LATEST)["step"]), ""
    except (ValueError, KeyError, TypeError) as err:
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
    """The training state saved by :func:`save_state`, read with ``weights_only`` (no code runs)."""
    try:
        return load_tensors(path, str(path), allowed=game_configs())
    except ValueError as err:
        raise ValueError(f"cannot read training state {path}: {err}") from None
