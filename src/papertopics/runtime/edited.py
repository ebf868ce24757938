"""Topic tables edited by hand (results/topics/topics.csv, document_topics.csv): found at a run's
start, kept aside, rebuilt.

Snakemake reruns a job when its inputs are newer than its outputs, never when an output itself
changed: a document_topics.csv edited by hand stayed, the report showed "Topic 3 ... 0
documents" and papertopics.load refused the folder on every rerun. The two tables must agree
(each topic's `size` is its number of rows); when a table is newer than its job's last output
(pinned.csv) and they disagree, recovery moves it to `<name>.edited.csv` beside it (the edit is
kept, never deleted) and the run rebuilds it with curate_topics. Steering belongs in
config.yaml's `topics` section (names, merge, pinned).
"""

from __future__ import annotations

from pathlib import Path

TOPICS = "results/topics/topics.csv"
DOCUMENTS = "results/topics/document_topics.csv"
LAST_OUTPUT = "results/topics/pinned.csv"  # curate_topics writes it after the tables


def size_mismatch(topics, documents) -> str | None:
    """Why topics.csv and document_topics.csv (DataFrames) are not one run's tables, or None:
    a topic whose `size` is not its number of rows."""
    counts = documents["topic"].astype(int).value_counts()
    for topic, size in zip(topics["topic"].astype(int), topics["size"].astype(int)):
        if int(counts.get(topic, 0)) != size and topic in counts.index:
            return (
                f"topic {topic} has size {size}, but document_topics.csv gives it "
                f"{int(counts.get(topic, 0))} documents"
            )
    return None


def _aside(path: Path) -> Path:
    """A name beside `path` that holds no file: <stem>.edited.csv, <stem>.edited-2.csv, ..."""
    target, n = path.with_name(f"{path.stem}.edited{path.suffix}"), 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.stem}.edited-{n}{path.suffix}")
    return target


def keep_edited_tables(workdir: Path, written: set[str]) -> list[str]:
    """Move topic tables edited by hand (papertopics' own, newer than curate_topics' last output,
    not agreeing with each other) aside so that this run rebuilds them; one line per table."""
    workdir = Path(workdir)
    last = workdir / LAST_OUTPUT
    tables = [workdir / TOPICS, workdir / DOCUMENTS]
    if not last.is_file() or not all(t.is_file() for t in tables) or not {TOPICS, DOCUMENTS} <= written:
        return []
    edited = [t for t in tables if t.stat().st_mtime > last.stat().st_mtime]
    if not edited:
        return []
    import pandas as pd

    try:
        why = size_mismatch(
            pd.read_csv(tables[0], usecols=["topic", "size"]), pd.read_csv(tables[1], usecols=["topic"])
        )
    except (ValueError, KeyError, OSError, pd.errors.ParserError) as error:
        why = f"it does not read as papertopics wrote it ({str(error).splitlines()[0][:120]})"
    if why is None:
        return []
    lines = []
    for table in edited:
        target = _aside(table)
        table.rename(target)
        lines.append(
            f"papertopics: {table.relative_to(workdir)} was edited ({why}); kept as "
            f"{target.relative_to(workdir)}, this run rebuilds it (steer topics in config.yaml: "
            f"topics.names, topics.merge, topics.pinned)"
        )
    return lines
