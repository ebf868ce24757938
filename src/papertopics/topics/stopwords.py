"""Stop words for topic keywords (English plus the words every ML abstract uses) and plural folding.

Without the domain list, c-TF-IDF labels on a conference listing read "model, method,
results": true of every topic, useful for none.
"""

from __future__ import annotations

# scikit-learn's ENGLISH_STOP_WORDS, copied so that fit_topics and the names need not import
# scikit-learn (about 1 s per process); tests/test_ctfidf.py checks the copy against it.
ENGLISH_STOP_WORDS = frozenset(
    """
    a about above across after afterwards again against all almost alone along already also
    although always am among amongst amoungst amount an and another any anyhow anyone anything
    anyway anywhere are around as at back be became because become becomes becoming been before
    beforehand behind being below beside besides between beyond bill both bottom but by call can
    cannot cant co con could couldnt cry de describe detail do done down due during each eg
    eight either eleven else elsewhere empty enough etc even ever every everyone everything
    everywhere except few fifteen fifty fill find fire first five for former formerly forty
    found four from front full further get give go had has hasnt have he hence her here
    hereafter hereby herein hereupon hers herself him himself his how however hundred i ie if in
    inc indeed interest into is it its itself keep last latter latterly least less ltd made many
    may me meanwhile might mill mine more moreover most mostly move much must my myself name
    namely neither never nevertheless next nine no nobody none noone nor not nothing now nowhere
    of off often on once one only onto or other others otherwise our ours ourselves out over own
    part per perhaps please put rather re same see seem seemed seeming seems serious several she
    should show side since sincere six sixty so some somehow someone something sometime
    sometimes somewhere still such system take ten than that the their them themselves then
    thence there thereafter thereby therefore therein thereupon these they thick thin third this
    those though three through throughout thru thus to together too top toward towards twelve
    twenty two un under until up upon us very via was we well were what whatever when whence
    whenever where whereafter whereas whereby wherein whereupon wherever whether which while
    whither who whoever whole whom whose why will with within without would yet you your yours
    yourself yourselves
    """.split()
)

DOMAIN_STOP_WORDS = frozenset(
    """
    paper papers work works study studies propose proposed proposes proposing present presents
    presented introduce introduces introduced show shows showed shown demonstrate demonstrates
    demonstrated result results method methods approach approaches model models based using
    use used uses novel new existing prior previous recent recently state art sota framework
    frameworks technique techniques algorithm algorithms performance experiment experiments
    experimental extensive empirical empirically evaluate achieve achieves
    achieved achieving outperform outperforms outperforming improve improves improved improvement
    improvements improving significantly significant substantially effective effectively
    efficient efficiently problem problems task tasks setting settings key main challenge
    challenges challenging address addresses provide provides providing enable enables enabling
    various different specific general wide widely range large small high low better best
    strong stronger remains remain remaining recent standard code available github com https
    http www furthermore moreover specifically particular particularly respectively including
    lead leads leading yield yields make makes making furthermore despite able ability help
    helps crucial important critical fundamental simple simply effectiveness superior compared
    comparison comparable baseline baselines demonstrating
    existing consistently consistent analysis analyze analyzes theoretical theoretically
    practical practice real world however thus therefore first second third one two three
    via across within without well also often may can could would us ours etc et al
    """.split()
)


def stop_words(domain: bool = True, extra: list[str] | tuple[str, ...] = ()) -> list[str]:
    """Sorted list for CountVectorizer (sorted so the saved model is byte-stable)."""
    words = set(ENGLISH_STOP_WORDS)
    if domain:
        words |= DOMAIN_STOP_WORDS
    words |= {w.lower() for w in extra}
    return sorted(words)


# Singulars in -s that the suffix rules below would cut ("bias" is no plural of "bia"), and their
# plurals in -es; a hand list of the ones abstracts use, as no inflection library is a dependency.
_IN_S = {w: base for base in ("bias", "alias", "atlas", "canvas", "lens", "gas") for w in (base, base + "es")}
_SAME_IN_PLURAL = frozenset(("series", "species", "news"))  # not "sery", "specy", "new"


def singular(word: str) -> str:
    """Crude plural folding ("networks" -> "network", "biases" -> "bias", "analyses" ->
    "analysis"; not "loss", "analysis", "series" or "news")."""
    if word in _IN_S:
        return _IN_S[word]
    if word.lower() in _SAME_IN_PLURAL:
        return word
    if len(word) <= 3 or not word.endswith("s") or word.endswith(("ss", "us", "is", "ics")):
        return word
    if word.endswith(("yses", "theses")):  # analyses, hypotheses
        return word[:-2] + "is"
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "ches", "shes", "xes", "zes")):
        return word[:-2]
    return word[:-1]


def plural(word: str) -> str:
    """The plural that `singular` folds back to `word` ("model" -> "models", "policy" ->
    "policies", "bias" -> "biases"); the word itself where none does ("analysis")."""
    if word.endswith(("s", "x", "z", "ch", "sh")):
        form = word + "es"
    elif word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        form = word[:-1] + "ies"
    else:
        form = word + "s"
    return form if singular(form) == word else word
