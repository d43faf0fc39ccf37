"""The batched trainer's samples/s alone and beside busy processes, measured in one run.

Each round runs ``stonk-envs train`` on a config with evaluations and the warm start off,
once alone and once beside each count of busy processes (each a ``yes > /dev/null``, at the
trainer's own priority); rounds are interleaved so that a change in the machine's other load
hits every setting alike. The figure is the trainer's own samples/s (``final_evaluation.json``,
evaluation excluded); the ratios to the alone figure of the same round are what count.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

QUIET_OVERRIDES = (
    "ppo.imitation.samples=0", "eval.interval=0", "eval.num_games=1", "eval.final_num_games=1",
    "eval.opponents=[random]", "eval.workers=1", "eval.crossplay_games=0", "progress=false",
    "checkpoint_interval=1000000000000",
)
"""Overrides that leave only training in a run: no warm start, one game of evaluation at the end."""


def busy_processes(count: int) -> list[subprocess.Popen]:
    """``count`` processes that each keep one core busy (``yes`` into /dev/null)."""
    command = shutil.which("yes")
    if command is None:
        raise ValueError("the shared-machine bench needs the `yes` command on PATH")
    return [subprocess.Popen([command], stdout=subprocess.DEVNULL) for _ in range(count)]


def train_samples_per_second(config: str, overrides: list[str], env: dict[str, str] | None = None) -> float:
    """One ``stonk-envs train`` run in a fresh folder; its samples/s of training (evaluation excluded)."""
    with tempfile.TemporaryDirectory(prefix="stonk-bench-") as folder:
        command = [sys.executable, "-m", "stonk_envs.cli", "train", "--config", config, *QUIET_OVERRIDES,
                   f"run_dir={folder}/run", *overrides]
        done = subprocess.run(command, env={**os.environ, **(env or {})}, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"training failed (exit {done.returncode}): {done.stderr.strip()[-2000:]}")
        report = json.loads((Path(folder) / "run" / "final_evaluation.json").read_text())
        return float(report["samples_per_second"])


def run_shared_bench(
    config: str, overrides: list[str], busy_counts: list[int], rounds: int,
    variants: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """``rounds`` interleaved rounds of every variant alone and beside each of ``busy_counts``.

    ``variants`` maps a name to ``{"overrides": [...], "env": {...}}`` added to the run (default:
    one variant, ``default``, with nothing added). Returns every figure and the median ratios.
    """
    variants = variants or {"default": {}}
    counts = [0, *[n for n in busy_counts if n > 0]]
    figures: dict[str, dict[int, list[float]]] = {name: {n: [] for n in counts} for name in variants}
    for round_index in range(rounds):
        for name, variant in variants.items():
            for n in counts:
                busy = busy_processes(n)
                try:
                    sps = train_samples_per_second(config, [*overrides, *variant.get("overrides", [])],
                                                   variant.get("env"))
                finally:
                    for process in busy:
                        process.kill()
                        process.wait()
                figures[name][n].append(sps)
                print(f"round {round_index + 1}/{rounds} {name:>12} beside {n} busy: {sps:10,.0f} samples/s",
                      flush=True)
    return {"config": config, "overrides": list(overrides), "cpus": len(os.sched_getaffinity(0)),
            "load_before": os.getloadavg(), "figures": figures, "ratios": ratios(figures)}


def ratios(figures: dict[str, dict[int, list[float]]]) -> dict[str, dict[int, float]]:
    """Per variant and busy count: the median over rounds of samples/s over the same round's alone figure."""
    out = {}
    for name, by_count in figures.items():
        alone = by_count[0]
        out[name] = {n: _median([value / base for value, base in zip(values, alone, strict=True)])
                     for n, values in by_count.items()}
    return out


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def table(result: dict[str, Any]) -> str:
    """A markdown table: each variant's median samples/s and ratio to alone, per busy count."""
    counts = list(next(iter(result["figures"].values())))
    lines = ["| variant | " + " | ".join(f"beside {n} busy" for n in counts) + " |",
             "|---|" + "---|" * len(counts)]
    for name, by_count in result["figures"].items():
        cells = [f"{_median(by_count[n]):,.0f} ({result['ratios'][name][n]:.0%})" for n in counts]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
