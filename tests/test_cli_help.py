"""``stonk-envs --help`` and ``stonk-envs <cmd> --help`` for every registered subcommand."""

import pytest

from stonk_envs import cli


def test_top_level_help_lists_every_subcommand(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    for name in cli.SUBCOMMANDS:
        assert name in out


@pytest.mark.parametrize("name", list(cli.SUBCOMMANDS))
def test_subcommand_help(name, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main([name, "--help"])
    assert stop.value.code == 0
    assert f"stonk-envs {name}" in capsys.readouterr().out
