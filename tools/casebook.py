"""Cases as data: a position file whose `expect:` says what the rules must give.

A case is a position (docs/position-format.md) under facts/<chapter>/NAME.yaml
with an `expect:` key (docs/cases.md). The runner here reads the case, applies
each run's options and position overrides, runs the engines in-process and
compares the result structurally — rule ids, fate kinds, Locations, unit ids,
captors, causes, counts — never the English `says` wording.

    case_files(root=None)  -> every case file, sorted
    load_case(path)        -> Case (PositionError FILE:LINE: KEY: message on bad input)
    run_case(path)         -> list[Failure] (empty: the case holds)
"""

from __future__ import annotations

import collections

import os
from dataclasses import dataclass, field
from collections.abc import Callable
from pathlib import Path

from asl_kb.committee import cases
from asl_kb.committee.cases import FLAG_WORDS, asks_outcomes, given_items as _given_items, run_position
from asl_kb.errors import PositionError
from asl_kb.position.loader import DEFAULT_VERSIONS, Map as _Map, Seq as _Seq, given as _given
from tools.expect_match import check as match
from tools.expect_sugar import notes_sugar, simultaneous_sugar
from tools.expect_sugar import pattern as _pattern, phase_sugar as _phase_sugar, unit_sugar as _unit_sugar
from asl_kb.resources import cases_dir


# ------------------------------------------------------------------ model


@dataclass(frozen=True)
class Failure:
    """One expectation the rules did not meet."""

    case: str  # the case file
    line: int | None  # line of the expectation in the case file
    run: str  # the run's label
    unit: str | None  # the unit (or None for a whole-result expectation)
    expected: str  # what the case expects, e.g. "fate {fate: rout, at: L5}"
    found: str  # what the run gave

    def __str__(self) -> str:
        where = self.case if self.line is None else f"{self.case}:{self.line}"
        who = f" unit {self.unit}:" if self.unit else ""
        return f"{where}: run {self.run!r}:{who} expected {self.expected}; found {self.found}"


@dataclass
class Run(cases.Run):
    """A run of a case (asl_kb/committee/cases.py) with what it expects."""

    expect: dict = field(default_factory=dict)  # section name -> checked expectation


# ------------------------------------------------------------------ finding cases


def case_files(root: str | os.PathLike | None = None) -> list[Path]:
    """Every case file (*.yaml) under root (default: the bundled cases), sorted."""
    base = Path(root) if root is not None else cases_dir()
    return sorted(p for p in base.rglob("*.yaml") if p.is_file())


# ------------------------------------------------------------------ the expect schema

# The keys of `expect:` and their values: docs/position.schema.json
# (definitions expect, run, unit_expect, fate, ...), which the whole case is
# checked against when it is loaded (loader.position_from_tree).


