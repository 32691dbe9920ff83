"""Render outcomes (model.Outcomes) as JSON (byte-identical for the same
input) or text."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from asl_kb.model import Outcomes
from asl_kb.report.summary import summary_lines

_TEMPLATES = Path(__file__).resolve().parent / "templates"


def to_json(result: Outcomes) -> str:
    return json.dumps(result.to_json(), indent=2, sort_keys=False, ensure_ascii=False) + "\n"


@cache
def _template():
    """The text template, its jinja2 Environment built and the template
    compiled once per process (jinja2 is imported only for text output)."""
    import jinja2
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(_TEMPLATES)),
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined, bytecode_cache=template_cache())
    return env.get_template("outcomes.txt.j2")


@cache
def template_cache():
    """jinja2's cache of compiled templates (a directory of this user's under
    the system's temporary directory, keyed by each template's checksum):
    compiling the text template was a fifth of a CLI run. None when it cannot
    be made; templates are then compiled as before."""
    import jinja2
    try:
        return jinja2.FileSystemBytecodeCache()
    except (OSError, RuntimeError):
        return None


def to_text(result: Outcomes, all_paths: bool = False, all: bool = False, limit: int | None = None) -> str:
    """Text: each unit's fates summarised (summary.py), or every fate with
    `all` (implied by `all_paths`); `limit`: at most that many items of
    each listing (the whole-phase outcomes are cut by the engine)."""
    return _template().render(r=result, all_paths=all_paths, all=all or all_paths, limit=limit,
                              summary_lines=summary_lines)
