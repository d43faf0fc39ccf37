"""Cross-play over a run folder: every checkpoint rated with the baselines, the curve, the report, errors."""

import json

import pytest

from stonk_envs.cli import main
from stonk_envs.evaluation.crossplay import crossplay, run_checkpoints, spread
from tests.evaluation.run_folder import make_run

GAME = "stockpile"


def test_checkpoints_are_listed_oldest_first_and_other_files_ignored(tmp_path):
    files = make_run(tmp_path, GAME, [300, 20, 1000])
    (tmp_path / "checkpoints" / "state_0000000020.pt").write_bytes(b"not a policy")
    (tmp_path / "policy.zip").write_bytes(b"the run's final copy, not a checkpoint")
    found = run_checkpoints(tmp_path)
    assert [c.step for c in found] == [20, 300, 1000]
    assert [c.path for c in found] == [files[1], files[0], files[2]]


def test_spread_keeps_first_and_last_evenly():
    checkpoints = list(range(10))
    assert spread(checkpoints, 4) == [0, 3, 6, 9]
    assert spread(checkpoints, None) == checkpoints
    assert spread(checkpoints, 20) == checkpoints
    with pytest.raises(ValueError, match="max_checkpoints must be an integer >= 2"):
        spread(checkpoints, 1)


def test_missing_or_empty_run_folders_are_named(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        run_checkpoints(tmp_path / "nowhere")
    with pytest.raises(ValueError, match="has no checkpoints"):
        run_checkpoints(tmp_path)
    (tmp_path / "checkpoints").mkdir()
    with pytest.raises(ValueError, match="has no checkpoints"):
        run_checkpoints(tmp_path)


def test_checkpoints_of_different_games_are_refused(tmp_path):
    make_run(tmp_path, GAME, [10])
    make_run(tmp_path / "other", "stonk_market", [20])
    (tmp_path / "other" / "checkpoints" / "policy_0000000020.pt").rename(
        tmp_path / "checkpoints" / "policy_0000000020.pt"
    )
    with pytest.raises(ValueError, match="is for stonk_market at 4 players"):
        crossplay(tmp_path, 10, progress=False)


def test_every_checkpoint_and_baseline_is_rated_from_the_same_league(tmp_path):
    make_run(tmp_path, GAME, [100, 200, 300])
    report = crossplay(tmp_path, 60, seed=3, progress=False)
    assert [c["step"] for c in report.checkpoints] == [100, 200, 300]
    assert [c["name"] for c in report.checkpoints] == ["step 100", "step 200", "step 300"]
    assert [b["name"] for b in report.baselines] == ["random", "heuristic"]
    entries = report.checkpoints + report.baselines
    assert sum(e["games"] for e in entries) == 60 * 4
    assert all(e["games"] > 0 and e["rating_sigma"] > 0 for e in entries)
    assert sum(e["win_share"] * e["games"] for e in entries) == pytest.approx(60)
    heuristic, random = report.baselines[1], report.baselines[0]
    assert heuristic["rating_mu"] > random["rating_mu"] + 2  # the Stockpile heuristic beats random 0.997 of games
    league = report.league
    assert [p.rating_mu for p in league.players] == [e["rating_mu"] for e in entries]
    assert league.extra["league"] is True


def test_cli_writes_the_report_and_the_curve_into_the_run_folder(tmp_path, capsys):
    make_run(tmp_path, GAME, [100, 200, 300])
    assert main(["crossplay", str(tmp_path), "--games", "20", "--max-checkpoints", "2", "--no-progress"]) == 0
    data = json.loads((tmp_path / "crossplay.json").read_text())
    assert (data["game"], data["num_players"], data["num_games"]) == (GAME, 4, 20)
    assert [c["step"] for c in data["checkpoints"]] == [100, 300]
    assert {"rating_mu", "rating_sigma", "rating_ordinal", "win_share", "file"} <= set(data["checkpoints"][0])
    assert (tmp_path / "crossplay.png").stat().st_size > 10_000
    assert "step 300" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{run}/nowhere"], "does not exist"),
        (["{run}/empty"], "has no checkpoints"),
        (["{run}/full", "--baselines", "random", "nobody"], "unknown player 'nobody'"),
        (["{run}/full", "--baselines"], "needs at least 4 entries"),
        (["{run}/full", "--max-checkpoints", "1"], "max_checkpoints must be an integer >= 2"),
        (["{run}/full", "--out", "{run}/full/checkpoints/policy_0000000001.pt"], "is an existing file, not a folder"),
    ],
)
def test_cli_bad_input_exits_2_with_an_error(tmp_path, capsys, args, message):
    (tmp_path / "empty").mkdir()
    make_run(tmp_path / "full", GAME, [1, 2])
    try:
        status = main(["crossplay", *[a.format(run=tmp_path) for a in args], "--no-progress"])
    except SystemExit as stop:  # a bad path is refused by its argument type, as a usage error
        status = stop.code
    assert status == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith("stonk-envs crossplay: error: ")
    assert message in err
    assert not (tmp_path / "full" / "crossplay.json").exists()


def test_cli_bad_numbers_are_usage_errors(tmp_path, capsys):
    make_run(tmp_path / "full", GAME, [1, 2])
    with pytest.raises(SystemExit) as stop:
        main(["crossplay", str(tmp_path / "full"), "--games", "0", "--no-progress"])
    assert stop.value.code == 2
    assert "stonk-envs crossplay: error: argument --games: must be >= 1, got 0" in capsys.readouterr().err
    assert not (tmp_path / "full" / "crossplay.json").exists()