class _Expect:
    """Checks `expect:` node by node; errors are FILE:LINE: KEY: message."""

    def __init__(self, file: str):
        self.file = file

    def fail(self, node, path, message):
        raise PositionError(self.file, getattr(node, "line", None), path, message)

    # conversions of values the schema has checked
    def string(self, node, path):
        return str(node)

    def strings(self, node, path):
        return [str(x) for x in node]

    def flag(self, node, path):
        return FLAG_WORDS[node.lower()]

    def integer(self, node, path, lo=0):
        return int(node)

    # -- sections

    def run(self, node, path):
        """What a run expects, section by section (its options and position
        overrides: asl_kb/committee/cases.py)."""
        expect: dict = {}
        for k in ("units", "voluntary_break", "heat_of_battle", "disrupted"):
            if _given(node.get(k)):
                sec = node[k]
                expect[k] = {str(uid): self.unit(u, f"{path}.{k}.{uid}") for uid, u in _given_items(sec)}
                expect[k + "@"] = node[k]
        if _given(node.get("phase")):
            expect["phase"] = self.phase(node["phase"], f"{path}.phase")
        if _given(node.get("prisoners")):
            expect["prisoners"] = self.prisoners(node["prisoners"], f"{path}.prisoners")
        if _given(node.get("check")):
            c = node["check"]
            expect["check"] = _Checked(
                c.line,
                {
                    "consistent": self.flag(c["consistent"], f"{path}.check.consistent")
                    if _given(c.get("consistent"))
                    else None,
                    "broken_rules": self.strings(c["broken_rules"], f"{path}.check.broken_rules")
                    if _given(c.get("broken_rules"))
                    else None,
                    "broken_clauses": [
                        self.broken_clause(x, f"{path}.check.broken_clauses[{i}]")
                        for i, x in enumerate(c["broken_clauses"])
                    ]
                    if _given(c.get("broken_clauses"))
                    else None,
                    "no_legal_outcome": self.strings(c["no_legal_outcome"], f"{path}.check.no_legal_outcome")
                    if _given(c.get("no_legal_outcome"))
                    else None,
                },
            )
        if _given(node.get("why_not")):
            expect["why_not"] = [self.why_not(x, f"{path}.why_not[{i}]") for i, x in enumerate(node["why_not"])]
        if _given(node.get("match")):
            expect["match"] = node["match"]  # a subset of the JSON answer (expect_match.py)
        if _given(node.get("complete")):  # a shorthand of `match: {complete: on}`
            expect["complete"] = _pattern(node.line, complete=node["complete"])
        if "voluntary_break_refused" in node:
            v = node["voluntary_break_refused"]
            expect["voluntary_break_refused"] = _Checked(
                getattr(v, "line", node.line), self.strings(v, f"{path}.voluntary_break_refused") if _given(v) else []
            )
        return expect

    def why_not(self, node, path):
        """A proposal and its answer: legal, or the objections (rule ids or
        RULE:REASON) among / not among / the only ones."""
        out = {"path": path}
        for k, v in _given_items(node):
            p = f"{path}.{k}"
            if k in ("legal", "only"):
                out[k] = self.flag(v, p)
            elif k in ("because", "not_because"):
                out[k] = self.strings(v, p)
            else:
                out[k] = self.string(v, p)
        if out["legal"]:
            for k in ("because", "not_because", "only"):
                if k in out:
                    self.fail(node, f"{path}.{k}", "a legal proposal has no objections: give it with `legal: off`")
        if out.get("only") and not out.get("because"):
            self.fail(node, f"{path}.only", "`only: on` needs `because:` (the objections allowed)")
        return _Checked(node.line, out, node.key_lines)

    def broken_clause(self, node, path):
        b = node
        return (
            self.string(b["rule"], f"{path}.rule"),
            self.string(b["clause"], f"{path}.clause"),
            self.string(b["key"], f"{path}.key") if _given(b.get("key")) else None,
        )

    def unit(self, node, path):
        out: dict = {"pattern": _unit_sugar(node)}
        for k, v in _given_items(node):
            p = f"{path}.{k}"
            if k in ("listed", "only"):
                out[k] = self.flag(v, p)
            elif k == "kinds":
                out[k] = self.strings(v, p)
            elif k in ("fates", "absent", "every"):
                out[k] = [self.fate(f, f"{p}[{i}]") for i, f in enumerate(v)]
        return _Checked(node.line, out, node.key_lines)

    def fate(self, node, path):
        out = {}
        for k, v in _given_items(node):
            p = f"{path}.{k}"
            if k == "low_crawl":
                out[k] = self.flag(v, p)
            elif k == "times":
                out[k] = self.integer(v, p)
            elif k in ("not", "where"):
                out[k] = self.fate(v, p)
            elif k == "odds":
                out[k] = self.odds(v, p)
            elif k in (
                "abandons",
                "llmc",
                "path",
                "path_starts",
                "via",
                "because",
                "not_because",
                "interdicted_only_by",
                "not_interdicted_by",
            ):
                out[k] = self.strings(v, p)
            elif k in (
                "interdiction",
                "optional_interdiction",
                "interdiction_includes",
                "optional_interdiction_includes",
            ):
                out[k] = self.interdiction(v, p)
            elif isinstance(v, _Seq):  # a list: one of these values
                out[k] = tuple(self.strings(v, p))
            else:
                out[k] = self.string(v, p)
        return _Checked(node.line, out, node.key_lines)

    def odds(self, node, path):
        """A fate's odds (schema: definitions fate.odds): exact chances "k/6^K";
        `pinned`, `stopped`: Location -> chance; `morale`: the Morale Level of
        its NMCs; `with`: the leader routing with the unit."""
        out = {}
        for k, v in node.items():
            p = f"{path}.{k}"
            if k in ("nmcs", "morale"):
                out[k] = self.integer(v, p)
            elif k == "morale_from":
                out[k] = self.string(v, p)
            elif k in ("pinned", "stopped"):
                out[k] = {str(h): self.string(c, f"{p}.{h}") for h, c in v.items()}
            else:
                out[k] = self.string(v, p)
        return out

    def interdiction(self, node, path):
        items = []
        for i, x in enumerate(node):
            if isinstance(x, _Map):
                m = x
                by = tuple(sorted(self.strings(m["by"], f"{path}[{i}].by"))) if _given(m.get("by")) else None
                items.append((self.string(m["at"], f"{path}[{i}].at"), by))
            else:
                items.append((self.string(x, f"{path}[{i}]"), None))
        return items

    def phase(self, node, path):
        out: dict = {"pattern": _phase_sugar(node)}
        for k, v in _given_items(node):
            p = f"{path}.{k}"
            if k == "only":
                out[k] = self.flag(v, p)
            elif k in ("outcomes", "absent", "every"):
                out[k] = [self.outcome(o, f"{p}[{i}]") for i, o in enumerate(v)]
        return _Checked(node.line, out, node.key_lines)

    def outcome(self, node, path):
        out = {}
        for k, v in _given_items(node):
            p = f"{path}.{k}"
            if k in ("turns", "has", "lacks"):
                out[k] = [self.fate(t, f"{p}[{i}]") for i, t in enumerate(v)]
            elif k == "all":
                out[k] = self.fate(v, p)
            elif k == "no_quarter_invoked":
                out[k] = self.strings(v, p)
            elif k == "times":
                out[k] = self.integer(v, p)
            else:
                out[k] = self.outcome(v, p)
        return _Checked(node.line, out, node.key_lines)

    def prisoners(self, node, path):
        out = {}
        for k, v in _given_items(node):
            p = f"{path}.{k}"
            if k == "only":
                out[k] = self.flag(v, p)
            elif k == "count_options":
                out[k] = self.integer(v, p)
            elif k == "notes":
                out[k] = notes_sugar(v)
            elif k in ("states", "absent_states"):
                out[k] = {str(u): self.items(x, f"{p}.{u}") for u, x in _given_items(v)}
            elif k == "simultaneous":
                out[k] = simultaneous_sugar(v)
            else:
                out[k] = self.items(v, p)
        return _Checked(node.line, out, node.key_lines)

    def items(self, node, path):
        return [self.item(x, f"{path}[{i}]") for i, x in enumerate(node)]

    def item(self, node, path):
        """An ITEM pattern: kind, named arguments, and what it must carry."""
        out = {}
        for k, v in _given_items(node):
            p = f"{path}.{k}"
            if k == "kind":
                out[k] = self.string(v, p)
            elif k in ("because", "not_because"):
                out[k] = self.strings(v, p)
            elif k == "required":
                out[k] = self.flag(v, p)
            elif k == "times":
                out[k] = self.integer(v, p)
            elif k in ("not", "where"):
                out[k] = self.item(v, p)
            elif k in ("effects", "has_effects", "lacks_effects"):
                out[k] = self.items(v, p)
            elif k == "rolls":
                out[k] = [self.roll(x, f"{p}[{i}]") for i, x in enumerate(v)]
            elif k == "chances":
                out[k] = []
                for i, x in enumerate(v):
                    m = x
                    out[k].append(
                        _Checked(
                            m.line,
                            {
                                "effects": self.items(m["effects"], f"{p}[{i}].effects"),
                                "ways": self.integer(m["ways"], f"{p}[{i}].ways"),
                            },
                        )
                    )
            else:
                out[k] = _plain_value(v)  # a named argument
        return _Checked(node.line, out, node.key_lines)

    def roll(self, node, path):
        """A ROLL pattern: the band holding an Original roll (or a Random
        Selection's unit) and its effects."""
        out = {}
        for k, v in _given_items(node):
            p = f"{path}.{k}"
            if k == "original":
                out[k] = self.integer(v, p)
            elif k in ("effects", "has_effects", "lacks_effects"):
                out[k] = self.items(v, p)
            else:
                out[k] = self.string(v, p)
        return _Checked(node.line, out, node.key_lines)


