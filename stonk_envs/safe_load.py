"""Reading files without running their code, and within sizes that cannot exhaust memory.

Every file the package reads goes through here or through a loader built on it:

- :func:`read_file` reads a regular file (never a folder, pipe or device) up to a size limit;
- :func:`parse_json` refuses JSON nested deeper than :data:`MAX_JSON_DEPTH` before parsing it;
- :func:`check_archive` and :func:`read_member` refuse zip bombs and oversized members by
  their declared sizes, and stop reading at the limit whatever the header says;
- :func:`load_tensors` is ``torch.load(weights_only=True)`` with NumPy arrays allow-listed
  (the run state holds RNG states and game records as arrays).

A format that can only be read by unpickling it (an RLlib checkpoint, an SB3 zip with custom
objects) is refused with :class:`UntrustedFileError` unless the caller trusts the file:
``trust=True`` in Python, ``--trust-file`` on the command line (which sets
:data:`TRUST_ENV` to ``1`` so that evaluation workers see it too).
"""

from __future__ import annotations

import io
import json
import os
import re
import stat
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

MAX_JSON_BYTES = 16 * 2**20
"""The largest JSON document read (metadata, records, pointers): 16 MiB."""
MAX_JSON_DEPTH = 100
"""The deepest nesting of lists and objects a JSON document may have."""
MAX_TENSOR_FILE_BYTES = 4 * 2**30
"""The largest torch file, or zip member holding tensors, read: 4 GiB."""
MAX_ARCHIVE_MEMBERS = 10_000
MAX_COMPRESSION_RATIO = 200
"""A compressed member that would grow more than this many times is taken for a zip bomb."""
TRUST_ENV = "STONK_ENVS_TRUST_FILES"
"""Set to ``1`` (by ``--trust-file``) to trust every file this process and its workers load."""
TRUST_HINT = (
    "it can only be read by unpickling it, which runs any code the file holds; if you trust "
    "whoever made it, pass --trust-file (trust=True in Python), or convert it once with "
    "`stonk-envs convert --trust-file`"
)


class UntrustedFileError(ValueError):
    """A file that can only be read by running code it may hold, and the caller did not trust it."""


def trusted(trust: bool) -> bool:
    """``trust``, or True when :data:`TRUST_ENV` is ``1``."""
    return bool(trust) or os.environ.get(TRUST_ENV) == "1"


def _size_text(size: int) -> str:
    return f"{size:,} bytes" if size < 2**20 else f"{size / 2**20:,.0f} MiB"


def check_regular_file(path: Path, what: str = "file") -> os.stat_result:
    """``os.stat`` of ``path``; ``ValueError`` unless it is an existing regular file."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise ValueError(f"{what} {str(path)!r} does not exist") from None
    except OSError as err:
        raise ValueError(f"{what} {str(path)!r} cannot be read: {err.strerror}") from None
    if stat.S_ISDIR(info.st_mode):
        raise ValueError(f"{what} {str(path)!r} is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"{what} {str(path)!r} is not a regular file (a pipe, socket or device)")
    return info


def read_file(path: str | os.PathLike, limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file ``path``; ``ValueError`` if it is not one or is over ``limit`` bytes."""
    path = Path(path)
    size = check_regular_file(path, what).st_size
    if size > limit:
        raise ValueError(f"{what} {str(path)!r} is {_size_text(size)}, over the limit of {_size_text(limit)}")
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as err:
        raise ValueError(f"{what} {str(path)!r} cannot be read: {err.strerror}") from None
    if len(data) > limit:
        raise ValueError(f"{what} {str(path)!r} grew over the limit of {_size_text(limit)} while being read")
    return data


