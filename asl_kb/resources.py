"""Where the shipped rules and bundled cases are.

Installed (a wheel), they are package data beside this module (`asl_kb/rules`,
`asl_kb/facts`, mapped from the top-level `rules/` and `facts/` folders by
pyproject.toml; a loader that does not unpack the package is asked through
importlib.resources). In a source checkout or an editable install, the folders
beside the package are used.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_SOURCE_TREE = Path(__file__).resolve().parent.parent


@cache
def _folder(name: str) -> Path:
    # The package data of a wheel lies beside this module (asl_kb/rules, ...);
    # in a source checkout or an editable install, beside the package. Both
    # are plain paths checked first: importing importlib.resources costs more
    # than the rest of `asl-kb --help`.
    beside = Path(__file__).resolve().parent / name
    if beside.is_dir():
        return beside
    if (_SOURCE_TREE / name).is_dir():
        return _SOURCE_TREE / name
    import importlib.resources

    # Anything else (e.g. a loader that does not unpack the package): ask
    # importlib.resources; clingo needs a real directory.
    shipped = importlib.resources.files("asl_kb") / name
    if isinstance(shipped, Path) and shipped.is_dir():
        return shipped
    return _SOURCE_TREE / name


def rules_dir() -> Path:
    """The shipped rules: entry programs at the top, one folder per chapter."""
    return _folder("rules")


def cases_dir() -> Path:
    """The bundled cases: positions (with their `expect:`), one folder per chapter."""
    return _folder("facts")


def docs_dir() -> Path:
    """The documentation shipped with the package (the rules catalogue the
    HTML report quotes)."""
    return _folder("docs")


def default_position() -> Path:
    """The position `asl-kb outcomes` runs without an argument: the A10.531 EX."""
    return cases_dir() / "rout" / "A10.531-EX.yaml"
