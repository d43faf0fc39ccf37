"""stonk-envs replay: stepping through in the terminal, GIF, MP4 and HTML exports, and its errors."""

import base64
import io
import json
import re

import numpy as np
import pytest
from PIL import Image

from stonk_envs import render
from stonk_envs.cli import main
from stonk_envs.records import GameRecord
from stonk_envs.replay.timeline import choose, timeline


@pytest.fixture
def record_file(game_record, tmp_path):
    return game_record.save(tmp_path / "game.json")


def test_terminal_steps_back_and_forth_and_jumps(record_file, game_record, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\nb\n3\nnonsense\n99999\ne\n\nq\n"))
    assert main(["replay", str(record_file), "--seat", "0"]) == 0
    out = capsys.readouterr().out
    titles = re.findall(r"(the deal|step \d+/\d+)", out)
    total = len(game_record.actions)
    assert titles[:5] == ["the deal", *(f"step {k}/{total}" for k in (1, 2, 1, 3))]
    assert "unknown command 'nonsense'" in out and "no step 99999 here" in out
    assert f"step {total}/{total} - game over" in out and "that was the last step" in out
    assert "player_0 (you)" in out


def test_terminal_ends_cleanly_at_the_end_of_input(record_file, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    assert main(["replay", str(record_file)]) == 0
    assert "step 1/" in capsys.readouterr().out


def test_exports_hold_every_chosen_step(record_file, game_record, tmp_path, capsys):
    gif, html = tmp_path / "out" / "game.gif", tmp_path / "out" / "game.html"
    assert main(["replay", str(record_file), "--gif", str(gif), "--html", str(html), "--seat", "1"]) == 0
    game, moments = timeline(game_record, viewer=1)
    with Image.open(gif) as image:
        assert image.n_frames == len(moments)
        assert image.size == render.frame_size(game)
    page = html.read_text()
    steps = json.loads(re.search(r"const steps = (\[.*?\]);\n", page, re.S).group(1))
    assert len(steps) == len(moments) and steps[0]["title"] == "the deal"
    assert [s["moves"] for s in steps] == [m.moves for m in moments]
    assert "http" not in page.replace("http://www.w3.org", "")  # nothing fetched from elsewhere
    picture = Image.open(io.BytesIO(base64.b64decode(steps[-1]["image"].split(",", 1)[1]))).convert("RGB")
    expected = render.draw(game, moments[-1].states, 0, 1, moments[-1].moves, moments[-1].summary)
    assert np.abs(np.asarray(picture, np.int16) - expected).mean() < 3  # the same picture, in 128 colours
    assert "gif:" in capsys.readouterr().out


def test_a_seat_sees_others_moves_without_their_hidden_cards():
    from tests.render.conftest import play_recorded

    record = play_recorded("stockpile")
    _, everything = timeline(record)
    seat = next(p for p, a in enumerate(record.actions[0]) if a >= 0)
    _, mine = timeline(record, viewer=seat)
    _, theirs = timeline(record, viewer=(seat + 1) % 4)
    placement = everything[1].moves[0]
    assert re.fullmatch(rf"player_{seat}: put \S+ face-up on pile \d, \S+ face-down on pile \d", placement)
    assert mine[1].moves == [placement]
    assert re.fullmatch(
        rf"player_{seat}: put hand card \d face-up on pile \d, the other face-down on pile \d", theirs[1].moves[0]
    )


def test_mp4_export(record_file, game_record, tmp_path):
    imageio = pytest.importorskip("imageio.v2")
    pytest.importorskip("imageio_ffmpeg")
    path = tmp_path / "game.mp4"
    assert main(["replay", str(record_file), "--mp4", str(path), "--stride", "3"]) == 0
    _, moments = timeline(game_record)
    with imageio.get_reader(path) as reader:
        assert reader.count_frames() == len(choose(moments, 3))


def test_mp4_without_imageio_says_what_to_install(record_file, tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(__import__("sys").modules, "imageio_ffmpeg", None)
    assert main(["replay", str(record_file), "--mp4", str(tmp_path / "game.mp4")]) == 2
    assert "pip install 'stonk_envs[video]'" in capsys.readouterr().err


def test_choose_keeps_the_deal_and_the_end(game_record):
    _, moments = timeline(game_record)
    chosen = choose(moments, stride=4, skip_quiet=True)
    assert chosen[0] is moments[0] and chosen[-1] is moments[-1]
    assert all(not m.quiet for m in chosen[:-1])


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--gif", "out.png"], "--gif out.png: the file name must end in .gif"),
        (["--seat", "7"], "--seat 7: the game has seats 0..3"),
    ],
)
def test_bad_options_are_refused(record_file, extra, message, capsys):
    assert main(["replay", str(record_file), *extra]) == 2
    assert f"stonk-envs replay: error: {message}" in capsys.readouterr().err


def test_a_damaged_record_is_refused_before_anything_is_written(record_file, tmp_path, capsys):
    record_file.write_text(record_file.read_text().replace('"actions":[[', '"actions":[[1,'))
    gif = tmp_path / "game.gif"
    assert main(["replay", str(record_file), "--gif", str(gif)]) == 2
    assert "does not match its sha256 checksum" in capsys.readouterr().err
    assert not gif.exists()


def test_a_record_from_another_version_needs_any_version(game_record, tmp_path, capsys):
    path = GameRecord(**{**game_record.__dict__, "version": "0.0.1"}).save(tmp_path / "old.json")
    assert main(["replay", str(path), "--html", str(tmp_path / "old.html")]) == 2
    assert "written by stonk_envs 0.0.1" in capsys.readouterr().err
    assert main(["replay", str(path), "--html", str(tmp_path / "old.html"), "--any-version"]) == 0
