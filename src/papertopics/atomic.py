"""Writes that leave the old file or the new one, never half of one (kill, full disk).

Each file is written to a temporary name in its own folder and renamed into place; the
temporary file is removed when the write fails.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path


@contextlib.contextmanager
def _replacing(path: Path):
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")  # plain open(): the umask's mode
    try:
        yield Path(tmp)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def write_text(path: str | Path, text: str) -> Path:
    """Write text (UTF-8) to path through a temporary file in the same folder."""
    with _replacing(Path(path)) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)


def copy_file(source: str | Path, target: str | Path) -> Path:
    """Copy source to target through a temporary file in target's folder."""
    with _replacing(Path(target)) as tmp:
        shutil.copyfile(source, tmp)
    return Path(target)
