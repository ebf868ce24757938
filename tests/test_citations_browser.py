"""Citations on the report (issue 59): the cards' most-cited papers, the document map coloured by
citations on a log scale and the search's `cited:>100`."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from test_report_browser import browser, open_page  # noqa: F401 (the fixture)

from papertopics.analyses.citations import topic_citations


def cited_inputs(n_documents: int = 300):
    """dated_inputs (years, journals, authors) with a cited_by column, one cell of it text."""
    from report_sample import dated_inputs

    inputs = dated_inputs(n_documents)
    rng = np.random.RandomState(1)
    counts = np.floor(np.exp(rng.uniform(0, 7, size=len(inputs.documents)))).astype(int)
    counts[:3] = [200_000, 70_001, 0]  # above 16 bits; an uncited paper
    cells = counts.astype(str)
    cells[5] = "n/a"
    inputs.documents["cited_by"] = cells
    summary, most = topic_citations(inputs.documents)
    inputs.described["citations"] = summary.astype(str)
    inputs.described["most_cited"] = most.astype(str)
    return inputs, pd.Series(np.where(cells == "n/a", -1, counts))


def test_each_card_lists_its_most_cited_papers_with_their_counts(tmp_path):
    from papertopics.report import render_report

    inputs, counts = cited_inputs()
    render_report(inputs, tmp_path)
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    documents = inputs.documents.assign(count=counts.to_numpy())
    top = documents[documents["topic"] == 0].sort_values("count", ascending=False).iloc[0]
    card = page[page.index('id="topic-0"') :]
    card = card[: card.index("</article>")]
    assert "Most cited" in card and f"<strong>{top['count']:,}</strong> cited" in card
    assert f"documents.html#doc={top['doc_id']}" in card
    total = documents.loc[(documents["topic"] == 0) & (documents["count"] >= 0), "count"].sum()
    assert f"<strong>{total:,}</strong> citations" in card
    latest = inputs.documents["published"].str[:4].astype(int).max()
    assert f"a year since publication (to {latest}, the listing's latest year)" in card
    assert "Figures for a paper" in page and 'href="figures/document_map.svg"' in page


@pytest.mark.browser
def test_the_map_is_coloured_by_citations_on_a_log_scale_and_searched_by_count(browser, tmp_path):  # noqa: F811
    from papertopics.report import render_report

    inputs, counts = cited_inputs()
    folder = tmp_path / "report"
    render_report(inputs, folder)
    page, _ = open_page(browser, folder, "documents")
    figure = "document.getElementById('figure')"
    try:
        options = page.evaluate("Array.from(document.querySelectorAll('#color-by option')).map(o => o.value)")
        assert "citations" in options
        page.evaluate(
            "(v => { const s = document.getElementById('color-by'); s.value = v;"
            " s.dispatchEvent(new Event('change')); })('citations')"
        )
        page.wait_for(f"{figure}.dataset.colour === 'citations'")
        legend = page.evaluate("document.getElementById('map-legend').textContent").split()
        assert legend == ["citations", "(log", "scale):", "0", str(counts.max())]  # the ramp from 0
        for query, wanted in (
            ("cited:>100", (counts > 100).sum()),
            ("cited:<=3", ((counts >= 0) & (counts <= 3)).sum()),  # "n/a" has no count: no match
            ("cited:>70000", 2),  # 200,000 and 70,001 whole, not capped at 65,535
            ("cited:>1,000", (counts > 1000).sum()),  # the number, not "1"
            ("cited:0", (counts == 0).sum()),  # the uncited papers
        ):
            page.search(query)
            page.wait_for(f"{figure}.dataset.matches === '{int(wanted)}'")
        assert page.errors == []
    finally:
        page.close()
