"""parse_listing: one listing file -> results/parse/{listing}.parquet.

Inputs: the listing (any format of papertopics.ingest.formats: text, csv, bibtex, ris, wos, xlsx, ...
Outputs: one row per abstract, raw and cleaned text.
"""

from pathlib import Path

from papertopics.ingest.listings import ListingSpec, read_listing
from papertopics.runtime.scripting import script_run

with script_run(snakemake) as log:
    spec = snakemake.params.spec
    listing = ListingSpec(
        name=spec["name"],
        path=Path(spec["path"]),
        format=spec["format"],
        columns=spec["columns"],
        sheet=spec.get("sheet"),
    )
    table = read_listing(
        listing, max_chars=snakemake.params.max_chars, embedding_model=snakemake.params.embedding_model
    )
    table.to_parquet(snakemake.output[0], index=False)
    log.info("%s: %d abstracts", listing.path, len(table))
