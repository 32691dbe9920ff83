"""Render outcomes as JSON (byte-identical for the same input) or text."""
from __future__ import annotations

import json
from pathlib import Path

import jinja2

from asl_kb import model
from asl_kb.report.summary import summary_lines

_TEMPLATES = Path(__file__).resolve().parent / "templates"


def public(result: dict) -> dict:
    return {k: v for k, v in result.items() if not k.startswith("_")}


def to_json(result: dict) -> str:
    return json.dumps(public(result), indent=2, sort_keys=False, ensure_ascii=False, default=model.to_json) + "\n"


def to_text(result: dict, all_paths: bool = False, all: bool = False, limit: int | None = None) -> str:
    """Text: each unit's fates summarised (summary.py), or every fate with
    `all` (implied by `all_paths`); `limit`: at most that many items of
    each listing (the whole-phase outcomes are cut by the engine)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(_TEMPLATES)),
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined)
    return env.get_template("outcomes.txt.j2").render(r=public(result), all_paths=all_paths,
                                                    all=all or all_paths, limit=limit,
                                                    summary_lines=summary_lines)