def _plain_value(v):
    if isinstance(v, _Map):
        return {str(k): _plain_value(x) for k, x in v.items()}
    if isinstance(v, _Seq):
        return [_plain_value(x) for x in v]
    return str(v)


class _Checked(dict):
    """A checked expectation with the line it was written on."""

    def __init__(self, line, data, key_lines=None):
        super().__init__(data if isinstance(data, dict) else {"value": data})
        self.line = line
        self.key_lines = key_lines or {}

    def at(self, key):
        """The line of one key of the expectation."""
        return self.key_lines.get(key, self.line)


# ------------------------------------------------------------------ loading a case


def load_case(path, versions=DEFAULT_VERSIONS) -> cases.Case:
    """Read a case: its runs as asl_kb/committee/cases.py reads them (the
    position, each run's overrides and why-not proposals, validated by the
    position loader and the engine), and what each run expects, validated
    here."""
    case = cases.read_case(path, versions)
    ex = _Expect(case.path)
    runs = []
    for r in case.runs:
        expect = ex.run(r.node, r.path)
        ids = {u.id for u in run_position(case, r).units}
        for sec in ("units", "voluntary_break", "heat_of_battle", "disrupted"):
            for uid in expect.get(sec, {}):
                if uid not in ids:
                    ex.fail(expect[sec + "@"], f"{r.path}.{sec}.{uid}", f"no unit {uid!r} in the position")
        for w, (_, _, proposal) in zip(expect.get("why_not", ()), r.proposals):
            w["proposal"] = proposal
        runs.append(Run(**vars(r), expect=expect))
    case.runs = runs
    return case


