"""Write the docs' result tables from the result files in ``results/``.

    python scripts/write_results_tables.py [--check]

A doc holds a table between ``<!-- results: NAME -->`` and ``<!-- /results -->``; the table is
written from ``results/NAME.json`` (made by ``scripts/measure_config.py``): one row per seed, the
worst seed and the mean, then the bar each figure is held to and whether the worst seed meets it.
``--check`` writes nothing and fails when a table differs from its file (as the docs test does).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"(<!-- results: (?P<name>[\w.-]+) -->\n)(?P<body>.*?)(<!-- /results -->)", re.S)
BARS = {
    "random": ("vs 3 random: win rate", ">=", 0.95),
    "heuristic": ("vs 3 heuristic: share's lower 95% bound", ">=", 0.40),
    "copies": ("best response at a table of copies: share", "<=", 0.40),
    "mixed": ("best response at the mixed table: share", "<=", 0.40),
    "points": ("points at a table of copies, against the heuristic's", ">=", 0.5),
}
"""Each measured figure, its direction and the bar the worst seed is held to."""


def figures(seed: dict) -> dict[str, float]:
    """One seed's figures, each as the bar reads it (the largest budget of each best response)."""
    exploit = seed["exploit"]
    return {
        "random": seed["against"]["random"]["win_rate"],
        "heuristic": seed["against"]["heuristic"]["share_ci"][0],
        "copies": exploit["copies"][-1]["win_share"],
        "mixed": exploit["mixed"][-1]["win_share"] if "mixed" in exploit else float("nan"),
        "points": seed["liveliness"]["points_ratio"],
    }


def worst(rows: list[dict[str, float]]) -> dict[str, float]:
    """The worst of the seeds for each figure: the lowest where higher is better, else the highest."""
    return {key: (min if direction == ">=" else max)(row[key] for row in rows)
            for key, (_, direction, _) in BARS.items()}


def render(result: dict) -> str:
    """The markdown of a result file: a row per seed, the worst and the mean, then the bars."""
    seeds = sorted(result["seeds"], key=int)
    budget = result["seeds"][seeds[0]]["exploit"]["copies"][-1]["budget"]
    lines = [
        f"| seed | kept step | vs 3 random: win rate | vs 3 heuristic: win share [95% CI] | best response "
        f"({budget:,} samples), copies | mixed table | points per game, copies (heuristic's) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    rows = []
    for seed in seeds:
        s = result["seeds"][seed]
        rows.append(figures(s))
        h = s["against"]["heuristic"]
        alive = s["liveliness"]
        mixed = s["exploit"].get("mixed")
        lines.append(
            f"| {seed} | {s['policy_step']:,} | {s['against']['random']['win_rate']:.3f} | "
            f"{h['win_share']:.3f} [{h['share_ci'][0]:.3f}, {h['share_ci'][1]:.3f}] | "
            f"{s['exploit']['copies'][-1]['win_share']:.3f} | "
            f"{'-' if mixed is None else format(mixed[-1]['win_share'], '.3f')} | "
            f"{alive['points_per_game']:.2f} ({alive['heuristic_points_per_game']:.2f}) |"
        )
    low = worst(rows)
    lines.append(f"| worst | | {low['random']:.3f} | lower bound {low['heuristic']:.3f} | {low['copies']:.3f} | "
                 f"{low['mixed']:.3f} | {low['points']:.2f} of the heuristic's |")
    lines += ["", "| bar, worst seed | value | bar | met |", "| --- | ---: | ---: | --- |"]
    for key, (text, direction, bar) in BARS.items():
        value = low[key]
        met = value >= bar if direction == ">=" else value <= bar
        lines.append(f"| {text} | {value:.3f} | {direction} {bar:.2f} | {'yes' if met else '**no**'} |")
    lines += ["", f"Measured by `{result['command']}` at `{result['commit']}` on {result['date']}, "
              f"{result['machine']}."]
    return "\n".join(lines) + "\n"


def rewrite(text: str, results: Path) -> str:
    """``text`` with each result block written from its file."""
    def block(match: re.Match) -> str:
        name = match["name"]
        path = results / f"{name}.json"
        if not path.is_file():
            raise ValueError(f"a results block names {name!r}, but {path} does not exist")
        return match.group(1) + render(json.loads(path.read_text())) + match.group(4)

    return BLOCK.sub(block, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; fail when a table differs from its file")
    args = parser.parse_args(argv)
    stale = []
    for doc in sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")]):
        text = doc.read_text()
        written = rewrite(text, ROOT / "results")
        if written != text:
            stale.append(doc.relative_to(ROOT))
            if not args.check:
                doc.write_text(written)
    if args.check and stale:
        print(f"result tables differ from their files in {', '.join(map(str, stale))}: "
              "run python scripts/write_results_tables.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
