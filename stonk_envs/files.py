"""Writing files safely: atomic replacement with the user's umask, and output paths checked up front.

Every file the package writes (policies, checkpoints, run state, reports) goes through
:func:`atomic_write`: a temporary file in the target's folder, given the mode a plain
``open(path, "w")`` would give (0666 less the umask, not ``mkstemp``'s 0600), then moved into
place with ``os.replace``, so a reader never sees half a file and a shared folder stays
readable by whoever the umask allows.

:func:`check_output_dir` and :func:`check_output_file` are called before a job starts, so a
bad ``--out`` or ``run_dir`` fails at once instead of after the work.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def current_umask() -> int:
    """The process's umask (read by setting it and putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write(path: str | os.PathLike, write: Callable[[Path], None]) -> Path:
    """Call ``write(temporary_path)``, then move the temporary file to ``path``; returns ``path``.

    The file gets mode ``0o666 & ~umask``. On any error the temporary file is removed and
    ``path`` is left as it was.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~current_umask())
        os.close(fd)
        write(Path(temporary))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def atomic_write_bytes(path: str | os.PathLike, write: Callable[[BinaryIO], None]) -> Path:
    """:func:`atomic_write` with ``write`` called on the open binary file."""

    def to_file(temporary: Path) -> None:
        with open(temporary, "wb") as handle:
            write(handle)

    return atomic_write(path, to_file)


def atomic_write_text(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    return atomic_write_bytes(path, lambda handle: handle.write(text.encode()))


def _first_existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def check_output_dir(path: str | os.PathLike, option: str) -> Path:
    """``path`` as a folder that can be created or written; ``ValueError`` naming ``option`` if not."""
    path = Path(path)
    if str(path) == "":
        raise ValueError(f"{option} must not be empty")
    existing = _first_existing(path.absolute())
    if not existing.is_dir():
        what = "is" if existing == path.absolute() else f"is inside {str(existing)!r}, which is"
        raise ValueError(f"{option} {str(path)!r} {what} an existing file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ValueError(f"{option} {str(path)!r} cannot be written: no write permission in {str(existing)!r}")
    return path


def check_output_file(path: str | os.PathLike, option: str) -> Path:
    """``path`` as a file that can be created or replaced; ``ValueError`` naming ``option`` if not."""
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"{option} {str(path)!r} is a folder, not a file")
    check_output_dir(path.parent, f"the folder of {option}")
    return path