# ------------------------------------------------------------------ running a case


def run_case(path, first_failure: bool = False, prefer=()) -> list[Failure]:
    """Run every run of a case in-process; the failures (empty if it holds).
    With first_failure, stop at the first run that fails (`make mutate` asks
    only whether a case fails, and puts the runs labelled in `prefer` first:
    those that failed most for mutants like this one). Bad input (the
    position or `expect:`) raises PositionError."""
    case = load_case(path)
    failures = []
    rank = {label: i for i, label in enumerate(prefer)}
    runs = sorted(case.runs, key=lambda r: rank.get(r.label, len(rank))) if rank else case.runs
    for r in runs:
        failures += _run(case, r)
        if failures and first_failure:
            break
    return failures


def _run(case, r) -> list[Failure]:
    position = run_position(case, r)
    out = []

    def fail(line, unit, expected, found):
        out.append(Failure(case.path, line, r.label, unit, expected, found))

    if asks_outcomes(r):
        _compare_outcomes(r, position, fail)
    if "check" in r.expect:
        from asl_kb.engines.check import check

        _compare_check(r.expect["check"], check(position), fail)
    if r.expect.get("why_not"):
        from asl_kb.engines.why_not import why_not_each

        # one grounding answers every proposal of the run
        asked = r.expect["why_not"]
        for w, answer in zip(asked, why_not_each(position, [w["proposal"] for w in asked])):
            _compare_why_not(w, answer, fail)
    return out


def _compare_outcomes(r, position, fail):
    """The run's outcomes against its expectations, which name the keys of
    the JSON output (docs/cases.md): compared with it."""
    from asl_kb.engines.outcomes import outcomes

    result = outcomes(
        position,
        all_paths=r.options["all_paths"],
        voluntary_break=r.options["voluntary_break"],
        phase=r.options["phase"],
        limit=r.options["limit"],
    ).to_json()
    _compare_units(r.expect.get("units"), result.get("units", []), fail)
    for sec in ("voluntary_break", "heat_of_battle", "disrupted"):
        if sec in r.expect:
            _compare_units(r.expect[sec], result.get(sec, []), fail)
    if "phase" in r.expect:
        _compare_phase(r.expect["phase"], result.get("phase"), fail)
    if "prisoners" in r.expect:
        _compare_prisoners(r.expect["prisoners"], result.get("prisoners"), fail)
    if "voluntary_break_refused" in r.expect:
        _compare_refused(r.expect["voluntary_break_refused"], result.get("voluntary_break_refused"), fail)
    for key in ("match", "complete"):
        if key in r.expect:
            match(r.expect[key], result, fail)


def _compare_refused(ex, refused, fail):
    """A refused Voluntary Break: the rule ids exactly; a RULE:REASON named
    must be among the reasons."""
    want = set(ex["value"])
    got = _rules(refused)
    ids = lambda xs: {x for x in xs if ":" not in x}
    if ids(want) != ids(got) or not (want - ids(want)) <= got:
        fail(ex.line, None, f"voluntary_break_refused {sorted(want)}", f"voluntary_break_refused {sorted(got)}")


