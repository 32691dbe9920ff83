"""The position format, written once: docs/position.schema.json (JSON
Schema draft-07).

A position is read against it here (`conforms`: the schema's keywords read
in Python, each node compiled once per process into a function); only a
position that does not conform asks jsonschema_rs, the validator that
finds every error and where (`errors`), for its message. Importing
jsonschema_rs and compiling the schema cost a valid position's run more
than reading it (tests/position/test_position_schema.py checks that the two
agree with the reference implementation, jsonschema, on every bundled
position and every bad input).

The loader (position/loader.py) and the case runner (tools/casebook.py) hand
the tree the loader parsed (strings, lists and mappings that know their
lines) to `check`, which raises one PositionError `FILE:LINE: KEY: message`
for the first place (in file order) the schema refuses. The same file is
published for editors: a YAML editor with JSON Schema support validates and
completes position files with it (docs/position-format.md).

What the schema cannot say stays in the loader: hex ids and Locations on
the map, levels that exist, units named that exist, counters, duplicates
across a list, the switches rules/core/versions.lp declares. Whether a
position is possible is a rules question (rules/core/position_checks.lp).

The tree becomes the JSON the schema reads this way: a scalar that is a
whole number (`7`, `-1`, `"010"`) is an integer, any other scalar a string
(the loader keeps `on`, `no`, `010` as written); a key with an empty value
(`notes:`) is absent, as the loader reads it.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from asl_kb.errors import PositionError
from asl_kb.resources import docs_dir

#: a whole number the validator compares with its range as a number
#: (longer: a string of digits, refused as out of range all the same)
_INT = re.compile(r"[+-]?\d{1,18}")


@functools.cache
def schema() -> dict:
    """docs/position.schema.json."""
    return json.loads((docs_dir() / "position.schema.json").read_text(encoding="utf-8"))


@functools.cache
def _validator():
    import jsonschema_rs

    return jsonschema_rs.Draft7Validator(schema())


def as_json(tree):
    """The parsed tree (loader.Str/Seq/Map) as the JSON the schema reads."""
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
    if conforms(instance):
        return
    found = errors(instance)
    if found:  # (none: jsonschema_rs's reading is the one a file is refused by)
        raise first_error(tree, found, file)


def conforms(instance) -> bool:
    """Whether a JSON instance conforms to the schema."""
    return _compiled()(instance)


# ------------------------------------------------------ the schema, compiled

#: keywords that say nothing of an instance
_META = frozenset({"$schema", "$comment", "title", "description", "examples", "default", "definitions"})


def _is_integer(x) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)) or (isinstance(x, float) and x.is_integer())


_TYPES = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "integer": _is_integer,
    "number": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
}


def _yes(x) -> bool:
    return True


def _no(x) -> bool:
    return False


@functools.cache
def _compiled():
    """The schema as one function: instance -> whether it conforms. A
    keyword not read here makes its node refuse everything (so that
    jsonschema_rs decides; the tests find such a keyword)."""
    compiled: dict[int, Any] = {}

    def compile_node(node):
        if node is True or node is False:
            return _yes if node else _no
        f = compiled.get(id(node))
        if f is None:
            cell: list = []
            compiled[id(node)] = lambda x: cell[0](x)  # (a node reached again inside itself)
            f = _node(node)
            cell.append(f)
            compiled[id(node)] = f
        return f

    def _node(node):
        if "$ref" in node:  # (draft-07: a $ref's siblings are not read)
            return compile_node(_resolve(node))
        checks = [_keyword(node, k, v) for k, v in node.items() if k not in _META and k != "additionalItems"]
        if len(checks) == 1:
            return checks[0]
        return lambda x: all(c(x) for c in checks)

    def _keyword(node, k, v):
        if k == "type":
            tests = [_TYPES[t] for t in ([v] if isinstance(v, str) else v)]
            return lambda x: any(t(x) for t in tests)
        if k == "enum":
            return lambda x: any(isinstance(x, bool) == isinstance(e, bool) and x == e for e in v)
        if k == "anyOf":
            branches = [compile_node(b) for b in v]
            return lambda x: any(b(x) for b in branches)
        if k in _STRING:
            return _STRING[k](v)
        if k in ("minimum", "maximum"):
            within = (lambda x: x >= v) if k == "minimum" else (lambda x: x <= v)
            return lambda x: not _TYPES["number"](x) or within(x)
        if k in ("properties", "additionalProperties", "propertyNames", "required"):
            return _object(node, k, v)
        if k in ("items", "minItems", "maxItems", "uniqueItems"):
            return _array(node, k, v)
        return _no

    def _object(node, k, v):
        if k == "required":
            return lambda x: not isinstance(x, dict) or all(r in x for r in v)
        if k == "properties":
            props = {name: compile_node(sub) for name, sub in v.items()}
            return lambda x: not isinstance(x, dict) or all(f(x[n]) for n, f in props.items() if n in x)
        if k == "propertyNames":
            names = compile_node(v)
            return lambda x: not isinstance(x, dict) or all(names(n) for n in x)
        known = node.get("properties", {})
        extra = compile_node(v)
        return lambda x: not isinstance(x, dict) or all(extra(x[n]) for n in x if n not in known)

    def _array(node, k, v):
        if k == "minItems":
            return lambda x: not isinstance(x, list) or len(x) >= v
        if k == "maxItems":
            return lambda x: not isinstance(x, list) or len(x) <= v
        if k == "uniqueItems":
            return (lambda x: not isinstance(x, list) or _unique(x)) if v else _yes
        if not isinstance(v, list):
            each = compile_node(v)
            return lambda x: not isinstance(x, list) or all(each(i) for i in x)
        places = [compile_node(sub) for sub in v]
        rest = compile_node(node.get("additionalItems", True))
        return lambda x: (
            not isinstance(x, list) or (all(f(i) for f, i in zip(places, x)) and all(rest(i) for i in x[len(places) :]))
        )

    return compile_node(schema())


def _unique(items: list) -> bool:
    marks = [json.dumps(i, sort_keys=True) for i in items]
    return len(set(marks)) == len(marks)


def _pattern(v: str):
    # (ECMA-262's reading: \d and \w ASCII only; $ at the very end, not
    # before a last line break as Python's)
    regex = re.compile(v[:-1] + r"\Z" if v.endswith("$") and not v.endswith("\\$") else v, re.ASCII)
    return lambda x: not isinstance(x, str) or regex.search(x) is not None


_STRING = {
    "pattern": _pattern,
    "minLength": lambda v: lambda x: not isinstance(x, str) or len(x) >= v,
    "maxLength": lambda v: lambda x: not isinstance(x, str) or len(x) <= v,
}


# ---------------------------------------------------------------- the error


def _at(path) -> Any:
    """The schema's node at a path of keys and indices from its root."""
    node: Any = schema()
    for step in path:
        node = node[step]
    return node


