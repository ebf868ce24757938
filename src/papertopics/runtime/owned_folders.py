"""Folders under results/ that papertopics writes whole and replaces on a rerun.

Snakemake deletes a directory output before its job runs, and the history keeps only its own
snapshots, so a file of the user's there would go without a word. Recovery refuses the run
with one line naming such a file before anything is deleted (`foreign_file`).
"""

from __future__ import annotations

from pathlib import Path

from papertopics.topics.snapshot_store import CURRENT, SNAPSHOT_FILES

# folder -> the files papertopics writes there (BERTopic's safetensors model folder, the snapshot)
MODEL_FILES = (
    "config.json",
    "ctfidf.safetensors",
    "ctfidf_config.json",
    "topic_embeddings.safetensors",
    "topics.json",
)
OWNED = {
    "results/topics/model": MODEL_FILES,
    "results/topics/snapshot": SNAPSHOT_FILES,
}
HISTORY = "results/topics/history"
HISTORY_FILES = (CURRENT, "advanced.json")
SNAKEMAKE_STAMP = ".snakemake_timestamp"  # Snakemake's own mark in a directory output


def foreign_file(workdir: Path) -> str | None:
    """The one line refusing a run while a file that is not papertopics' sits in a folder it
    replaces (results/topics/model/, snapshot/, history/), or None."""
    workdir = Path(workdir)
    found: list[Path] = []
    for folder, names in OWNED.items():
        path = workdir / folder
        if path.is_dir():
            found += [
                p for p in sorted(path.rglob("*")) if p.is_file() and p.name not in (*names, SNAKEMAKE_STAMP)
            ]
    history = workdir / HISTORY
    if history.is_dir():
        for path in sorted(history.iterdir()):
            if path.is_dir():
                found += [
                    p
                    for p in sorted(path.rglob("*"))
                    if p.is_file() and p.name not in (*SNAPSHOT_FILES, SNAKEMAKE_STAMP)
                ]
            elif path.name not in (*HISTORY_FILES, SNAKEMAKE_STAMP) and not path.name.endswith(".tmp"):
                found.append(path)
    if not found:
        return None
    rel = found[0].relative_to(workdir)
    return (
        f"{rel}: not a file papertopics wrote, in {rel.parts[0]}/{'/'.join(rel.parts[1:3])}/, a folder "
        f"papertopics replaces on a rerun; move it out of results/ (nothing was deleted), then rerun"
    )
