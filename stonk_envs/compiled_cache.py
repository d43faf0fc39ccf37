"""Where numba caches the package's compiled code: one folder per version of its sources.

Numba checks a cached function against its own source file only. When a function it calls,
in another file, is edited (a game's ``observe`` under the engine's kernels, say), the stale
machine code would stay in use. Keying the cache folder by a digest of every source file of
the package makes any edit start a fresh cache; folders of older versions are removed.

A cache folder chosen by the user (``NUMBA_CACHE_DIR``) is left alone.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import numba

PACKAGE_ROOT = Path(__file__).resolve().parent
CACHE_PREFIX = "numba-"


def source_digest(root: Path) -> str:
    """A short digest of the names and contents of the ``.py`` files under ``root``."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
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
