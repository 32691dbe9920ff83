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
from typing import Any, NamedTuple

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


def _number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


_TYPES = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "integer": _is_integer,
    "number": _number,
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
}


def _yes(x) -> bool:
    return True


def _no(x) -> bool:
    return False


@functools.cache
def _compiled():
    """The schema as one function: instance -> whether it conforms."""
    return _Compiler().node(schema())


class _Compiler:
    """Each node of the schema compiled once into a function (instance ->
    whether it conforms). A keyword not read here makes its node refuse
    everything (so that jsonschema_rs decides; the tests find such a
    keyword)."""

    #: keyword -> the method that compiles it, given its node and value
    KEYWORDS = {
        "type": "_type",
        "enum": "_enum",
        "anyOf": "_any_of",
        "pattern": "_pattern",
        "minLength": "_min_length",
        "maxLength": "_max_length",
        "minimum": "_minimum",
        "maximum": "_maximum",
        "required": "_required",
        "properties": "_properties",
        "propertyNames": "_property_names",
        "additionalProperties": "_additional_properties",
        "items": "_items",
        "minItems": "_min_items",
        "maxItems": "_max_items",
        "uniqueItems": "_unique_items",
    }

    def __init__(self):
        self._done: dict[int, Any] = {}

    def node(self, node):
        if node is True or node is False:
            return _yes if node else _no
        f = self._done.get(id(node))
        if f is None:
            cell: list = []
            self._done[id(node)] = lambda x: cell[0](x)  # (a node reached again inside itself)
            f = self._build(node)
            cell.append(f)
            self._done[id(node)] = f
        return f

    def _build(self, node):
        if "$ref" in node:  # (draft-07: a $ref's siblings are not read)
            return self.node(_resolve(node))
        checks = [self._keyword(node, k, v) for k, v in node.items() if k not in _META and k != "additionalItems"]
        if len(checks) == 1:
            return checks[0]
        return lambda x: all(c(x) for c in checks)

    def _keyword(self, node, k, v):
        name = self.KEYWORDS.get(k)
        return getattr(self, name)(node, v) if name else _no

    # (each keyword says nothing of an instance of another type)

    def _type(self, node, v):
        tests = [_TYPES[t] for t in ([v] if isinstance(v, str) else v)]
        return lambda x: any(t(x) for t in tests)

    def _enum(self, node, v):
        return lambda x: any(isinstance(x, bool) == isinstance(e, bool) and x == e for e in v)

    def _any_of(self, node, v):
        branches = [self.node(b) for b in v]
        return lambda x: any(b(x) for b in branches)

    def _pattern(self, node, v):
        # (ECMA-262's reading: \d and \w ASCII only; $ at the very end, not
        # before a last line break as Python's)
        regex = re.compile(v[:-1] + r"\Z" if v.endswith("$") and not v.endswith("\\$") else v, re.ASCII)
        return lambda x: not isinstance(x, str) or regex.search(x) is not None

    def _min_length(self, node, v):
        return lambda x: not isinstance(x, str) or len(x) >= v

    def _max_length(self, node, v):
        return lambda x: not isinstance(x, str) or len(x) <= v

    def _minimum(self, node, v):
        return lambda x: not _number(x) or x >= v

    def _maximum(self, node, v):
        return lambda x: not _number(x) or x <= v

    def _required(self, node, v):
        return lambda x: not isinstance(x, dict) or all(r in x for r in v)

    def _properties(self, node, v):
        props = {name: self.node(sub) for name, sub in v.items()}
        return lambda x: not isinstance(x, dict) or all(f(x[n]) for n, f in props.items() if n in x)

    def _property_names(self, node, v):
        names = self.node(v)
        return lambda x: not isinstance(x, dict) or all(names(n) for n in x)

    def _additional_properties(self, node, v):
        known = node.get("properties", {})
        extra = self.node(v)
        return lambda x: not isinstance(x, dict) or all(extra(x[n]) for n in x if n not in known)

    def _items(self, node, v):
        if not isinstance(v, list):
            each = self.node(v)
            return lambda x: not isinstance(x, list) or all(each(i) for i in x)
        places = [self.node(sub) for sub in v]
        rest = self.node(node.get("additionalItems", True))
        return lambda x: (
            not isinstance(x, list) or (all(f(i) for f, i in zip(places, x)) and all(rest(i) for i in x[len(places) :]))
        )

    def _min_items(self, node, v):
        return lambda x: not isinstance(x, list) or len(x) >= v

    def _max_items(self, node, v):
        return lambda x: not isinstance(x, list) or len(x) <= v

    def _unique_items(self, node, v):
        return (lambda x: not isinstance(x, list) or _unique(x)) if v else _yes


def _unique(items: list) -> bool:
    marks = [json.dumps(i, sort_keys=True) for i in items]
    return len(set(marks)) == len(marks)


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


