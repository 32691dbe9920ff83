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

from asl_kb import budget
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


def json_bytes(result: Outcomes) -> bytes:
    """The JSON answer as UTF-8 bytes, as the CLI writes it (orjson writes
    bytes: no text of megabytes decoded and encoded again on the way out)."""
    data = result.to_json()
    units = result.units + (result.voluntary_break or [])
    many = sum(len(u.fates) for u in units)
    if many > MANY_FATES:
        import orjson

        listed = [u for key in _UNIT_LISTS for u in data.get(key, ())]
        if not _room_for_orjson(listed, many):
            raise MemoryError("no room under the memory cap for writing the answer")
        # (the fates hold such values by construction: only the rest is asked)
        if all(orjson_alike(v) for k, v in data.items() if k not in _UNIT_LISTS) and all(
            orjson_alike(v) for u in listed for k, v in u.items() if k != "fates"
        ):
            # (one text: no megabytes of fates copied into the indented rest)
            return orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)
        for u in listed:
            u["fates"] = Written(orjson.dumps(u["fates"], option=orjson.OPT_INDENT_2).decode())
    return (indented(data) + "\n").encode()


#: bytes of data an answer of `n` fates surely needs no more than, per fate,
#: while orjson writes it (an open board's: ~3.6 KB each; its buffer twice)
_AT_MOST_PER_FATE = 64 * 1024


def _room_for_orjson(listed: list, many: int) -> bool:
    """Whether orjson has room under the process's memory cap to write an
    answer of `many` fates (units `listed`): an allocation that fails inside
    orjson ends the process (SIGSEGV), not a MemoryError. Where the cap is
    near, the text is estimated from a sample of fates (the same indented
    text, deeper in the answer) and the rest of the units, and asked twice
    over (orjson's buffer grows by doubling); with no cap, or far from it,
    nothing is asked. (The estimate is written by the standard library's
    encoder, the same text, which raises MemoryError where it has no room:
    orjson is not asked before there is room for it.)"""
    room = budget.data_room()
    if room is None or room > _AT_MOST_PER_FATE * many + (256 << 20):
        return True
    import json

    sample = []
    for u in listed:
        fates = u.get("fates", ())
        sample += fates[:: max(1, len(fates) // 64)]
    text = json.dumps(sample, indent=2, ensure_ascii=False)
    # (each line of a fate is written 6 columns deeper: units[i].fates[j])
    per_fate = (len(text.encode()) + 6 * text.count("\n")) / max(1, len(sample))
    rest = json.dumps([{k: v for k, v in u.items() if k != "fates"} for u in listed], indent=2, ensure_ascii=False)
    needed = 2 * (per_fate * many + len(rest.encode()) + 6 * rest.count("\n")) + (8 << 20)
    return room >= needed


def to_text(result: Outcomes, *args, **kwargs) -> str:
    """report/text.py's to_text (imported only for a text answer)."""
    from asl_kb.report.text import to_text as text

    return text(result, *args, **kwargs)
