"""clean_text on the constructs found in the seeds and the two real listings."""

import re
from pathlib import Path

import pytest

from papertopics.ingest.text import clean_text

ROOT = Path(__file__).resolve().parents[1]
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))
# a keyword tokenizer like scikit-learn's default: words of two or more characters
TOKEN = re.compile(r"(?u)\b\w\w+\b")
LATEX_JUNK = re.compile(
    r"^(mathcal|mathbb|mathrm|mathbf|mathsf|mathit|mathtt|mathscr|mathfrak|text(bf|it|tt|sc|rm|sf)|emph|frac|d?frac|sqrt|cite[pt]?|href|url|footnote|"
    r"unicode|operatorname|varepsilon|epsilon|subsetneq|leq|geq|rightarrow|widetilde|tilde|"
    r"boldsymbol|textcolor|displaystyle|mathbbm)$"
)


@pytest.mark.parametrize(
    "raw, expected",
    [
        # seeds
        ("decline of Pass@$k$ performance", "decline of Pass@k performance"),
        (
            r"design a \textit{simple yet effective} data curation",
            "design a simple yet effective data curation",
        ),
        (r"The \emph{Pok\'emon theorem} shows", "The Pokémon theorem shows"),
        ("makes *efficient* use of _panel complexity_", "makes efficient use of panel complexity"),
        ("*Chains\u2011of\u2011thought* are", "Chains-of-thought are"),
        (r"hierarchy theorem for \CoT-based computation", "hierarchy theorem for CoT-based computation"),
        (r"(USP) \cite{marsdenuniversal} is a method", "(USP) is a method"),
        (r"$\Omega(\frac{1}{\epsilon}\sqrt{\text{VC}(\mathcal{H})/n})$ samples", "Ω(1/ε√(VC(H)/n)) samples"),
        (
            r"any $\varepsilon > 0$, $$ \mathrm{CoT}(r(n)) "
            r"\subsetneq \mathrm{CoT}(r(n)^{1+\varepsilon}), $$ where",
            "any ε > 0, CoT(r(n)) ⊊ CoT(r(n)^(1+ε)), where",
        ),
        (r"in $O(n \log n)$ time", "in O(n log n) time"),
        ("for $k$-means and $\\ell_1$ loss", "for k-means and l1 loss"),
        # real listings: arXiv hard line breaks and a word hyphenated at a line end
        (
            "leveraging the knowledge from multiple\nmodalities in training",
            "leveraging the knowledge from multiple modalities in training",
        ),
        ("a state-of-the-\nart model", "a state-of-the-art model"),
        # \textbf written into JSON without escaping the backslash: TAB + "extbf"
        ("we propose \textbf{FETV}, a benchmark", "we propose FETV, a benchmark"),
        ("the $\\alpha,\x08eta$-CROWN verifier", "the α,β-CROWN verifier"),
        (
            "publicly available\x0cootnote{https://github.com/a/b} for research",
            "publicly available for research",
        ),
        (r"available at \href{https://github.com/x/y}{https://github.com/x/y}.", "available at."),
        (
            "The code is available athttps://github.com/Virusdoll/Active-Negative-Loss.",
            "The code is available at.",
        ),
        ("code at https: //github.com/rajatmodi62/Occluded. Next", "code at. Next"),
        (r"\textcolor{blue}{Second}, motivated", "Second, motivated"),
        ("we present **M**e**L**o**D**y (**M** for music)", "we present MeLoDy (M for music)"),
        ("the **DiPlomat**, which", "the DiPlomat, which"),
        ("meaning <i>resolution</i>; the other", "meaning resolution; the other"),
        ("the <think> tokens", "the <think> tokens"),
        ("from 60.6 &#177; 1.2 &amp; more", "from 60.6 ± 1.2 & more"),
        (r"text$\unicode{x2014}$even under", "text - even under"),
        (r"improves by 12.5\% on VRU\_Data", "improves by 12.5% on VRU_Data"),
        (r"costs \$20 per run", "costs $20 per run"),
        (r"{\em Abstract} and {\bf bold}", "Abstract and bold"),
        ("\\[ \\lambda^\\star(u) \\propto \\exp(-x) \\]", "λ^*(u) ∝ exp (-x)"),
        # odd Unicode
        ("non\u00a0breaking\u2009thin\u202fnarrow", "non breaking thin narrow"),
        ("zero\u200bwidth soft\u00adhyphen \ufefffeff", "zerowidth softhyphen feff"),
        ("en\u2013dash em\u2014dash minus\u2212one", "en-dash em - dash minus-one"),
        ("models\u2019 \u201cquoted\u201d \ufb01ne", 'models\' "quoted" fine'),
        ("bell\x07 null\x00 del\x7f c1\x85end", "bell null del c1 end"),
        ("  lines\r\n  with\n\n\tspace  ", "lines with space"),
    ],
)
def test_clean_text_constructs(raw, expected):
    assert clean_text(raw) == expected


