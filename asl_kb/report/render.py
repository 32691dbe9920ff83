"""Render outcomes (model.Outcomes) as JSON (byte-identical for the same
input) or text (asl_kb/report/text.py).

The JSON is the text of json.dumps(indent=2, ensure_ascii=False)
(report/jsontext.py). A result with many fates (an open board: thousands,
megabytes of text) is written by orjson, whose indented text is the same for
the values a fate holds -- strings, booleans, small ints and percents to one
decimal (json.dumps and orjson differ only on a float below 1e-4, from 1e16
or not finite, an int past 64 bits, a key not a string): the whole answer
at once where the rest of it holds such values only (orjson_alike), else
the fates alone, put in at their depth."""
from __future__ import annotations

from asl_kb.model import Outcomes
from asl_kb.report.jsontext import Written, indented, orjson_alike

__all__ = ["json_bytes", "to_json", "to_text"]


#: fates in a result past which its fates are written by orjson (its
#: import costs a small position more than writing them)
MANY_FATES = 200
#: the lists of units whose fates are written by orjson
_UNIT_LISTS = ("units", "voluntary_break")


def to_json(result: Outcomes) -> str:
    return json_bytes(result).decode()


def json_bytes(result: Outcomes, keep=None) -> bytes:
    """The JSON answer as UTF-8 bytes, as the CLI writes it (orjson writes
    bytes: no 12 MB text decoded and encoded again on the way out).
    `keep`: called with the answer's data, which it keeps rather than
    letting it be freed (asl_kb/collector.py keep())."""
    data = result.to_json()
    if keep is not None:
        keep(data)
    units = result.units + (result.voluntary_break or [])
    if sum(len(u.fates) for u in units) > MANY_FATES:
        import orjson
        listed = [u for key in _UNIT_LISTS for u in data.get(key, ())]
        # (the fates hold such values by construction: only the rest is asked)
        if (all(orjson_alike(v) for k, v in data.items() if k not in _UNIT_LISTS)
                and all(orjson_alike(v) for u in listed for k, v in u.items() if k != "fates")):
            # (one text: no 12 MB of fates copied into the indented rest)
            return orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)
        for u in listed:
            u["fates"] = Written(orjson.dumps(u["fates"], option=orjson.OPT_INDENT_2).decode())
    return (indented(data) + "\n").encode()


def to_text(result: Outcomes, *args, **kwargs) -> str:
    """report/text.py's to_text (imported only for a text answer)."""
    from asl_kb.report.text import to_text as text
    return text(result, *args, **kwargs)
