"""Fuzzing: whatever bytes a listing holds, read_listing returns documents or raises ListingError."""

import gzip
import json
import re
import tempfile
import warnings
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from papertopics.errors import ListingError
from papertopics.ingest.listings import ListingSpec, ListingWarning, read_listing

WORDS = [
    "model",
    "learning",
    "we",
    "propose",
    "graph",
    "$k$",
    "$\\mathcal{O}(n)$",
    "\\emph{x}",
    "*bold*",
    "_it_",
    "&amp;",
    "<i>",
    "</i>",
    "\u2011",
    "\u00a0",
    "\u200b",
    "{",
    "}",
    "\\",
    "$$",
    "论文",
    "—",
    "https://x.org/a",
    "\\textbf{",
    "\\frac{1}{2}",
    "é",
    "\ufeff",
    "\x00",
    "\x07",
    "\t",
    "\r",
    "\x0c",
    "#",
    ",",
    '"',
    "\n",
]
word = st.one_of(st.sampled_from(WORDS), st.text(max_size=8))
line = st.lists(word, max_size=12).map(" ".join)
paragraph = st.lists(line, min_size=1, max_size=3).map("\n".join)
separator = st.sampled_from(["\n\n", "\n \n", "\r\n\r\n", "\n\t\n\n", "\n"])


@st.composite
def listing(draw):
    header = draw(st.one_of(st.just(""), line, st.just("NeurIPS 2026 论文列表")))
    paras = draw(st.lists(paragraph, max_size=5))
    seps = [draw(separator) for _ in paras]
    body = header + "".join(s + p for s, p in zip(seps, paras))
    fmt = draw(st.sampled_from(["text", "text", "text", "csv", "tsv", "jsonl", "json"]))
    if fmt == "jsonl" and draw(st.booleans()):
        body = "\n".join(json.dumps({"abstract": p, "title": header}) for p in paras)
    elif fmt == "json" and draw(st.booleans()):
        body = json.dumps([{"Abstract": p} for p in paras])
    elif fmt in ("csv", "tsv") and draw(st.booleans()):
        d = "," if fmt == "csv" else "\t"
        body = f"title{d}abstract\n" + "".join(f'"{header}"{d}"{p}"\n' for p in paras)
    encoding = draw(
        st.sampled_from(
            ["utf-8", "utf-8", "utf-8-sig", "utf-16", "utf-16-le", "gb18030", "latin-1", "cp1252"]
        )
    )
    data = body.encode(encoding, errors="replace")
    if draw(st.integers(0, 9)) == 0:  # flip, drop or append raw bytes
        noise = draw(st.binary(max_size=16))
        at = draw(st.integers(0, len(data)))
        data = data[:at] + noise + data[at + draw(st.integers(0, 4)) :]
    if draw(st.integers(0, 9)) == 0:
        data = gzip.compress(data)
        if draw(st.booleans()):
            data = data[: draw(st.integers(0, len(data)))]
    return fmt, data


_TMP = Path(tempfile.mkdtemp(prefix="fuzz_listings_"))
_PATH = _TMP / "fuzz.listing"


@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(listing())
def test_read_listing_returns_documents_or_raises_listing_error(case):
    fmt, data = case
    _PATH.write_bytes(data)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ListingWarning)
            df = read_listing(ListingSpec("fuzz", _PATH, format=fmt), max_chars=500)
    except ListingError as e:
        event(f"ListingError: {re.sub(r'[0-9]+', 'N', str(e).split(': ', 1)[1])[:40]}")
        msg = str(e)
        assert msg.startswith(str(_PATH) + ": ") and "\n" not in msg, msg
        return
    event("documents")
    assert len(df) >= 1
    assert list(df.columns[:5]) == ["doc_id", "listing", "title", "text_raw", "text"]
    assert df["doc_id"].str.fullmatch(r"[0-9a-f]{16}").all()
    for text in df["text"]:
        assert text and text == text.strip() and len(text) <= 520
        assert not re.search(r"[\x00-\x1f\x7f\u200b\ufeff\ue000-\ue00f]", text), repr(text)
    for column in df.columns:  # storable in parquet: strings without lone surrogates
        assert all(isinstance(v, str) and v.encode("utf-8") is not None for v in df[column])


_FIXTURES = Path(__file__).resolve().parent / "fixtures"
_EXPORTS = [
    "zotero.bib",
    "scopus.bib",
    "wos.bib",
    "scopus.ris",
    "savedrecs.txt",
    "savedrecs_tab.txt",
    "pubmed.nbib",
    "ieee.csv",
    "scopus.csv",
    "openalex.json",
    "openreview.json",
]


@st.composite
def damaged_export(draw):
    """A real-looking export with lines dropped, doubled, cut or garbled: what a user gets from
    a download that stopped, a hand edit, or two exports pasted together."""
    name = draw(st.sampled_from(_EXPORTS))
    lines = (_FIXTURES / name).read_text(encoding="utf-8").split("\n")
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, max(len(lines) - 1, 0)))
        action = draw(st.sampled_from(["drop", "double", "cut", "garble"]))
        if action == "drop" and lines:
            del lines[at]
        elif action == "double" and lines:
            lines.insert(at, lines[at])
        elif action == "cut" and lines:
            lines[at] = lines[at][: draw(st.integers(0, len(lines[at])))]
        else:
            lines.insert(
                at, draw(st.sampled_from(["@", "{", '"', "}", "ER", "PT J", "TY  - ", "\t", "@article{ ,"]))
            )
    return name, "\n".join(lines).encode("utf-8")


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(damaged_export())
def test_damaged_exports_give_documents_or_one_line_errors(case):
    name, data = case
    path = _TMP / name
    path.write_bytes(data)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ListingWarning)
            df = read_listing(ListingSpec("fuzz", path), max_chars=2000)
    except ListingError as e:
        msg = str(e)
        assert msg.startswith(str(path) + ": ") and "\n" not in msg, msg
        return
    assert len(df) >= 1 and df["text"].str.len().min() > 0
