"""The evaluation card: written from the champions index, every figure it lacks shown as not measured."""

import json

import pytest

from stonk_envs import champions, registry
from stonk_envs.cli import main
from stonk_envs.evaluation.card import card_of, card_text, champion_card

ENTRY = {
    "file": "g.zip", "sha256": "ab" * 32, "num_players": [4], "config": "stockpile", "seed": 3, "overrides": [],
    "command": "stonk-envs train --config stockpile seed=3", "commit": "abc1234", "date": "2026-12-01",
    "training": {"steps_trained": 2000000, "policy_step": 1500000, "against": {
        "random": {"games": 1000, "win_share": 0.98, "win_rate": 0.981, "ci_low": 0.971, "ci_high": 0.988,
                   "share_ci": [0.968, 0.987]}}},
    "result": {"file": "results/stockpile.json", "seed": "3"}, "measured": None, "weaknesses": [],
}
FIGURES = {
    "policy_sha256": "ab" * 32,
    "against": {"heuristic": {"games": 1000, "win_share": 0.2, "win_rate": 0.21, "ci_low": 0.186, "ci_high": 0.236,
                              "share_ci": [0.176, 0.226]}},
    "liveliness": {"points_per_game": 2.0, "decided_share": 0.5, "heuristic_points_per_game": 5.0,
                   "points_ratio": 0.4, "games": 500, "seed": 1003},
    "exploit": {"copies": [{"budget": 1000, "timesteps": 1024, "win_share": 0.3, "share_ci_low": 0.28,
                            "share_ci_high": 0.32, "best_start": "frozen", "games": 2000, "starts": {}}]},
    "exploit_seed": 2003,
}
MEASURED = {"command": "python scripts/measure_config.py --config stockpile", "commit": "def5678",
            "date": "2026-12-02", "machine": "a CPU, 2 cores", "figures": FIGURES}


def test_an_unmeasured_champion_shows_its_training_evaluation_and_says_what_is_not_measured():
    text = card_text(card_of("stockpile", ENTRY))
    assert text.splitlines()[:8] == [
        "stockpile champion: stonk_envs/champions/g.zip",
        f"  sha256       {'ab' * 32}",
        "  plays        4 players (its policy's seat layout; no other count)",
        "  trained by   stonk-envs train --config stockpile seed=3",
        "  seed         3",
        "  commit       abc1234 (2026-12-01)",
        "  samples      2,000,000 trained; the kept policy is step 1,500,000",
        "  result file  results/stockpile.json, seed 3: not measured yet",
    ]
    assert ("  random       1000     0.981   [0.971, 0.988]      0.980   [0.968, 0.987]" in text
            and "(the training run's final evaluation)" in text)
    assert text.endswith(
        "Exploitability (best responses at a table of copies and at the mixed table): not measured\n\n"
        "Liveliness at a table of its copies: not measured\n\nKnown weaknesses: not measured\n")


def test_measured_figures_show_the_curve_liveliness_and_the_weaknesses_they_hold():
    card = card_of("stockpile", {**ENTRY, "measured": MEASURED})
    text = card_text(card)
    assert ("  result file  results/stockpile.json, seed 3: measured by python scripts/measure_config.py --config "
            "stockpile at def5678 on 2026-12-02, a CPU, 2 cores") in text
    assert "(results/stockpile.json, seed 3)" in text and "  random " not in text
    assert "  copies          1,024      0.300   [0.280, 0.320]   2000   frozen\n  mixed    not measured" in text
    assert ("  2.00 points per game (the heuristic's table: 5.00; ratio 0.40), decided share 0.500") in text
    assert card["weaknesses"] == [
        "A best response trained for 1,024 samples wins a share of 0.300 at the copies table, above the 0.250 of "
        "an equal player.",
        "At a table of its copies it scores 0.40 of the points of the heuristic's table: its copies stall.",
        "Against heuristic players it wins a share of 0.200, below the 0.250 of an equal player.",
    ]


def test_measured_figures_that_show_no_weakness_say_so():
    sound = {**FIGURES, "against": {}, "exploit": {}, "liveliness": {**FIGURES["liveliness"], "points_ratio": 0.9}}
    card = card_of("stockpile", {**ENTRY, "measured": {**MEASURED, "figures": sound}})
    assert card["weaknesses"] == [] and card_text(card).endswith("Known weaknesses: none in the measured figures\n")


def test_the_command_prints_the_packaged_champions_card_and_its_json(capsys):
    assert main(["card", "champion", "--game", "stockpile"]) == 0
    assert capsys.readouterr().out == card_text(champion_card("stockpile"))
    assert main(["card", "champion", "--game", "stockpile", "--json"]) == 0
    card = json.loads(capsys.readouterr().out)
    assert card == champion_card("stockpile") and card["sha256"] == champions.read_index()["stockpile"]["sha256"]


@pytest.mark.parametrize("game", [g for g in registry.names() if g not in champions.games()][:1])
def test_a_game_without_a_champion_exits_2_naming_the_games_with_one(game, capsys):
    assert main(["card", "champion", "--game", game]) == 2
    assert capsys.readouterr().err == (f"stonk-envs card: error: {game} has no champion; the games with one: "
                                       f"{', '.join(champions.games())}\n")
