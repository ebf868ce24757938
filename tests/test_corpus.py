"""build_corpus: one row per document, every listing it appears in, too-small corpora."""

from pathlib import Path

import pandas as pd
import pytest

from papertopics.errors import CorpusTooSmallError
from papertopics.ingest.corpus import build_corpus
from papertopics.ingest.listings import ListingSpec, read_listing

A1 = "We study sparse autoencoders and find that polysemanticity is a data problem."
A1_VARIANT = "we study sparse-autoencoders, and find that\npolysemanticity is a DATA problem"
A2 = "Diffusion models erase concepts poorly; we propose a fix that keeps image quality."
A3 = "Chain-of-thought reasoning is neither necessary nor sufficient for faithfulness."


def parse(tmp_path: Path, name: str, content: str, ext: str = "txt") -> pd.DataFrame:
    path = tmp_path / f"{name}.{ext}"
    path.write_text(content, encoding="utf-8")
    return read_listing(ListingSpec(name, path))


def test_duplicates_within_and_across_listings_become_one_document(tmp_path):
    a = parse(tmp_path, "a", f"List A\n\n{A1}\n\n{A2}\n\n{A1_VARIANT}\n")
    b = parse(
        tmp_path,
        "b",
        f'{{"title": "T3", "abstract": "{A3}"}}\n{{"title": "T1", "abstract": "{A1.upper()}"}}\n',
        ext="jsonl",
    )
    c = parse(tmp_path, "c", f"List C\n\n{A1}\n")
    corpus, stats = build_corpus([b, a, c])  # config order: b, a, c
    assert list(corpus.columns) == ["doc_id", "listings", "title", "text_raw", "text"]
    assert corpus["listings"].tolist() == ["b", "b;a;c", "a"]
    # first occurrence (listing b) is kept, with its title
    assert corpus["title"].tolist() == ["T3", "T1", ""]
    assert corpus["text_raw"].iloc[1] == A1.upper()
    assert stats["n_documents"] == 3
    assert stats["n_listings"] == 3
    assert stats["n_duplicates_merged"] == 3  # A1 twice in a, once in b, once in c -> 1
    assert stats["listings"]["a"] == {"n_records": 3, "n_documents": 2, "title": "List A"}
    assert stats["listings"]["b"]["title"] == ""
    assert corpus["doc_id"].is_unique


def test_listing_order_is_the_order_given_not_alphabetical(tmp_path):
    z = parse(tmp_path, "zeta", f"{A1}\n\n{A2}\n")
    a = parse(tmp_path, "alpha", f"{A1}\n\n{A3}\n")
    corpus, _ = build_corpus([z, a])
    assert corpus.set_index("text")["listings"][A1] == "zeta;alpha"
    corpus, _ = build_corpus([a, z])
    assert corpus.set_index("text")["listings"][A1] == "alpha;zeta"


def test_extra_columns_are_united_and_missing_values_empty(tmp_path):
    a = parse(tmp_path, "a", f'abstract,label\n"{A1}",ml\n"{A2}",cv\n', ext="csv")
    b = parse(tmp_path, "b", f'abstract,url\n"{A3}",http://x\n"{A2}",http://y\n', ext="csv")
    corpus, _ = build_corpus([a, b])
    assert list(corpus.columns)[-2:] == ["label", "url"]
    assert corpus["label"].tolist() == ["ml", "cv", ""]
    assert corpus["url"].tolist() == ["", "", "http://x"]  # A2 keeps listing a's (empty) url
    assert corpus["listings"].tolist() == ["a", "a;b", "b"]


def test_corpus_survives_parquet(tmp_path):
    a = parse(tmp_path, "a", f"{A1}\n\n{A2}\n")
    corpus, _ = build_corpus([a])
    corpus.to_parquet(tmp_path / "c.parquet")
    back = pd.read_parquet(tmp_path / "c.parquet")
    assert back.astype(str).equals(corpus.astype(str))


@pytest.mark.parametrize("frames_text, n", [([], 0), ([f"{A1}\n"], 1), ([f"{A1}\n", f"{A1_VARIANT}\n"], 1)])
def test_zero_or_one_document_is_too_small(tmp_path, frames_text, n):
    frames = [parse(tmp_path, f"l{i}", t) for i, t in enumerate(frames_text)]
    with pytest.raises(CorpusTooSmallError) as exc:
        build_corpus(frames)
    msg = str(exc.value)
    assert "\n" not in msg
    names = ", ".join(f"l{i}" for i in range(len(frames_text))) or "none"
    plural = "" if n == 1 else "s"
    merged = (
        ", after merging 2 records that are the same abstract (equal once case, spacing and "
        "punctuation are ignored)"
        if len(frames_text) == 2
        else ""
    )
    assert msg == (
        f"the corpus has {n} document{plural} (listings: {names}){merged}; topic modelling needs at least 2"
    )


def test_two_documents_are_enough(tmp_path):
    corpus, stats = build_corpus([parse(tmp_path, "a", f"{A1}\n\n{A2}\n")])
    assert len(corpus) == 2 and stats["n_duplicates_merged"] == 0
