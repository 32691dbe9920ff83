"""Where the shipped rules and bundled cases are.

Installed (a wheel), they are package data read through importlib.resources
(`asl_kb.rules`, `asl_kb.cases`, mapped from the top-level `rules/` and
`cases/` folders by pyproject.toml). In a source checkout or an editable
install those names do not import, and the folders beside the package are used.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

_SOURCE_TREE = Path(__file__).resolve().parent.parent


@cache
def _folder(name: str) -> Path:
    # the package data of a wheel lies beside this module (asl_kb/rules, ...):
    # looking there first spares `asl-kb --help` the import of importlib.resources
    beside = Path(__file__).resolve().parent / name
    if beside.is_dir():
        return beside
    import importlib.resources
    # asl_kb is a regular package, so files() gives a real directory; the data
    # folders (asl_kb.rules, asl_kb.cases) have no __init__.py and would come
    # back as a MultiplexedPath, which clingo cannot load from.
    shipped = importlib.resources.files("asl_kb") / name
    if isinstance(shipped, Path) and shipped.is_dir():
        return shipped
    return _SOURCE_TREE / name


def rules_dir() -> Path:
    """The shipped rules: entry programs at the top, one folder per chapter."""
    return _folder("rules")


def cases_dir() -> Path:
    """The bundled cases: positions (with their `expect:`), one folder per chapter."""
    return _folder("cases")


def docs_dir() -> Path:
    """The documentation shipped with the package (the rules catalogue the
    HTML report quotes)."""
    return _folder("docs")


def default_position() -> Path:
    """The position `asl-kb outcomes` runs without an argument: the A10.531 EX."""
    return cases_dir() / "rout" / "A10.531-EX.yaml"
