"""papertopics: topic maps for listings of paper abstracts."""

__version__ = "0.1.0"
