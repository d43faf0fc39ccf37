"""A champion's evaluation card: what its index entry, and the result file that measured it, hold.

Every figure comes from data: the champions index (:mod:`stonk_envs.champions`) and the result file's
figures copied into it when the champion was packaged. A figure the data does not hold is shown as
"not measured", never estimated. Reading a card needs no extra.
"""

from __future__ import annotations

from stonk_envs import champions

NOT_MEASURED = "not measured"
POINTS_RATIO_STALL = 0.5
"""Below this share of the heuristic table's points, a table of copies counts as stalling."""


def champion_card(game: str) -> dict:
    """The card of ``game``'s champion (JSON ready); ``ValueError`` when the game has none."""
    return card_of(game, champions.entry(game))


def card_of(game: str, entry: dict) -> dict:
    """The card of the champion whose index entry is ``entry``."""
    measured = entry.get("measured") or {}
    figures = measured.get("figures") or {}
    training = entry.get("training") or {}
    if "against" in figures:
        against = {"source": f"{entry['result']['file']}, seed {entry['result']['seed']}", **figures["against"]}
    elif training.get("against"):
        against = {"source": "the training run's final evaluation", **training["against"]}
    else:
        against = None
    num_players = entry["num_players"]
    return {
        "game": game,
        "player": champions.NAME,
        "file": f"stonk_envs/champions/{entry['file']}",
        "sha256": entry["sha256"],
        "num_players": num_players,
        "training": {key: entry.get(key) for key in ("config", "seed", "overrides", "command", "commit", "date")}
        | {key: training.get(key) for key in ("steps_trained", "policy_step")},
        "result": {**entry["result"], "measured": bool(measured)}
        | {key: measured.get(key) for key in ("command", "commit", "date", "machine") if measured},
        "against": against,
        "exploit": figures.get("exploit"),
        "exploit_seed": figures.get("exploit_seed"),
        "liveliness": figures.get("liveliness"),
        "weaknesses": weaknesses(figures, min(num_players)) + list(entry.get("weaknesses") or []) if measured
        else list(entry.get("weaknesses") or []),
    }


def weaknesses(figures: dict, num_players: int) -> list[str]:
    """One sentence per weakness the measured figures show (none when they show none)."""
    found = []
    equal = 1 / num_players
    for table, curve in (figures.get("exploit") or {}).items():
        last = curve[-1]
        if last["share_ci_low"] > equal:
            found.append(f"A best response trained for {last['timesteps']:,} samples wins a share of "
                         f"{last['win_share']:.3f} at the {table} table, above the {equal:.3f} of an equal player.")
    alive = figures.get("liveliness") or {}
    ratio = alive.get("points_ratio")
    if ratio is not None and ratio < POINTS_RATIO_STALL:
        found.append(f"At a table of its copies it scores {ratio:.2f} of the points of the heuristic's table: "
                     "its copies stall.")
    heuristic = (figures.get("against") or {}).get("heuristic")
    if heuristic and heuristic["share_ci"][1] < equal:
        found.append(f"Against heuristic players it wins a share of {heuristic['win_share']:.3f}, below the "
                     f"{equal:.3f} of an equal player.")
    return found


def card_text(card: dict) -> str:
    """The card as plain text, as ``stonk-envs card`` prints it and the docs show it."""
    t, r = card["training"], card["result"]
    counts = " or ".join(map(str, card["num_players"]))
    lines = [
        f"{card['game']} champion: {card['file']}",
        f"  sha256       {card['sha256']}",
        f"  plays        {counts} players (its policy's seat layout; no other count)",
        f"  trained by   {t['command']}",
        f"  seed         {t['seed']}",
        f"  commit       {t['commit']} ({t['date']})",
        "  samples      " + (f"{t['steps_trained']:,} trained; the kept policy is step {t['policy_step']:,}"
                             if t.get("steps_trained") is not None else NOT_MEASURED),
        f"  result file  {r['file']}, seed {r['seed']}: "
        + (f"measured by {r['command']} at {r['commit']} on {r['date']}, {r['machine']}" if r["measured"]
           else f"{NOT_MEASURED} yet"),
        "",
        *_against_lines(card["against"]),
        "",
        *_exploit_lines(card["exploit"], card["exploit_seed"], min(card["num_players"])),
        "",
        *_liveliness_lines(card["liveliness"]),
        "",
        "Known weaknesses:" + ("" if card["weaknesses"] else
                               (" none in the measured figures" if r["measured"] else f" {NOT_MEASURED}")),
        *(f"  - {sentence}" for sentence in card["weaknesses"]),
    ]
    return "\n".join(lines) + "\n"


def _interval(low: float, high: float) -> str:
    return f"[{low:.3f}, {high:.3f}]"


def _against_lines(against: dict | None) -> list[str]:
    if against is None:
        return [f"Strength against random and heuristic players: {NOT_MEASURED}"]
    lines = [f"Strength, the other seats all held by one player ({against['source']}):",
             f"  {'against':<10} {'games':>6} {'win rate':>9} {'95% CI':>16} {'win share':>10} {'95% CI':>16}"]
    for opponent, f in against.items():
        if opponent == "source":
            continue
        share = _interval(*f["share_ci"]) if "share_ci" in f else NOT_MEASURED
        rate = _interval(f["ci_low"], f["ci_high"])
        lines.append(f"  {opponent:<10} {f['games']:>6} {f['win_rate']:>9.3f} {rate:>16} {f['win_share']:>10.3f} "
                     f"{share:>16}")
    return lines


def _exploit_lines(exploit: dict | None, seed: int | None, num_players: int) -> list[str]:
    if not exploit:
        return [f"Exploitability (best responses at a table of copies and at the mixed table): {NOT_MEASURED}"]
    lines = [f"Exploitability: best responses' win share at each budget (seed {seed}; an equal player's is "
             f"{1 / num_players:.3f}):",
             f"  {'table':<8} {'samples':>12} {'win share':>10} {'95% CI':>16} {'games':>6} {'start':>8}"]
    for table in ("copies", "mixed"):
        for point in exploit.get(table) or []:
            lines.append(f"  {table:<8} {point['timesteps']:>12,} {point['win_share']:>10.3f} "
                         f"{_interval(point['share_ci_low'], point['share_ci_high']):>16} {point['games']:>6} "
                         f"{point['best_start']:>8}")
        if not exploit.get(table):
            lines.append(f"  {table:<8} {NOT_MEASURED}")
    return lines


def _liveliness_lines(alive: dict | None) -> list[str]:
    if not alive:
        return [f"Liveliness at a table of its copies: {NOT_MEASURED}"]
    ratio = alive.get("points_ratio")
    return [
        f"Liveliness at a table of its copies ({alive['games']} games, seed {alive['seed']}):",
        f"  {alive['points_per_game']:.2f} points per game (the heuristic's table: "
        f"{alive['heuristic_points_per_game']:.2f}; ratio {'n/a' if ratio is None else f'{ratio:.2f}'}), "
        f"decided share {alive['decided_share']:.3f}",
    ]
