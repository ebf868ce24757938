# papertopics: listings of paper abstracts -> topic maps.
# This file only wires; each stage lives in workflow/rules/<stage>.smk (see docs/design.md).

from snakemake.utils import min_version

min_version("9.27")  # as pyproject.toml requires; the version the tests run


# config.yaml of the working directory (--directory) is loaded in common.smk, so that a
# syntax error names the file and line and `--configfile` of the same file is not read twice.
include: "workflow/rules/common.smk"
include: "workflow/rules/inputs.smk"  # the rules' input functions
include: "workflow/rules/lifecycle.smk"
include: "workflow/rules/parse.smk"
include: "workflow/rules/corpus.smk"
include: "workflow/rules/embed.smk"
include: "workflow/rules/reduce.smk"
include: "workflow/rules/cluster.smk"
include: "workflow/rules/topics.smk"
include: "workflow/rules/analyses.smk"
include: "workflow/rules/evaluate.smk"
include: "workflow/rules/neighbours.smk"
include: "workflow/rules/report.smk"


say_code_changes()  # one line naming the package files and libraries that changed (common.smk)


rule all:
    default_target: True
    input:
        "results/topics/document_topics.csv",
        "results/topics/topics.csv",
        "results/topics/topics.xlsx",
        "results/topics/papers_by_topic.ris",  # write_references (report.smk)
        "results/topics/papers_by_topic.bib",
        "results/metrics.json",
        REPORT_PAGES,
        "results/report/figures",  # draw_figures (report.smk)
        "results/report/vosviewer",  # write_vosviewer (report.smk)
        "results/report_bundle/topic-report",  # bundle_report (report.smk): snakemake --report's folder
        "results/topics/history/advanced.json",


# Cheap bookkeeping jobs run on the submit host instead of as cluster jobs.
localrules:
    all,
    build_corpus,
    gather_embeddings,
    curate_topics,
    advance_history,
    bundle_report,