def _compare_why_not(ex, answer, fail):
    """One why-not answer against its expectation: legal, and the objections
    by rule id / RULE:REASON (never the wording)."""
    p = ex["proposal"]
    what = "why-not " + " ".join([p["fate"]] + [p[k] for k in ("at", "captor") if k in p])
    got = _rules(answer["because"])
    found = f"legal: {answer['legal']}" + ("" if answer["legal"] else f", because {sorted(got)}")
    if answer["legal"] != ex["legal"]:
        fail(ex.at("legal"), p["unit"], f"{what}: legal: {ex['legal']}", found)
        return
    if "because" in ex and not set(ex["because"]) <= got:
        fail(ex.at("because"), p["unit"], f"{what}: because includes {sorted(ex['because'])}", found)
    if "not_because" in ex and set(ex["not_because"]) & got:
        fail(ex.at("not_because"), p["unit"], f"{what}: because without {sorted(ex['not_because'])}", found)
    if ex.get("only"):
        allowed = set(ex["because"])
        extra = sorted(
            f"{b['rule']}:{b['reason']}"
            for b in answer["because"]
            if b["rule"] not in allowed and f"{b['rule']}:{b['reason']}" not in allowed
        )
        if extra:
            fail(ex.at("only"), p["unit"], f"{what}: only the objections {sorted(allowed)}", f"also {extra}")


def _rules(items) -> set:
    """The rule ids of `because` lines, and each as RULE:REASON (the reason's
    kind), so a case may name either."""
    out = set()
    for b in items or ():
        out.add(b["rule"])
        if b.get("reason"):
            out.add(f"{b['rule']}:{b['reason']}")
    return out


def _compare_units(expected, found_list, fail):
    if not expected:
        return
    found = {u["id"]: u for u in found_list}
    for uid, ex in expected.items():
        u = found.get(uid)
        listed = ex.get("listed", True)
        if u is None:
            if listed:
                fail(ex.line, uid, "the unit listed", "not listed")
            continue
        if not listed:
            fail(ex.line, uid, "the unit not listed", "listed")
            continue
        fates = u.get("fates", [])
        match(ex["pattern"], u, lambda line, _, e, f: fail(line, uid, e, f), uid)
        if "kinds" in ex and {f["fate"] for f in fates} != set(ex["kinds"]):
            fail(
                ex.at("kinds"),
                uid,
                f"fate kinds {sorted(set(ex['kinds']))}",
                f"fate kinds {sorted({f['fate'] for f in fates})}",
            )
        _compare_items(ex, fates, _Items("fate", _fate_matches, _brief_fate), lambda line, e, f: fail(line, uid, e, f))


@dataclass(frozen=True)
class _Items:
    """What a list of items is, to compare it with patterns: its name (in
    a failure), whether an item matches a pattern, an item in brief."""

    what: str
    matches: Callable[[dict, dict], bool]
    brief: Callable[[dict], str]


def _compare_items(ex, items, kind: _Items, fail):
    """fates/outcomes (each matches some item, or exactly `times`), only
    (every item matches some pattern), absent (no item matches), every
    (every item matching `where` matches the rest)."""
    what, matches, brief = kind.what, kind.matches, kind.brief
    pats = ex.get("fates", ex.get("outcomes", []))
    for p in pats:
        n = sum(1 for x in items if matches(p, x))
        want = p.get("times")
        if (want is None and n == 0) or (want is not None and n != want):
            fail(
                p.line,
                f"{what} {_show(p)}" + ("" if want is None else f" exactly {want} times"),
                f"{n} matching among {brief_all(items, brief)}",
            )
    if ex.get("only"):
        for x in items:
            if not any(matches(p, x) for p in pats):
                fail(ex.at("only") if hasattr(ex, "at") else ex.line, f"only the listed {what}s", f"also {brief(x)}")
    for p in ex.get("absent", ()):
        for x in items:
            if matches(p, x):
                fail(p.line, f"no {what} {_show(p)}", brief(x))
    for p in ex.get("every", ()):
        where = p.get("where")
        rest = _Checked(p.line, {k: v for k, v in p.items() if k != "where"})
        for x in items:
            if (where is None or matches(where, x)) and not matches(rest, x):
                fail(
                    p.line,
                    f"every {what}" + (f" with {_show(where)}" if where else "") + f" to match {_show(rest)}",
                    brief(x),
                )


def _show(p) -> str:
    def v(x):
        if isinstance(x, _Checked):
            return _show(x)
        if isinstance(x, list):
            return "[" + ", ".join(v(i) for i in x) + "]"
        if isinstance(x, tuple) and len(x) == 2 and (x[1] is None or isinstance(x[1], tuple)):
            return x[0] if x[1] is None else f"{x[0]} by {list(x[1])}"
        if isinstance(x, tuple):
            return "one of [" + ", ".join(x) + "]"
        return str(x)

    return "{" + ", ".join(f"{k}: {v(x)}" for k, x in p.items()) + "}"


