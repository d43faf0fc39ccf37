"""Game records: recorded by any env, replayed exactly, and refused with a clear error when wrong."""

import json

import numpy as np
import pytest

from stonk_envs import records
from stonk_envs.games_index import game_module
from stonk_envs.records import GameRecord, RecordError
from tests.render.conftest import SHORT, play_recorded


def rewrite(record: GameRecord, **changes) -> GameRecord:
    """A copy with some fields changed, as a genuine record with those values would be."""
    return GameRecord(**{**record.__dict__, **changes})


def test_replay_reproduces_the_recorded_game(game_record, tmp_path):
    path = game_record.save(tmp_path / "game.json")
    loaded = GameRecord.load(path)
    assert loaded == game_record
    last = records.replay(loaded)
    assert last.game_over and last.index == len(loaded.actions) - 1
    assert np.allclose(last.rewards, loaded.rewards)
    assert loaded.version and loaded.config["num_players"] == 4 and loaded.players == ["heuristic"] * 4


@pytest.mark.parametrize("name", ["stockpile", "stonk_market", "stocks_and_bombs"])
def test_the_aec_env_records_too_and_its_states_replay_step_by_step(name):
    env = game_module(name).env(**SHORT[name])
    recorder = records.record(env)
    env.reset(seed=11)
    rng = np.random.default_rng(2)
    states = []
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if len(recorder.last.actions) > len(states):
            states.append(env.unwrapped.table.states.copy())
            if recorder.last.finished:
                scores = [env.unwrapped.infos[a]["score"] for a in env.possible_agents]
    record = recorder.last
    assert record.env_seed == 11 and record.finished and recorder.games == [record]
    assert record.scores == scores
    replayed = [s.copy() for _, s, step in records.replay_steps(record) if step.index >= 0]
    assert [s.tobytes() for s in replayed] == [s.tobytes() for s in states]


def test_recording_starts_at_reset_and_keeps_every_finished_game():
    env = game_module("stocks_and_bombs").parallel_env(**SHORT["stocks_and_bombs"])
    recorder = records.record(env)
    for seed in (1, 2):
        observations, _ = env.reset(seed=seed)
        while env.agents:
            observations, *_ = env.step({a: 0 for a in observations})  # everyone waits
    assert [r.env_seed for r in recorder.games] == [1, 2]
    assert recorder.games[0].deal_seed != recorder.games[1].deal_seed
    for record in recorder.games:
        records.replay(record)


def test_a_recorder_attached_during_a_game_starts_at_the_next_reset():
    env = game_module("stonk_market").parallel_env()
    env.reset(seed=1)
    recorder = records.record(env)
    env.step(dict.fromkeys(env.agents, 0))
    assert recorder.last is None and recorder.games == []
    env.reset(seed=2)
    env.step(dict.fromkeys(env.agents, 0))
    assert recorder.last.env_seed == 2 and len(recorder.last.actions) == 1


def test_an_unfinished_game_replays_as_unfinished(tmp_path):
    env = game_module("stonk_market").parallel_env()
    recorder = records.record(env)
    env.reset(seed=4)
    for _ in range(5):
        env.step(dict.fromkeys(env.agents, 0))
    record = GameRecord.load(recorder.last.save(tmp_path / "partial.json"))
    assert not record.finished and len(record.actions) == 5
    assert not records.replay(record).game_over


def test_record_from_another_version_is_refused(game_record):
    old = rewrite(game_record, version="0.0.1")
    with pytest.raises(RecordError, match=r"written by stonk_envs 0\.0\.1; this is .*allow_other_version"):
        records.replay(old)
    assert records.replay(old, allow_other_version=True).game_over


@pytest.mark.parametrize(
    ("config_change", "message"),
    [
        (lambda c: {k: v for k, v in c.items() if k != "reward_mode"}, r"no value for option\(s\) \['reward_mode'\]"),
        (lambda c: {**c, "table_size": 3}, r"option\(s\) \['table_size'\] that this version's .* does not know"),
        (lambda c: {**c, "num_players": 9}, r"config is not valid here: num_players must be"),
    ],
)
def test_record_from_another_config_is_refused(game_record, config_change, message):
    with pytest.raises(RecordError, match=message):
        records.replay(rewrite(game_record, config=config_change(dict(game_record.config))))


def test_a_record_whose_results_differ_is_refused(game_record):
    with pytest.raises(RecordError, match=r"the replay's summed rewards .* differ from the record's"):
        records.replay(rewrite(game_record, rewards=[9.0] * 4))
    with pytest.raises(RecordError, match=r"the replayed game ended after .* but the record says it did not end"):
        records.replay(rewrite(game_record, scores=None))
    with pytest.raises(RecordError, match="the record goes on after the game ended"):
        records.replay(rewrite(game_record, actions=[*game_record.actions, game_record.actions[-1]]))


def test_an_illegal_recorded_action_names_the_step_and_the_player():
    record = play_recorded("stocks_and_bombs")
    actions = [list(joint) for joint in record.actions]
    actions[0][1] = 1 + 3 * 12  # give relative piece 3 (c2S), which player_1 does not hold at the deal
    with pytest.raises(
        RecordError,
        match=r"step 0: player_1's action 37 \(propose: give c2S, get c1S\) is illegal: "
        "player_1 does not hold c2S",
    ):
        records.replay(rewrite(record, actions=actions))


