"""advance_history: the finished run's topic snapshot becomes the one the next run compares with."""

import json
from pathlib import Path

from papertopics.runtime.scripting import script_run
from papertopics.topics.snapshot_store import advance_history

with script_run(snakemake) as log:
    name = advance_history(snakemake.input.snapshot, Path(snakemake.output.marker).parent)
    with open(snakemake.output.marker, "w", encoding="utf-8") as handle:
        json.dump({"snapshot": name}, handle)
    log.info("history now at snapshot %s", name)
