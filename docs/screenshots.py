"""The README's four screenshots (docs/img/), taken with the tests' headless-Chromium driver
(tests/test_report_browser.py: Chromium, zoom) at 1400 x 860:

    python docs/screenshots.py . NEURIPS_RUN SEEDS_RUN docs/img

NEURIPS_RUN and SEEDS_RUN are finished corpus folders (`papertopics run
../shared/data/neurips2023/neurips2023.jsonl.gz` and `papertopics run seeds/*.txt` in two
empty folders). The seeds' header is Chinese: install a CJK font (Debian fonts-noto-cjk).

- map-neurips2023-regions.png: documents.html as it opens (zoomed out, region names).
- map-neurips2023-topics.png: zoomed x4 around the topic of "AND: Adversarial Neural
  Degradation ..." (topic names).
- map-neurips2023-similar.png: the same view with that paper open, its similar papers shown.
- report-seeds.png: the seeds' document map with the RLVR abstract open.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

REPO, NEURIPS, SEEDS, OUT = (Path(arg).resolve() for arg in sys.argv[1:5])
sys.path.insert(0, str(REPO / "tests"))
csv.field_size_limit(10**9)

from test_report_browser import Chromium, zoom  # noqa: E402

WIDTH, HEIGHT = 1400, 860
PAPER_TITLE = "AND: Adversarial Neural Degradation for Learning Blind Image Super-Resolution"
SEED_DOC = "ecb35c84763b3be8"
ZOOM = 4


def paper(run: Path, title: str) -> tuple[str, int]:
    with open(run / "results/topics/document_topics.csv", newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if row["title"] == title:
                return row["doc_id"], int(row["topic"])
    raise SystemExit(f"{title!r} not in {run}")


def settle(page, seconds: float = 0.5) -> None:
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.browser.pump(seconds)


def show_doc(page, doc_id: str) -> None:
    page.evaluate(f"window.location.hash = {json.dumps('doc=' + doc_id)}")
    page.wait_for(f"document.getElementById('figure').getAttribute('data-selected') === {json.dumps(doc_id)}")


def shoot(page, name: str) -> None:
    target = OUT / name
    page.screenshot(target)
    errors = page.errors
    print(f"{target}: errors: {errors}")
    if errors:
        raise SystemExit(f"{name}: page errors {errors}")


OUT.mkdir(parents=True, exist_ok=True)
doc_id, topic = paper(NEURIPS, PAPER_TITLE)
chromium = Chromium(width=WIDTH, height=HEIGHT)
try:
    # NeurIPS 2023: zoomed out, then x4 around the paper's topic, then the paper open.
    page = chromium.page()
    page.open((NEURIPS / "results/report/documents.html").resolve().as_uri())
    page.wait_for("document.getElementById('figure').dataset.labelLevel === 'regions'")
    settle(page)
    shoot(page, "map-neurips2023-regions.png")

    zoom(page, ZOOM, topic=topic)
    page.wait_for("document.getElementById('figure').dataset.labelLevel === 'topics'")
    settle(page)
    shoot(page, "map-neurips2023-topics.png")

    show_doc(page, doc_id)
    page.wait_for("document.querySelectorAll('#similar-list li').length === 5")
    page.evaluate("(() => { const p = document.getElementById('panel'); p.scrollTop = p.scrollHeight; })()")
    settle(page)
    shoot(page, "map-neurips2023-similar.png")
    page.close()

    # Seeds: the document map with the RLVR abstract open.
    page = chromium.page()
    page.open((SEEDS / "results/report/documents.html").resolve().as_uri() + f"#doc={SEED_DOC}")
    figure = "document.getElementById('figure')"
    page.wait_for(f"{figure}.getAttribute('data-selected') === {json.dumps(SEED_DOC)}")
    settle(page)
    shoot(page, "report-seeds.png")
    page.close()
finally:
    chromium.close()
