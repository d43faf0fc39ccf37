"""Regenerate the docs' figures (docs/figures/) from run folders, reports and benchmark outputs.

Each figure is drawn by the package's own plotting code from the output of one command, which
``--list`` prints. A figure whose input is missing is skipped, with the command that makes it.
The table pictures need no input: they are drawn from seeded games.

    python scripts/make_figures.py --list
    python scripts/make_figures.py                                   # every figure whose input exists
    python scripts/make_figures.py --only render_stonk_market trainers_stockpile --runs runs
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "docs" / "figures"
GAMES = ("stocks_and_bombs", "stonk_market", "stockpile")
SB3_SETTINGS = (
    "trainer=sb3 eval.crossplay_games=0 num_envs=16 sb3.n_steps=128 sb3.batch_size=512 sb3.n_epochs=4 "
    "sb3.learning_rate=0.0003 league.current=0.4 league.past=0.2 league.heuristic=0.1 league.random=0.3 "
    "total_timesteps=300000 eval.interval=100000 eval.num_games=100 checkpoint_interval=100000"
)
RENDER_STEPS = 40
"""Steps of heuristic play before a table picture is taken, so the table has something on it."""


@dataclass(frozen=True)
class Figure:
    name: str
    inputs: Callable[[Path], list[Path]]
    """The files the figure is drawn from, under the runs folder."""
    commands: str
    """The commands that write those files (with the default runs folder)."""
    draw: Callable[[Path, Path], None]
    """Draw the figure from the runs folder into the given file."""


def copy_from(relative: str) -> Callable[[Path, Path], None]:
    """A figure that its command already draws (with the package's plotting code): copy it."""
    return lambda runs, out: shutil.copyfile(runs / relative, out)


def draw_trainers(game: str) -> Callable[[Path, Path], None]:
    def draw(runs: Path, out: Path) -> None:
        script = ROOT / "scripts" / "plot_trainer_curves.py"
        subprocess.run([sys.executable, str(script), "--game", game, "--runs", f"ppo={runs / game}",
                        f"sb3={runs / ('sb3_' + game)}", "--out", str(out)], check=True)
    return draw


def draw_exploit(game: str) -> Callable[[Path, Path], None]:
    def draw(runs: Path, out: Path) -> None:
        from stonk_envs.training.exploit_plot import plot_exploit

        plot_exploit(json.loads((runs / "exploit" / game / "policy" / "exploit.json").read_text()), out)
    return draw


def draw_bench(runs: Path, out: Path) -> None:
    from stonk_envs.bench.report import plot

    plot(json.loads((runs / "bench" / "bench.json").read_text()), out)


def draw_table(game: str, seat: int | None) -> Callable[[Path, Path], None]:
    def draw(runs: Path, out: Path) -> None:
        import numpy as np
        from PIL import Image

        from stonk_envs.games_index import game_module
        from stonk_envs.policies.players import make_player

        env = game_module(game).parallel_env(num_players=4, render_mode="rgb_array", render_seat=seat)
        observations, _ = env.reset(seed=0)
        player = make_player("heuristic", game, 4)
        rng = np.random.default_rng(0)
        for _ in range(RENDER_STEPS):
            agents = list(env.agents)
            obs = np.stack([observations[a]["observation"] for a in agents])
            masks = np.stack([observations[a]["action_mask"] for a in agents])
            actions = player.act(obs, masks, rng)
            observations, *_ = env.step(dict(zip(agents, actions.tolist(), strict=True)))
        Image.fromarray(env.render()).save(out)
    return draw


def figures() -> list[Figure]:
    items = [
        Figure("render_stockpile", lambda runs: [], "(none: a seeded game of heuristic players)",
               draw_table("stockpile", 1)),
        Figure("render_stonk_market", lambda runs: [], "(none: a seeded game of heuristic players)",
               draw_table("stonk_market", 1)),
        Figure("render_stocks_and_bombs", lambda runs: [], "(none: a seeded game of heuristic players)",
               draw_table("stocks_and_bombs", None)),
        Figure("evaluation_stonk_market", lambda runs: [runs / "evaluate" / "stonk_market" / "report.png"],
               "stonk-envs evaluate --game stonk_market --players heuristic random random random --games 1000",
               copy_from("evaluate/stonk_market/report.png")),
        Figure("benchmarks", lambda runs: [runs / "bench" / "bench.json"], "stonk-envs bench", draw_bench),
    ]
    for game in GAMES:
        items += [
            Figure(f"trainers_{game}",
                   lambda runs, g=game: [runs / g / "evaluations.json", runs / f"sb3_{g}" / "evaluations.json"],
                   f"stonk-envs train --config {game} run_dir=runs/{game}\n"
                   f"stonk-envs train --config {game} run_dir=runs/sb3_{game} {SB3_SETTINGS}",
                   draw_trainers(game)),
            Figure(f"ppo_crossplay_{game}", lambda runs, g=game: [runs / g / "crossplay.png"],
                   f"stonk-envs train --config {game} run_dir=runs/{game}", copy_from(f"{game}/crossplay.png")),
            Figure(f"exploit_{game}_v1", lambda runs, g=game: [runs / "exploit" / g / "policy" / "exploit.json"],
                   f"stonk-envs exploit --policy runs/{game}/policy.zip --calibrate", draw_exploit(game)),
        ]
    return items


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=Path, default=ROOT / "runs", help="folder of the inputs (default: runs)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="figures to draw (default: all)")
    parser.add_argument("--out", type=Path, default=FIGURES, help="folder of the figures (default: docs/figures)")
    parser.add_argument("--list", action="store_true", help="list the figures, their inputs and commands")
    args = parser.parse_args()
    chosen = figures()
    known = {figure.name for figure in chosen}
    unknown = sorted(set(args.only or ()) - known)
    if unknown:
        parser.error(f"unknown figures {unknown}; choose from {sorted(known)}")
    if args.only:
        chosen = [figure for figure in chosen if figure.name in args.only]
    for figure in chosen:
        missing = [path for path in figure.inputs(args.runs) if not path.exists()]
        if args.list:
            inputs = [str(path) for path in figure.inputs(args.runs)]
            commands = figure.commands.replace("\n", "\n           ")
            print(f"{figure.name}.png\n  from: {inputs}\n  made by: {commands}")
            continue
        if missing:
            commands = figure.commands.replace("\n", "\n  ")
            print(f"skip {figure.name}: missing {', '.join(map(str, missing))}; made by:\n  {commands}")
            continue
        args.out.mkdir(parents=True, exist_ok=True)
        out = args.out / f"{figure.name}.png"
        figure.draw(args.runs, out)
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
