"""Write the report folder: the pages of report.registry, plotly.min.js once, one stylesheet, one script
(report.js, joined from the feature scripts that report.registry.SCRIPTS lists)."""

from __future__ import annotations

import logging
import shutil
import time
from pathlib import Path

import numpy as np
import plotly

from papertopics.artifacts import atomic_copy, atomic_write_text
from papertopics.report.authors import author_rows
from papertopics.report.changes import change_rows, listing_share_rows, status_tiles, summary_line
from papertopics.report.colors import topic_color
from papertopics.report.described import DESCRIBED, main_information_sections
from papertopics.report.document_data import CHUNK_FOLDER
from papertopics.report.document_figure import visualize_documents
from papertopics.report.documents import document_payload, topic_download_payload
from papertopics.report.figures import FIGURES, figure_names
from papertopics.report.html import page_data, page_footer, render_page
from papertopics.report.inputs import ReportInputs, read_inputs
from papertopics.report.listing_shares import (
    listing_counts,
    listing_totals,
    listing_trends,
    p_text,
    single_listing_topics,
    visualize_listing_shares,
)
from papertopics.report.pack import write_document_chunks
from papertopics.report.registry import ASSETS, HIDDEN, PAGES, SCRIPTS, ReportPage, resolve
from papertopics.report.summary import (
    clustering_note,
    filter_rows,
    flatten_metrics,
    listing_rows,
    overlap_note,
    percent,
    summary_tiles,
    topic_cards,
)
from papertopics.report.text import short_label
from papertopics.report.vosviewer import VOSVIEWER_FILES, vosviewer_files

log = logging.getLogger(__name__)
# draw_figures' folder beside the pages (results/report/figures/), and in the bundle
FIGURE_FOLDER = "figures"

PLOTLY_JS = "plotly.min.js"
ASSET_FOLDER = Path(__file__).parent / "assets"


def plotly_js_path() -> Path:
    """plotly.min.js as shipped in the plotly package (the version the figures are written for)."""
    return Path(plotly.__file__).parent / "package_data" / PLOTLY_JS


def report_script() -> str:
    """report.js: the feature scripts of assets/scripts/, in the registry's order."""
    parts = [(ASSET_FOLDER / "scripts" / name).read_text(encoding="utf-8") for name in SCRIPTS]
    return "".join(parts)


def copy_assets(out_dir: Path) -> list[Path]:
    written = [atomic_copy(plotly_js_path(), out_dir / PLOTLY_JS)]  # never half a plotly.min.js
    for name in ASSETS:
        if name == "report.js":
            atomic_write_text(out_dir / name, report_script())
            written.append(out_dir / name)
        else:
            written.append(atomic_copy(ASSET_FOLDER / name, out_dir / name))
    return written


def index_page(inputs: ReportInputs) -> str:
    return render_page(
        "index.html",
        page="index",
        page_title="Overview",
        report_title=inputs.title,
        footer=page_footer(inputs),
        data_json=page_data(downloads=topic_download_payload(inputs.documents, inputs.topics)),
        uses_plotly=False,
        tiles=summary_tiles(inputs),
        note=clustering_note(inputs.metrics),
        listing_rows=listing_rows(inputs),
        authors=author_rows(inputs),  # authors.csv's first rows (report.authors)
        cards=topic_cards(inputs),
        main_information=main_information_sections(inputs),  # analyses.main_information
        metrics=flatten_metrics(inputs.metrics),
        # draw_figures' files (results/report/figures/), the same tables deciding which
        figures=[
            {"name": FIGURES[name], "file": f"{FIGURE_FOLDER}/{name}"}
            for name in figure_names(inputs.described)
        ],
        filters=filter_rows(inputs.filters),
        # write_vosviewer's files (results/report/vosviewer/), the same table deciding which
        vosviewer=[
            {"file": f"vosviewer/{name}", "name": VOSVIEWER_FILES[name]}
            for name in vosviewer_files(inputs.documents)
        ],
    )


def documents_page(inputs: ReportInputs) -> str:
    if inputs.map2d is None:
        raise ValueError("the document map needs 2-D coordinates (map2d)")
    figure = visualize_documents(inputs.documents, inputs.map2d, inputs.topics)
    names = inputs.display_names()
    docs = document_payload(
        inputs.documents,
        inputs.map2d,
        inputs.topics,
        inputs.listings,
        names,
        has_neighbours=inputs.neighbours is not None and len(inputs.neighbours) > 0,
        max_hover_chars=inputs.max_hover_chars,
    )
    totals = listing_totals(inputs.documents, inputs.listings)
    options = [
        {"index": i, "name": names[name], "count": int(totals[name])}
        for i, name in enumerate(inputs.listings)
    ]
    return render_page(
        "documents.html",
        page="documents",
        page_title="Document map",
        report_title=inputs.title,
        footer=page_footer(inputs),
        data_json=page_data(figure, docs=docs),
        main_class="page wide",
        listing_options=options,
        n_documents=len(inputs.documents),
        n_topics=int((inputs.topics["topic"] >= 0).sum()),
    )


