"""The report's "Pinned" page: each pinned topic (config.yaml topics.pinned) as a reading list,
its papers nearest first, each linking into the document map; results/topics/pinned.csv holds
the same lists with every paper."""

from __future__ import annotations

import pandas as pd

from papertopics.report.colors import topic_color
from papertopics.report.html import page_footer, render_page
from papertopics.report.inputs import ReportInputs
from papertopics.report.text import headline

# what marks a pinned topic's name on the document map
PIN = "\N{PUSHPIN} "
# papers listed per pinned topic on the page (pinned.csv has all of them)
PAGE_PAPERS = 100


def pinned_topic_ids(topics: pd.DataFrame) -> list[int]:
    """The pinned topics' ids (topics.csv `pinned`: the pinned name; none without the column)."""
    if "pinned" not in topics.columns:
        return []
    flags = topics["pinned"].fillna("").astype(str)
    return [int(t) for t, name in zip(topics["topic"], flags) if name and int(t) >= 0]


def pinned_sections(inputs: ReportInputs, limit: int = PAGE_PAPERS) -> list[dict]:
    """One section per pinned topic: its papers by similarity to it (the document's confidence
    is that cosine for a pinned paper), best first."""
    documents = inputs.documents
    rows = inputs.topics.set_index("topic")
    out = []
    for topic in pinned_topic_ids(inputs.topics):
        papers = documents[documents["topic"] == topic]
        if "confidence" in papers.columns:
            score = pd.to_numeric(papers["confidence"], errors="coerce").fillna(0.0)
            papers = papers.assign(_score=score).sort_values("_score", ascending=False, kind="stable")
        else:
            papers = papers.assign(_score=float("nan"))
        out.append(
            {
                "topic": topic,
                "label": rows.loc[topic, "label"],
                "pinned": rows.loc[topic, "pinned"],
                "color": topic_color(topic),
                "size": len(papers),
                "shown": min(len(papers), limit),
                "papers": [
                    {
                        "doc_id": doc_id,
                        "headline": headline(title, text, 160),
                        "similarity": "" if score != score else f"{score:.2f}",
                    }
                    for doc_id, title, text, score in zip(
                        papers["doc_id"][:limit],
                        papers["title"][:limit],
                        papers["text"][:limit],
                        papers["_score"][:limit],
                    )
                ],
            }
        )
    return out


def pinned_page(inputs: ReportInputs) -> str:
    """The page's builder (report.registry): the pinned topics' reading lists."""
    return render_page(
        "pinned.html",
        page="pinned",
        page_title="Pinned",
        report_title=inputs.title,
        footer=page_footer(inputs),
        uses_plotly=False,
        sections=pinned_sections(inputs),
        limit=PAGE_PAPERS,
    )