def json_depth_problem(text: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> str | None:
    """Why ``text`` nests deeper than ``max_depth`` (None if it does not); brackets in strings are skipped."""
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogatepass")
    depth, in_string, escaped = 0, False, False
    for byte in text:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > max_depth:
                return f"nested more than {max_depth} levels deep"
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return None


def parse_json(text: str | bytes, what: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads(text)``; ``ValueError`` naming ``what`` for invalid, too deep or non-UTF-8 text."""
    if problem := json_depth_problem(text, max_depth):
        raise ValueError(f"{what}: refused: its JSON is {problem}")
    try:
        return json.loads(text)
    except UnicodeDecodeError as err:
        raise ValueError(f"{what}: not UTF-8 text (byte {err.start} is invalid)") from None
    except json.JSONDecodeError as err:
        raise ValueError(f"{what}: invalid JSON at line {err.lineno} column {err.colno} ({err.msg})") from None
    except (ValueError, RecursionError) as err:
        raise ValueError(f"{what}: unreadable JSON ({err})") from None


def read_json(path: str | os.PathLike, what: str = "JSON file", limit: int = MAX_JSON_BYTES) -> Any:
    """The JSON document in the regular file ``path``, read within ``limit`` bytes and :data:`MAX_JSON_DEPTH`."""
    return parse_json(read_file(path, limit, what), f"{what} {str(path)!r}")


def check_archive(archive: zipfile.ZipFile, source: str, limit: int = MAX_TENSOR_FILE_BYTES) -> None:
    """``ValueError`` for a zip with too many members, too much content or a zip bomb's compression."""
    members = archive.infolist()
    if len(members) > MAX_ARCHIVE_MEMBERS:
        raise ValueError(f"{source}: refused: {len(members):,} zip members (at most {MAX_ARCHIVE_MEMBERS:,})")
    total = sum(member.file_size for member in members)
    if total > limit:
        raise ValueError(f"{source}: refused: it unpacks to {_size_text(total)}, over the limit of {_size_text(limit)}")
    for member in members:
        if member.compress_type != zipfile.ZIP_STORED and member.file_size > max(
            2**20, MAX_COMPRESSION_RATIO * member.compress_size
        ):
            raise ValueError(
                f"{source}: refused: zip member {member.filename!r} would grow from "
                f"{_size_text(member.compress_size)} to {_size_text(member.file_size)} (a zip bomb?)"
            )


def read_member(archive: zipfile.ZipFile, name: str, limit: int, source: str) -> bytes:
    """The zip member ``name``, refused above ``limit`` bytes by its header and while it is read."""
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise ValueError(f"{source}: has no {name!r} member") from None
    if info.file_size > limit:
        raise ValueError(
            f"{source}: refused: member {name!r} is {_size_text(info.file_size)}, over the limit of {_size_text(limit)}"
        )
    try:
        with archive.open(info) as handle:
            data = handle.read(limit + 1)
    except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError) as err:
        raise ValueError(f"{source}: damaged member {name!r}: {err}") from None
    if len(data) > limit:
        raise ValueError(f"{source}: refused: member {name!r} unpacks to over {_size_text(limit)}")
    return data


def _small_bytes(*args: Any) -> bytes:
    """``bytes(*args)`` as a pickle may call it (an empty ``bytes()`` in protocol 2), refused for a size."""
    if args and not isinstance(args[0], (bytes, bytearray, str)):
        raise ValueError("a pickled bytes() call with a size or an iterable is refused")
    return bytes(*args)


NUMPY_GLOBALS = [
    (_small_bytes, "builtins.bytes"),
    np.ndarray,
    np.dtype,
    np._core.multiarray._reconstruct,
    np._core.multiarray.scalar,
    *(getattr(np.dtypes, name) for name in np.dtypes.__all__ if name != "ObjectDType"),
]
"""What a pickled NumPy array or scalar (of any dtype but ``object``) needs; none of it runs code."""


def load_tensors(
    source: str | os.PathLike | bytes, what: str, trust: bool = False, allowed: tuple[type, ...] = ()
) -> Any:
    """``torch.load(weights_only=True)`` of a file or bytes on the cpu, NumPy arrays allowed.

    :class:`UntrustedFileError` for anything else in the pickle (a class, a function: what
    could run code) unless ``trust`` (then it is unpickled); ``ValueError`` for damaged data
    and for archives over the size limits. ``allowed``: more classes to accept (plain dataclasses).
    """
    data = source if isinstance(source, bytes) else read_file(source, MAX_TENSOR_FILE_BYTES, what)
    import torch  # here: records and configs are read without importing torch

    buffer = io.BytesIO(data)
    if zipfile.is_zipfile(buffer):
        try:
            with zipfile.ZipFile(buffer) as archive:
                check_archive(archive, what)
        except zipfile.BadZipFile as err:
            raise ValueError(f"{what}: damaged archive: {err}") from None
        buffer.seek(0)
    try:
        if trusted(trust):
            return torch.load(buffer, map_location="cpu", weights_only=False)
        with torch.serialization.safe_globals([*NUMPY_GLOBALS, *allowed]):
            return torch.load(buffer, map_location="cpu", weights_only=True)
    except Exception as err:  # torch raises many kinds for a damaged or foreign file
        text = str(err).strip()
        if "Unsupported global" in text or "GLOBAL " in text or "Can only build" in text:
            found = re.search(r"GLOBAL ([\w.]+)", text)
            raise UntrustedFileError(
                f"{what}: refused: it holds objects other than tensors, arrays and plain values "
                f"({found.group(1) if found else 'pickled code'}); {TRUST_HINT}"
            ) from None
        reason = text.splitlines()[0] if text else type(err).__name__
        raise ValueError(f"{what}: damaged or not a torch file: {reason}") from None
