"""``stonk-envs --help`` and ``stonk-envs <cmd> --help`` for every registered subcommand."""

import pytest

import stonk_envs
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


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"stonk-envs {stonk_envs.__version__}\n"


def _help(name: str, capsys) -> str:
    with pytest.raises(SystemExit):
        cli.main([name, "--help"])
    return capsys.readouterr().out


@pytest.mark.parametrize("name", list(cli.SUBCOMMANDS))
def test_help_is_plain_text(name, capsys):
    assert "`" not in _help(name, capsys)


def test_plain_drops_code_marks_and_roles():
    text = "see ``x=1``, :class:`~stonk_envs.policies.torch_policy.MaskedMLP` and :func:`stonk_envs.make`"
    assert cli.plain(text) == "see x=1, MaskedMLP and stonk_envs.make"


@pytest.mark.parametrize("name", list(cli.SUBCOMMANDS))
def test_game_and_overrides_read_the_same_in_every_subcommand(name, capsys):
    """``--game`` shows its default wherever it is; overrides are ``KEY=VALUE`` wherever they are taken."""
    parser = cli.build_parser()
    command = next(action for action in parser._actions if action.dest == "command").choices[name]
    for action in command._actions:
        if "--game" in action.option_strings:
            assert "(default: " in action.help and not action.required, f"{name} --game hides its default"
        if action.dest in ("overrides", "env") or action.metavar in ("key=value", "KEY=VALUE"):
            assert action.metavar == "KEY=VALUE", f"{name} {action.dest}: metavar {action.metavar}"


def test_torchrun_launcher_takes_configs_and_overrides_like_train(capsys):
    pytest.importorskip("torch")
    from stonk_envs.training import distributed

    with pytest.raises(SystemExit) as stop:
        distributed.main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "[KEY=VALUE ...]" in out and "shipped config's name" in out and "`" not in out
