"""The remaining bad inputs: each is a one-line error naming the problem, exit 2, and changes nothing."""

import json
import os
import zipfile

import numpy as np
import pytest
import torch

from stonk_envs import stocks_and_bombs_v1 as stocks_and_bombs
from stonk_envs import vector
from stonk_envs.cli import main
from stonk_envs.policies.checkpoint import METADATA_MEMBER, load_policy, make_metadata, save_torch
from stonk_envs.policies.games import game_sizes
from stonk_envs.policies.torch_policy import MaskedMLP
from stonk_envs.records import GameRecord, RecordError
from stonk_envs.safe_load import parse_json
from stonk_envs.text import printable

LONG = "x" * 300


def run_cli(argv, capsys):
    try:
        status = main(argv)
    except SystemExit as stop:
        status = stop.code
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return status, err.strip()


def assert_one_line_error(status, err, pattern):
    assert status == 2
    assert err.count("\n") == 0 or err.splitlines()[0].startswith("usage:"), err
    assert pytest.importorskip("re").search(pattern, err), err


@pytest.fixture
def cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


PATH_CASES = [
    (["evaluate", "--out", LONG + "/x", "--games", "1"], "300 bytes long"),
    (["evaluate", "--out", "", "--games", "1"], "must not be empty"),
    (["evaluate", "--players", "", "random", "--games", "1"], "must not be empty"),
    (["evaluate", "--players", LONG, "random", "--games", "1"], "300 bytes long"),
    (["bench", "--out", LONG], "300 bytes long"),
    (["bench", "--out", ""], "must not be empty"),
    (["train", "--resume", ""], "must not be empty"),
    (["train", "--resume", LONG], "300 bytes long"),
    (["train", "--resume", "absent"], "does not exist"),
    (["train", "--config", ""], "must not be empty"),
    (["train", "--config", "."], "is a folder, not a file"),
    (["train", "--config", LONG], "300 bytes long"),
    (["train", "run_dir="], "invalid config: run_dir must not be empty"),
    (["train", "run_dir=null"], "invalid config: run_dir must not be empty"),
    (["train", "run_dir=''"], "run_dir must not be empty"),
    (["train", "eval.opponents="], "invalid config: eval.opponents must not be empty"),
    (["train-rllib", "run_dir="], "invalid config: run_dir must not be empty"),
    (["train-rllib", "--config", "."], "is a folder, not a file"),
    (["play", "--game", "stockpile", "--record", LONG + ".json"], "305 bytes long"),
    (["play", "--game", "stockpile", "--record", "."], "is a folder, not a file"),
    (["replay", "."], "is a folder, not a file"),
    (["replay", ""], "must not be empty"),
    (["replay", LONG], "300 bytes long"),
    (["replay", "absent.json"], "does not exist"),
    (["convert", "", "out.pt"], "must not be empty"),
    (["crossplay", LONG], "300 bytes long"),
    (["crossplay", ".", "--out", ""], "must not be empty"),
    (["configs", "--copy", LONG], "300 bytes long"),
    (["configs", "--copy", ""], "must not be empty"),
    (["exploit", "--policy", LONG], "300 bytes long"),
]


@pytest.mark.parametrize(("argv", "pattern"), PATH_CASES)
def test_every_path_argument_is_checked_before_any_work(argv, pattern, cwd, capsys):
    status, err = run_cli(argv, capsys)
    assert_one_line_error(status, err, pattern)
    assert list(cwd.iterdir()) == []  # nothing was written, not even into the current folder


@pytest.mark.parametrize("command", ["train", "train-rllib"])
def test_a_config_file_with_an_empty_run_dir_is_named(tmp_path, cwd, command, capsys):
    config = tmp_path / "config.yaml"
    config.write_text("run_dir:\n")
    status, err = run_cli([command, "--config", str(config)], capsys)
    assert_one_line_error(status, err, "invalid config: run_dir must not be empty")
    assert list(cwd.iterdir()) == [config]


def test_replay_of_a_named_pipe_is_refused_at_once(cwd, capsys):
    os.mkfifo(cwd / "pipe")
    status, err = run_cli(["replay", str(cwd / "pipe")], capsys)
    assert_one_line_error(status, err, "not a regular file")


def test_play_checks_its_default_record_path_before_the_game(cwd, capsys):
    (cwd / "runs").write_text("a file where the folder would go\n")
    status, err = run_cli(["play", "--game", "stockpile"], capsys)
    assert_one_line_error(status, err, "the folder of --record .* is inside .*, which is an existing file")


