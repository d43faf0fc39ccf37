"""The packaged champions: each file is the policy its index (and its result file) names, and ``champion`` is a
player spec wherever one is taken, refused with the games or counts that exist."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from stonk_envs import champions, registry
from stonk_envs.cli import main
from stonk_envs.policies import make_player
from stonk_envs.policies.checkpoint import read_metadata
from stonk_envs.policies.games import make_game
from stonk_envs.training.exploit_target import resolve_target

ROOT = Path(__file__).resolve().parents[2]
INDEX = champions.read_index()
GAME = "stockpile"
WITHOUT = [game for game in registry.names() if game not in INDEX]


def test_stockpile_has_a_champion_for_four_players():
    assert champions.games()[:1] == [GAME] and INDEX[GAME]["num_players"] == [4]


@pytest.mark.parametrize("game", sorted(INDEX))
def test_each_packaged_file_is_the_policy_its_index_names(game):
    entry = INDEX[game]
    path = champions.FOLDER / entry["file"]
    assert champions.file_sha256(path) == entry["sha256"]
    meta = read_metadata(path)
    assert (meta["game"], [meta["num_players"]]) == (game, entry["num_players"])
    assert entry["command"].startswith(f"stonk-envs train --config {entry['config']} seed={entry['seed']}")


@pytest.mark.parametrize("game", sorted(INDEX))
def test_a_result_file_in_the_checkout_measured_the_packaged_policy(game):
    entry = INDEX[game]
    path = ROOT / entry["result"]["file"]
    seeds = json.loads(path.read_text())["seeds"] if path.is_file() else {}
    if entry["result"]["seed"] not in seeds:
        assert entry["measured"] is None, f"{game}: the index holds figures that {path} does not"
        pytest.skip(f"{path} does not hold seed {entry['result']['seed']} in this checkout")
    result = json.loads(path.read_text())
    figures = seeds[entry["result"]["seed"]]
    assert figures["policy_sha256"] == entry["sha256"], f"{path} measured another policy than the packaged {game}"
    assert entry["measured"] == {key: result[key] for key in ("command", "commit", "date", "machine")} | {
        "figures": figures}


def test_the_index_check_names_a_file_that_is_not_its_policy(tmp_path, monkeypatch):
    folder = tmp_path / "champions"
    shutil.copytree(champions.FOLDER, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    (folder / INDEX[GAME]["file"]).write_bytes(b"not the policy")
    monkeypatch.setattr(champions, "FOLDER", folder)
    with pytest.raises(ValueError, match=r"is not the policy its index names \(SHA-256 differs\)"):
        make_player("champion", GAME, 4)


def test_make_player_gives_the_champion_that_plays_legal_moves():
    policy = make_player("champion", game=GAME, num_players=4)
    assert policy.name == "champion"
    game = make_game(GAME, 4)
    states = np.zeros(1, dtype=game.state_dtype)
    game.reset(states, 0, 0)
    acting = np.zeros(4, np.bool_)
    game.actors(states, 0, acting)
    seat = int(np.flatnonzero(acting)[0])
    obs = np.zeros((1, game.observation_bounds[0].shape[0]), np.float32)
    mask = np.zeros((1, game.num_actions), np.int8)
    game.observe(states, 0, seat, obs[0])
    game.legal_mask(states, 0, seat, mask[0])
    (action,) = policy.act(obs, mask, np.random.default_rng(0))
    assert mask[0, action] == 1


def test_another_player_count_is_refused_with_the_one_it_plays():
    with pytest.raises(ValueError, match=r"^the stockpile champion plays 4 players \(its policy's seat layout\), "
                                         r"not 3$"):
        make_player("champion", GAME, 3)


@pytest.mark.skipif(not WITHOUT, reason="every game has a champion")
def test_a_game_without_one_is_refused_naming_the_games_with_one():
    with pytest.raises(ValueError, match=rf"^{WITHOUT[0]} has no champion; the games with one: "
                                         rf"{', '.join(sorted(INDEX))}$"):
        make_player("champion", WITHOUT[0], 4)


def test_evaluate_plays_the_champion(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["evaluate", "--game", GAME, "--players", "champion", "random", "random", "random", "--games", "8",
                 "--no-plot", "--no-progress", "--out", str(out)]) == 0
    report = json.loads((out / "report.json").read_text())
    assert [(p["name"], p["games"]) for p in report["players"]] == [("champion", 8), ("random#1", 8),
                                                                    ("random#2", 8), ("random#3", 8)]


@pytest.mark.skipif(not WITHOUT, reason="every game has a champion")
def test_evaluate_names_the_games_with_one(tmp_path, capsys):
    assert main(["evaluate", "--game", WITHOUT[0], "--players", "champion", "random", "random", "random",
                 "--games", "4", "--no-plot", "--no-progress", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"stonk-envs evaluate: error: {WITHOUT[0]} has no champion; the games with "
                                       f"one: {', '.join(sorted(INDEX))}\n")


def test_play_seats_the_champion_in_every_other_seat():
    from stonk_envs.play.session import build_seats

    seats = build_seats(GAME, 1, ["champion"], None)
    assert [seat.name for seat in seats] == ["champion", "human", "champion", "champion"]
    assert seats[0].policy is seats[2].policy and seats[0].policy.name == "champion"


def test_exploit_targets_the_champions_file_under_its_name():
    target = resolve_target("champion", GAME)
    assert (target.spec, target.label, target.game, target.num_players) == (
        str(champions.FOLDER / INDEX[GAME]["file"]), "champion", GAME, 4)


@pytest.mark.parametrize(("args", "message"), [
    (["--policy", "champion"], f"--policy champion needs --game: the games with one: {', '.join(sorted(INDEX))}"),
    (["--policy", "champion", "--game", GAME, "--num-players", "5"],
     "the stockpile champion plays 4 players (its policy's seat layout), not 5"),
])
def test_exploit_refuses_a_champion_without_its_game_or_count(args, message, tmp_path, capsys):
    assert main(["exploit", *args, "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err == f"stonk-envs exploit: error: {message}\n"


def test_liveliness_reads_the_champions_game_and_count(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["liveliness", "--player", "champion", "--game", GAME, "--games", "4", "--out", str(out)]) == 0
    report = json.loads((out / "liveliness.json").read_text())
    assert (report["game"], report["num_players"], report["player"]["player"], report["player"]["games"]) == (
        GAME, 4, "champion", 4)


def test_liveliness_needs_a_game_for_the_champion(tmp_path, capsys):
    assert main(["liveliness", "--player", "champion", "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err == ("stonk-envs liveliness: error: champion needs a game (--game): the games "
                                       f"with one: {', '.join(sorted(INDEX))}\n")
