"""Bounds read off the rules: what a search without `--scope` walks.

No hand-written scope. The bounds of a search are a board patch (a hex, or
a hex and its six neighbours), up to K units, and a *vocabulary*: the unit
statuses, types, nationalities and classes, the terrain, the phases and
the header inputs (No Quarter declared, Mopping Up, Close Combat, fire
effects, a Massacre made, ELR) that the rules read near the clauses in
question -- the changed clauses of a diff, a rule set's edited or switched
clauses for gaps, an assertion's clauses for find:

* depth 0: what those clauses read themselves (a switch clause
  `H :- B, not in_force(X)` beside `H :- B, not E` reads E too: reach.py);
* depth 1: and what the clauses reading their heads, or deriving what
  they read, read;
* depth 2: one step further.

A constant is read through a variable too: `nationality(P,N),
axis_minor(N)` reads every nationality `axis_minor/1` may hold
(reach.may_hold, the abstract grounding).

From the vocabulary the unit kinds are made: a broken Russian squad (the
unit that routs) and a Good Order German squad (its enemy), each as it is
and with one word of the vocabulary (`broken disrupted`, `leader`,
`nationality ss`), or two when one of them is read by the clauses
themselves (depth 0); a Guard of either side holding a prisoner of the
other (A20.5) when the rules read `guard_of/2` there, the prisoner with up
to two such words. The header's choices are "not given" and the one the
vocabulary names. Each bound is written as a scope (scope.py reads it, so
a bound is a scope YAML a member can keep: `--out` writes it) and its
positions are chosen by the solver (generate.py), smallest first.

The bounds grow smallest first: units (1, 2, 3), then the vocabulary's
depth (0, 1, 2), then the patch (a hex, then seven); a bound equal to one
already walked is not walked again. So a witness is the smallest position
of the smallest bound holding one.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from pathlib import Path

import clingo.ast as A
import yaml

from asl_kb.committee import reach, refigure
from asl_kb.committee.generate import HEADER_INPUTS
from asl_kb.errors import PositionError

#: the two units every bound holds (each as it is, or with one word more)
ROLES = {
    "defender": {"type": "squad", "counter": "4-4-7", "side": "russian", "status": ["broken"]},
    "attacker": {"type": "squad", "counter": "4-6-7", "side": "german", "status": []},
}
#: a counter for each unit type a kind may be made (a type the position
#: format needs more for -- a vehicle, a Gun -- is not made)
COUNTERS = {
    "squad": None,
    "half_squad": "2-4-7",
    "leader": "8-0",
    "crew": "2-2-8",
    "hero": "1-4-9",
    "unarmed": "(1)-0-6",
}
#: the phase a bound adds where the rules read whether it is the Rout Phase
_OTHER_PHASE = "rally"
#: the deepest vocabulary, the most units and the widest patch a search grows to
DEPTHS = (0, 1, 2)
UNITS = (1, 2, 3)
RADII = (0, 1)
#: the header inputs a vocabulary may name (defined.lp) -> the header key
HEADER = HEADER_INPUTS
#: what the terrain inputs read ask of the palette
_TERRAIN_INPUTS = {
    "building": "building",
    "cover_terrain": "woods",
    "tem": "woods",
    "og_terrain": "woods",
    "in_hex_hindrance": "grain",
}


@dataclasses.dataclass(frozen=True)
class Vocabulary:
    """What a bound's positions may hold beyond its two base units (module
    doc). `own`: the words the clauses themselves read (a kind may carry
    two words when one of them is own)."""

    words: tuple[tuple[str, str], ...] = ()  # (status|type|nationality|class, value), in order read
    own: tuple[tuple[str, str], ...] = ()
    phases: tuple[str, ...] = ("rout",)
    header: tuple[str, ...] = ()  # header keys (HEADER's values)
    guard: bool = False
    palette: tuple[str, ...] = ()  # terrain names, or "open+FEATURE"
    voluntary_break: bool = False  # (A10.41 asked of every position: outcomes --voluntary-break)
    refigured: bool = False  # (the whole rout graph read, re-figured parts too: refigure.py)
    obstacles: tuple[str, ...] = ()  # palette entries only there for a re-figured rout's LOS

    def said(self) -> str:
        parts = [f"{k} {v}" for k, v in self.words]
        parts += [f"phase {p}" for p in self.phases if p != "rout"]
        parts += [h.replace("_", " ") for h in self.header]
        parts += ["Guards with prisoners"] if self.guard else []
        parts += ["Voluntary Break asked"] if self.voluntary_break else []
        parts += ["a rout re-figured"] if self.refigured else []
        parts += [p.replace("open+", "") for p in self.palette]
        return ", ".join(parts) or "nothing beyond a broken squad and its enemy"

    def on_one_hex(self) -> Vocabulary:
        """The vocabulary of a one-hex bound: no line between two of its
        units crosses a hex, so no LOS obstacle of a re-figured rout."""
        return dataclasses.replace(self, palette=tuple(p for p in self.palette if p not in self.obstacles))


def _reads(rule, top) -> list:
    """(name, arity, args) of every atom the body reads, of any sign, in
    aggregates and conditions too."""
    found: list = []

    class V(A.Transformer):
        def visit_SymbolicAtom(self, node):
            found.extend(reach.literals_of(node.symbol, top))
            return node

    for lit in rule.body:
        V()(lit)
    return found


@functools.lru_cache(maxsize=8)
def _static(folder: str) -> dict:
    """What may hold with every input any value: the values of the tables
    the rules write themselves (axis_minor/1's nationalities)."""
    given = {(n, a): (None,) * a for n, a, _ in reach.inputs(Path(folder))}
    return reach.may_hold(folder, given)


_NAME = re.compile(r"(?<![\w\"])([a-z_]\w*)\s*\(")


def _shape_names(c) -> tuple[frozenset, frozenset]:
    """_every's pair for a clause of no rules file (an assertion's, an edit's)."""
    return (
        frozenset(n for n, _ in reach.heads_of(c.rule)),
        frozenset(_NAME.findall(" ".join(str(lit) for lit in c.rule.body))),
    )


@functools.lru_cache(maxsize=8)
def _every(folder: str) -> tuple:
    """Per clause of reach.clauses(folder): the names its head may derive
    and the names its body reads (any sign; a function term's name too --
    more, never less, than it reads)."""
    return tuple(
        (
            frozenset(n for n, _ in reach.heads_of(c.rule)),
            frozenset(_NAME.findall(" ".join(str(lit) for lit in c.rule.body))),
        )
        for c in reach.clauses(folder)
    )


def cone(folder: str, start: list, depth: int, forward: bool = True) -> list[list]:
    """The clauses near `start`, by depth: 0 the clauses themselves, then
    each step the clauses reading what the last derived (not when
    `forward` is off) or deriving what they read."""
    every = reach.clauses(folder)
    ins = {n for n, _ in reach.by_scope(Path(folder))}
    heads = [h for h, _ in _every(folder)]
    read = [r for _, r in _every(folder)]
    where = {c.where: i for i, c in enumerate(every)}
    seen = {c.where for c in start}
    layers = [list(start)]
    for _ in range(depth):
        last = layers[-1]
        derived: set = set()
        wants: set = set()
        for c in last:
            i = where.get(c.where)
            h, r = _every(folder)[i] if i is not None else _shape_names(c)
            derived |= h
            wants |= r - ins
        nxt = [
            c
            for i, c in enumerate(every)
            if c.where not in seen and (forward and read[i] & derived or heads[i] & wants)
        ]
        seen |= {c.where for c in nxt}
        layers.append(nxt)
    return layers


_UNIT_WORDS = {"status": "status", "unit_type": "type", "nationality": "nationality", "uclass": "class"}


def _constants_read(folder: str, clauses: list) -> list[tuple[str, int, int | None, str | None]]:
    """(input name, arity, argument, constant) each clause reads, in order;
    argument None for an input read with no constant."""
    top = reach.abstract_top(folder)
    ins = reach.by_scope(Path(folder))
    static = _static(folder)
    anyname = frozenset(n for n, a in reach.handed_over(folder) if a == -1)
    out: list = []
    for c in clauses:
        shape = reach.shape_of(c.rule, top)
        env = reach.bind(shape.body, shape.equal, static, anyname) or {}
        equal = dict(shape.equal)
        for name, arity, args in _reads(c.rule, top):
            if (name, arity) not in ins:
                continue
            got = False
            for i, a in enumerate(args):
                values = (
                    {a[1]}
                    if a[0] == "c"
                    else a[1]
                    if a[0] == "pool"
                    else (equal.get(a[1]) or env.get(a[1]) or ())
                    if a[0] == "v"
                    else ()
                )
                for v in sorted(values):
                    out.append((name, arity, i, v))
                    got = True
            if not got:
                out.append((name, arity, None, None))
    return out


def vocabularies(folder: str, start: list, needs: list | None = None) -> dict[int, Vocabulary]:
    """The vocabulary of the clauses `start` at each of DEPTHS (module
    doc); `needs`: reach.needs' inputs of the start clauses (a switch's
    sibling clause's)."""
    layers = cone(folder, start, max(DEPTHS))
    own_reads = _constants_read(folder, layers[0]) + [
        (n, a, i, c) for n, a, consts in (needs or []) for i, c in enumerate(consts) if c is not None
    ]
    reads = [own_reads] + [_constants_read(folder, layer) for layer in layers[1:]]
    # (the header inputs two steps away are read only where a clause the
    # start clauses need reads them: what derives what they read)
    backward = cone(folder, start, max(DEPTHS), False)
    enabling = [r for r in _constants_read(folder, backward[-1]) if r[0] in HEADER]
    # (Voluntary Break is a question asked of a position, not a fact of it:
    # asked at every depth where what the clauses need reads it)
    asks = any(r[0] == _ASKED for layer in backward for r in _constants_read(folder, layer))
    whole = refigure.refigures(folder, start)
    out = {}
    for d in DEPTHS:
        v = dataclasses.replace(_vocabulary(reads[: d + 1], enabling if d > 1 else []), voluntary_break=asks)
        if whole:
            added = tuple(p for p in REFIGURE_PALETTE if p not in v.palette)
            v = dataclasses.replace(v, refigured=True, obstacles=added, palette=v.palette + added)
        out[d] = v
    return out


#: the terrain a re-figured rout needs (A10.51 "a newly-Known enemy unit"):
#: an obstacle to the LOS (los/3) the unit's start has and a later
#: Location lacks
REFIGURE_PALETTE = ("woods",)


#: the input a position gives where Voluntary Break is asked (A10.41)
_ASKED = "vb_scope"


def _vocabulary(by_depth: list[list], needed: list) -> Vocabulary:
    reads = [r for layer in by_depth for r in layer]
    # (the header's choices multiply every placement: those read two steps
    # away are left out, but for those `needed`)
    near = sum(len(layer) for layer in by_depth[:2])
    got: dict = {"words": [], "own": [], "phases": ["rout"], "header": [], "palette": [], "guard": []}
    for k, read in enumerate(reads):
        _take(read, got, own=k < len(by_depth[0]), near=k < near)
    for read in needed:
        _take(read, got, own=False, near=True)
    phases, header, palette = got["phases"], got["header"], got["palette"]
    if "close_combat" in header and "close_combat" not in phases:
        phases.append("close_combat")
    if "mopping_up" in header and "building" not in palette:
        palette.append("building")
    return Vocabulary(
        tuple(got["words"]), tuple(got["own"]), tuple(phases), tuple(header), bool(got["guard"]), tuple(palette)
    )


def _add(items: list, x) -> None:
    if x not in items:
        items.append(x)


def _take(read: tuple, got: dict, own: bool, near: bool) -> None:
    """One input constant read, into the vocabulary's lists."""
    name, _arity, i, value = read
    if name in _UNIT_WORDS and i == 1 and value is not None:
        w = (_UNIT_WORDS[name], value)
        if w[0] != "type" or w[1] in COUNTERS:
            _add(got["words"], w)
            if own:
                _add(got["own"], w)
    elif name == "phase" and value is not None:
        # (the Rout Phase read: what holds in another phase matters too --
        # the first of the position format's phases stands for them)
        _add(got["phases"], value if value != "rout" else _OTHER_PHASE)
    elif name in HEADER:
        if near:
            _add(got["header"], HEADER[name])
    elif name == "guard_of":
        got["guard"] = [True]
    elif name in _TERRAIN_INPUTS:
        _add(got["palette"], _TERRAIN_INPUTS[name])
    elif name in ("terrain", "feature") and value is not None and i == 1:
        _add(got["palette"], value if name == "terrain" else f"open+{value}")
    elif name in ("entrenchment", "entrenched"):
        _add(got["palette"], "open+foxhole")


# -- a bound as a scope -------------------------------------------------------


def _with(base: dict, words) -> dict | None:
    """A unit kind: `base` with the words; None when they contradict."""
    k = json.loads(json.dumps(base))
    for key, value in words:
        if key == "status":
            if value in k["status"]:
                return None
            k["status"] = k["status"] + [value]
        elif key == "type":
            if value == k["type"]:
                return None
            k["type"] = value
            counter = COUNTERS[value]
            if counter is None:
                return None
            k["counter"] = counter
        elif key == "nationality":
            if "nationality" in k or value == k["side"]:
                return None
            k["nationality"] = value
        elif key == "class":
            if "class" in k:
                return None
            k["class"] = value
    if k["type"] == "unarmed":
        k["size"] = "half_squad"
    return k


def _word_sets(v: Vocabulary, most: int = 2) -> list[tuple]:
    """The words one unit may carry: none, one, or two with an own one."""
    out: list[tuple] = [()]
    out += [(w,) for w in v.words]
    if most > 1:
        out += [
            (a, b) for a in v.own for b in v.words if a != b and (b not in v.own or v.own.index(b) > v.own.index(a))
        ]
    return out


@functools.lru_cache(maxsize=4096)
def _legal(kind_json: str) -> bool:
    """Whether the position loader (and the rules' checks of a unit as
    declared) take a kind: scope.py's own check, on a scope of that kind."""
    from asl_kb.committee.scope import scope_from_text

    kind = json.loads(kind_json)
    text = yaml.safe_dump(
        {
            "name": "check",
            "map": {"centre": "P15", "radius": 0, "margin": 1},
            **(
                {"terrain": {"palette": [{"terrain": "open", "features": ["foxhole"]}]}}
                if kind.get("entrenched")
                else {}
            ),
            "units": {"count": 1, "require_broken": False, "kinds": [kind]},
            "attacker": "german",
        },
        sort_keys=False,
    )
    try:
        scope_from_text(text, "check")
    except PositionError:
        return False
    return True


def kinds(v: Vocabulary, most: int | None = None) -> list[dict]:
    """The unit kinds of a vocabulary (module doc), fewest words first (the
    clauses' own words before the others), each one the position loader
    takes; at most `most` of them."""
    made: list[tuple[int, int, dict]] = []
    # (Voluntary Break is asked of an unbroken unit: the routing side's in
    # Good Order too)
    bases = list(ROLES.items()) + ([("defender", {**ROLES["defender"], "status": []})] if v.voluntary_break else [])
    for words in _word_sets(v):
        for role, base in bases:
            k = _with(base, words)
            if k is not None:
                made.append((len(words), len(made), {"name": "", "role": role, **k}))
    if v.guard:
        made += _guards(v, len(made))
    made.sort(key=lambda x: x[:2])
    out: list[dict] = []
    taken: set[str] = set()
    for _, _, k in made:
        if most is not None and len(out) >= most:
            break
        role = k.pop("role")
        check = json.dumps({x: y for x, y in k.items() if x != "name"}, sort_keys=True)
        if check in taken or not _legal(check):
            continue
        taken.add(check)
        k["name"] = f"{role}{len(out) + 1}"
        out.append(k)
    return out


def _guards(v: Vocabulary, first: int) -> list[tuple[int, int, dict]]:
    """A Guard of either side with a half-squad prisoner of the other
    (A20.5), the Guard with up to one word, the prisoner up to two."""
    made: list[tuple[int, int, dict]] = []
    for role, base in ROLES.items():
        other = ROLES["attacker" if role == "defender" else "defender"]
        prisoner0 = {"type": "half_squad", "counter": "2-4-7", "side": other["side"], "status": []}
        for gw in _word_sets(v, 1):
            g = _with({**base, "status": []}, gw)
            if g is None:
                continue
            for pw in _word_sets(v):
                p = _with(prisoner0, pw)
                if p is not None:
                    k = {"name": "", "role": f"guard_{role}", **g, "prisoners": [p]}
                    made.append((1 + len(gw) + len(pw), first + len(made), k))
    return made


#: the kinds a bound holds at most, by its units (the solver walks every
#: placement of a size before the smallest is known: kept tractable)
MOST_KINDS = {1: 64, 2: 24, 3: 10}


@dataclasses.dataclass(frozen=True)
class Bound:
    """One bound of a search without a scope: its words and its scope."""

    units: int
    depth: int
    radius: int
    vocabulary: Vocabulary
    non_open: int = 1  # (terrain hexes of the palette at most)

    @property
    def text(self) -> str:
        """The bound as a scope YAML."""
        return bound_text(self.vocabulary, self.units, self.radius, self.name, self.non_open)

    @property
    def name(self) -> str:
        return f"rules-{self.units}u-d{self.depth}-r{self.radius}" + (f"-t{self.non_open}" if self.non_open > 1 else "")

    def scope(self):
        return _scope_of(self.text, self.name)

    def said(self) -> str:
        hexes = "1 hex" if self.radius == 0 else "7 hexes"
        terrain = f", up to {self.non_open} of them not open" if self.non_open > 1 else ""
        return f"{hexes}{terrain}, {self.units} unit(s); {self.vocabulary.said()}"


@functools.lru_cache(maxsize=64)
def _scope_of(text: str, name: str):
    from asl_kb.committee.scope import scope_from_text

    return scope_from_text(text, f"{name}.yaml", check_kinds=False)


def bound_text(v: Vocabulary, units: int, radius: int, name: str, non_open: int = 1) -> str:
    """The bound as a scope YAML (scope.py's format)."""
    ks = kinds(v, MOST_KINDS.get(units, 8))
    attackers = [
        k["name"]
        for k in ks
        if k["side"] == "german" and "prisoners" not in k or k["name"].startswith("guard_attacker")
    ]
    defenders = [k["name"] for k in ks if k["name"].startswith(("defender", "guard_defender"))]
    doc: dict = {
        "name": name,
        "notes": f"read off the rules: {v.said()}",
        "map": {"centre": "P15", "radius": radius, "margin": 7, "default_terrain": "open"},
    }
    if v.palette:
        doc["terrain"] = {
            "palette": [
                {"terrain": "open", "features": [p.split("+", 1)[1]]}
                if p.startswith("open+")
                else ({"terrain": p, "levels": 1} if p == "building" else p)
                for p in v.palette
            ],
            "non_open": non_open,
        }
    doc["units"] = {"count": [units, units], "require_broken": False, "kinds": ks}
    doc["attacker"] = ["german"]
    doc["phase"] = list(v.phases)
    if "no_quarter" in v.header:
        doc["no_quarter"] = [[], ["german"]]
    if "mopping_up" in v.header:
        doc["mopping_up"] = ["none", "yes"]
    if "massacred" in v.header:
        doc["massacred"] = ["none", ["german"]]
    if "elr" in v.header:
        doc["elr"] = ["none", {"russian": 3}]
    if "close_combat" in v.header:
        doc["close_combat"] = ["none", {"attackers": attackers, "capture": "yes"}, {"attackers": attackers}]
    if "fire_effects" in v.header:
        doc["fire_effects"] = ["none", {"eliminated": defenders}, {"failed_mc": defenders}]
    return yaml.dump(doc, Dumper=_Plain, sort_keys=False, default_flow_style=None, width=200)


class _Plain(yaml.SafeDumper):
    """No anchors: a kind's lists written out each time (a scope refuses aliases)."""

    def ignore_aliases(self, data):
        return True


def with_types(v: Vocabulary, wider: Vocabulary) -> Vocabulary:
    """`v` with the unit types `wider` reads (a leader, a crew, a hero: a
    third unit beside the two a clause acts on is often one that does what a
    squad would not -- a Known enemy that cannot Interdict or take prisoners)."""
    types = tuple(w for w in wider.words if w[0] == "type" and w not in v.words)
    return dataclasses.replace(v, words=v.words + types) if types else v


#: the most non-open hexes a bound of seven hexes holds where the rules read
#: terrain (two: a building of two hexes, or one to rout from and one to reach)
NON_OPEN = 2


def ladder(folder: str, start: list, needs: list | None = None, widen=None) -> list[Bound]:
    """The bounds a search without a scope walks, smallest first (module
    doc), none twice: of three units, each vocabulary with the unit types
    the widest reads (with_types); where the vocabulary holds terrain, up to
    NON_OPEN of seven hexes not open. `widen(folder, start, vocabularies)`
    may widen the vocabularies first (grow.ladder_of: seen.where_seen)."""
    out: list[Bound] = []
    seen: set = set()
    vocab = vocabularies(folder, start, needs)
    if widen is not None:  # (seen.where_seen: what a change no vocabulary shows needs)
        vocab = widen(folder, start, vocab)
    for n in UNITS:
        for d in DEPTHS:
            for r in RADII:
                v = vocab[d] if n < 3 else with_types(vocab[d], vocab[max(DEPTHS)])
                v = v if r else v.on_one_hex()
                if r and n == 1 or d == max(DEPTHS) and (n > 2 or r and n > 1):
                    # a lone unit is one position wherever it stands; the
                    # widest vocabulary is read on one hex, of two units
                    continue
                key = (n, r, v)
                if key in seen:
                    continue
                seen.add(key)
                # (the positions of one non-open hex first: a bound's are
                # walked by units, then by non-open hexes)
                out.append(Bound(n, d, r, v, NON_OPEN if r and v.palette else 1))
    return out


# -- where a change can be seen ----------------------------------------------

#: the inputs of a unit a bound's kinds give (defined.lp name -> the kind's key)
_KIND_INPUTS = {"status": "status", "nationality": "nationality", "unit_type": "type", "uclass": "class"}


def given_by(bound: Bound, folder: str, phase: bool = False) -> dict:
    """What a bound's positions may give, as reach.may_hold reads it: of the
    units' inputs (status, nationality, type, class), the phase and the
    header inputs, only what its kinds, phases and header choices hold; of
    the others (the map, LOS, what the Python hands the rules), any value.
    More than it gives, never less. With `phase`, No Quarter for every side
    too (the whole phase asks the rout program again so: outcomes.py)."""
    v = bound.vocabulary
    values: dict[str, set] = {n: set() for n in _KIND_INPUTS}
    guard = False
    for k in kinds(v, MOST_KINDS.get(bound.units, 8)):
        for u in [k, *k.get("prisoners", ())]:
            prisoner = u is not k
            values["status"] |= set(u["status"]) | ({"unarmed"} if u["type"] == "unarmed" or prisoner else set())
            values["nationality"].add(u.get("nationality", u["side"]))
            values["unit_type"].add(u["type"])
            values["uclass"] |= {u["class"]} if "class" in u else set()
        guard = guard or bool(k.get("prisoners"))
    given: dict = {}
    for name, arity, _ in reach.inputs(Path(folder)):
        if name in _KIND_INPUTS and arity == 2:
            if values[name]:
                given[(name, arity)] = (None, frozenset(values[name]))
        elif (name, arity) == ("phase", 1):
            given[(name, arity)] = (frozenset(v.phases),)
        elif name in HEADER:
            if HEADER[name] in v.header or phase and name == "no_quarter":
                given[(name, arity)] = (None,) * arity
        elif name == "guard_of":
            if guard:
                given[(name, arity)] = (None,) * arity
        elif name != _ASKED or v.voluntary_break:
            given[(name, arity)] = (None,) * arity
    return given


@functools.lru_cache(maxsize=8)
def _shapes(folder: str) -> tuple:
    top = reach.abstract_top(folder)
    return tuple(reach.shape_of(c.rule, top) for c in reach.clauses(folder))


def seen_through(folder: str, start: list, given: dict) -> str | None:
    """Where the clauses `start` may fire and what they derive may reach an
    outcome, where the inputs `given` may hold (reach.may_hold: an
    over-approximation): the clause through which it may, or None when it
    can nowhere -- then no position giving only those inputs can tell the
    rule sets apart. It reaches an outcome when a clause reading what the
    last derived may fire (a clause reading what the start clauses derive,
    and so on), up to a constraint or a predicate no clause reads (what the
    program shows)."""
    facts = reach.may_hold(folder, given, handed_by_clauses=True)
    top = reach.abstract_top(folder)
    anyname = frozenset(n for n, a in reach.handed_over(folder) if a == -1)
    every = reach.clauses(folder)
    shapes = _shapes(folder)
    names = _every(folder)
    readers: dict[str, list[int]] = {}
    for i, (_, read) in enumerate(names):
        for n in read:
            readers.setdefault(n, []).append(i)
    reached: dict[str, str] = {}
    for c in start:
        sh = reach.shape_of(c.rule, top)
        if reach.bind(sh.body, sh.equal, facts, anyname) is None:
            continue
        if not sh.heads:
            return c.where
        reached.update({n: c.where for n, _ in reach.heads_of(c.rule) if n not in reached})
    todo = sorted(reached)
    while todo:
        name = todo.pop()
        if not readers.get(name):
            return reached[name]
        for i in readers[name]:
            sh = shapes[i]
            if reach.bind(sh.body, sh.equal, facts, anyname) is None:
                continue
            if not sh.heads:
                return every[i].where
            for head in sorted(names[i][0] - set(reached)):
                reached[head] = every[i].where
                todo.append(head)
    return None
