"""scripts/update_champions.py: a run folder's policy packaged and indexed with the command that trains it, and the
result file's figures copied only when they measured that very policy."""

import importlib.util
import json
from pathlib import Path

import pytest

from stonk_envs import champions
from stonk_envs.configs import shipped_file
from stonk_envs.training.config import load_config, to_yaml
from tests.evaluation.run_folder import make_run

ROOT = Path(__file__).resolve().parents[2]
FINAL = {"steps_trained": 1000, "policy_step": 500, "results": [
    {"opponent": "random", "policy": {"name": "p", "games": 100, "wins": 90, "shared_wins": 0, "win_rate": 0.9,
                                      "ci_low": 0.8, "ci_high": 0.95, "win_share": 0.9, "mean_score": 3.0}}]}


@pytest.fixture
def script(tmp_path, monkeypatch):
    """The script with the package's champions folder, the checkout and the docs writer moved into ``tmp_path``."""
    spec = importlib.util.spec_from_file_location("update_champions", ROOT / "scripts" / "update_champions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    folder = tmp_path / "package"
    folder.mkdir()
    monkeypatch.setattr(champions, "FOLDER", folder)
    monkeypatch.setattr(champions, "INDEX", folder / "index.json")
    monkeypatch.setattr(module, "ROOT", tmp_path)
    monkeypatch.setattr(module, "write_docs", lambda game: 0)
    return module


@pytest.fixture
def run_dir(tmp_path):
    run = tmp_path / "run"
    (policy,) = make_run(run, "stockpile", [500])
    policy.rename(run / "policy.zip")
    config = load_config(shipped_file("stockpile"), ["seed=5", "total_timesteps=1000", f"run_dir={run}",
                                                     "progress=false"])
    (run / "config.yaml").write_text(to_yaml(config))
    (run / "final_evaluation.json").write_text(json.dumps(FINAL))
    return run


def test_a_run_folder_is_packaged_with_its_command_and_figures(script, run_dir):
    assert script.main(["--game", "stockpile", "--run-dir", str(run_dir)]) == 0
    entry = champions.read_index()["stockpile"]
    assert entry["sha256"] == champions.file_sha256(run_dir / "policy.zip")
    assert champions.champion_file("stockpile", 4) == champions.FOLDER / "stockpile.zip"
    assert (entry["num_players"], entry["seed"], entry["overrides"]) == ([4], 5, ["total_timesteps=1000"])
    assert entry["command"] == "stonk-envs train --config stockpile seed=5 total_timesteps=1000"
    assert entry["result"] == {"file": "results/stockpile.json", "seed": "5"} and entry["measured"] is None
    assert entry["training"]["against"]["random"]["win_rate"] == 0.9
    assert set(entry["training"]["against"]["random"]) == {"games", "win_share", "win_rate", "ci_low", "ci_high",
                                                            "share_ci"}


def test_a_result_file_that_measured_the_policy_is_copied_in(script, run_dir, tmp_path):
    figures = {"policy_sha256": champions.file_sha256(run_dir / "policy.zip"), "policy_step": 500}
    provenance = {"command": "measure", "commit": "abc", "date": "2026-12-01", "machine": "m"}
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "stockpile.json").write_text(json.dumps({**provenance, "seeds": {"5": figures}}))
    assert script.main(["--game", "stockpile", "--run-dir", str(run_dir)]) == 0
    assert champions.read_index()["stockpile"]["measured"] == {**provenance, "figures": figures}


def test_a_result_file_that_measured_another_policy_stops_it(script, run_dir, tmp_path):
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "stockpile.json").write_text(json.dumps({"seeds": {"5": {"policy_sha256": "0" * 64}}}))
    with pytest.raises(SystemExit, match=r"seed 5 measured the policy 000000000000, not this one"):
        script.main(["--game", "stockpile", "--run-dir", str(run_dir)])


def test_a_policy_of_another_game_is_refused(script, run_dir):
    with pytest.raises(SystemExit, match="is a policy for stockpile, not stonk_market"):
        script.main(["--game", "stonk_market", "--run-dir", str(run_dir)])
