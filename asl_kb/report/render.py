"""Render outcomes as JSON (byte-identical for the same input) or text."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from asl_kb import model

_TEMPLATES = Path(__file__).resolve().parent / "templates"


def public(result: dict) -> dict:
    return {k: v for k, v in result.items() if not k.startswith("_")}


def to_json(result: dict) -> str:
    return json.dumps(public(result), indent=2, sort_keys=False, ensure_ascii=False, default=model.to_json) + "\n"


@cache
def _template():
    """The text template, its jinja2 Environment built and the template
    compiled once per process (jinja2 is imported only for text output)."""
    import jinja2
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(_TEMPLATES)),
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined)
    return env.get_template("outcomes.txt.j2")


def to_text(result: dict, all_paths: bool = False) -> str:
    return _template().render(r=public(result), all_paths=all_paths)
