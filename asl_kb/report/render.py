"""Render outcomes (model.Outcomes) as JSON (byte-identical for the same
input) or text (asl_kb/report/text.py).

The JSON is the text of json.dumps(indent=2, ensure_ascii=False)
(report/jsontext.py); a unit's fates, most of the text where a unit has
thousands of them (an open board), are written by orjson, whose indented
text is the same for the values a fate holds -- strings, booleans, small
ints and percents to one decimal (json.dumps and orjson differ only on a
float below 1e-4 or not finite, an int past 64 bits, a key not a string)."""
from __future__ import annotations

from asl_kb.model import Outcomes
from asl_kb.report.jsontext import Written, indented

__all__ = ["to_json", "to_text"]


#: fates in a result past which its fates are written by orjson (its
#: import costs a small position more than writing them)
MANY_FATES = 200


def to_json(result: Outcomes) -> str:
    data = result.to_json()
    units = result.units + (result.voluntary_break or [])
    if sum(len(u.fates) for u in units) > MANY_FATES:
        import orjson
        for u in data["units"] + data.get("voluntary_break", []):
            u["fates"] = Written(orjson.dumps(u["fates"], option=orjson.OPT_INDENT_2).decode())
    return indented(data) + "\n"


def to_text(result: Outcomes, *args, **kwargs) -> str:
    """report/text.py's to_text (imported only for a text answer)."""
    from asl_kb.report.text import to_text as text
    return text(result, *args, **kwargs)
