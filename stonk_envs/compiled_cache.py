"""Where numba caches the package's compiled code: one folder per version of the sources it is built from.

Numba checks a cached function against its own source file only. When a function it calls,
in another file, is edited (a game's ``observe`` under the engine's kernels, say), or a constant
it reads from another module, the stale machine code would stay in use. The cache folder is
keyed by a digest of the compiled sources: every module that uses numba and every package
module those import, directly or not. An edit there starts a fresh cache (folders of older
versions are removed); an edit elsewhere (the trainer, the command line) keeps it.

A cache folder chosen by the user (``NUMBA_CACHE_DIR``) is left alone.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import numba

PACKAGE_ROOT = Path(__file__).resolve().parent
CACHE_PREFIX = "numba-"


USES_NUMBA = re.compile(r"^[ \t]*(?:import|from)[ \t]+numba\b", re.MULTILINE)
FROM_IMPORT = re.compile(r"^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.MULTILINE)
PLAIN_IMPORT = re.compile(r"^[ \t]*import[ \t]+([\w.]+)", re.MULTILINE)


def _module_name(root: Path, path: Path) -> str:
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(text: str, modules: dict) -> set[str]:
    """The modules of ``modules`` that the source ``text`` imports (``from a import b`` may name module ``a.b``)."""
    found = set(PLAIN_IMPORT.findall(text))
    for module, names in FROM_IMPORT.findall(text):
        found.add(module)
        found.update(f"{module}.{name.split()[0]}" for name in names.strip("()").replace("\n", " ").split(",")
                     if name.strip())
    return found & modules.keys()


def compiled_sources(root: Path) -> list[Path]:
    """The ``.py`` files under ``root`` that compiled code is built from: numba users and what they import."""
    paths = {_module_name(root, path): path for path in root.rglob("*.py")}
    texts = {module: path.read_text(encoding="utf-8") for module, path in paths.items()}
    todo = [module for module, text in texts.items() if USES_NUMBA.search(text)]
    needed: set[str] = set()
    while todo:
        module = todo.pop()
        if module not in needed:
            needed.add(module)
            todo.extend(_imported(texts[module], paths))
    return sorted(paths[module] for module in needed)


def source_digest(root: Path) -> str:
    """A short digest of the names and contents of the compiled sources under ``root``."""
    digest = hashlib.sha256()
    for path in compiled_sources(root):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def use_source_keyed_cache(root: Path = PACKAGE_ROOT) -> Path | None:
    """Point numba's cache at ``root/__pycache__/numba-<digest>`` (unless the user chose one).

    Must run before any module with cached compiled functions is imported. Returns the folder,
    or None when the user's ``NUMBA_CACHE_DIR`` is kept.
    """
    if numba.config.CACHE_DIR:
        return None
    parent = root / "__pycache__"
    folder = parent / f"{CACHE_PREFIX}{source_digest(root)}"
    if parent.is_dir():
        for old in parent.glob(f"{CACHE_PREFIX}*"):
            if old != folder:
                shutil.rmtree(old, ignore_errors=True)
    numba.config.CACHE_DIR = str(folder)
    return folder
