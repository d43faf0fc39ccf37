"""Cross-play over a training run: every checkpoint rated against the others and the baselines.

A run folder keeps its checkpoints as ``checkpoints/policy_<step>.zip`` (or ``.pt``), the layout
of :mod:`stonk_envs.training.run_state`; :func:`run_checkpoints` lists them. :func:`crossplay` puts them in
one league with the baseline players (``random``, ``heuristic``) and plays it with
:func:`stonk_envs.evaluation.league`, so the OpenSkill ratings of all of them come from the same
games: the rating curve over training steps shows whether self-play improves, stalls or cycles.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from stonk_envs.evaluation import league
from stonk_envs.evaluation.report import EvaluationReport
from stonk_envs.policies.checkpoint import read_metadata
from stonk_envs.text import printable

CHECKPOINT_FILE = re.compile(r"^policy_(\d+)\.(zip|pt)$")
"""A checkpoint's policy file name in a run folder's ``checkpoints/``; the number is the learner step."""
BASELINES = ("random", "heuristic")
"""The fixed players rated alongside the checkpoints by default."""


@dataclass(frozen=True)
class Checkpoint:
    """One saved policy of a run and the learner step it was saved at."""

    step: int
    path: Path


def run_checkpoints(run_dir: str | Path) -> list[Checkpoint]:
    """The checkpoints of a run folder, oldest first; ``ValueError`` for a missing or empty folder."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise ValueError(f"run folder {str(run_dir)!r} does not exist")
    folder = run_dir / "checkpoints"
    found = [] if not folder.is_dir() else [
        Checkpoint(int(match.group(1)), path)
        for path in folder.iterdir()
        if path.is_file() and (match := CHECKPOINT_FILE.match(path.name))
    ]
    if not found:
        raise ValueError(f"run folder {str(run_dir)!r} has no checkpoints (no checkpoints/policy_<step>.zip or .pt)")
    steps = [c.step for c in found]
    if len(set(steps)) != len(steps):
        raise ValueError(f"run folder {str(run_dir)!r} holds two checkpoint files for one step")
    return sorted(found, key=lambda c: c.step)


def spread(checkpoints: Sequence[Checkpoint], max_count: int | None) -> list[Checkpoint]:
    """At most ``max_count`` checkpoints, evenly spaced over the run, first and last included."""
    if max_count is None:
        return list(checkpoints)
    if isinstance(max_count, bool) or not isinstance(max_count, int) or max_count < 2:
        raise ValueError(f"max_checkpoints must be an integer >= 2, got {max_count!r}")
    picks = np.unique(np.round(np.linspace(0, len(checkpoints) - 1, max_count)).astype(int))
    return [checkpoints[i] for i in picks]


def run_settings(checkpoints: Sequence[Checkpoint]) -> tuple[str, int, dict]:
    """``(game, num_players, env_config)`` shared by every checkpoint, read from their metadata."""
    settings = {}
    for checkpoint in checkpoints:
        meta = read_metadata(checkpoint.path)
        settings[checkpoint.path] = (meta["game"], meta["num_players"], meta["env_config"])
    first = settings[checkpoints[0].path]
    for path, found in settings.items():
        if found != first:
            raise ValueError(
                f"{path} is for {found[0]} at {found[1]} players with {found[2]}, but "
                f"{checkpoints[0].path} is for {first[0]} at {first[1]} players with {first[2]}"
            )
    return first


@dataclass(frozen=True)
class CrossplayReport:
    """Each checkpoint's and baseline's results in the league, and the league's own report."""

    run_dir: str
    checkpoints: list[dict]
    """Per checkpoint: ``step``, ``file`` and its league results (the fields of
    :class:`~stonk_envs.evaluation.report.PlayerResult`: rating, win share...), named ``step <N>``."""
    baselines: list[dict]
    """Per baseline: its league results."""
    league: EvaluationReport

    def to_dict(self) -> dict:
        return {
            "run_dir": self.run_dir,
            "game": self.league.game,
            "num_players": self.league.num_players,
            "env_config": self.league.env_config,
            "num_games": self.league.num_games,
            "seed": self.league.seed,
            "checkpoints": self.checkpoints,
            "baselines": self.baselines,
            "league": self.league.to_dict(),
        }

    def write_json(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_dict(), indent=2) + "\n")
        return path

    def table(self) -> str:
        """A plain-text table: rating and win share per checkpoint, then per baseline."""
        lines = [
            f"cross-play of {printable(self.run_dir)}: {self.league.game}, {self.league.num_players} players, "
            f"{self.league.num_games} games, seed {self.league.seed} ({self.league.seconds:.1f} s)",
            f"{'player':<16} {'games':>6} {'mu':>7} {'sigma':>6} {'ordinal':>8} {'win share':>10}",
        ]
        rows = [(f"step {c['step']:,}", c) for c in self.checkpoints] + [(b["name"], b) for b in self.baselines]
        for name, r in rows:
            lines.append(
                f"{printable(name):<16} {r['games']:>6} {r['rating_mu']:>7.2f} {r['rating_sigma']:>6.2f} "
                f"{r['rating_ordinal']:>8.2f} {r['win_share']:>10.3f}"
            )
        return "\n".join(lines)


def crossplay(
    run_dir: str | Path,
    num_games: int,
    baselines: Sequence[str] = BASELINES,
    max_checkpoints: int | None = None,
    seed: int = 0,
    workers: int = 1,
    progress: bool = True,
) -> CrossplayReport:
    """Rate the checkpoints of ``run_dir`` and ``baselines`` in one league of ``num_games`` games.

    Each game seats a random choice of distinct entries (see :func:`stonk_envs.evaluation.league`);
    the game, player count and game options are the checkpoints' own.
    """
    chosen = spread(run_checkpoints(run_dir), max_checkpoints)
    game, num_players, env_config = run_settings(chosen)
    baselines = list(baselines)
    if len(set(baselines)) != len(baselines):
        raise ValueError(f"baselines must be distinct, got {baselines}")
    entries = [str(c.path) for c in chosen] + baselines
    if len(entries) < num_players:
        raise ValueError(
            f"{game} at {num_players} players needs at least {num_players} entries; {run_dir} gives "
            f"{len(chosen)} checkpoint(s) and {len(baselines)} baseline(s)"
        )
    report = league(game, entries, num_games, num_players, env_config, seed, workers, progress)
    results = [asdict(r) for r in report.players]
    checkpoints = [
        {"step": c.step, "file": str(c.path), **r, "name": f"step {c.step}"}
        for c, r in zip(chosen, results, strict=False)
    ]
    return CrossplayReport(str(run_dir), checkpoints, results[len(chosen):], report)
