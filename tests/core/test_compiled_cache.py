"""The compiled-code cache folder follows the package's sources, and a user's choice stands."""

import os

import numba
import pytest

from stonk_envs import compiled_cache


def write_package(root, body):
    """``root`` as a package: ``kernel`` uses numba and imports ``sub.b`` (``body``); ``tool`` is plain Python."""
    (root / "sub").mkdir(parents=True, exist_ok=True)
    (root / "kernel.py").write_text(f"from numba import njit\n\nfrom {root.name}.sub import (\n    b,\n)\n")
    (root / "sub" / "__init__.py").write_text("")
    (root / "sub" / "b.py").write_text(body)
    (root / "tool.py").write_text(f"import {root.name}.kernel\n")


def test_the_compiled_sources_are_numba_users_and_what_they_import(tmp_path):
    write_package(tmp_path, "x = 1\n")
    found = [path.relative_to(tmp_path).as_posix() for path in compiled_cache.compiled_sources(tmp_path)]
    assert found == ["kernel.py", "sub/__init__.py", "sub/b.py"]


def test_the_digest_changes_with_a_compiled_source_only(tmp_path):
    write_package(tmp_path, "def f():\n    return 1\n")
    first = compiled_cache.source_digest(tmp_path)
    assert compiled_cache.source_digest(tmp_path) == first and len(first) == 16
    (tmp_path / "sub" / "b.py").write_text("def f():\n    return 2\n")  # an edit in a callee's file
    assert compiled_cache.source_digest(tmp_path) != first
    (tmp_path / "sub" / "b.py").write_text("def f():\n    return 1\n")
    assert compiled_cache.source_digest(tmp_path) == first
    (tmp_path / "c.txt").write_text("not source")  # only .py files count
    (tmp_path / "tool.py").write_text("print('edited')\n")  # nor code the compiled code does not import
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