def test_clean_text_non_string_is_empty():
    assert clean_text(None) == ""
    assert clean_text(float("nan")) == ""


def test_unbalanced_markup_keeps_the_words():
    out = clean_text(r"we show $x = \frac{1}{ that {unclosed \textbf{bold and *star and _under")
    for word in ("we", "show", "that", "unclosed", "bold", "star", "under"):
        assert word in out.split() or word in out


@pytest.mark.skipif(not SEEDS, reason="seeds/ missing")
def test_seed_abstracts_leave_no_latex_markdown_or_control_characters():
    for path in SEEDS:
        paragraphs = path.read_text(encoding="utf-8").split("\n\n")[1:]
        for para in paragraphs:
            out = clean_text(para)
            assert not re.search(r"[\\$]|\*\*|[{}]|[\x00-\x1f\u00a0\u2011]", out), out
            junk = [t for t in TOKEN.findall(out) if LATEX_JUNK.match(t)]
            assert not junk, (junk, out[:120])
            assert "\n" not in out and out == out.strip()


def test_math_keeps_meaningful_symbols_but_no_command_names():
    out = clean_text(r"bounds $\tilde{O}(\sqrt{\text{VC}(\mathcal{H})/(\epsilon n)})$ and $\mathbb{R}^d$")
    assert out == "bounds O(√(VC(H)/(ε n))) and R^d"
    assert not [t for t in TOKEN.findall(out) if LATEX_JUNK.match(t)]


def test_deep_nesting_does_not_crash():
    assert clean_text("{" * 5000 + "x" + "}" * 5000) == "x"
    assert "√x)" in clean_text("\\sqrt " * 3000 + "x")


@pytest.mark.parametrize(
    "raw, expected",
    [
        (r"We use \texttt{LLaMA} and \textsc{Bert} with \emph{care}", "We use LLaMA and Bert with care"),
        (r"fine-tune \texttt{LLaMA-2} with \ours{} and \name", "fine-tune LLaMA-2 with ours and name"),
        (
            r"baselines \citep{x}, and code at \href{https://x.org}{our site}.",
            "baselines, and code at our site.",
        ),
        (
            r"{{Animal level}} risk in Schr{\"o}dinger's \& Pok\'emon",
            "Animal level risk in Schrödinger's & Pokémon",
        ),
        (
            r"Fig.~3 keeps $\ell_1$ and $\frac{a}{b}$ as written",
            r"Fig. 3 keeps $\ell_1$ and $\frac{a}{b}$ as written",
        ),
    ],
)
def test_decode_latex_keeps_a_commands_words_and_leaves_math(raw, expected):
    from papertopics.ingest.text import decode_latex

    assert decode_latex(raw) == expected


