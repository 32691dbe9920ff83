"""A case file's runs, as `asl-kb diff` asks them.

A case is a position file with an `expect:` key (docs/cases.md). Its runs
(`expect.runs`, else the case as written) each name options (whole phase,
--voluntary-break, --all-paths, --limit), position overrides and what they
expect. `asl-kb diff` compares a case's questions under two rule sets: the
position and options of each run, its why-not proposals and whether it asks
`check`. What a run expects is compared by the developer tooling
(tools/casebook.py), which reads the cases through this module.

    has_expect(path)      -> whether the file is a case
    read_case(path)       -> Case (PositionError FILE:LINE: KEY: message on bad input)
    run_position(case, r) -> the position of one run
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field
from typing import Any

from asl_kb.errors import PositionError
from asl_kb.position.loader import DEFAULT_VERSIONS, Map, Seq, Str, given, parse_tree, position_from_tree, str_at
from asl_kb.position.schema import schema

#: the words a flag of `expect:` may be written with
FLAG_WORDS = {"on": True, "yes": True, "true": True, "off": False, "no": False, "false": False}
#: the run options and their values when a run does not set them
OPTIONS = ("phase", "voluntary_break", "all_paths", "limit")
#: the sections of a run that ask the position's outcomes (else it asks only
#: `check` or `why-not`: a position that breaks a rule has no outcomes to ask)
ASKS_OUTCOMES = (
    "units",
    "voluntary_break",
    "voluntary_break_refused",
    "heat_of_battle",
    "disrupted",
    "phase",
    "prisoners",
    "complete",
    "match",
)


@dataclass
class Run:
    label: str
    line: int | None
    options: dict  # phase, voluntary_break, all_paths, limit
    tree: Any  # the position tree with this run's overrides
    node: Any  # the run's node of the case (what it expects)
    path: str  # its key path, e.g. "expect.runs[1]"
    #: its why-not proposals: (unit id, fate word, the proposal as the engine reads it)
    proposals: list = field(default_factory=list)

    @property
    def asks_check(self) -> bool:
        return given(self.node.get("check"))


@dataclass
class Case:
    path: str
    name: str
    source: str
    runs: list = field(default_factory=list)


def fail(file: str, node, path: str, message: str):
    raise PositionError(file, getattr(node, "line", None), path, message)


def given_items(node) -> list:
    """A mapping's keys and values, a key with an empty value left out: it is
    absent, as the loader and the schema read it."""
    return [(k, v) for k, v in node.items() if given(v)]


def read(path) -> str:
    file = os.fspath(path)
    try:
        with open(file, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise PositionError(file, None, None, f"cannot read case: {e}") from None


def has_expect(path) -> bool:
    """Whether a position file carries `expect:` (is a case, not only a position)."""
    tree = parse_tree(read(path), os.fspath(path))
    return isinstance(tree, Map) and given(tree.get("expect"))


def asks_outcomes(r: Run) -> bool:
    """Whether a run expects anything of the position's outcomes."""
    return any(given(r.node.get(k)) for k in ASKS_OUTCOMES if k != "voluntary_break_refused") or (
        "voluntary_break_refused" in r.node
    )


def read_case(path, versions=DEFAULT_VERSIONS) -> Case:
    """A case's runs: the position as written must load, each run's
    overrides applied to it must load, and each why-not proposal must name a
    unit and fate of its run's position (the engine's own parser). What a
    run expects is checked against the schema (docs/position.schema.json)
    when the position is; tools/casebook.py reads it further."""
    file = os.fspath(path)
    tree = parse_tree(read(file), file)
    base = position_from_tree(tree, file, versions)
    if not given(tree.get("expect")):
        fail(file, tree, "expect", "a case needs `expect:` (source and what the rules must give)")
    expect = tree["expect"]
    if given(expect.get("runs")):
        for k in schema()["definitions"]["run"]["properties"]:
            if k in expect:
                fail(file, expect, f"expect.{k}", "with `runs:` every expectation goes inside a run")
        nodes = [(r, f"expect.runs[{i}]") for i, r in enumerate(expect["runs"])]
    else:
        nodes = [(expect, "expect")]
    case = Case(path=file, name=base.name, source=str(expect["source"]))
    for node, where in nodes:
        label = str(node["label"]) if given(node.get("label")) else "as written"
        options, overrides = _options(node, where)
        run_tree = _override(tree, overrides, file)
        position = position_from_tree(run_tree, file, versions)
        r = Run(label=label, line=getattr(node, "line", None), options=options, tree=run_tree, node=node, path=where)
        if given(node.get("phase")):
            r.options["phase"] = True  # a phase expectation asks the whole phase
        for i, w in enumerate(node["why_not"] if given(node.get("why_not")) else ()):
            r.proposals.append(_proposal(position, w, f"{where}.why_not[{i}]", file))
        case.runs.append(r)
    labels = [r.label for r in case.runs]
    for (node, where), r in zip(nodes, case.runs):
        if labels.count(r.label) > 1:
            fail(file, node, f"{where}.label", f"two runs labelled {r.label!r}: label each run")
    return case