def _interdiction_set(items, with_by):
    """The Interdictions of a fate as a multiset (a re-entered Location is
    Interdicted again, A10.53)."""
    if with_by:
        return collections.Counter((i["at"], tuple(sorted(i["by"]))) for i in items)
    return collections.Counter(i["at"] for i in items)


def _fate_matches(p, f) -> bool:
    """Whether the fate f is the one the case's pattern p describes: every
    key of p holds of it (_FATE_KEYS; any other key compares the fate's
    value as text, or as one of a tuple of texts)."""
    return all(_FATE_KEYS.get(k, _fate_value)(k, want, f) for k, want in p.items() if k not in ("times", "where"))


def _fate_value(k, want, f) -> bool:
    got = f.get(k)
    return got is not None and (str(got) in want if isinstance(want, tuple) else str(got) == want)


def _because(k, want, f) -> bool:
    rules = _rules(f.get("because"))
    return set(want) <= rules if k == "because" else not set(want) & rules


def _interdiction_is(k, want, f) -> bool:
    with_by = any(b is not None for _, b in want)
    return _interdiction_set(f.get(k, ()), with_by) == collections.Counter((a, b) if with_by else a for a, b in want)


def _interdiction_includes(k, want, f) -> bool:
    got = {i["at"]: tuple(sorted(i["by"])) for i in f.get(k[: -len("_includes")], ())}
    return all(a in got and (b is None or got[a] == b) for a, b in want)


def _interdictors(k, want, f) -> bool:
    by = {b for i in list(f.get("interdiction", ())) + list(f.get("optional_interdiction", ())) for b in i["by"]}
    return by <= set(want) if k == "interdicted_only_by" else not by & set(want)


#: a fate pattern's keys that are not a plain compare of the fate's value:
#: key -> (key, wanted, fate) -> holds
_FATE_KEYS = {
    "not": lambda k, want, f: not _fate_matches(want, f),
    "low_crawl": lambda k, want, f: bool(f.get("low_crawl")) == want,
    "because": _because,
    "not_because": _because,
    "abandons": lambda k, want, f: {a["sw"] if isinstance(a, dict) else a for a in f.get(k, ())} == set(want),
    "llmc": lambda k, want, f: {a["sw"] if isinstance(a, dict) else a for a in f.get(k, ())} == set(want),
    "path": lambda k, want, f: list(f.get("path", ())) == want,
    "odds": lambda k, want, f: _odds_match(want, f),
    "path_starts": lambda k, want, f: list(f.get("path", ()))[: len(want)] == want,
    "via": lambda k, want, f: set(want) <= set(f.get("path", ())),
    "interdiction": _interdiction_is,
    "optional_interdiction": _interdiction_is,
    "interdiction_includes": _interdiction_includes,
    "optional_interdiction_includes": _interdiction_includes,
    "interdicted_only_by": _interdictors,
    "not_interdicted_by": _interdictors,
}


def _odds_match(want: dict, f) -> bool:
    """A fate's odds (or, with `with`, its odds with that leader) as the case
    gives them: chances compared exactly, "k/N" as written."""
    if "with" in want:
        odds = next((o for o in f.get("odds_with_leader", ()) if o.get("with_leader") == want["with"]), None)
    else:
        odds = f.get("odds")
    if odds is None:
        return False
    for k, v in want.items():
        if k == "with":
            continue
        if k in ("nmcs", "morale", "morale_from"):
            if odds.get(k) != v:
                return False
        elif k in ("pinned", "stopped"):
            got = {p["at"]: p["chance"] for p in odds.get(k, ())}
            if got != v:
                return False
        elif odds[k]["chance"] != v:
            return False
    return True


def _brief_fate(f) -> str:
    parts = [f.get("unit", ""), f["fate"], f.get("at", "")]
    if f.get("low_crawl"):
        parts.append("low_crawl")
    for k in ("captor", "guard", "cause", "invokes_no_quarter"):
        if f.get(k):
            parts.append(f"{k}={f[k]}")
    if f.get("interdiction"):
        # a unit's fate lists {at, by} mappings, a whole-phase turn Locations
        parts.append("int{" + ",".join(i["at"] if isinstance(i, dict) else str(i) for i in f["interdiction"]) + "}")
    if f.get("path") and len(f["path"]) > 1:
        parts.append(">".join(f["path"]))
    return " ".join(p for p in parts if p)


def brief_all(items, brief) -> str:
    shown = [brief(x) for x in items[:12]]
    more = f" ... ({len(items)} in all)" if len(items) > 12 else ""
    return "[" + "; ".join(shown) + "]" + more


