"""bundle_report: the report folder again as hard links in results/report_bundle/topic-report, the
folder `snakemake --report report.zip` embeds (every file beside its index), with the folders the
overview links beside the pages (draw_figures' figures/, write_vosviewer's vosviewer/).

Its own light job after render_report, draw_figures and write_vosviewer, so those run side by
side: a report tweak redraws the figures beside the pages, not after them.
"""

from __future__ import annotations

from pathlib import Path

from papertopics.report.pack import link_file, link_folder


def bundle_report(files, bundle: str | Path, *folders: str | Path | None) -> None:
    """The report's files hard-linked into the bundle folder that `snakemake --report` embeds,
    with the files of the folders the overview links beside the pages (draw_figures' figures/,
    write_vosviewer's vosviewer/) in sub-folders of the same names. Its own job (rule
    bundle_report), so render_report and draw_figures run side by side."""
    link_folder(files, bundle)
    for folder in filter(None, folders):
        if Path(folder).is_dir():
            for path in sorted(Path(folder).iterdir()):
                if path.is_file() and not path.name.startswith("."):  # not Snakemake's stamp
                    link_file(path, Path(bundle) / Path(folder).name / path.name)


def bundle_report_job(job, log) -> None:
    """Rule bundle_report (papertopics.runtime.inprocess.run_job): results/report/'s pages, assets,
    data files, figures/ and vosviewer/ as hard links in results/report_bundle/topic-report."""
    i = job.input
    data = sorted(p for p in Path(i.data).iterdir() if p.is_file()) if Path(i.data).is_dir() else []
    files = [*i.pages, i.plotly_js, *i.assets, *data]
    bundle_report(files, job.output.bundle, i.figures, i.vosviewer)
    log.info("%s: %d files, figures and VOSviewer files", job.output.bundle, len(files))