def run_position(case: Case, r: Run):
    """The position a run of a case is run on (its overrides applied)."""
    return position_from_tree(r.tree, case.path)


def _options(node, path: str) -> tuple[dict, dict]:
    """A run's options (as `run:` sets them) and its position overrides: an
    empty option is absent; an empty override empties the key (`no_quarter:`)."""
    options: dict = {"phase": False, "voluntary_break": False, "all_paths": False, "limit": None}
    overrides: dict = {}
    if not given(node.get("run")):
        return options, overrides
    for k, v in node["run"].items():
        p = f"{path}.run.{k}"
        if k in OPTIONS and not given(v):
            continue
        if k == "phase" and isinstance(v, Str) and v.lower() in FLAG_WORDS:
            options["phase"] = FLAG_WORDS[v.lower()]
        elif k == "phase":
            overrides[k] = v  # a phase name: the position's phase
        elif k in ("voluntary_break", "all_paths"):
            options[k] = FLAG_WORDS[v.lower()]
        elif k == "limit":
            options[k] = int(v)
        else:
            overrides[k] = (v, p)
    return options, overrides


def _proposal(position, node, path: str, file: str) -> tuple[str, str, dict]:
    """(unit, fate, the proposal) of a why-not expectation, checked against
    the position by the engine's own parser (a bad unit, fate, Location or
    captor is bad input)."""
    from asl_kb.engines.why_not import FATES, ProposalError, parse_proposal

    w = {str(k): str(v) for k, v in given_items(node) if k in ("unit", "fate", "at", "captor")}
    at = lambda k: node.key_lines.get(k, node.line)
    words = [w["fate"]] + [w[k] for k in ("at", "captor") if k in w]
    key = {"rout": "at", "surrender": "captor"}.get(w["fate"])
    for k in ("at", "captor"):
        if k in w and k != key:
            raise PositionError(
                file,
                at(k),
                f"{path}.{k}",
                f"a {w['fate']} proposal takes no {k}"
                if w["fate"] in FATES
                else f"unknown fate {w['fate']!r}; allowed: {', '.join(FATES)}",
            )
    if key and key not in w:
        raise PositionError(file, node.line, f"{path}.{key}", f"a {w['fate']} proposal needs `{key}:`")
    try:
        return w["unit"], w["fate"], parse_proposal(position, w["unit"], words)
    except ProposalError as e:
        what, _, msg = str(e).partition(": ")
        k = {"UNIT": "unit", "FATE": "fate", "LOCATION": "at", "CAPTOR": "captor"}.get(what, "fate")
        raise PositionError(file, at(k), f"{path}.{k}", msg) from None


def _override(tree, overrides: dict, file: str):
    """The position tree with a run's overrides: `map`/`los` merged key by
    key, `units` merged by id (`ID: remove` removes the unit, a new id adds
    one), any other key replaced."""
    if not overrides:
        return tree
    out = copy.copy(tree)
    for k, v in overrides.items():
        node, path = v if isinstance(v, tuple) else (v, f"run.{k}")
        if k in ("map", "los"):
            out[k] = _merge(tree.get(k), node)
        elif k == "units":
            if given(node):  # `units:` with nothing: no unit changes
                out[k] = _merge_units(tree.get(k), node, path, file)
        else:
            out[k] = node
    return out


def _merge(base, patch):
    if isinstance(base, Map) and isinstance(patch, Map):
        m = copy.copy(base)
        m.key_lines = dict(base.key_lines)
        for k, v in patch.items():
            if isinstance(v, Str) and v == "remove":  # `key: remove` drops the key
                m.pop(k, None)
                m.key_lines.pop(k, None)
                continue
            m[k] = _merge(base.get(k), v)
            m.key_lines[k] = patch.key_lines.get(k, patch.line)
        return m
    return patch


def _merge_units(base, patch, path: str, file: str):
    units = Seq(base or [])
    units.line = getattr(base, "line", patch.line)
    by_id = {str(u.get("id")): i for i, u in enumerate(units) if isinstance(u, Map)}
    drop = set()
    for uid, change in patch.items():
        if not given(change) or (isinstance(change, Str) and change == "remove"):
            if uid not in by_id:
                fail(file, patch, f"{path}.{uid}", f"no unit {uid!r} to remove")
            drop.add(by_id[uid])
            continue
        if uid in by_id:
            units[by_id[uid]] = _merge(units[by_id[uid]], change)
        else:
            new = copy.copy(change)
            new.key_lines = dict(change.key_lines)
            new["id"] = str_at(uid, change.line)
            new.key_lines["id"] = change.line
            units.append(new)
    kept = Seq(u for i, u in enumerate(units) if i not in drop)
    kept.line = units.line
    return kept