def _brief_all(fates):
    return brief_all(fates, _brief_fate)


def _outcome_matches(p, o) -> bool:
    """Whether the whole-phase outcome o is the one the case's pattern p
    describes: every key of p (_OUTCOME_KEYS) holds of it."""
    return all(_OUTCOME_KEYS[k](want, o) for k, want in p.items() if k in _OUTCOME_KEYS)


def _turns_have(want, o) -> bool:
    """Each pattern matches some turn of the outcome (exactly `times` turns
    if it says)."""
    turns = o.get("turns", [])
    for w in want:
        n = sum(1 for t in turns if _fate_matches(w, t))
        if (n == 0) if w.get("times") is None else (n != w["times"]):
            return False
    return True


def _turns_are(want, o) -> bool:
    turns = o.get("turns", [])
    return len(turns) == len(want) and all(_fate_matches(w, t) for w, t in zip(want, turns))


#: an outcome pattern's keys: key -> (wanted, outcome) -> holds
_OUTCOME_KEYS = {
    "not": lambda want, o: not _outcome_matches(want, o),
    "turns": _turns_are,
    "has": _turns_have,
    "lacks": lambda want, o: not any(_fate_matches(w, t) for w in want for t in o.get("turns", [])),
    "all": lambda want, o: all(_fate_matches(want, t) for t in o.get("turns", [])),
    "no_quarter_invoked": lambda want, o: set(o.get("no_quarter_invoked") or ()) == set(want),
}


def _brief_outcome(o) -> str:
    nq = o.get("no_quarter_invoked")
    return "(" + ", ".join(_brief_fate(t) for t in o.get("turns", [])) + ")" + (f" NQ{nq}" if nq else "")


def _compare_phase(ex, ph, fail):
    if ph is None:
        fail(ex.line, None, "a whole-phase result", "none")
        return
    match(ex["pattern"], ph, lambda line, _, e, f: fail(line, None, e, f), "phase")
    outcomes = _Items("outcome", _outcome_matches, _brief_outcome)
    _compare_items(ex, ph["outcomes"], outcomes, lambda line, e, f: fail(line, None, e, f))


def _compare_check(ex, r, fail):
    if ex["consistent"] is not None and r["consistent"] != ex["consistent"]:
        fail(ex.line, None, f"consistent: {ex['consistent']}", f"consistent: {r['consistent']} {r['findings']}")
    if ex["broken_rules"] is not None:
        got = {c["rule"] for f in r["findings"] for c in f.get("clauses", ())}
        if got != set(ex["broken_rules"]):
            fail(ex.line, None, f"broken rules {sorted(ex['broken_rules'])}", f"{sorted(got)}")
    if ex["broken_clauses"] is not None:
        # each broken clause as (rule, clause name, key of the input at fault);
        # an expected clause without a key matches it at any key
        got = {
            (c["rule"], c["violated"].split("(")[0], c.get("at", "").rsplit(": ", 1)[-1])
            for f in r["findings"]
            for c in f.get("clauses", ())
        }
        same = lambda g, w: g[:2] == w[:2] and w[2] in (None, g[2])
        want = ex["broken_clauses"]
        if any(not any(same(g, w) for g in got) for w in want) or any(not any(same(g, w) for w in want) for g in got):
            fail(ex.line, None, f"broken clauses {want}", f"{sorted(got)}")
    if ex["no_legal_outcome"] is not None:
        got = {f["unit"] for f in r["findings"] if f["kind"] == "no_legal_outcome"}
        if got != set(ex["no_legal_outcome"]):
            fail(ex.line, None, f"no legal outcome for {sorted(ex['no_legal_outcome'])}", f"{sorted(got)}")


# -- prisoners: options, requirements, events, states by kind and named arguments