class _Said(NamedTuple):
    """Where an error is and what the schema says there: the file, the
    line, the dotted key, the tree's node and the schema's, its title, the
    node as an error quotes it, and the value the validator read."""

    file: str
    line: int | None
    key: str
    node: Any
    sch: dict
    title: str
    text: str
    instance: Any

    def error(self, message: str) -> PositionError:
        """The error at the node."""
        return PositionError(self.file, self.line, self.key or None, message)


def _error(error, tree, file: str) -> PositionError:
    error = _branch(error)
    node, key = _node_at(tree, error.absolute_path)
    parent, name = (None, None)
    if error.absolute_path:
        parent, _ = _node_at(tree, list(error.absolute_path)[:-1])
        name = error.absolute_path[-1]
    sch = _resolve(error.schema)
    title = sch.get("title") or "what the schema allows"
    at = _Said(file, _line(node, parent, name), key, node, sch, title, _describe(node), error.instance)
    kind, want = error.validator, error.validator_value
    if "propertyNames" in error.schema_path:
        # the error is a key's, not the mapping's
        k = error.instance
        return PositionError(file, node.key_lines.get(k, at.line), _join(key, k), f"{_quoted(str(k))} is not {title}")
    if kind in ("additionalProperties", "required"):
        said = _key_error(at, kind, want)
        if said is not None:
            return said
    if kind == "type" and isinstance(error.instance, int) and "string" in want:
        # a whole number where a name is expected: say what the name must be
        kind = "enum" if "enum" in sch else "pattern" if "pattern" in sch else kind
        want = sch.get(kind, want)
    if error.instance == "" and kind in ("enum", "pattern", "minLength"):
        return at.error("must not be empty")
    says = _SAYS.get(kind)
    said = says(at, want) if says is not None else None
    return said or at.error(f"expected {sch.get('description') or title}, got {at.text}")


def _key_error(at: _Said, kind: str, want) -> PositionError | None:
    """A mapping's unknown key, or its missing one."""
    node, key = at.node, at.key
    if kind == "additionalProperties":
        extra = sorted((k for k in node if k not in at.sch.get("properties", {})), key=lambda k: node.key_lines[k])
        if want is not False:
            return None
        return PositionError(
            at.file,
            node.key_lines[extra[0]],
            _join(key, extra[0]),
            f"unknown key {extra[0]!r}; allowed keys: {', '.join(at.sch['properties'])}",
        )
    missing = next(k for k in want if k not in at.instance)
    return PositionError(
        at.file,
        node.key_lines.get(missing, node.line),
        _join(key, missing),
        f"required key {missing!r} is missing or empty",
    )


def _type_error(at: _Said, want) -> PositionError:
    sch, text = at.sch, at.text
    example = sch.get("examples", [None])[0]
    eg = f", e.g. {example}" if example else ""
    if want == "object":
        # a mapping's description says what it maps when it is a phrase
        # such as "keyed by hex" or "of side -> ELR"
        about = sch.get("description", "")
        about = about if about.startswith(("keyed ", "of ")) else ""
        return at.error(f"expected a mapping{' ' + about if about else ''}{eg}, got {text}")
    if want == "array":
        if isinstance(sch.get("items"), list):  # a tuple: its example says it
            return at.error(f"expected {example}, got {text}")
        return at.error(f"expected a list{eg}, got {text}")
    what = "a string" if "string" in want else at.title
    return at.error(f"expected {what}, got {text}")


def _enum_error(at: _Said, want) -> PositionError:
    return at.error(f"{at.text} is not one of: {', '.join(want)}")


def _pattern_error(at: _Said, want) -> PositionError:
    title = at.title
    return at.error(f"{at.text} is not {title}" if title.startswith("a ") else f"expected {title}, got {at.text}")


def _range_error(at: _Said, want) -> PositionError:
    sch = at.sch
    if "maximum" not in sch:
        return at.error(f"expected a whole number >= {want}, got {at.instance}")
    shown = str(at.instance)
    shown = shown if len(shown) <= 20 else shown[:20] + "..."
    return at.error(f"{shown} is out of range {sch['minimum']}..{sch['maximum']}")


def _unique_error(at: _Said, want) -> PositionError | None:
    seen: set = set()
    node = at.node
    for i, item in enumerate(at.instance):
        mark = json.dumps(item, sort_keys=True)
        if mark in seen:
            return PositionError(at.file, _line(node[i]), f"{at.key}[{i}]", f"{str(node[i])!r} is listed twice")
        seen.add(mark)
    return None


def _size_error(at: _Said, want) -> PositionError:
    sch = at.sch
    example, about, n = sch.get("examples", [None])[0], sch.get("description"), len(at.instance)
    if about:
        return at.error(f"expected {about}, e.g. {example}, got {n} items")
    return at.error(f"expected {example}, got a list of {n}")


#: keyword -> the message of its error (None: the schema's description)
_SAYS = {
    "type": _type_error,
    "enum": _enum_error,
    "pattern": _pattern_error,
    "minimum": _range_error,
    "maximum": _range_error,
    "uniqueItems": _unique_error,
    "minItems": _size_error,
    "maxItems": _size_error,
}
