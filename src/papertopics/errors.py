"""Errors a user can act on: each message is one line that names the file, line or key."""


class PapertopicsError(Exception):
    """Base class: the pipeline prints the message alone, without a traceback."""


class ListingError(PapertopicsError):
    """A listing file cannot be read; the message names the file and line, record or field."""


class ConfigError(PapertopicsError):
    """config.yaml is invalid; the message names the key path and what was expected."""


class CorpusTooSmallError(PapertopicsError):
    """Too few documents to model (0 or 1)."""


class StaleResultError(PapertopicsError):
    """An intermediate under results/ was made with other settings than the run's; the message
    names the file and what to delete."""


class CliError(PapertopicsError):
    """A problem with the `papertopics` command line that a user fixes (one line)."""