def test_train_config_holding_a_scalar_is_named(cwd, capsys):
    (cwd / "scalar.yaml").write_text("42\n")
    status, err = run_cli(["train", "--config", "scalar.yaml", f"run_dir={cwd / 'run'}"], capsys)
    assert_one_line_error(status, err, "scalar.yaml")
    assert not (cwd / "run").exists()


def test_bench_batch_beyond_the_memory_is_refused_before_allocating(cwd, capsys):
    with open("/proc/meminfo") as meminfo:
        available = next(int(line.split()[1]) * 1024 for line in meminfo if line.startswith("MemAvailable"))
    if vector.make("stonk_market", 1).nbytes_per_game * 2**24 < available:
        pytest.skip("this machine has the memory for the largest batch")
    status, err = run_cli(["bench", "--game", "stonk_market", "--batch-sizes", "16777216", "--seconds", "0.01",
                           "--repeats", "1", "--out", str(cwd / "bench")], capsys)
    assert_one_line_error(status, err, "GiB of memory")


def nan_policy(path):
    obs, actions = game_sizes("stocks_and_bombs", 4, {})
    net = MaskedMLP(obs, actions, (8,))
    with torch.no_grad():
        net.body[0].weight[0, 0] = float("nan")
    return save_torch(net, path, make_metadata("stocks_and_bombs", 4, obs, actions, {}, "torch"))


def test_a_policy_with_nan_weights_is_refused(cwd, capsys):
    path = nan_policy(cwd / "nan.pt")
    with pytest.raises(ValueError, match="NaN or infinite"):
        load_policy(path)
    status, err = run_cli(["evaluate", "--players", str(path), "random", "random", "random", "--games", "1",
                           "--out", str(cwd / "out")], capsys)
    assert_one_line_error(status, err, "NaN or infinite")
    assert not (cwd / "out" / "report.json").exists()


def test_a_huge_hidden_layer_in_metadata_is_refused_before_allocating(tmp_path):
    obs, actions = game_sizes("stocks_and_bombs", 4, {})
    net = MaskedMLP(obs, actions, (8,))
    meta = {**make_metadata("stocks_and_bombs", 4, obs, actions, {}, "torch"),
            "architecture": {"observation_size": obs, "num_actions": actions, "hidden": [200000, 200000]}}
    torch.save({"metadata": meta, "state_dict": net.state_dict()}, tmp_path / "huge.pt")
    with pytest.raises(ValueError, match="parameters, but the file holds only"):
        load_policy(tmp_path / "huge.pt")


def zip_with(path, name, content, compress=zipfile.ZIP_STORED):
    with zipfile.ZipFile(path, "w", compress) as archive:
        archive.writestr(name, content)
    return path


def sb3_metadata(**changes):
    obs, actions = game_sizes("stocks_and_bombs", 4, {})
    return {**make_metadata("stocks_and_bombs", 4, obs, actions, {}, "sb3"), "algorithm": "MaskablePPO", **changes}


@pytest.mark.parametrize(
    ("metadata", "message"),
    [
        ({k: v for k, v in sb3_metadata().items() if k != "algorithm"},
         r"its metadata names no SB3 algorithm \(its 'algorithm' field is missing or null\); supported: \['A2C'"),
        (sb3_metadata(algorithm=None), r"its metadata names no SB3 algorithm"),
        (sb3_metadata(num_players=True), r"metadata field 'num_players' is missing or not a int, got True"),
        (sb3_metadata(num_actions=True), r"metadata field 'num_actions' is missing or not a int, got True"),
        (sb3_metadata(observation_version="1"), r"metadata field 'observation_version' is not a version number, "
                                                r"got '1'"),
        (sb3_metadata(env_config={"tick_cap": "x"}), r"its metadata's game settings are not valid here: tick_cap "
                                                     r"must be an integer"),
    ],
)
def test_policy_metadata_that_makes_no_sense_is_named_with_the_file(tmp_path, capsys, metadata, message):
    path = zip_with(tmp_path / "policy.zip", METADATA_MEMBER, json.dumps(metadata))
    with pytest.raises(ValueError, match=rf"^{tmp_path}/policy\.zip: {message}"):
        load_policy(path)
    status, err = run_cli(["evaluate", "--players", str(path), "random", "random", "random", "--games", "1",
                           "--no-progress", "--out", str(tmp_path / "out")], capsys)
    assert_one_line_error(status, err, message)
    assert not (tmp_path / "out").exists()