@pytest.mark.parametrize(
    "raw, abstract, notice",
    [
        (
            "We test it. © 2023 Elsevier Inc. All rights reserved.",
            "We test it.",
            "© 2023 Elsevier Inc. All rights reserved.",
        ),
        (
            "We test it. © The Author(s), 2023. Published by Cambridge University Press on behalf of X.",
            "We test it.",
            "© The Author(s), 2023. Published by Cambridge University Press on behalf of X.",
        ),
        ("We test it.\nCopyright © 2022 IEEE.", "We test it.", "Copyright © 2022 IEEE."),
        ("We test it. (C) 2019 Elsevier B.V.", "We test it.", "(C) 2019 Elsevier B.V."),
        # the forms of issue 49: after "; ", a second ©, the journal's citation first, Crown
        # Copyright, a notice in parentheses, the year last
        (
            "We test it.; Copyright © 2024 by the American Academy of Pediatrics © 2024 American Academy",
            "We test it.",
            "Copyright © 2024 by the American Academy of Pediatrics © 2024 American Academy",
        ),
        (
            "We test it. European Journal of Cancer Prevention 22:262-267 (C) 2013 Wolters Kluwer Health"
            " vertical bar Lippincott Williams & Wilkins",
            "We test it.",
            "European Journal of Cancer Prevention 22:262-267 (C) 2013 Wolters Kluwer Health vertical bar"
            " Lippincott Williams & Wilkins",
        ),
        (
            "We test it. Crown Copyright (C) 2012 Published by Elsevier Masson SAS. All rights reserved.",
            "We test it.",
            "Crown Copyright (C) 2012 Published by Elsevier Masson SAS. All rights reserved.",
        ),
        (
            "We test it. ((c) 2012 by Astro Ltd., Published exclusively by WILEY-VCH Verlag GmbH & Co. KGaA)",
            "We test it.",
            "((c) 2012 by Astro Ltd., Published exclusively by WILEY-VCH Verlag GmbH & Co. KGaA)",
        ),
        (
            "We test it. © International Headache Society 2023.",
            "We test it.",
            "© International Headache Society 2023.",
        ),
        (
            "We test it. (c) International Headache Society 2023.",
            "We test it.",
            "(c) International Headache Society 2023.",
        ),
        ("We test it. (c) 2020 Wiley Periodicals, Inc.", "We test it.", "(c) 2020 Wiley Periodicals, Inc."),
        (
            "We test the swelling (C) 2010 Elsevier Ltd All rights reserved",
            "We test the swelling",
            "(C) 2010 Elsevier Ltd All rights reserved",
        ),
        (
            "We test it. Copyright: © 2023 Lukowski et al. This is open access.",
            "We test it.",
            "Copyright: © 2023 Lukowski et al. This is open access.",
        ),
        # an enumeration and a sentence about copyright are text
        ("We show (a) this, (b) that. (c) We prove it.", "We show (a) this, (b) that. (c) We prove it.", ""),
        (
            "Copyright law shapes training data. We study it.",
            "Copyright law shapes training data. We study it.",
            "",
        ),
        ("[No abstract available]", "", ""),
        ("No abstract available.", "", ""),
        ("Abstract not available", "", ""),
        ("N/A", "", ""),
    ],
)
def test_split_abstract_drops_placeholders_and_publisher_notices(raw, abstract, notice):
    from papertopics.ingest.text import split_abstract

    assert split_abstract(raw) == (abstract, notice)


def test_structured_abstract_headings_are_not_text():
    raw = (
        "BACKGROUND: Sepsis is common. METHODS: We pooled 12 trials. RESULTS: Mortality fell. "
        "CONCLUSIONS: Early antibiotics help."
    )
    assert clean_text(raw) == "Sepsis is common. We pooled 12 trials. Mortality fell. Early antibiotics help."
    emerald = "Purpose - This paper studies X. Design/methodology/approach - A survey of 300 firms."
    assert clean_text(emerald) == "This paper studies X. A survey of 300 firms."
    # a colon inside a sentence is no heading
    assert clean_text("Our results: a 5% gain.") == "Our results: a 5% gain."
    # after any sentence end, with a space before the colon; a ratio's colon, a dash inside a
    # sentence and a heading with nothing after it stay
    assert clean_text("Methods : we did. Results - fine! Conclusion: ok") == "we did. fine! ok"
    assert (
        clean_text("The ratio was 3:1. Results: the method works - mostly.")
        == "The ratio was 3:1. the method works - mostly."
    )
    assert clean_text("Summary:") == "Summary:"


def test_display_text_for_titles_and_authors():
    from papertopics.ingest.text import display_text

    assert (
        display_text("Risk in <i>E. coli</i> &amp; cattle:\n   a   review")
        == "Risk in E. coli & cattle: a review"
    )


@pytest.mark.parametrize(
    "raw, expected",
    [
        (
            "<jats:title>Abstract</jats:title><jats:p>Worldwide scientific <jats:italic>output</jats:italic>"
            " grows.</jats:p>",
            "Worldwide scientific output grows.",
        ),
        (
            'IL-<inline-formula><tex-math notation="LaTeX">1\\beta</tex-math><alternatives><mml:math>'
            "<mml:mn>1</mml:mn><mml:mi>β</mml:mi></mml:math></alternatives></inline-formula> signalling",
            "IL-1β signalling",
        ),
        ("We use <inline-formula><tex-math>\\alpha_1</tex-math></inline-formula> here.", "We use α1 here."),
    ],
)
def test_jats_and_mathml_leave_no_tag_in_text_or_titles(raw, expected):
    """Issue 51 row 13: Crossref and Lens write JATS and MathML; no tag is embedded, named or shown."""
    from papertopics.ingest.text import display_text

    assert clean_text(raw) == expected
    assert "<" not in display_text(raw) and "jats" not in display_text(raw)
