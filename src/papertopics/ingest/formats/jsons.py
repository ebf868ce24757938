"""JSON (a list of records, or an object holding one) and JSON Lines (one object per line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from papertopics.errors import ListingError
from papertopics.ingest.formats._common import Format, Parsed, json_type


def jsonl_records(text: str, path: Path) -> tuple[list[str], list]:
    records: list[tuple[str, dict]] = []
    keys: dict[str, None] = {}
    loads = json.loads
    for lineno, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            rec = loads(line)
        except (json.JSONDecodeError, RecursionError) as e:
            msg = e.msg if isinstance(e, json.JSONDecodeError) else "nested too deeply"
            raise ListingError(f"{path}: line {lineno}: invalid JSON ({msg})") from None
        if not isinstance(rec, dict):
            raise ListingError(f"{path}: line {lineno}: expected a JSON object, got {json_type(rec)}")
        if len(keys) < 1000:
            for k in rec:
                keys[k] = None
        records.append((f"line {lineno}", rec))
    if not records:
        raise ListingError(f"{path}: empty file (no JSON lines)")
    return list(keys), records


def json_records(text: str, path: Path) -> tuple[list[str], list]:
    if not text.strip():
        raise ListingError(f"{path}: empty file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ListingError(f"{path}: line {e.lineno}: invalid JSON ({e.msg})") from None
    except RecursionError:
        raise ListingError(f"{path}: invalid JSON (nested too deeply)") from None
    if isinstance(data, dict):
        data = _records_in_object(data, path)
    if not isinstance(data, list):
        raise ListingError(
            f'{path}: expected a list of records (or {{"papers": [...]}}), got {json_type(data)}'
        )
    if not data:
        raise ListingError(f"{path}: no records (empty list)")
    keys: dict[str, None] = {}
    records = []
    for i, rec in enumerate(data, 1):
        if not isinstance(rec, dict):
            raise ListingError(f"{path}: record {i}: expected a JSON object, got {json_type(rec)}")
        for k in rec:
            keys[k] = None
        records.append((f"record {i}", rec))
    return list(keys), records


def _records_in_object(data: dict, path: Path) -> Any:
    """{"papers": [...], "count": 30}: the list under "papers", else the only list of objects."""
    lists = {k: v for k, v in data.items() if isinstance(v, list)}
    if isinstance(lists.get("papers"), list):
        return lists["papers"]
    records = [k for k, v in lists.items() if v and all(isinstance(r, dict) for r in v)]
    if len(records) == 1:
        return lists[records[0]]
    if len(records) > 1:
        raise ListingError(
            f"{path}: {len(records)} lists of records ({', '.join(records[:5])});"
            f' name the one to read "papers" or give the list alone'
        )
    if len(lists) == 1:
        return next(iter(lists.values()))
    return data


def read_json(text: str, path: Path) -> Parsed:
    return Parsed(*json_records(text, path))


def read_jsonl(text: str, path: Path) -> Parsed:
    return Parsed(*jsonl_records(text, path))


def any_json_records(text: str, path: Path) -> tuple[list[str], list]:
    """JSON, or JSON Lines when the text holds more than one value (`{...}` per line)."""
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        if e.msg == "Extra data":
            return jsonl_records(text, path)
    except RecursionError:
        pass
    return json_records(text, path)


FORMATS = (
    Format("json", read_json, extensions=(".json",), label="JSON records"),
    Format("jsonl", read_jsonl, extensions=(".jsonl", ".ndjson"), aliases=("ndjson",), label="JSON Lines"),
)
