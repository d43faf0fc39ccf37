"""Benchmark output: a summary table, the JSON file and the plot."""

from __future__ import annotations

import json
from pathlib import Path

from stonk_envs.bench.runner import BAR_AEC_RATIO, BAR_ENGINE_BATCH, BAR_ENGINE_STEPS, BAR_PEER, PEERS
from stonk_envs.files import atomic_write_text


def summary(results: dict) -> str:
    """Steps/s of every figure with its ratio to each peer, then the bars."""
    peers = results["peers"]
    head = f"{'figure':<56}{'agent-steps/s':>15}" + "".join(f"{'x ' + p:>22}" for p in PEERS)
    lines = [head, "-" * len(head)]

    def row(label: str, rate: float, extra: str = "") -> None:
        ratios = "".join(f"{rate / peers[p]:>22.1f}" for p in PEERS)
        lines.append(f"{label:<56}{rate:>15,.0f}{ratios}{extra}")

    for peer in PEERS:
        row(f"peer {peer} (AEC)", peers[peer])
    for name, game in results["games"].items():
        row(f"{name} AEC env", game["aec"])
        row(f"{name} Parallel env", game["parallel"])
        for r in game["engine"]:
            label = f"{name} engine batch {r['batch']} threads {r['threads']} obs {r['observe']}"
            row(label, r["agent_steps_per_s"], f"   {r['bytes_per_game']:,} B/game")
    lines.append("")
    for name, game in results["games"].items():
        b = game["bars"]
        aec = b[f"aec_ratio_to_{BAR_PEER}"]
        lines.append(f"{name}: AEC env {aec:.2f}x {BAR_PEER} (bar {BAR_AEC_RATIO}x): "
                     f"{'met' if b['aec_bar_met'] else 'NOT met'}")
        eng = b[f"engine_agent_steps_per_s@{BAR_ENGINE_BATCH}"]
        if eng is None:
            lines.append(f"{name}: no batched engine figure at batch {BAR_ENGINE_BATCH}")
        else:
            lines.append(f"{name}: engine {eng:,.0f} agent-steps/s at batch {BAR_ENGINE_BATCH}, every seat observed "
                         f"(bar {BAR_ENGINE_STEPS:,}): {'met' if b['engine_bar_met'] else 'NOT met'}")
        actors = b[f"engine_actor_obs_agent_steps_per_s@{BAR_ENGINE_BATCH}"]
        if actors is not None:
            lines.append(f"{name}: engine {actors:,.0f} agent-steps/s at batch {BAR_ENGINE_BATCH}, "
                         "acting seats observed")
    return "\n".join(lines)


def markdown(results: dict) -> str:
    """The figures as Markdown tables: envs and peers, then the engine by batch size."""
    peers = results["peers"]
    ratio_head = " | ".join(f"x {p}" for p in PEERS)
    lines = [f"| figure | agent-steps/s | {ratio_head} |", "|---|---:|" + "---:|" * len(PEERS)]

    def row(label: str, rate: float) -> str:
        return f"| {label} | {rate:,.0f} | " + " | ".join(f"{rate / peers[p]:.1f}" for p in PEERS) + " |"

    lines += [row(f"peer `{p}` (AEC)", peers[p]) for p in PEERS]
    for name, game in results["games"].items():
        lines += [row(f"{name} AEC env", game["aec"]), row(f"{name} Parallel env", game["parallel"])]
    lines += ["", "| game | observe | threads | " + " | ".join(f"batch {b}" for b in results["batch_sizes"])
              + " | bytes/game |", "|---|---|---:|" + "---:|" * (len(results["batch_sizes"]) + 1)]
    for name, game in results["games"].items():
        kinds = sorted({(r["observe"], r["threads"]) for r in game["engine"]})
        for observe, threads in kinds:
            by_batch = {r["batch"]: r for r in game["engine"] if (r["observe"], r["threads"]) == (observe, threads)}
            batches = results["batch_sizes"]
            cells = [f"{by_batch[b]['agent_steps_per_s']:,.0f}" if b in by_batch else "" for b in batches]
            size = next(iter(by_batch.values()))["bytes_per_game"]
            lines.append(f"| {name} | {observe} | {threads} | " + " | ".join(cells) + f" | {size:,} |")
    return "\n".join(lines) + "\n"


def write_json(results: dict, path: Path) -> None:
    atomic_write_text(path, json.dumps(results, indent=2) + "\n")


def plot(results: dict, path: Path) -> None:
    """Engine agent-steps/s against batch size (log-log), with the envs and peers as lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(12, 6))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, (name, game) in enumerate(results["games"].items()):
        colour = colours[k % len(colours)]
        for threads, observe in sorted({(r["threads"], r["observe"]) for r in game["engine"]}):
            rows = [r for r in game["engine"] if (r["threads"], r["observe"]) == (threads, observe)]
            style = ("-" if threads == 1 else "--") + ("o" if observe == "all" else "^")
            ax.plot([r["batch"] for r in rows], [r["agent_steps_per_s"] for r in rows], style, color=colour,
                    label=f"{name} engine, {threads} thread{'s' if threads > 1 else ''}, obs {observe}")
        ax.axhline(game["aec"], color=colour, linestyle=":", linewidth=1.5, label=f"{name} AEC env")
    for k, peer in enumerate(PEERS):
        ax.axhline(results["peers"][peer], color="0.3", linestyle=(0, (1 + k, 2)), linewidth=1, label=f"peer {peer}")
    ax.axhline(BAR_ENGINE_STEPS, color="red", linewidth=0.8, alpha=0.5, label="1M agent-steps/s")
    ax.set_xscale("log", base=4)
    ax.set_yscale("log")
    ax.set_xlabel("games in the batch")
    ax.set_ylabel("agent-steps per second (random legal actions, obs + masks)")
    ax.set_title(f"stonk_envs speed, {results['machine']['cpu_count']} CPU cores, {results['machine']['time_utc']}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
