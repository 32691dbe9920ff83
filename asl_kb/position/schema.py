"""The position format, written once: docs/position.schema.json.

The loader (position/loader.py) and the case runner (casebook.py) hand the
tree the loader parsed (strings, lists and mappings that know their lines)
to `check`, which raises one PositionError `FILE:LINE: KEY: message` for the
first place (in file order) the schema refuses. The same file is published
for editors: a YAML editor with JSON Schema support validates and completes
position files with it (docs/position-format.md).

What the schema cannot say stays in the loader: hex ids and Locations on
the map, levels that exist, units named that exist, counters, duplicates
across a list. Whether a position is possible is a rules question
(rules/core/position_checks.lp).

The tree becomes the JSON the schema reads this way: a scalar that is a
whole number (`7`, `-1`, `"010"`) is an integer, any other scalar a string
(the loader keeps `on`, `no`, `010` as written); a key with an empty value
(`notes:`) is absent, as the loader reads it.

`jsonschema` is imported only when the tree does not conform (it costs the
CLI a third of its start): a valid tree is recognised by `conforms`, a
checker of the few keywords the schema uses, which refuses any other keyword
(tests/position/test_position_schema.py: it agrees with jsonschema on every bundled
position and every bad input).
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from asl_kb.errors import PositionError
from asl_kb.resources import docs_dir

#: a whole number of any length the schema can still compare with its range
#: (Python's int() refuses over 4,300 digits); longer is not a number
_INT = re.compile(r"[+-]?\d{1,4000}")
#: keywords that only describe (editors show them); they do not validate
_ANNOTATIONS = frozenset(("$schema", "title", "description", "examples", "definitions", "default"))


@functools.cache
def schema() -> dict:
    """docs/position.schema.json."""
    return json.loads((docs_dir() / "position.schema.json").read_text(encoding="utf-8"))


def as_json(tree):
    """The parsed tree (loader._Str/_Seq/_Map) as the JSON the schema reads."""
    if isinstance(tree, dict):
        return {str(k): as_json(v) for k, v in tree.items() if v is not None and v != ""}
    if isinstance(tree, list):
        return [as_json(v) for v in tree]
    if tree is None:
        return None
    return int(tree) if _INT.fullmatch(tree) else str(tree)


def check(tree, file: str) -> None:
    """PositionError at the first place (in file order) where `tree` breaks
    the schema; nothing when it conforms."""
    instance = as_json(tree)
    if conforms(schema(), instance):
        return
    raise first_error(tree, instance, file)


# ---------------------------------------------------------------- the fast yes


def _resolve(node: dict) -> dict:
    while "$ref" in node:  # a pointer into this file: "#/definitions/unit"
        target = schema()
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


#: JSON types as the instances (as_json, or YAML read by an editor) hold them
_TYPES = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "boolean": (bool,),
    "integer": (int,),
    "number": (int, float),
}
#: compiled checks by schema node (id: the schema is loaded once and kept)
_COMPILED: dict[int, object] = {}


def conforms(node: dict, x) -> bool:
    """Whether `x` conforms to the schema `node` (draft-07, the keywords the
    position schema uses; any other keyword is an error, not a pass)."""
    return _compile(node)(x)


def _compile(node: dict):
    """A function telling whether a value conforms to `node`: the schema
    read into closures, each node on its first use (a position never reads
    the definitions of `expect:` it does not have)."""
    done = _COMPILED.get(id(node))
    if done is not None:
        return done
    checks: list = []

    def check(x) -> bool:
        if not checks:
            resolved = _resolve(node)
            checks.extend(
                _keyword(key, want, resolved)
                for key, want in resolved.items()
                if key not in _ANNOTATIONS and key not in ("$ref", "additionalItems")
            )
            checks.append(lambda x: True)  # built: never empty again
        for c in checks:
            if not c(x):
                return False
        return True

    _COMPILED[id(node)] = check
    return check


def _keyword(key: str, want, node: dict):
    if key == "type":
        kinds = tuple(k for t in ([want] if isinstance(want, str) else want) for k in _TYPES[t])
        return lambda x: type(x) in kinds
    if key == "properties":
        props = {k: _compile(v) for k, v in want.items()}

        def properties(x) -> bool:
            if type(x) is dict:
                for k, v in x.items():
                    f = props.get(k)
                    if f is not None and not f(v):
                        return False
            return True

        return properties
    if key == "additionalProperties":
        known = node.get("properties", {})
        if want is False:
            return lambda x: type(x) is not dict or all(k in known for k in x)
        rest = _compile(want)
        return lambda x: type(x) is not dict or all(rest(v) for k, v in x.items() if k not in known)
    if key == "required":
        return lambda x: type(x) is not dict or all(k in x for k in want)
    if key == "propertyNames":
        name = _compile(want)
        return lambda x: type(x) is not dict or all(name(k) for k in x)
    if key == "items":
        if isinstance(want, list):
            heads = [_compile(s) for s in want]
            more = node.get("additionalItems", True)
            tail = (lambda v: True) if more is True else (lambda v: False) if more is False else _compile(more)
            return lambda x: (
                type(x) is not list or (all(f(v) for f, v in zip(heads, x)) and all(tail(v) for v in x[len(heads) :]))
            )
        each = _compile(want)
        return lambda x: type(x) is not list or all(each(v) for v in x)
    if key == "minItems":
        return lambda x: type(x) is not list or len(x) >= want
    if key == "maxItems":
        return lambda x: type(x) is not list or len(x) <= want
    if key == "uniqueItems":
        return lambda x: not want or type(x) is not list or _distinct(x)
    if key == "enum":
        return lambda x: type(x) is not bool and x in want
    if key == "pattern":
        search = re.compile(want).search
        return lambda x: type(x) is not str or search(x) is not None
    if key == "minLength":
        return lambda x: type(x) is not str or len(x) >= want
    if key == "minimum":
        return lambda x: type(x) is not int or x >= want
    if key == "maximum":
        return lambda x: type(x) is not int or x <= want
    if key == "anyOf":
        branches = [_compile(s) for s in want]
        return lambda x: any(f(x) for f in branches)
    raise ValueError(f"docs/position.schema.json uses {key!r}, which schema.conforms does not check")


def _distinct(items: list) -> bool:
    seen = [json.dumps(v, sort_keys=True) for v in items]
    return len(set(seen)) == len(seen)


# ---------------------------------------------------------------- the error


def errors(instance) -> list:
    """Every error jsonschema finds (its own objects, with their paths)."""
    import jsonschema

    return list(jsonschema.Draft7Validator(schema()).iter_errors(instance))


def first_error(tree, instance, file: str) -> PositionError:
    """The PositionError of the error first in the file."""
    found = [_error(e, tree, file) for e in errors(instance)]
    if not found:  # conforms() and jsonschema disagree: a defect, said so
        raise AssertionError("schema.conforms refused a tree jsonschema accepts")
    # a mapping's unknown key before its missing one, as the loader did
    return min(found, key=lambda p: (p.line or 0, "unknown key" not in p.message, -len(p.key or "")))


def _node_at(tree, path) -> tuple[Any, str]:
    """The tree node at a jsonschema path, and its dotted key."""
    node, key = tree, ""
    for step in path:
        if isinstance(step, int):
            key = f"{key}[{step}]"
        else:
            key = f"{key}.{step}" if key else step
        node = node[step]
    return node, key


def _line(node, parent=None, name=None) -> int | None:
    if parent is not None and name is not None and name in getattr(parent, "key_lines", {}):
        return parent.key_lines[name]
    return getattr(node, "line", None)


def _describe(node) -> str:
    if isinstance(node, dict):
        return "a mapping"
    if isinstance(node, list):
        return f"a list of {len(node)}"
    return repr(str(node))


def _join(key: str, name: str) -> str:
    return f"{key}.{name}" if key else name


def _branch(error):
    """The error of an anyOf that speaks of the branch the value meant: the
    one whose type it has (a terrain name, a list, a mapping)."""
    if error.validator != "anyOf":
        return error
    by_branch: dict = {}
    for e in error.context:
        by_branch.setdefault(e.relative_schema_path[0], []).append(e)
    for errs in by_branch.values():
        if not any(e.validator == "type" and not e.relative_path for e in errs):
            return _branch(min(errs, key=lambda e: len(e.absolute_path)))
    if isinstance(error.instance, int):
        # a whole number where a name is meant: the branch of names
        for i, errs in by_branch.items():
            if "string" in _resolve(error.validator_value[i]).get("type", ()):
                return min(errs, key=lambda e: len(e.absolute_path))
    return error


def _error(error, tree, file: str) -> PositionError:
    error = _branch(error)
    node, key = _node_at(tree, error.absolute_path)
    parent, name = (None, None)
    if error.absolute_path:
        parent, _ = _node_at(tree, list(error.absolute_path)[:-1])
        name = error.absolute_path[-1]
    line = _line(node, parent, name)
    sch = _resolve(error.schema)
    kind, want = error.validator, error.validator_value
    title = sch.get("title") or "what the schema allows"
    text = _describe(node)
    if "propertyNames" in error.schema_path:
        # the error is a key's, not the mapping's
        k = error.instance
        return PositionError(file, node.key_lines.get(k, line), _join(key, k), f"{k!r} is not {title}")
    if kind == "additionalProperties":
        extra = sorted((k for k in node if k not in sch.get("properties", {})), key=lambda k: node.key_lines[k])
        if want is False:
            return PositionError(
                file,
                node.key_lines[extra[0]],
                _join(key, extra[0]),
                f"unknown key {extra[0]!r}; allowed keys: {', '.join(sch['properties'])}",
            )
    if kind == "required":
        missing = next(k for k in want if k not in error.instance)
        return PositionError(
            file,
            node.key_lines.get(missing, node.line),
            _join(key, missing),
            f"required key {missing!r} is missing or empty",
        )
    if kind == "type" and isinstance(error.instance, int) and "string" in want:
        # a whole number where a name is expected: say what the name must be
        kind = "enum" if "enum" in sch else "pattern" if "pattern" in sch else kind
        want = sch.get(kind, want)
    if error.instance == "" and kind in ("enum", "pattern", "minLength"):
        return PositionError(file, line, key or None, "must not be empty")
    if kind == "type":
        example = sch.get("examples", [None])[0]
        eg = f", e.g. {example}" if example else ""
        if want == "object":
            # a mapping's description says what it maps when it is a phrase
            # such as "keyed by hex" or "of side -> ELR"
            about = sch.get("description", "")
            about = about if about.startswith(("keyed ", "of ")) else ""
            return PositionError(
                file, line, key or None, f"expected a mapping{' ' + about if about else ''}{eg}, got {text}"
            )
        if want == "array":
            if isinstance(sch.get("items"), list):  # a tuple: its example says it
                return PositionError(file, line, key or None, f"expected {example}, got {text}")
            return PositionError(file, line, key or None, f"expected a list{eg}, got {text}")
        what = "a string" if "string" in want else title
        return PositionError(file, line, key or None, f"expected {what}, got {text}")
    if kind == "enum":
        return PositionError(file, line, key or None, f"{text} is not one of: {', '.join(want)}")
    if kind == "pattern":
        said = f"{text} is not {title}" if title.startswith("a ") else f"expected {title}, got {text}"
        return PositionError(file, line, key or None, said)
    if kind in ("minimum", "maximum"):
        if "maximum" not in sch:
            return PositionError(file, line, key or None, f"expected a whole number >= {want}, got {error.instance}")
        shown = str(error.instance)
        shown = shown if len(shown) <= 20 else shown[:20] + "..."
        return PositionError(file, line, key or None, f"{shown} is out of range {sch['minimum']}..{sch['maximum']}")
    if kind == "uniqueItems":
        seen: set = set()
        for i, item in enumerate(error.instance):
            mark = json.dumps(item, sort_keys=True)
            if mark in seen:
                return PositionError(file, _line(node[i]), f"{key}[{i}]", f"{str(node[i])!r} is listed twice")
            seen.add(mark)
    if kind in ("minItems", "maxItems"):
        example, about, n = sch.get("examples", [None])[0], sch.get("description"), len(error.instance)
        if about:
            return PositionError(file, line, key or None, f"expected {about}, e.g. {example}, got {n} items")
        return PositionError(file, line, key or None, f"expected {example}, got a list of {n}")
    return PositionError(file, line, key or None, f"expected {sch.get('description') or title}, got {text}")
