"""Report size and page times: the seeds (37), NeurIPS 2023 (3,582) and arXiv (74,718 abstracts).

Three steps, so the same inputs can be rendered by two versions of the code (before/after):

    # 1. inputs: real texts and embeddings, topics and 2-D map from the pipeline's own functions
    python bench/report_size.py inputs seeds|neurips|arxiv75k /tmp/report-bench/<name>.pkl
    # 2. render with whatever `papertopics` is on PYTHONPATH (this branch, or an older src/)
    python bench/report_size.py render /tmp/report-bench/<name>.pkl /tmp/report-bench/<name>-after
    # 3. sizes and headless-Chromium times of the document map: first render, pan/zoom, search
    python bench/report_size.py time /tmp/report-bench/<name>-after [query]

Inputs:
- seeds, neurips: parsed as the workflow does, the default embeddings (bench/_common_eval.embed,
  cached), `pipeline.model_topics`, a 2-D UMAP as reduce_embeddings does, neighbours with
  `papertopics.embed.neighbours`, the listing headers as build_corpus keeps them.
- arxiv75k: /work/team/arxiv75k.npz (texts, titles, MiniLM vectors) when present, else the
  arXiv listing with TF-IDF + SVD(96) vectors as a stand-in. Topics are synthetic: k-means (150)
  on the vectors, labelled by each cluster's top TF-IDF terms; the 2-D map is UMAP fitted on a
  10k sample and applied to the rest (`--pca`: PCA, for size/timing only); listing_date as `date`.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
import os
import pickle
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
DATA = Path(os.environ.get("PAPERTOPICS_DATA", "/work/shared/data"))
ARXIV75K = Path(os.environ.get("ARXIV75K", "/work/team/arxiv75k.npz"))


# --------------------------------------------------------------------------- inputs


def _corpus(kind: str):
    from papertopics.ingest.corpus import build_corpus
    from papertopics.ingest.listings import ListingSpec, listing_name, read_listing

    if kind == "seeds":
        frames = [
            read_listing(ListingSpec(listing_name(p), p)) for p in sorted((REPO / "seeds").glob("*.txt"))
        ]
    else:
        path = DATA / "neurips2023" / "neurips2023.jsonl.gz"
        frames = [read_listing(ListingSpec("neurips2023", path))]
    return build_corpus(frames)


def _map2d(vectors: np.ndarray, seed: int = 42, sample: int | None = None, pca: bool = False) -> np.ndarray:
    if pca:
        from sklearn.decomposition import PCA

        return PCA(2, random_state=seed).fit_transform(vectors)
    import umap

    n = len(vectors)
    model = umap.UMAP(
        n_components=2,
        n_neighbors=min(15, n - 1),
        min_dist=0.1,
        metric="cosine",
        random_state=seed,
        low_memory=True,
    )
    if sample is None or n <= sample:
        return model.fit_transform(vectors)
    rows = np.random.RandomState(seed).choice(n, sample, replace=False)
    out = np.zeros((n, 2), dtype=np.float32)
    out[rows] = model.fit_transform(vectors[rows])
    rest = np.setdiff1d(np.arange(n), rows)
    for start in range(0, len(rest), 10000):
        part = rest[start : start + 10000]
        out[part] = model.transform(vectors[part])
    return out


def pipeline_inputs(kind: str) -> dict:
    from _common_eval import embed

    from papertopics.config import default_config
    from papertopics.embed.neighbours import neighbour_table
    from papertopics.pipeline import model_topics
    from papertopics.topics.representation import document_table, topic_labels, topics_table

    corpus, stats = _corpus(kind)
    texts = corpus["text"].tolist()
    vectors = embed(texts)
    config = default_config()
    run = model_topics(texts, vectors, config)
    assigned = run.topics
    labels = topic_labels(
        run.model, assigned, config["representation"]["label_terms"], config["representation"]["top_n_words"]
    )
    documents = document_table(corpus, assigned, labels)
    topics = topics_table(run.model, assigned, labels, {}, config["representation"]["top_n_words"])
    map2d = pd.DataFrame({"doc_id": corpus["doc_id"], **dict(zip("xy", _map2d(vectors).T))})
    neighbours = neighbour_table(corpus["doc_id"].tolist(), vectors, 5)
    titles = {name: entry.get("title", "") for name, entry in stats["listings"].items()}
    return dict(
        documents=documents, topics=topics, map2d=map2d, neighbours=neighbours, listing_titles=titles,
        listings=list(stats["listings"]), metrics={"n_documents": len(corpus)},
    )  # fmt: skip


def _top_words(matrix, words, topic, n_topics: int) -> dict:
    """Each stand-in topic's label: its three highest mean TF-IDF words."""
    labels = {}
    for t in range(n_topics):
        mean = np.asarray(matrix[np.flatnonzero(topic == t)].mean(axis=0)).ravel()
        labels[t] = ", ".join(words[np.argsort(-mean)[:3]])
    return labels


