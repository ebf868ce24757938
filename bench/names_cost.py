"""fit_topics' cost with and without naming, on NeurIPS 2023, same process, same clusters.

Times the c-TF-IDF fit (fit_topic_model, what fit_topics did before) and the naming step
(NameIndex.build + name_topics + topic_hierarchy) on the clusters bench/names.py cached.

    PYTHONPATH=src .venv/bin/python bench/names_cost.py [corpus]
"""

import pickle
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common_eval as ce  # noqa: E402
import names as bench  # noqa: E402


def main(corpus: str = "neurips") -> None:
    from papertopics.pipeline import default_config
    from papertopics.topics.names.phrases import NameIndex, name_topics, topic_hierarchy
    from papertopics.topics.representation import fit_topic_model

    config = default_config()
    raw, clean, titles, _ = bench.load(corpus)
    vectors = ce.embed(clean)
    assigned, before, _ = pickle.loads(Path(f"/tmp/names-bench-{corpus}.pkl").read_bytes())
    for repeat in range(2):
        start = time.perf_counter()
        fit_topic_model(
            clean,
            vectors,
            assigned,
            vectorizer=config["vectorizer"],
            representation=config["representation"],
            topics=config["topics"],
        )
        fit = time.perf_counter() - start
        start = time.perf_counter()
        index = NameIndex.build(raw, titles)
        built = time.perf_counter() - start
        names = name_topics(index, assigned, fallback=before).names
        named = time.perf_counter() - start
        topic_hierarchy(index, assigned, vectors, names)
        total = time.perf_counter() - start
        print(
            f"{corpus} run {repeat}: c-TF-IDF fit {fit:.2f} s; naming {total:.2f} s "
            f"(index {built:.2f}, names {named - built:.2f}, hierarchy {total - named:.2f})",
            flush=True,
        )


if __name__ == "__main__":
    main(*sys.argv[1:])
