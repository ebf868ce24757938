"""Folders under results/ that papertopics writes whole and replaces on a rerun.

Snakemake deletes a directory output before its job runs (every `directory()` output of
workflow/rules/: the model, the snapshot, the report's data folders and its bundle), and the
history keeps only its own snapshots, so a file of the user's there would go without a word.
Recovery refuses the run with one line naming such a file before anything is deleted
(`foreign_file`).
"""

from __future__ import annotations

from fnmatch import fnmatchcase
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
# the document map's data files (report.pack.write_document_data): report.document_data's
# CHUNK_FOLDER and HEADLINES_FILE, written out (it imports pandas; this runs as a run starts)
CHUNK_FOLDER = "data"
DATA_FILES = ("headlines.js", "docs-*.js")
# the report bundle (render_report) holds hard links of results/report/'s files: a file there is
# papertopics' when results/report/ has it too (not report.registry's page list: importing the
# registry would make every page module part of every job's code, runtime.closure)
BUNDLE = "results/report_bundle/topic-report"
REPORT = "results/report"
# draw_figures' folder: report.figures.FIGURES' names, each as SVG and PNG (report.figures.save_figure),
# written out here for the same reason (it imports matplotlib's callers)
FIGURE_NAMES = ("document_map", "thematic_map", "over_time")
FIGURE_FILES = tuple(f"{name}.{suffix}" for name in FIGURE_NAMES for suffix in ("svg", "png"))
# folder -> patterns of the files papertopics writes there, relative to the folder
OWNED = {
    "results/topics/model": MODEL_FILES,
    "results/topics/snapshot": SNAPSHOT_FILES,
    "results/report_data": ("documents.json", *(f"{CHUNK_FOLDER}/{name}" for name in DATA_FILES)),
    "results/report/data": DATA_FILES,
    "results/report/figures": FIGURE_FILES,
}
HISTORY = "results/topics/history"
HISTORY_FILES = (CURRENT, "advanced.json")
SNAKEMAKE_STAMP = ".snakemake_timestamp"  # Snakemake's own mark in a directory output


def _ours(relative: str, patterns) -> bool:
    """Whether a file at `relative` (posix, inside its owned folder) is one papertopics writes
    there: one of its patterns, Snakemake's stamp, or a temporary file of an atomic write."""
    name = relative.rsplit("/", 1)[-1]
    if name == SNAKEMAKE_STAMP or (name.startswith(".") and name.endswith(".tmp")):
        return True
    return any(fnmatchcase(relative, pattern) for pattern in patterns)


def foreign_file(workdir: Path) -> str | None:
    """The one line refusing a run while a file that is not papertopics' sits in a folder it
    replaces (OWNED's folders, the report bundle and results/topics/history/), or None."""
    workdir = Path(workdir)
    found: list[tuple[Path, str]] = []
    for folder, patterns in OWNED.items():
        path = workdir / folder
        if path.is_dir():
            found += [
                (p, folder)
                for p in sorted(path.rglob("*"))
                if p.is_file() and not _ours(p.relative_to(path).as_posix(), patterns)
            ]
    bundle = workdir / BUNDLE
    if bundle.is_dir():
        found += [
            (p, BUNDLE)
            for p in sorted(bundle.rglob("*"))
            if p.is_file()
            and not _ours(p.name, ())
            and not (workdir / REPORT / p.relative_to(bundle)).is_file()
        ]
    history = workdir / HISTORY
    if history.is_dir():
        for path in sorted(history.iterdir()):
            if path.is_dir():
                found += [
                    (p, HISTORY)
                    for p in sorted(path.rglob("*"))
                    if p.is_file() and not _ours(p.name, SNAPSHOT_FILES)
                ]
            elif path.name not in (*HISTORY_FILES, SNAKEMAKE_STAMP) and not path.name.endswith(".tmp"):
                found.append((path, HISTORY))
    if not found:
        return None
    path, folder = found[0]
    rel = path.relative_to(workdir).as_posix()
    return (
        f"{rel}: not a file papertopics wrote, in {folder}/, a folder papertopics replaces on a "
        f"rerun; move it out of {folder}/ (nothing was deleted), then rerun"
    )
