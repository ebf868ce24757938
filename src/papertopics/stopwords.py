"""Stop words for topic keywords: English plus the words every ML abstract uses.

Without the domain list, c-TF-IDF labels on a conference listing read "model, method,
results": true of every topic, useful for none.
"""

from __future__ import annotations

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

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
