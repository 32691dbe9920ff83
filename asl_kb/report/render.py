"""Render outcomes (model.Outcomes) as JSON (byte-identical for the same
input) or text (asl_kb/report/text.py)."""
from __future__ import annotations

from asl_kb.model import Outcomes
from asl_kb.report.jsontext import indented
from asl_kb.report.text import to_text

__all__ = ["to_json", "to_text"]


def to_json(result: Outcomes) -> str:
    return indented(result.to_json()) + "\n"
