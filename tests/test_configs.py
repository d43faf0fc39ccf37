"""Shipped configs are package data, found by name from any install; ``stonk-envs configs`` lists and copies them."""

import os
from pathlib import Path

import pytest

from stonk_envs import cli, configs
from stonk_envs.training.config import load_config

GAMES = ["stockpile", "stocks_and_bombs", "stonk_market"]


def test_every_game_ships_a_config_for_each_trainer():
    assert configs.names() == sorted([*GAMES, *(f"rllib_{game}" for game in GAMES)])
    assert [configs.command_of(name) for name in ("stockpile", "rllib_stockpile")] == ["train", "train-rllib"]


def test_a_name_a_name_with_suffix_and_a_path_find_the_same_file(tmp_path, monkeypatch):
    shipped = configs.shipped_file("stonk_market")
    assert shipped.is_file() and shipped.parent.name == "configs"
    assert configs.config_file("stonk_market") == configs.config_file("stonk_market.yaml") == shipped
    own = tmp_path / "stonk_market"  # a file in the working folder beats the shipped name
    own.write_text("game: stonk_market\n")
    monkeypatch.chdir(tmp_path)
    assert configs.config_file("stonk_market").resolve() == own
    assert load_config(str(own), ["total_timesteps=1"]).total_timesteps == 1


@pytest.mark.parametrize("spec", ["chess", "my_configs/stocks_and_bombs.yaml", "stocks_and_bombs.yml"])
def test_neither_a_file_nor_a_name_is_named_with_the_shipped_ones(spec):
    with pytest.raises(ValueError, match=rf"config file '{spec}' does not exist, and no shipped config has that name "
                       r"\(shipped: rllib_stockpile, .*stonk_market\)"):
        configs.config_file(spec)


def test_the_command_lists_every_config_with_its_command(capsys):
    assert cli.main(["configs"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == configs.names()
    line = lines[configs.names().index("stocks_and_bombs")]
    assert "stonk-envs train: Self-play on Stocks & Bombs at 4 players" in line


def test_the_command_prints_the_named_configs(capsys):
    assert cli.main(["configs", "stockpile"]) == 0
    assert capsys.readouterr().out == configs.shipped_file("stockpile").read_text()


def test_the_command_copies_and_never_overwrites(tmp_path, capsys):
    assert cli.main(["configs", "--copy", str(tmp_path / "mine"), "stockpile", "rllib_stockpile"]) == 0
    copied = sorted(path.name for path in (tmp_path / "mine").iterdir())
    assert copied == ["rllib_stockpile.yaml", "stockpile.yaml"]
    assert (tmp_path / "mine" / "stockpile.yaml").read_text() == configs.shipped_file("stockpile").read_text()
    capsys.readouterr()
    assert cli.main(["configs", "--copy", str(tmp_path / "mine")]) == 2  # stockpile.yaml is there: nothing copied
    assert "error: --copy: would overwrite" in capsys.readouterr().err
    assert sorted(path.name for path in (tmp_path / "mine").iterdir()) == copied


def test_the_command_names_an_unknown_config(capsys):
    assert cli.main(["configs", "chess"]) == 2
    assert capsys.readouterr().err.startswith("stonk-envs configs: error: no shipped config named 'chess'")


def test_the_checkouts_configs_folder_links_each_shipped_config():
    """``configs/`` at the top of a checkout holds one link per shipped config, to the packaged file: one copy."""
    folder = Path(__file__).resolve().parents[1] / "configs"
    links = sorted(folder.iterdir())
    assert [link.name for link in links] == [f"{name}.yaml" for name in configs.names()]
    for link in links:
        assert link.is_symlink() and link.resolve() == configs.shipped_file(link.stem).resolve()
        assert os.readlink(link) == f"../stonk_envs/configs/{link.name}"  # relative: the checkout may move