def test_a_zip_bomb_is_refused_before_it_is_unpacked(tmp_path):
    path = tmp_path / "bomb.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive, archive.open(METADATA_MEMBER, "w") as member:
        for _ in range(64):
            member.write(bytes(2**20))
    assert path.stat().st_size < 2**20
    with pytest.raises(ValueError, match="zip bomb"):
        load_policy(path)


def test_a_metadata_member_that_says_it_is_1_gib_is_refused_before_reading(tmp_path):
    path = zip_with(tmp_path / "big.zip", METADATA_MEMBER, b"{}")
    data = bytearray(path.read_bytes())
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):  # uncompressed size in both headers
        at = data.index(signature) + offset
        data[at:at + 4] = (2**30).to_bytes(4, "little")
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="over the limit"):
        load_policy(path)


def test_json_nested_100000_levels_is_refused_in_metadata_and_records(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(ValueError, match="nested more than"):
        load_policy(zip_with(tmp_path / "deep.zip", METADATA_MEMBER, deep))
    (tmp_path / "deep.json").write_text(deep)
    with pytest.raises(RecordError, match="nested more than"):
        GameRecord.load(tmp_path / "deep.json")
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / METADATA_MEMBER).write_text(deep)
    with pytest.raises(ValueError, match="nested more than"):
        load_policy(folder)


def test_brackets_inside_json_strings_do_not_count_as_nesting():
    assert parse_json(json.dumps({"name": "[" * 1000}), "test") == {"name": "[" * 1000}


@pytest.mark.parametrize("action", [-1, 10**6, 149])
def test_env_step_outside_the_action_space_is_a_value_error_that_changes_nothing(action):
    env = stocks_and_bombs.env()
    env.reset(seed=0)
    before = env.unwrapped.table.states.copy()
    with pytest.raises(ValueError, match="outside the action space"):
        env.step(action)
    assert env.unwrapped.table.states.tobytes() == before.tobytes()


@pytest.mark.parametrize("action", [-1, 10**6, 149])
@pytest.mark.parametrize("policy", ["void", "raise"])
def test_an_action_outside_the_space_is_refused_under_either_illegal_action_policy(action, policy):
    parallel = stocks_and_bombs.parallel_env(illegal_action=policy)
    parallel.reset(seed=0)
    before = parallel.table.states.tobytes()
    with pytest.raises(ValueError, match="outside the action space"):
        parallel.step(dict.fromkeys(parallel.agents, action))
    assert parallel.table.states.tobytes() == before
    with pytest.raises(ValueError, match="outside the action space"):  # even for a seat whose action is unused
        parallel.step({**dict.fromkeys(parallel.acting_agents, 0), "player_3": action} if parallel.acting_agents
                      else {"player_3": action})
    raw = stocks_and_bombs.raw_env(illegal_action=policy)
    raw.reset(seed=0)
    with pytest.raises(ValueError, match="outside the action space"):
        raw.step(action)
    assert raw.table.states.tobytes() == before


def single_agent():
    import gymnasium as gym

    return gym.make("stonk_envs/StocksAndBombs-v1")


def vector_env():
    import gymnasium as gym

    return gym.make_vec("stonk_envs/StocksAndBombs-v1", num_envs=2)


@pytest.mark.parametrize("make", [stocks_and_bombs.env, stocks_and_bombs.raw_env, stocks_and_bombs.parallel_env,
                                  single_agent, vector_env])
def test_reset_options_must_be_none_or_a_dict(make):
    env = make()
    with pytest.raises(TypeError, match="options must be a dict"):
        env.reset(options="x")
    env.reset(options={"options": 1})  # PettingZoo's api_test passes this: keys are ignored
    env.reset(options={})


def test_step_after_close_is_refused_and_reset_opens_the_env_again():
    env = stocks_and_bombs.parallel_env()
    env.reset(seed=0)
    env.close()
    with pytest.raises(ValueError, match="after close"):
        env.step({agent: 0 for agent in env.agents})
    env.reset(seed=0)
    aec = stocks_and_bombs.env()
    aec.reset(seed=0)
    aec.close()
    with pytest.raises(ValueError, match="after close"):
        aec.step(0)


