"""The benchmark command: its JSON, ratios, bars and plot (tiny timings; no speed is asserted)."""

import json

import pytest

from stonk_envs.bench.runner import PEERS
from stonk_envs.cli import main


def test_bench_writes_consistent_json_and_a_plot(tmp_path, capsys):
    out = tmp_path / "bench"
    argv = ["bench", "--game", "stocks_and_bombs", "--batch-sizes", "1", "4", "--seconds", "0.02", "--repeats", "2",
            "--out", str(out)]
    assert main(argv) == 0
    results = json.loads((out / "bench.json").read_text())
    assert (out / "bench.png").stat().st_size > 10_000
    assert (out / "bench.md").read_text().startswith("| figure | agent-steps/s |")
    assert results["repeats"] == 2
    assert set(results["peers"]) == set(PEERS)
    game = results["games"]["stocks_and_bombs"]
    assert game["num_players"] == 4
    assert [(r["batch"], r["threads"], r["observe"]) for r in game["engine"]] == [(1, 1, "all"), (4, 1, "all")]
    assert all(r["bytes_per_game"] == game["engine"][0]["bytes_per_game"] > 0 for r in game["engine"])
    for peer, rate in results["peers"].items():
        assert game["ratios"]["aec"][peer] == pytest.approx(game["aec"] / rate)
        assert game["ratios"]["parallel"][peer] == pytest.approx(game["parallel"] / rate)
    # no figure at batch 1024 in this run: the engine bar is reported as not measured
    assert game["bars"]["engine_agent_steps_per_s@1024"] is None and not game["bars"]["engine_bar_met"]
    text = capsys.readouterr().out
    assert "stocks_and_bombs: no batched engine figure at batch 1024" in text
    assert "x texas_holdem_v4" in text


def test_bench_rejects_bad_arguments(capsys):
    for argv, message in [
        (["--game", "chess"], "argument --game: invalid choice: 'chess'"),
        (["--game", "stocks_and_bombs", "--repeats", "0"], "argument --repeats: must be 1..1000, got 0"),
        (["--game", "stocks_and_bombs", "--seconds", "0"], "argument --seconds: must be a finite number (> 0"),
    ]:
        with pytest.raises(SystemExit) as stop:
            main(["bench", *argv])
        assert stop.value.code == 2 and f"stonk-envs bench: error: {message}" in capsys.readouterr().err
