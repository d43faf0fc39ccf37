"""Property-based fuzzing of path arguments, CLI paths and file loaders (Hypothesis, bounded).

A path is accepted as what its argument asks for, or refused with a usage error; a file loads
or is refused with ``ValueError`` naming it; nothing is created by a refusal, and no file's
code ever runs.
"""

import argparse
import io
import json
import os
import pickle
import shlex
import zipfile

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stonk_envs import cli, cli_args
from stonk_envs.policies.checkpoint import METADATA_MEMBER, load_policy, make_metadata
from stonk_envs.records import GameRecord, RecordError
from stonk_envs.training import run_state

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                HealthCheck.function_scoped_fixture], database=None)


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    """A folder holding a file, a folder, a named pipe and a file's would-be child."""
    root = tmp_path_factory.mktemp("paths")
    (root / "file.json").write_text("{}")
    (root / "folder").mkdir()
    os.mkfifo(root / "pipe")
    return root


def listing(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


path_texts = st.one_of(
    st.sampled_from(["", ".", "file.json", "folder", "pipe", "absent", "file.json/child", "folder/new/deep",
                     "x" * 256, "a/" * 2100, "\x00", "ü" * 130, "-", "~"]),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=20),
)
TYPES = {
    "input_file": (cli_args.input_file, lambda p: p.is_file()),
    "input_dir": (cli_args.input_dir, lambda p: p.is_dir()),
    "output_dir": (cli_args.output_dir, lambda p: not p.exists() or p.is_dir()),
    "output_file": (cli_args.output_file, lambda p: not p.exists() or p.is_file()),
    "config": (cli_args.config, lambda p: not os.path.lexists(p) or p.is_file()),
    "player": (cli_args.player, lambda p: True),
}


@FUZZ
@given(kind=st.sampled_from(sorted(TYPES)), text=path_texts)
def test_every_path_type_accepts_what_it_asks_for_or_refuses_cleanly(place, monkeypatch, kind, text):
    monkeypatch.chdir(place)
    parse, holds = TYPES[kind]
    before = listing(place)
    try:
        value = parse(text)
    except argparse.ArgumentTypeError as error:
        assert str(error) and "\n" not in str(error)
    else:
        from pathlib import Path

        assert text != "" and holds(Path(value)), (kind, text)
    assert listing(place) == before


@FUZZ
@given(argv=st.sampled_from([["replay", "{}"], ["train", "--resume", "{}"], ["crossplay", "{}"],
                             ["train", "--config", "{}", "total_timesteps=-1"], ["convert", "{}", "out.pt"],
                             # a path that passes is followed by a value refused after it: no work is done
                             ["evaluate", "--out", "{}", "--games", "0"],
                             ["evaluate", "--players", "{}", "--games", "0"],
                             ["bench", "--out", "{}", "--repeats", "0"], ["play", "--record", "{}", "--seat", "-1"],
                             ["replay", "{}", "--fps", "0"], ["train-rllib", "--config", "{}", "iterations=0"],
                             ["exploit", "--policy", "{}", "--timesteps", "0"], ["crossplay", "{}", "--games", "0"],
                             ["configs", "--copy", "{}", "no_such_config"]]),
       text=path_texts)
def test_cli_paths_refuse_bad_paths_in_one_line_and_create_nothing(place, monkeypatch, capsys, argv, text):
    monkeypatch.chdir(place)
    before = listing(place)
    try:
        status = cli.main([part.replace("{}", text) for part in argv])
    except SystemExit as stop:
        status = stop.code
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err and "error:" in err, err
    assert listing(place) == before


yaml_texts = st.one_of(
    st.text(max_size=120),
    st.builds(json.dumps, st.dictionaries(
        st.sampled_from(["game", "seed", "ppo", "env_config", "run_dir", "eval", "hidden", "iterations", "x"]),
        st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=5)),
                     lambda inner: st.one_of(st.lists(inner, max_size=2), st.dictionaries(st.text(max_size=5), inner,
                                                                                           max_size=2)),
                     max_leaves=4), max_size=3)),
    st.sampled_from(["42", "- 1", "", "a: [1", "game: !!python/object/apply:os.system ['true']", "ppo: 3",
                     "&a [*a, *a]", "a: &a [1]\nb: *a", "\x00", "game: chess", "env_config: [1]", "? [1]\n: 2"]),
)


@FUZZ
@given(text=yaml_texts, loader=st.sampled_from(["train", "rllib"]))
def test_a_config_file_loads_or_is_refused_in_one_line(tmp_path_factory, text, loader):
    from stonk_envs.integrations.rllib_config import load_rllib_config
    from stonk_envs.training.config import load_config

    path = tmp_path_factory.mktemp("config") / "config.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        (load_config if loader == "train" else load_rllib_config)(path)
    except ValueError as error:
        assert str(error).strip() and "\n" not in str(error).strip(), error


class Payload:
    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return os.system, (f"touch {shlex.quote(self.marker)}",)


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(), st.text(max_size=10)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=8,
)
METADATA = make_metadata("stocks_and_bombs", 4, 163, 149, {"memory": False}, "sb3")


@FUZZ
@given(changes=st.dictionaries(st.sampled_from([*METADATA, "algorithm", "architecture"]), json_values, max_size=3),
       data=st.one_of(st.none(), json_values, st.binary(max_size=50)), pth=st.sampled_from(["none", "bytes",
                                                                                              "payload", "dict"]))
def test_an_sb3_like_zip_loads_or_names_the_problem_and_never_runs_code(tmp_path_factory, changes, data, pth):
    folder = tmp_path_factory.mktemp("zip")
    marker = folder / "code_ran"
    path = folder / "policy.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(METADATA_MEMBER, json.dumps({**METADATA, "algorithm": "MaskablePPO", **changes}))
        if data is not None:
            archive.writestr("data", data if isinstance(data, bytes) else json.dumps(data))
        if pth != "none":
            buffer = io.BytesIO()
            content = {"payload": Payload(marker), "dict": {"w": torch.zeros(2)}, "bytes": b"\x00"}[pth]
            if pth == "payload":
                buffer.write(pickle.dumps(content))
            else:
                torch.save(content, buffer)
            archive.writestr("policy.pth", buffer.getvalue())
    with pytest.raises((ValueError, TypeError)) as error:
        load_policy(path)
    assert str(error.value).strip(), error.value
    assert not marker.exists()


@FUZZ
@given(content=st.one_of(st.binary(max_size=200), json_values.map(lambda v: json.dumps(v).encode())))
def test_a_record_loads_or_is_refused_with_a_record_error(tmp_path_factory, content):
    path = tmp_path_factory.mktemp("record") / "game.json"
    path.write_bytes(content)
    with pytest.raises(RecordError):
        GameRecord.load(path)


@FUZZ
@given(content=st.one_of(st.binary(max_size=200), st.sampled_from(["payload", "tensor", "numpy"])))
def test_a_state_file_loads_only_tensors_arrays_and_plain_values(tmp_path_factory, content):
    import numpy as np

    folder = tmp_path_factory.mktemp("state")
    marker, path = folder / "code_ran", folder / "state.pt"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        value = {"payload": Payload(marker), "tensor": torch.ones(3), "numpy": np.arange(3)}[content]
        torch.save({"step": 1, "value": value}, path)
    try:
        state = run_state.load_state(path)
    except ValueError as error:
        assert str(path) in str(error)
    else:
        assert content in ("tensor", "numpy") and state["step"] == 1
    assert not marker.exists()