def test_engine_set_state_with_a_bad_shape_changes_nothing():
    engine = vector.make("stocks_and_bombs", 4)
    engine.reset(seed=0)
    saved = engine.get_state()
    engine.step(engine.random_actions())
    before = engine.get_state()
    for name, bad in (("masks", saved["arrays"]["masks"][:1]), ("rewards", saved["arrays"]["rewards"][:, :2]),
                      ("obs", saved["arrays"]["obs"].astype(np.float64))):
        broken = {**saved, "arrays": {**saved["arrays"], name: bad}}
        with pytest.raises(ValueError, match=name):
            engine.set_state(broken)
        for key, array in engine.get_state()["arrays"].items():
            assert array.tobytes() == before["arrays"][key].tobytes(), key


def test_replay_of_a_record_with_string_rewards_names_the_field(tmp_path, capsys):
    from tests.render.conftest import play_recorded
    from tests.render.test_records import resealed

    body = json.loads(play_recorded("stockpile").to_json())
    path = tmp_path / "game.json"
    path.write_text(resealed({**body, "rewards": ["1", "2", "3", "4"]}))
    for argv in (["replay", str(path)], ["replay", str(path), "--html", str(tmp_path / "game.html")]):
        status, err = run_cli(argv, capsys)
        assert_one_line_error(status, err, r"field 'rewards' must be a list of 4 numbers, got \['1', '2'")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


def test_terminal_text_from_files_is_shown_as_escapes():
    name = "\x1b[2J\x1b]0;owned\x07evil\u202e"
    assert printable(name) == "\\x1b[2J\\x1b]0;owned\\x07evil\\u202e"
    assert printable("plain name ü") == "plain name ü"


def test_replay_panel_shows_control_characters_of_player_names_escaped():
    from rich.console import Console

    from stonk_envs.games_index import build_game
    from stonk_envs.replay.terminal import moment_panel
    from stonk_envs.replay.timeline import Moment

    game = build_game("stocks_and_bombs", num_players=4)
    states = np.zeros(1, dtype=game.state_dtype)
    game.reset(states, 0, 1)
    moment = Moment(-1, states, [], np.zeros(4), False)
    console = Console(record=True, width=200, force_terminal=True)
    console.print(moment_panel(game, moment, 10, None, ["\x1b[2Jclear", "ok", "ok", "ok"]))
    text = console.export_text()
    assert "\\x1b[2Jclear" in text and "\x1b[2J" not in text


HOSTILE = "\x1b[2J\x1b]0;owned\x07<script>alert(1)</script>"
"""A name that clears the screen, sets the window title and runs a script, were it printed or pasted raw."""


def hostile_record(path):
    from dataclasses import replace

    from tests.render.conftest import play_recorded

    record = play_recorded("stocks_and_bombs")
    return replace(record, players=[HOSTILE, *record.players[1:]]).save(path)


def test_the_terminal_replay_shows_a_hostile_name_escaped(tmp_path, capsys, monkeypatch):
    import io

    path = hostile_record(tmp_path / "game.json")
    monkeypatch.setattr("sys.stdin", io.StringIO("e\nq\n"))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\\x1b[2J\\x1b]0;owned\\x07" in out
    assert not {"\x1b", "\x07"} & set(out)


def test_the_html_page_escapes_a_hostile_name(tmp_path):
    path = hostile_record(tmp_path / "game.json")
    page = tmp_path / "game.html"
    assert main(["replay", str(path), "--html", str(page)]) == 0
    text = page.read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "<script>alert(1)" not in text


def test_evaluate_and_play_show_a_hostile_policy_file_name_escaped(cwd, capsys):
    from stonk_envs.play.session import build_seats

    obs, actions = game_sizes("stocks_and_bombs", 4, {})
    path = save_torch(MaskedMLP(obs, actions, (8,)), cwd / "\x1b[2Jevil\x07.pt",
                      make_metadata("stocks_and_bombs", 4, obs, actions, {}, "torch"))
    assert main(["evaluate", "--players", str(path), "random", "random", "random", "--games", "2", "--no-plot",
                 "--no-progress", "--out", str(cwd / "out")]) == 0
    out = capsys.readouterr().out
    assert "\\x1b[2Jevil\\x07" in out and not {"\x1b", "\x07"} & set(out)
    names = [seat.name for seat in build_seats("stocks_and_bombs", 0, [str(path)], 4)]
    assert names[1] == "\\x1b[2Jevil\\x07.pt" and not {"\x1b", "\x07"} & set("".join(names))
