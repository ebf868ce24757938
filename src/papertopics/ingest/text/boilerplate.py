"""What an export adds around an abstract: a placeholder for a missing one, the publisher's
copyright notice, the headings of a structured abstract."""

from __future__ import annotations

import re

__all__ = ["drop_headings", "split_abstract"]

# Databases' stand-ins for a missing abstract (Scopus's "[No abstract available]", IEEE Xplore's
# "First Page of the Article" for a scanned paper, ...): empty.
_RE_PLACEHOLDER = re.compile(
    r"[\s\[\](){}<>.*_-]*(?:no\s+abstract(?:\s+is)?(?:\s+available)?(?:\s+for\s+this\s+\w+)?"
    r"|abstract(?:\s+is)?\s+(?:not\s+available|unavailable|missing)|not\s+available|n/?a|none|null|nan"
    r"|abstract|tba|tbd|to\s+be\s+announced|first\s+page\s+of\s+the\s+article)[\s\[\](){}<>.*_-]*",
    re.I,
)
# A publisher's notice ending an abstract, from the sentence that opens it to the end:
# "© 2023 Elsevier Inc. All rights reserved.", "© The Author(s), 2023. Published by ...",
# "Copyright © 2022 ...", "(C) 2019 Elsevier B.V.", "Crown Copyright (C) 2012 ...",
# "((c) 2012 by Astro Ltd., ...)", "(c) International Headache Society 2023" (the year last), a
# second notice after the first ("Copyright © 2024 by X © 2024 X"), after a "; " (Scopus) or
# after the journal's citation ("European Journal of Cancer Prevention 22:262-267 (C) 2013 ...",
# Web of Science), or with no full stop before it when a year and a name follow ("... the
# swelling (C) 2010 Elsevier Ltd", old WoS; "... NCT04540315 © 2021" at the end, Scopus); JMIR's
# notice naming every author and the licence runs to 1,200 characters; "Copyrights ©" too.
# "(c)" needs a year or a capitalised name and a year after it (or two digits, a name and "All
# rights reserved": "(C)12 Elsevier Ltd. All rights reserved."), and "Copyright" a ©, (c) or
# year, so "(c) we show ...", "(c) 12 Patients ..." and "Copyright law ..." stay.
_NOTICE_OPENS = (
    r"(?:©|(?:Crown\s+)?Copyrights?\s*:?\s*(?:©|\([cC]\)|\d{4})"
    r"|\(?\([cC]\)\s*(?:\d{4}|\d{2}\s+[A-Z][^.]{0,80}\.\s+All\s+rights\s+reserved"
    r"|The\s+Author|[A-Z][\w&.,' -]{0,120}?\b(?:19|20)\d{2}\b))"
)
_CITATION = r"(?:[A-Z][\w&,' -]{2,120}?\s+\d+\s*(?:\(\d+\))?\s*:\s*\d+(?:\s*-\s*\d+)?\s+)?"
# with no full stop before it: a © (or "Copyright ©") with a year next, or a capitalised name and
# a year ("... models © International Headache Society 2023.")
_UNSTOPPED = (
    r"\s+(?=(?:Copyright\s*)?(?:©|\([cC]\))\s*(?:(?:19|20)\d{2}(?:\s+[A-Z]|,|\s*$)"
    r"|[A-Z][\w&.,' -]{0,80}?\b(?:19|20)\d{2}\b[^\w]{0,3}$))"
)
_RE_NOTICE = re.compile(
    r"(?:^|(?<=[.!?\"')\];])\s+|\s*\n\s*|" + _UNSTOPPED + r")"
    r"(" + _CITATION + _NOTICE_OPENS + r".{0,1200}?)\s*$",
    re.S,
)
# A notice opening the abstract ("© International Headache Society 2023. We study ..."): to the
# end of its first sentence and an "All rights reserved." after it, when an abstract follows
_RE_LEADING = re.compile(
    r"\s*(" + _NOTICE_OPENS + r".{0,300}?\.(?:\s+All\s+rights\s+reserved\.?)?)\s+(?=[A-Z])", re.S
)
_LEADING_MIN_WORDS = 10  # what follows a leading notice is an abstract, not the notice's rest


def split_abstract(raw: str) -> tuple[str, str]:
    """(abstract, notice): a placeholder for a missing abstract gives ("", ""); a publisher's
    copyright notice at the end is split off (docs/listings.md, "Cleaning rules")."""
    if len(raw) < 48 and _RE_PLACEHOLDER.fullmatch(raw):
        return "", ""
    if "©" not in raw and "(c)" not in raw.lower() and "opyright" not in raw:
        return raw, ""
    lead = _RE_LEADING.match(raw)
    if lead and len(raw[lead.end() :].split()) >= _LEADING_MIN_WORDS:
        body, notice = split_abstract(raw[lead.end() :])
        return body, " ".join(" ".join((lead.group(1), notice)).split())
    m = _RE_NOTICE.search(raw)
    if not m:
        return raw, ""
    return raw[: m.start()].rstrip().rstrip(";").rstrip(), " ".join(m.group(1).split())


# Headings of a structured abstract ("BACKGROUND: ... METHODS: ..."; Emerald's "Purpose -"):
# dropped from the text that is embedded and named, so they never become topic terms.
_HEADINGS = (
    "abstract|background|backgrounds|introduction|context|objective|objectives|aim|aims|purpose|"
    "goal|goals|motivation|problem|rationale|hypothesis|methods|method|methodology|"
    "materials and methods|methods and materials|patients and methods|study design|design|"
    "setting|settings|participants|patients|subjects|population|interventions|intervention|"
    "measurements|main outcome measures|main outcomes and measures|outcomes|approach|"
    "design/methodology/approach|results|result|findings|main results|conclusion|conclusions|"
    "conclusions and relevance|interpretation|discussion|significance|implications|"
    "practical implications|social implications|research limitations/implications|"
    "originality/value|originality|value|limitations|relevance|trial registration|"
    "clinical trial registration|evidence|importance|exposures|summary"
)
_HEADING_NAMES = frozenset(_HEADINGS.split("|"))
_HEADING_MARKS = (":", " - ")  # "METHODS:", "Purpose - " (dashes are "-" by now)


def drop_headings(s: str) -> str:
    """`s` without the headings of a structured abstract: a known heading word or phrase
    between the text's (or a sentence's) start and a colon or spaced dash. The marks are found
    with str.find (a C scan, several times faster than a regex's scan of an abstract), a few
    per abstract, and only the 50 characters before each are looked at (bench/parse_time.py)."""
    if ":" not in s and " - " not in s:  # the cheap test: a heading needs one of these
        return s
    marks = []
    for mark in _HEADING_MARKS:
        i = s.find(mark)
        while i >= 0:
            marks.append((i, i + len(mark)))
            i = s.find(mark, i + len(mark))
    marks.sort()
    out: list[str] = []
    last = 0
    for end, after in marks:
        window = max(0, end - 50)
        cut = max(s.rfind(". ", window, end), s.rfind("! ", window, end), s.rfind("? ", window, end))
        start = cut + 2 if cut >= 0 else (0 if window == 0 else -1)
        if start < last or s[start:end].strip().lower() not in _HEADING_NAMES:
            continue
        while after < len(s) and s[after] == " ":
            after += 1
        if after == len(s):
            continue
        out.append(s[last:start])
        last = after
    return "".join(out) + s[last:] if out else s