def arxiv_inputs(pca: bool = False, n_topics: int = 150) -> dict:
    from sklearn.cluster import MiniBatchKMeans
    from sklearn.feature_extraction.text import TfidfVectorizer

    from papertopics.embed.neighbours import neighbour_table

    if ARXIV75K.exists():
        archive = np.load(ARXIV75K, allow_pickle=True)
        ids, texts, titles = (
            archive["ids"].astype(str),
            list(archive["texts"]),
            list(archive["titles"].astype(str)),
        )
        cats, vectors = archive["cats"].astype(str), archive["vectors"].astype(np.float32)
        dates = archive["dates"].astype(str) if "dates" in archive else [""] * len(ids)
        source = "MiniLM (arxiv75k.npz)"
    else:
        from papertopics.ingest.text import clean_text

        rows, seen = [], set()
        with gzip.open(DATA / "arxiv-daily" / "arxiv-daily.jsonl.gz", "rt", encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                text = clean_text(record["abstract"])
                if not text or text in seen:
                    continue
                seen.add(text)
                fields = ("id", "primary_category", "title", "listing_date")
                rows.append((text, *(record.get(field, "") for field in fields)))
        texts, ids, cats, titles, dates = (list(column) for column in zip(*rows))
        vectors, source = None, "TF-IDF + SVD(96) stand-in"
    tfidf = TfidfVectorizer(max_features=30000, stop_words="english", min_df=3, sublinear_tf=True)
    matrix = tfidf.fit_transform(texts)
    if vectors is None:
        from sklearn.decomposition import TruncatedSVD

        vectors = TruncatedSVD(96, random_state=0).fit_transform(matrix).astype(np.float32)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    topic = MiniBatchKMeans(n_topics, random_state=0, n_init=3, batch_size=4096).fit_predict(unit)
    labels = _top_words(matrix, np.asarray(tfidf.get_feature_names_out()), topic, n_topics)
    doc_ids = [f"{i:016x}" for i in range(len(texts))]
    documents = pd.DataFrame(
        {
            "doc_id": doc_ids,
            "listings": "arxiv",
            "topic": topic,
            "topic_label": [labels[t] for t in topic],
            "title": titles,
            "text": texts,
            "id": ids,
            "category": cats,
            "published": dates,  # listing_date: the map's month field (ingest.dates keeps it as is)
        }
    )
    topics = pd.DataFrame(
        {
            "topic": range(n_topics),
            "label": [labels[t] for t in range(n_topics)],
            "size": np.bincount(topic, minlength=n_topics),
            "top_terms": "",
            "representative_doc_ids": "",
        }
    )
    started = time.time()
    map2d = pd.DataFrame({"doc_id": doc_ids, **dict(zip("xy", _map2d(unit, sample=10000, pca=pca).T))})
    print(f"2-D map: {time.time() - started:.0f} s", flush=True)
    started = time.time()
    neighbours = neighbour_table(doc_ids, unit, 5)
    print(f"neighbours: {time.time() - started:.0f} s", flush=True)
    metrics = {"n_documents": len(texts), "vectors": source, "map": "PCA" if pca else "UMAP 10k + transform"}
    return dict(
        documents=documents, topics=topics, map2d=map2d, neighbours=neighbours, metrics=metrics,
        listing_titles={"arxiv": "arXiv daily listings"}, listings=["arxiv"],
    )  # fmt: skip


# --------------------------------------------------------------------------- render and time


def render(pickled: Path, out: Path) -> None:
    from papertopics.report import ReportInputs, render_report

    values = pickle.loads(pickled.read_bytes())
    known = {field.name for field in dataclasses.fields(ReportInputs)}
    inputs = ReportInputs(**{key: value for key, value in values.items() if key in known})
    started = time.perf_counter()
    render_report(inputs, out)
    print(f"render_report: {time.perf_counter() - started:.1f} s")


def sizes(folder: Path) -> dict[str, float]:
    files = [path for path in folder.rglob("*") if path.is_file()]
    data = [path for path in files if path.parent.name == "data"]  # the map's data files
    return {
        "total MB": sum(p.stat().st_size for p in files) / 1e6,
        "documents.html MB": (folder / "documents.html").stat().st_size / 1e6,
        "data files MB": sum(p.stat().st_size for p in data) / 1e6,
        "data files": len(data),
        "plotly.min.js MB": (folder / "plotly.min.js").stat().st_size / 1e6,
    }


def time_map(folder: Path, query: str = "privacy", runs: int = 2) -> dict[str, float]:
    """Seconds: first render (navigation start to data-ready), a zoom (relayout until drawn,
    names placed), a search (typing to highlighted matches). Medians of `runs` fresh page loads."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("report_browser", REPO / "tests" / "test_report_browser.py")
    browser = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(browser)  # the tests' headless Chromium driver
    Chromium = browser.Chromium

    names = ("first render s", "zoom s", "pan s", "search s", "errors")
    results: dict[str, list[float]] = {name: [] for name in names}
    chromium = Chromium()
    try:
        for _ in range(runs):
            page = chromium.page()
            try:
                results["first render s"].append(
                    page.open((folder / "documents.html").resolve().as_uri(), timeout=180)
                )
                for name, factor, shift in (("zoom s", 0.25, 0.0), ("pan s", 1.0, 0.2)):
                    seconds = page.evaluate(
                        f"""(async () => {{
                        const gd = document.getElementById('figure'), xa = gd._fullLayout.xaxis,
                              ya = gd._fullLayout.yaxis;
                        const [x0, x1] = xa.range, [y0, y1] = ya.range,
                              cx = (x0 + x1) / 2 + {shift} * (x1 - x0),
                              cy = (y0 + y1) / 2, hx = (x1 - x0) * {factor} / 2,
                              hy = (y1 - y0) * {factor} / 2;
                        const t = performance.now();
                        await Plotly.relayout(gd, {{'xaxis.range': [cx - hx, cx + hx],
                                                    'yaxis.range': [cy - hy, cy + hy]}});
                        await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
                        return (performance.now() - t) / 1000; }})()""",
                        timeout=120,
                    )
                    results[name].append(float(seconds))
                started = time.monotonic()
                page.type_text("#search", query)
                page.wait_for(
                    "Number(document.getElementById('figure').getAttribute('data-matches')) > 0", timeout=180
                )
                results["search s"].append(time.monotonic() - started)
                results["errors"].append(len(page.errors))
            finally:
                page.close()
    finally:
        chromium.close()
    return {name: float(np.median(values)) for name, values in results.items()}


def main(argv: list[str]) -> None:
    step = argv[0]
    if step == "inputs":
        kind, target = argv[1], Path(argv[2])
        values = arxiv_inputs(pca="--pca" in argv) if kind == "arxiv75k" else pipeline_inputs(kind)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(pickle.dumps(values))
        print(
            f"{kind}: {len(values['documents'])} documents, "
            f"{int((values['topics']['topic'] >= 0).sum())} topics -> {target}"
        )
    elif step == "render":
        render(Path(argv[1]), Path(argv[2]))
    elif step == "time":
        folder = Path(argv[1])
        figures = {**sizes(folder), **time_map(folder, *(argv[2:3] or []))}
        print(json.dumps({name: round(value, 2) for name, value in figures.items()}))
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