def _resolve(node: dict) -> dict:
    while "$ref" in node:  # a pointer into this file: "#/definitions/unit"
        node = _at(node["$ref"].lstrip("#/").split("/"))
    return node


class _Error:
    """One error of the validator, read as the messages below read errors:
    the keyword (`validator`) and its value, the schema node holding it,
    where in the instance, and (anyOf) the errors of each branch."""

    def __init__(self, e, parent_path: tuple = (), branch: int | None = None):
        path = list(e.schema_path)
        self.instance = e.instance
        self.validator = e.kind.name
        self.schema = _at(path[:-1]) if path else schema()
        if self.validator == "propertyNames":  # a key's error, said of the mapping: the key's own
            key = e.kind.error
            self.validator, self.instance = key.kind.name, key.instance
            self.schema = _at(path[: path.index("propertyNames") + 1])
        self.validator_value = self.schema.get(self.validator) if isinstance(self.schema, dict) else None
        self.schema_path = path
        self.absolute_path = list(e.instance_path)
        self.relative_path = self.absolute_path[len(parent_path) :]
        self.relative_schema_path = [branch] if branch is not None else path
        self.context = (
            [_Error(sub, tuple(self.absolute_path), i) for i, errs in enumerate(e.kind.context) for sub in errs]
            if self.validator == "anyOf"
            else []
        )


def errors(instance) -> list:
    """Every error the validator finds."""
    return [_Error(e) for e in _validator().iter_errors(instance)]


def first_error(tree, found: list, file: str) -> PositionError:
    """The PositionError of the error (of `found`, errors()) first in the file."""
    found = [_error(e, tree, file) for e in found]
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
    return _quoted(str(node))


def _quoted(text: str, most: int = 60) -> str:
    """A value as an error quotes it: a long one cut in the middle, so the
    message stays one line a player reads (a 4,301-digit id)."""
    if len(text) > most:
        text = f"{text[: most // 2]}...{text[-most // 2 :]}"
    return repr(text)


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
        return PositionError(file, node.key_lines.get(k, line), _join(key, k), f"{_quoted(str(k))} is not {title}")
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
