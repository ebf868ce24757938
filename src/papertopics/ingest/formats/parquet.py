"""Parquet (pandas, Spark, Hugging Face datasets exports) via pyarrow."""

from __future__ import annotations

from pathlib import Path

from papertopics.errors import ListingError
from papertopics.ingest.formats._common import Format, Parsed, one_line


def read_parquet(data: bytes, path: Path) -> Parsed:
    """A Parquet table via pyarrow; lists become '; '-joined text as in JSON; records are
    named by position ("row 1" is the first)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(pa.BufferReader(data))
    except (pa.ArrowException, OSError, ValueError) as e:
        raise ListingError(f"{path}: not a valid Parquet file ({one_line(str(e))})") from None
    if table.num_rows == 0:
        raise ListingError(f"{path}: no records (0 rows)")
    rows = table.to_pylist()
    return Parsed([str(c) for c in table.column_names], [(f"row {i}", row) for i, row in enumerate(rows, 1)])


FORMATS = (Format("parquet", read_parquet, extensions=(".parquet", ".pq"), aliases=("pq",), binary=True),)