def listings_page(inputs: ReportInputs) -> str:
    topics = inputs.topics
    order = [t for t in topics["topic"] if t >= 0] + [t for t in topics["topic"] if t < 0]
    counts = listing_counts(inputs.documents, inputs.listings, order)
    totals = listing_totals(inputs.documents, inputs.listings)
    labels = dict(zip(topics["topic"], topics["label"]))
    single = single_listing_topics(topics, counts)
    rows = []
    for topic in order:
        cells = [
            {
                "count": int(counts.loc[topic, name]),
                "percent": percent(counts.loc[topic, name] / totals[name] if totals[name] else 0.0),
            }
            for name in inputs.listings
        ]
        rows.append(
            {
                "name": short_label(int(topic), labels[topic], 70),
                "color": topic_color(int(topic)),
                "cells": cells,
                "size": int((inputs.documents["topic"] == topic).sum()),
                "is_outliers": topic < 0,
            }
        )
    intro = (
        "For every listing, the share of its documents in each topic. Topics found in one listing "
        "only, and the documents each listing contributes, are listed below."
    )
    names = inputs.display_names()
    figure = visualize_listing_shares(topics, inputs.documents, inputs.listings, names=names)
    return render_page(
        "listings.html",
        page="listings",
        page_title="Listings",
        report_title=inputs.title,
        footer=page_footer(inputs),
        data_json=page_data(figure),
        intro=intro,
        listings=[names[name] for name in inputs.listings],
        n_listings=len(inputs.listings),
        trends=trend_rows(inputs),
        trend_note=trend_note(inputs),
        single=[
            {
                **row,
                "listing": names.get(row["listing"], row["listing"]),
                "color": topic_color(int(row["topic"])),
            }
            for row in single.to_dict("records")
        ],
        table_rows=rows,
        totals=[int(totals[name]) for name in inputs.listings],
        n_documents=len(inputs.documents),
        overlap_note=overlap_note(inputs.documents),
    )


# The listings page leads with at most this many topics whose share moved most.
TREND_ROWS = 15


def trend_note(inputs: ReportInputs) -> str:
    names = inputs.display_names()
    if len(inputs.listings) < 2:
        return ""
    latest, earlier = names[inputs.listings[-1]], [names[name] for name in inputs.listings[:-1]]
    return (
        f"{latest} (the last listing in the configuration) against {', '.join(earlier)}: the topics whose "
        "share of the listing's documents moved most. The p-value (the test of Over time: Fisher's "
        "exact test for a topic with few papers, else the likelihood-ratio test of the binomial model) "
        "says how likely a change this large is by chance given the listings' sizes; q is the same after "
        "correcting for testing every topic (Benjamini-Hochberg), and only q < 0.05 is called rising "
        "or falling."
    )


def trend_rows(inputs: ReportInputs) -> list[dict]:
    table = listing_trends(inputs.documents, inputs.listings, inputs.topics).head(TREND_ROWS)
    rows = []
    for row in table.itertuples():
        rows.append(
            {
                "topic": int(row.topic),
                "label": short_label(int(row.topic), row.label, 70),
                "color": topic_color(int(row.topic)),
                "status": row.status,
                "before": f"{row.before} of {row.before_total}",
                "after": f"{row.after} of {row.after_total}",
                "share_before": percent(row.share_before),
                "share_after": percent(row.share_after),
                "change": f"{100 * row.change:+.1f} pp",
                "direction": "up" if row.change > 0 else "down",
                "p_value": p_text(row.p_value),
                # not "clear": Jinja's row.clear is the dict's own method, always true
                "significant": bool(row.significant),
                "q_value": "–"
                if not np.isfinite(row.q_value)
                else f"{row.q_value:.3f}"
                if row.q_value >= 0.001
                else "< 0.001",
            }
        )
    return rows


def changes_page(inputs: ReportInputs) -> str:
    """What changed since the previous run (changes.csv); without that table, says so."""
    changes = inputs.changes
    totals = listing_totals(inputs.documents, inputs.listings)
    return render_page(
        "changes.html",
        page="changes",
        page_title="What changed",
        report_title=inputs.title,
        footer=page_footer(inputs),
        data_json=None,
        uses_plotly=False,
        summary=summary_line(changes) if changes is not None else None,
        tiles=status_tiles(changes) if changes is not None else [],
        rows=change_rows(changes, inputs.topics) if changes is not None else None,
        listings=[inputs.display_names()[name] for name in inputs.listings],
        totals=[int(totals[name]) for name in inputs.listings],
        listing_rows=listing_share_rows(inputs.documents, inputs.topics, inputs.listings, changes),
    )


def _outlier_note(inputs: ReportInputs) -> str | None:
    outliers = int((inputs.documents["topic"] < 0).sum())
    if not outliers:
        return None
    return (
        f"The {outliers} outlier documents are not a topic and are not drawn here; "
        "see the overview and the document map."
    )


