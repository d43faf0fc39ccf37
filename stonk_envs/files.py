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
    while not os.path.lexists(path) and path != path.parent:
        path = path.parent
    return path


NAME_MAX = 255
"""The longest file name (bytes) Linux file systems take."""
PATH_MAX = 4096
"""The longest path (bytes) the system takes."""


def check_path_text(path: str | os.PathLike | None, option: str) -> Path:
    """``path`` as a ``Path``; ``ValueError`` naming ``option`` when it is None, empty, holds a NUL or is too long.

    An empty string is never taken for the current folder, nor None for a default.
    """
    if path is None or not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"{option} must be a path, got {path!r}")
    text = os.fspath(path)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if text == "":
        raise ValueError(f"{option} must not be empty")
    if "\0" in text:
        raise ValueError(f"{option} {text!r} holds a NUL character")
    for part in Path(text).parts:
        if len(os.fsencode(part)) > NAME_MAX:
            raise ValueError(f"{option}: the name {part[:40]!r}... is {len(os.fsencode(part)):,} bytes long; "
                             f"file names are at most {NAME_MAX}")
    if len(os.fsencode(os.path.abspath(text))) >= PATH_MAX:
        raise ValueError(f"{option} is too long: {len(os.fsencode(os.path.abspath(text))):,} bytes (at most "
                         f"{PATH_MAX - 1})")
    return Path(text)


def check_input_file(path: str | os.PathLike | None, option: str) -> Path:
    """``path`` as an existing regular file (not a folder, pipe or device); ``ValueError`` naming ``option``."""
    from stonk_envs.safe_load import check_regular_file

    path = check_path_text(path, option)
    check_regular_file(path, option)
    return path


def check_input_dir(path: str | os.PathLike | None, option: str) -> Path:
    """``path`` as an existing folder; ``ValueError`` naming ``option`` if not."""
    path = check_path_text(path, option)
    try:
        is_dir = path.is_dir()
    except OSError as err:
        raise ValueError(f"{option} {str(path)!r} cannot be read: {err.strerror}") from None
    if not is_dir:
        what = "is a file" if path.exists() else "does not exist"
        raise ValueError(f"{option} {str(path)!r} {what}, not a folder")
    return path


def check_output_dir(path: str | os.PathLike, option: str) -> Path:
    """``path`` as a folder that can be created or written; ``ValueError`` naming ``option`` if not."""
    path = check_path_text(path, option)
    existing = _first_existing(path.absolute())
    if not existing.is_dir():
        what = "is" if existing == path.absolute() else f"is inside {str(existing)!r}, which is"
        raise ValueError(f"{option} {str(path)!r} {what} an existing file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ValueError(f"{option} {str(path)!r} cannot be written: no write permission in {str(existing)!r}")
    return path


def check_output_file(path: str | os.PathLike, option: str) -> Path:
    """``path`` as a file that can be created or replaced; ``ValueError`` naming ``option`` if not."""
    path = check_path_text(path, option)
    if path.is_dir():
        raise ValueError(f"{option} {str(path)!r} is a folder, not a file")
    if path.exists() and not path.is_file():
        raise ValueError(f"{option} {str(path)!r} is not a regular file (a pipe, socket or device)")
    check_output_dir(path.absolute().parent, f"the folder of {option}")
    return path
