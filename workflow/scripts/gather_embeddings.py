"""gather_embeddings: shards -> results/embed/embeddings.parquet in corpus order."""

import json
from pathlib import Path

import numpy as np

from papertopics.artifacts import load_embeddings, save_embeddings
from papertopics.scripting import script_run

with script_run(snakemake) as log:
    shards = sorted(snakemake.input.shards, key=lambda path: int(Path(path).stem))
    doc_ids, blocks, stats = [], [], {"computed": 0, "reused": 0, "seconds": 0.0}
    for path in shards:
        ids, vectors = load_embeddings(path)
        doc_ids += ids
        blocks.append(vectors)
        shard_stats = json.loads(Path(path).with_suffix(".json").read_text())
        for key in ("computed", "reused", "seconds"):
            stats[key] += shard_stats.get(key, 0)
        for key in ("backend", "precision", "device"):
            stats.setdefault(key, shard_stats.get(key))
    stats["shards"] = len(shards)
    save_embeddings(snakemake.output.embeddings, doc_ids, np.concatenate(blocks))
    Path(snakemake.output.stats).write_text(json.dumps(stats, indent=2, sort_keys=True))
    log.info("embeddings: %d documents from %d shards (%d computed, %d reused)",
             len(doc_ids), len(shards), stats["computed"], stats["reused"])