def figure_page(inputs: ReportInputs, page: ReportPage) -> str:
    """A page of one figure, from its registry entry (registry.FigurePage)."""
    spec = page.figure
    keywords = {keyword: getattr(inputs, field) for keyword, field in spec.inputs}
    figure = resolve(spec.figure)(inputs.topics, inputs.vectors, **keywords)
    return render_page(
        "figure.html",
        page=page.name,
        page_title=spec.heading,
        report_title=inputs.title,
        footer=page_footer(inputs),
        data_json=page_data(figure),
        heading=spec.heading,
        intro=spec.intro.format(basis=inputs.vectors.similarity_basis()),
        note=_outlier_note(inputs),
    )


def render_pages(inputs: ReportInputs, out_dir: Path) -> dict[str, Path]:
    """Every page of the registry into out_dir (those with nothing to show say so)."""
    written = {}
    for page in PAGES:
        started = time.perf_counter()
        path = out_dir / f"{page.name}.html"
        atomic_write_text(path, page.build(inputs))  # a failed job leaves no partial page
        written[page.name] = path
        log.info(
            "%s: %.1f kB in %.2f s", path.name, path.stat().st_size / 1000, time.perf_counter() - started
        )
    return written


def render_report(
    inputs: ReportInputs, out_dir: str | Path, packed: str | Path | None = None
) -> dict[str, Path]:
    """Write every page and asset into out_dir; returns {name: path} of what was written.

    `packed`: pack_documents' data folder, linked when it fits (see write_document_chunks)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = {}
    token = HIDDEN.set(frozenset(page.name for page in PAGES if not page.is_shown(inputs)))
    try:
        written.update(render_pages(inputs, out_dir))
    finally:
        HIDDEN.reset(token)
    if inputs.map2d is not None:
        for path in write_document_chunks(inputs, out_dir, packed):
            written[f"{CHUNK_FOLDER}/{path.name}"] = path
    for asset in copy_assets(out_dir):
        written[asset.name] = asset
    return written


def write_report(
    inputs: ReportInputs,
    expected: list[str],
    bundle: str | Path | None = None,
    packed: str | Path | None = None,
    figures: str | Path | None = None,
) -> dict[str, Path]:
    """render_report into the folder of the expected files, checked complete; with `bundle`, then
    hard-linked into the bundle folder that `snakemake --report` embeds (bundle_report)."""
    out_dir = Path(expected[0]).parent
    written = render_report(inputs, out_dir, packed)
    missing = {Path(path).resolve() for path in expected} - {path.resolve() for path in written.values()}
    assert not missing, f"render_report did not write {sorted(map(str, missing))}"
    if bundle is not None:
        from papertopics.report.bundle import bundle_report

        bundle_report(written.values(), bundle, figures)
    return written


def render_report_job(job, log) -> None:
    """Rule render_report (run by papertopics.runtime.inprocess.run_job): the HTML pages and
    plotly.min.js into results/report/ (no model refit, no UMAP).

    Inputs: document_topics.csv, topics.csv, changes.csv, hierarchy.csv, the saved model,
    map2d.parquet, metrics.json, neighbours.csv (similar papers), corpus_stats.json (listing
    headers), report_data/ (pack_documents' data files, linked).
    Outputs: results/report/*.html, plotly.min.js, report.css/js, brotli-decode.min.js, data/
    (rule bundle_report links them into results/report_bundle/topic-report).
    """
    started = time.perf_counter()
    p, i, out = job.params, job.input, job.output
    stale = getattr(p, "stale_bundle", None)  # bundle_report links the new pages once they are all written
    if stale and Path(stale).is_dir():
        shutil.rmtree(stale)
    inputs = read_inputs(
        documents=i.documents,
        topics=i.topics,
        map2d=i.map2d,
        metrics=i.metrics,
        model=i.model,
        changes=i.changes,
        hierarchy=i.hierarchy,
        listings=p.listings,
        title=p.report["title"],
        max_hover_chars=p.report["max_hover_chars"],
        neighbours=getattr(i, "neighbours", None),  # similar papers (find_neighbours)
        corpus_stats=getattr(i, "corpus_stats", None),  # listing headers as titles
        # describe_topics' tables (analyses/registry.py)
        described={name: getattr(i, name) for name in DESCRIBED if getattr(i, name, None)},
        filters=getattr(i, "filters", None),  # build_corpus: the records config.yaml's filters left out
    )
    written = write_report(
        inputs, [out.plotly_js, *out.pages, *out.assets], packed=getattr(i, "packed", None)
    )
    total = sum(path.stat().st_size for path in written.values())
    log.info(
        "report: %d files, %.2f MB, topic vectors from %s, in %.1f s",
        len(written),
        total / 1e6,
        inputs.vectors.source,
        time.perf_counter() - started,
    )