def _compare_prisoners(ex, pr, fail):
    if pr is None:
        fail(ex.line, None, "a prisoners result", "none")
        return
    pr = pr.to_json() if hasattr(pr, "to_json") else pr
    f = lambda line, e, found: fail(line, None, e, found)
    options = list(pr.get("required", [])) + list(pr.get("options", []))
    _compare_items(
        _Checked(
            ex.at("options"),
            {"fates": ex.get("options", []), "absent": ex.get("absent", []), "only": ex.get("only", False)},
        ),
        options,
        _Items("option", _item_matches, _brief_item),
        f,
    )
    if "count_options" in ex and len(options) != ex["count_options"]:
        fail(ex.at("count_options"), None, f"{ex['count_options']} options and requirements", f"{len(options)}")
    for sec in ("events", "violated"):
        items = list(pr.get(sec, []))
        _compare_items(
            _Checked(ex.at(sec), {"fates": ex.get(sec, []), "absent": ex.get("absent_" + sec, [])}),
            items,
            _Items(sec.rstrip("s"), _item_matches, _brief_item),
            f,
        )
    states = pr.get("states", {})
    for key in ("states", "absent_states"):
        for unit, pats in ex.get(key, {}).items():
            items = list(states.get(unit, []))
            sub = {"fates": pats} if key == "states" else {"absent": pats}
            _compare_items(
                _Checked(ex.at(key), sub),
                items,
                _Items("state", _item_matches, _brief_item),
                lambda line, e, found, u=unit: fail(line, u, e, found),
            )
    for unit, pat in ex.get("notes", {}).items():

        def fail_unit(line, _, e, found, u=unit):
            fail(line, u, e, found)

        match(pat, pr.get("notes", {}).get(unit), fail_unit, f"prisoners.notes.{unit}")
    if "simultaneous" in ex:
        match(ex["simultaneous"], pr, fail, "prisoners")


def _value_matches(want, got) -> bool:
    if isinstance(want, list):
        return isinstance(got, (list, tuple)) and sorted(map(str, want)) == sorted(map(str, got))
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and _value_matches(v, got[k]) for k, v in want.items())
    if isinstance(got, bool):
        return FLAG_WORDS.get(want.lower()) == got
    return got is not None and str(got) == want


def _effects_exactly(pats, effects) -> bool:
    effects = list(effects)
    return (
        len(pats) == len(effects)
        and all(any(_item_matches(p, e) for e in effects) for p in pats)
        and all(any(_item_matches(p, e) for p in pats) for e in effects)
    )


def _effect_checks(p, obj) -> bool:
    effects = list(obj.get("effects", ()) or ())
    if "effects" in p and not _effects_exactly(p["effects"], effects):
        return False
    if "has_effects" in p and not all(any(_item_matches(w, e) for e in effects) for w in p["has_effects"]):
        return False
    if "lacks_effects" in p and any(_item_matches(w, e) for w in p["lacks_effects"] for e in effects):
        return False
    return True


def _roll_matches(p, band) -> bool:
    if "original" in p and not (band.get("from", 99) <= p["original"] <= band.get("to", -99)):
        return False
    for k in ("dice", "selected", "chance"):
        if k in p and str(band.get("roll" if k == "dice" else k)) != p[k]:
            return False
    return _effect_checks(p, band)


def _item_matches(p, x) -> bool:
    """Whether the prisoners' item x (an option, event, state) is the one
    the pattern p describes: every key of p holds of it (_ITEM_KEYS; any
    other key compares the item's value, _value_matches)."""
    return all(_ITEM_KEYS.get(k, _item_value)(k, want, x) for k, want in p.items() if k not in ("times", "where"))


def _item_value(k, want, x) -> bool:
    return _value_matches(want, x.get(k))


def _chances(k, want, x) -> bool:
    """Each pattern's effects come out of exactly its `ways` of the rolls."""
    bands = x.get("rolls", ())
    return all(
        sum(b.get("ways", 0) for b in bands if _effects_exactly(w["effects"], b.get("effects", ()))) == w["ways"]
        for w in want
    )


#: a prisoners' item pattern's keys that are not a compare of the item's
#: value: key -> (key, wanted, item) -> holds
_ITEM_KEYS = {
    "not": lambda k, want, x: not _item_matches(want, x),
    "kind": lambda k, want, x: x.get("kind") == want,
    "because": _because,
    "not_because": _because,
    "required": lambda k, want, x: bool(x.get("required")) == want,
    "effects": lambda k, want, x: _effect_checks({k: want}, x),
    "has_effects": lambda k, want, x: _effect_checks({k: want}, x),
    "lacks_effects": lambda k, want, x: _effect_checks({k: want}, x),
    "rolls": lambda k, want, x: all(any(_roll_matches(w, b) for b in x.get("rolls", ())) for w in want),
    "chances": _chances,
}


def _brief_item(x) -> str:
    args = ", ".join(
        f"{k}={v}"
        for k, v in x.items()
        if k not in ("kind", "says", "because", "rolls", "effects", "required", "notes")
    )
    return f"{x.get('kind')}({args})" + (" required" if x.get("required") else "")
