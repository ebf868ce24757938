"""The pipeline's CSV tables as a notebook reads them: text as text, numbers by contract."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from papertopics.errors import PapertopicsError
from papertopics.report.inputs import read_table as read_text_table

# per table: the columns that are numbers (the rest are text)
_INTEGERS = {
    "documents": ("topic",),
    "topics": ("topic", "model_topic", "size", "region"),
    "hierarchy": ("node", "parent", "level", "size"),
    "neighbours": ("rank",),
    "changes": ("topic", "prev_size", "new_size", "left", "joined"),
}
_FLOATS = {
    "documents": ("confidence",),
    "topics": ("cohesion", "coverage"),
    "neighbours": ("similarity",),
    "changes": ("prev_share", "new_share"),
}


class ResultsError(PapertopicsError):
    """A folder without (complete) results."""


def read_table(path: str | Path, kind: str) -> pd.DataFrame:
    """One of the pipeline's CSV tables, text as text, its number columns as numbers."""
    path = Path(path)
    try:
        table = read_text_table(path)
        ends = _last_byte(path)
    except FileNotFoundError:
        raise ResultsError(f"{path}: not found; has `papertopics run` finished in this folder?") from None
    except (OSError, ValueError) as error:  # pandas' ParserError is a ValueError
        raise ResultsError(
            f"{path}: unreadable ({first_line(error)}); rerun `papertopics run` there"
        ) from None
    if ends not in (b"", b"\n"):  # every table the pipeline writes ends with a newline
        raise ResultsError(f"{path}: cut short (its last line is incomplete); rerun `papertopics run` there")
    for column in _INTEGERS.get(kind, ()):
        if column in table.columns:
            values = pd.to_numeric(table[column].replace("", None), errors="coerce")
            table[column] = values.astype("Int64") if values.isna().any() else values.astype("int64")
    for column in _FLOATS.get(kind, ()):
        if column in table.columns:
            table[column] = pd.to_numeric(table[column].replace("", None), errors="coerce").astype(float)
    return table


def _last_byte(path: Path) -> bytes:
    with open(path, "rb") as handle:
        handle.seek(0, 2)
        if handle.tell() == 0:
            return b""
        handle.seek(-1, 2)
        return handle.read(1)


def first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0][:200] if text else type(error).__name__
