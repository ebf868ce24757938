"""Input validation called from the workflow (common.smk): no listing inside results/."""

from __future__ import annotations

import os
from pathlib import Path

from papertopics.errors import PapertopicsError


def refuse_listings_in_results(paths, workdir: Path) -> None:
    """Raise a PapertopicsError (one line) for the first listing kept under workdir/results/."""
    for path in paths:
        problem = listing_inside_results(path, workdir)
        if problem:
            raise PapertopicsError(problem)


def listing_inside_results(path: str | Path, workdir: Path) -> str | None:
    """The one line refusing a listing kept under workdir/results/ (papertopics' own folder,
    which a run rewrites and repairs), or None for a listing elsewhere."""
    results = os.path.realpath(Path(workdir) / "results")
    full = os.path.realpath(Path(workdir) / Path(path).expanduser())
    if os.path.commonpath([results, full]) != results:
        return None
    return (
        f"{path}: a listing inside results/, the folder papertopics writes its results to; "
        f"move it out of results/ (e.g. to {Path(workdir) / Path(full).name}) and name it there"
    )
