"""Steering that is never silently wrong (issue 51): config.yaml values YAML or JSON schema would
read wrongly, names and pins tied to the run the reader saw, pins that change nothing else."""

from __future__ import annotations

import pytest

from papertopics.config import check_config, default_config, read_config_file
from papertopics.errors import ConfigError


def _checked(tmp_path, text: str) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("listings: [a.txt]\n" + text, encoding="utf-8")
    check_config(read_config_file(path), source=str(path), partial=True)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        # issue 51 row 9: .nan passed the schema's bounds and acted as 0
        ("topics:\n  pinned_min_similarity: .nan\n", "topics.pinned_min_similarity: .nan is not a number"),
        # row 10: YAML 1.1 read 012 as the octal 10 (renaming topic 10)
        ("topics:\n  names:\n    012: mine\n", "line 4, column 5: 012 reads as the number 10 in YAML"),
        # row 10: 5: and "5": both given, one dropped silently
        ("topics:\n  names:\n    5: a\n    '5': b\n", "topics.names: topic 5 is named twice (5 and '5')"),
        (
            "topics:\n  names:\n    5: a\n    5: b\n",
            "line 5, column 5: 5 is given twice in one mapping (also line 4)",
        ),
    ],
)
def test_values_yaml_or_the_schema_would_read_wrongly_are_one_line(tmp_path, text, says):
    with pytest.raises(ConfigError) as error:
        _checked(tmp_path, text)
    message = str(error.value)
    assert says in message and str(tmp_path / "config.yaml") in message, message
    assert "\n" not in message


def test_plain_numbers_and_quoted_ids_still_read(tmp_path):
    _checked(tmp_path, "topics:\n  names:\n    12: a\n    0: b\n  pinned_min_similarity: 0.25\n")
    config = default_config(topics={"names": {3: "mine", "12": "also"}})
    config["listings"] = ["a.txt"]
    check_config(config)
