"""Every subcommand reports bad input as ``stonk-envs <cmd>: error: ...`` with exit 2, before any work."""

import pytest

from stonk_envs import cli


def run_cli(argv, capsys):
    """Exit status and stderr of ``stonk-envs argv`` run in this process."""
    try:
        status = cli.main(argv)
    except SystemExit as stop:  # argparse's own errors
        status = stop.code
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return status, err


@pytest.fixture
def a_file(tmp_path):
    path = tmp_path / "taken"
    path.write_text("not a folder\n")
    return path


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "--seconds", "nan"], r"argument --seconds: must be a finite number \(> 0 and <= 3600.0\), got nan"),
        (["bench", "--seconds", "inf"], r"argument --seconds: must be a finite number"),
        (["bench", "--seconds", "-1"], r"argument --seconds: must be a finite number"),
        (["bench", "--seconds", "fast"], r"argument --seconds: expected a number, got 'fast'"),
        (["bench", "--repeats", "0"], r"argument --repeats: must be 1\.\.1000, got 0"),
        (["bench", "--batch-sizes", "64", "0"], r"argument --batch-sizes: must be 1\.\.16777216, got 0"),
        (["bench", "--game", "chess"], r"argument --game: invalid choice: 'chess'"),
        (["bench", "--num-players", "9", "--game", "stonk_market"], r"bench: error: num_players must be 3\.\.6"),
        (["evaluate", "--seed", "-3"], r"argument --seed: must be 0\.\.\d+, got -3"),
        (["evaluate", "--games", "0"], r"argument --games: must be >= 1, got 0"),
        (["evaluate", "--workers", "two"], r"argument --workers: expected an integer, got 'two'"),
        (["evaluate", "--num-players", "9", "--games", "1"], r"evaluate: error: num_players must be 4\.\.6, got 9"),
        (["evaluate", "--env", "tick_cap=4294967299", "--games", "1"], r"evaluate: error: .*tick_cap must be 1\.\."),
        (["demo", "--every", "0"], r"argument --every: must be >= 1, got 0"),
        (["demo", "--game", "chess"], r"argument --game: invalid choice"),
        (["demo", "--num-players", "2"], r"demo: error: num_players must be 4\.\.6, got 2"),
        (["train", "ppo.learning_rate=nan"], r"train: error: .*ppo.learning_rate must be a finite number"),
        (["train", "num_envs"], r"train: error: overrides must be KEY=VALUE"),
        (["soak", "--games", "-1"], r"argument --games: must be 0\.\.1000000000, got -1"),
        (["soak", "--batch", "0"], r"argument --batch: must be 1\.\.65536, got 0"),
    ],
)
def test_bad_arguments(argv, message, capsys):
    status, err = run_cli(argv, capsys)
    assert status == 2
    assert err.strip().splitlines()[-1].startswith(f"stonk-envs {argv[0]}: error: ")
    assert __import__("re").search(message, err), err


def test_malformed_yaml_is_named(tmp_path, capsys):
    config = tmp_path / "broken.yaml"
    config.write_text("ppo: {learning_rate: [1, 2\n")
    status, err = run_cli(["train", "--config", str(config)], capsys)
    assert status == 2 and f"stonk-envs train: error: config file '{config}' is not valid YAML" in err


@pytest.mark.parametrize("command", ["bench", "evaluate"])
def test_an_out_that_is_a_file_fails_before_any_work(command, a_file, capsys):
    for out in (a_file, a_file / "inside"):
        status, err = run_cli([command, "--out", str(out)], capsys)
        assert status == 2 and "is an existing file, not a folder" in err and "error: argument --out" in err
    assert a_file.read_text() == "not a folder\n"


def test_evaluate_default_out_is_checked_before_the_games(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").write_text("a file where the folder would go\n")
    status, err = run_cli(["evaluate", "--games", "100000"], capsys)
    assert status == 2 and "evaluate: error: --out 'runs/evaluate/stocks_and_bombs' is inside" in err


def test_a_run_dir_that_is_a_file_fails_before_any_work(a_file, capsys):
    status, err = run_cli(["train", f"run_dir={a_file}"], capsys)
    assert status == 2 and f"train: error: run_dir '{a_file}' is an existing file, not a folder" in err


def test_errors_raised_inside_any_subcommand_are_reported_the_same_way(monkeypatch, capsys):
    def broken(args):
        raise TypeError("something the command could not use")

    parser = cli.build_parser()
    monkeypatch.setattr(cli, "build_parser", lambda: parser)
    parser._subparsers._group_actions[0].choices["demo"].set_defaults(run=broken)
    status, err = run_cli(["demo"], capsys)
    assert (status, err) == (2, "stonk-envs demo: error: something the command could not use\n")


def test_a_run_folder_with_malformed_yaml_is_named_on_resume(tmp_path, capsys):
    (tmp_path / "config.yaml").write_text("ppo: [1, 2\n")
    status, err = run_cli(["train", "--resume", str(tmp_path)], capsys)
    assert status == 2 and "train: error: config file" in err and "is not valid YAML" in err


def test_a_policy_file_that_is_not_one_is_named_in_one_line(tmp_path, capsys):
    fake = tmp_path / "fake.pt"
    fake.write_bytes(b"\x80\x02garbage")
    status, err = run_cli(["evaluate", "--players", str(fake), "random", "random", "random", "--games", "2"], capsys)
    assert status == 2 and f"{fake} is not a stonk_envs policy file" in err and len(err.strip().splitlines()) == 1
