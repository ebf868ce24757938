"""The ledger of what papertopics' jobs wrote under results/ (.snakemake/papertopics/written.txt).

Each job adds its outputs before it starts (scripting.script_run); recovery repairs only
these, so a user's own file under results/ is never touched.
"""

from __future__ import annotations

import os
from pathlib import Path

WRITTEN = Path(".snakemake/papertopics/written.txt")


def record_written(outputs, workdir: Path | None = None) -> None:
    """Add a job's outputs (paths relative to the folder, under results/) to the folder's list of
    what papertopics wrote. Called before the job writes them, so a file a killed job
    half-wrote is on it. Only in a Snakemake working folder (one with .snakemake/); one append
    per job (O_APPEND: jobs running side by side do not mix their lines)."""
    workdir = Path.cwd() if workdir is None else Path(workdir)
    lines = []
    for output in outputs:
        path = os.path.normpath(str(output))
        if not os.path.isabs(path) and path.split(os.sep)[0] == "results":
            lines.append(Path(path).as_posix() + "\n")
    if not lines or not (workdir / ".snakemake").is_dir():
        return
    try:
        (workdir / WRITTEN).parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(workdir / WRITTEN, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, "".join(lines).encode("utf-8"))
        finally:
            os.close(fd)
    except OSError:  # a full disk: the job says so itself when it writes
        pass


def written_files(workdir: Path) -> set[str]:
    """What papertopics' jobs wrote in workdir (relative paths), as record_written noted it."""
    try:
        text = (Path(workdir) / WRITTEN).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    return {line for line in text.splitlines() if line.strip()}


def compact_written(workdir: Path, written: set[str]) -> None:
    """Rewrite the list once per run, each path once (it would grow by a run's outputs per run)."""
    from papertopics.artifacts import atomic_write_text

    if written:
        try:
            atomic_write_text(Path(workdir) / WRITTEN, "".join(f"{p}\n" for p in sorted(written)))
        except OSError:
            pass