def test_an_action_of_a_seat_that_does_not_act_is_refused():
    record = play_recorded("stockpile")
    actor = next(p for p, a in enumerate(record.actions[0]) if a >= 0)
    bystander = (actor + 1) % 4
    actions = [list(joint) for joint in record.actions]
    actions[0][bystander] = 0
    with pytest.raises(RecordError, match=f"step 0: the record has an action for player_{bystander}, who does not act"):
        records.replay(rewrite(record, actions=actions))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda text: text[: len(text) // 2], r"invalid JSON at line 1 column \d+"),
        (lambda text: text.replace('"deal_seed":', '"deal_seed":1'), "does not match its sha256 checksum"),
        (lambda text: json.dumps({k: v for k, v in json.loads(text).items() if k != "format"}), "not a game record"),
        (lambda text: json.dumps({**json.loads(text), "format_version": 7}), "format version 7; this package reads 1"),
        (lambda text: "[1, 2, 3]", "not a game record"),
        (lambda text: "", "invalid JSON at line 1 column 1"),
    ],
)
def test_damaged_files_fail_with_a_clear_error(game_record, tmp_path, damage, message):
    path = tmp_path / "game.json"
    path.write_text(damage(game_record.to_json()))
    with pytest.raises(RecordError, match=message):
        GameRecord.load(path)


def test_binary_and_missing_files_fail_with_a_clear_error(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.raises(RecordError, match="not a game record \\(not UTF-8 text; byte 0 is invalid\\)"):
        GameRecord.load(path)
    with pytest.raises(RecordError, match="no such file"):
        GameRecord.load(tmp_path / "missing.json")


def resealed(body: dict) -> str:
    """A file with a valid checksum over ``body``: damage that a checksum cannot catch."""
    body = {k: v for k, v in body.items() if k != "sha256"}
    return json.dumps({**body, "sha256": records._digest(body)})


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda b: {k: v for k, v in b.items() if k != "actions"}, "missing field\\(s\\) \\['actions'\\]"),
        (lambda b: {**b, "actions": [[0, 0]]}, "step 0 of 'actions' must be a list of 4 integers"),
        (lambda b: {**b, "deal_seed": -3}, "'deal_seed' must be an integer in 0..2\\*\\*63-1"),
        (lambda b: {**b, "scores": [1, 2]}, "field 'scores' must be a list of 4 numbers"),
        (lambda b: {**b, "colour": "red"}, "unknown field\\(s\\) \\['colour'\\]"),
        (lambda b: {**b, "rewards": ["a", "b", "c", "d"]}, r"field 'rewards' must be a list of 4 numbers, got \['a'"),
        (lambda b: {**b, "scores": [True] * 4}, r"field 'scores' must be a list of 4 numbers, got \[True"),
        (lambda b: {**b, "config": {**b["config"], "num_players": True}},
         r"field 'config' must be a mapping with an integer num_players, got True"),
        (lambda b: {**b, "players": "abcd"}, r"field 'players' must be a list of 4 names, got 'abcd'"),
        (lambda b: {**b, "players": [1, 2, 3, 4]}, r"field 'players' must be a list of 4 names, got \[1, 2"),
        (lambda b: {**b, "env_seed": "7"}, r"field 'env_seed' must be an integer in 0..2\*\*63-1, got '7'"),
        (lambda b: {**b, "version": 3}, r"field 'version' must be a string, got 3"),
    ],
)
def test_resealed_records_with_wrong_fields_fail_with_a_clear_error(game_record, edit, message):
    body = json.loads(game_record.to_json())
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(resealed(edit(body)))


def test_record_refuses_an_env_from_elsewhere():
    class Other:
        unwrapped = object()

    with pytest.raises(ValueError, match="is not an env of stonk_envs"):
        records.record(Other())


def test_evaluate_saves_the_records_of_the_chosen_games(tmp_path, capsys):
    from stonk_envs.cli import main

    args = [
        "evaluate",
        "--game",
        "stonk_market",
        "--players",
        "random",
        "heuristic",
        "heuristic",
        "heuristic",
        "--games",
        "8",
        "--env",
        "tick_cap=20",
        "--env",
        "num_rounds=1",
        "--no-plot",
        "--no-progress",
    ]
    assert main([*args, "--out", str(tmp_path / "losses"), "--save-records", "losses:3"]) == 0
    saved = sorted((tmp_path / "losses" / "records").glob("*.json"))
    assert len(saved) == 3 and "records: 3 games in" in capsys.readouterr().out
    for path in saved:
        record = GameRecord.load(path)
        seat = record.players.index("random")
        assert record.scores[seat] < max(record.scores)  # the first listed player lost this one
        assert records.replay(record).game_over
    assert main([*args, "--out", str(tmp_path / "first"), "--save-records", "first:2"]) == 0
    first = sorted(p.name for p in (tmp_path / "first" / "records").glob("*.json"))
    assert first == ["game_00000.json", "game_00001.json"]
    report = json.loads((tmp_path / "first" / "report.json").read_text())
    assert report["extra"]["records"]["games"] == [0, 1]


@pytest.mark.parametrize("choice", ["first:0", "last:3", "all:2", "losses:x"])
def test_evaluate_refuses_a_bad_choice_of_records(choice, capsys):
    from stonk_envs.cli import main

    with pytest.raises(SystemExit):
        main(["evaluate", "--save-records", choice])
    assert "argument --save-records:" in capsys.readouterr().err


def test_evaluate_refuses_a_records_folder_that_is_a_file(tmp_path, capsys):
    from stonk_envs.cli import main

    (tmp_path / "records").write_text("not a folder")
    assert main(["evaluate", "--games", "2", "--out", str(tmp_path), "--save-records", "all", "--no-plot"]) == 2
    assert "exists and is not a folder for the records" in capsys.readouterr().err
    assert not (tmp_path / "report.json").exists()
