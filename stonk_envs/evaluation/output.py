"""Checking an output folder before the work that fills it."""

from __future__ import annotations

import os
from pathlib import Path


def prepare_folder(path: str | Path) -> Path:
    """Create ``path`` if needed and make sure files can be written there; ``ValueError`` if not."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(f"output folder {str(path)!r} is a file")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot create output folder {str(path)!r}: {error.strerror}") from None
    if not os.access(path, os.W_OK):
        raise ValueError(f"output folder {str(path)!r} is not writable")
    return path
