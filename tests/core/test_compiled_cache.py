"""The compiled-code cache folder follows the package's sources, and a user's choice stands."""

import os

import numba
import pytest

from stonk_envs import compiled_cache


def write_package(root, body):
    (root / "sub").mkdir(parents=True, exist_ok=True)
    (root / "a.py").write_text("x = 1\n")
    (root / "sub" / "b.py").write_text(body)


def test_the_digest_changes_with_any_source_file(tmp_path):
    write_package(tmp_path, "def f():\n    return 1\n")
    first = compiled_cache.source_digest(tmp_path)
    assert compiled_cache.source_digest(tmp_path) == first and len(first) == 16
    (tmp_path / "sub" / "b.py").write_text("def f():\n    return 2\n")  # an edit in a callee's file
    assert compiled_cache.source_digest(tmp_path) != first
    (tmp_path / "sub" / "b.py").write_text("def f():\n    return 1\n")
    assert compiled_cache.source_digest(tmp_path) == first
    (tmp_path / "c.txt").write_text("not source")  # only .py files count
    assert compiled_cache.source_digest(tmp_path) == first


def test_the_cache_moves_to_a_new_folder_and_old_ones_go(tmp_path, monkeypatch):
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    write_package(tmp_path, "y = 1\n")
    old = compiled_cache.use_source_keyed_cache(tmp_path)
    assert old == tmp_path / "__pycache__" / f"numba-{compiled_cache.source_digest(tmp_path)}"
    assert str(old) == numba.config.CACHE_DIR
    old.mkdir(parents=True)
    (old / "f.nbi").write_text("index")
    other = tmp_path / "__pycache__" / "unrelated.pyc"
    other.write_text("kept")
    write_package(tmp_path, "y = 2\n")
    monkeypatch.setattr(numba.config, "CACHE_DIR", "")
    new = compiled_cache.use_source_keyed_cache(tmp_path)
    assert new != old and str(new) == numba.config.CACHE_DIR
    assert not old.exists() and other.read_text() == "kept"


def test_a_cache_folder_chosen_by_the_user_is_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "mine"))
    write_package(tmp_path, "y = 1\n")
    assert compiled_cache.use_source_keyed_cache(tmp_path) is None
    assert str(tmp_path / "mine") == numba.config.CACHE_DIR


def test_importing_the_package_keys_the_cache_by_its_sources():
    if os.environ.get("NUMBA_CACHE_DIR"):
        pytest.skip("NUMBA_CACHE_DIR is set: the user's folder is kept")
    root = compiled_cache.PACKAGE_ROOT
    assert str(root / "__pycache__" / f"numba-{compiled_cache.source_digest(root)}") == numba.config.CACHE_DIR
