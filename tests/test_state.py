"""A process's mutable state lives in one module, asl_kb/process.py (its
docstring says why): no other module of the package has a `global`
statement, a module-level variable holding a mutable value (a dict, list
or set, as a literal, a comprehension or a call: OrderedDict, defaultdict,
deque...) or a module's variable rebound from outside (`module.NAME = x`).
Allowed: constants (tuples, frozensets, MappingProxyType, strings and
numbers), an UPPER_CASE table never mutated, a ContextVar, and functools'
caches on pure functions. Read from the source (no import): a quick pass
over the text picks the modules that might break it, which ast reads
(parsing the whole package would cost seconds)."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the one module that holds a process's mutable state
STATE = "asl_kb/process.py"
#: calls that make a mutable container
MUTABLE_CALLS = frozenset(
    {"dict", "list", "set", "bytearray", "OrderedDict", "defaultdict", "deque", "Counter", "ChainMap"}
    | {"WeakValueDictionary", "WeakKeyDictionary", "WeakSet"}
)
#: methods that change a container in place
MUTATORS = frozenset(
    {"append", "extend", "insert", "add", "update", "setdefault", "pop", "popitem", "popleft", "remove"}
    | {"discard", "clear", "move_to_end", "appendleft", "sort", "reverse", "difference_update"}
)


_MUTATION = "(?:\\.(?:" + "|".join(sorted(MUTATORS)) + r")\(|\[[^\n]*?\]\s*[-+*/|&%]?=(?!=))"
#: a name changed in place (its last part, x.NAME too), in the text
_MUTATED = re.compile(r"\b(\w++)" + _MUTATION + r"|\bdel\s+[\w.]*?(\w+)\[")
#: ... as x.NAME
_MUTATED_ATTR = re.compile(r"\.(\w+)" + _MUTATION)
_GLOBAL = re.compile(r"^\s*global\s", re.M)
#: a module-level assignment: (its name, the start of its value)
_TOP_ASSIGN = re.compile(r"^(\w+)\s*(?::[^\n=]*)?=(?!=)\s*([^\n]*)", re.M)
#: a value's start that may make a mutable one
_MUTABLE_START = re.compile(r"^[\[{]|\b(?:" + "|".join(sorted(MUTABLE_CALLS)) + r")\(")
#: an attribute of a name assigned: (the name)
_ATTR_ASSIGN = re.compile(r"^\s*(\w+)\.\w+\s*(?::[^\n=]*)?[-+*/|&%]?=(?!=)", re.M)
_AS_NAME = re.compile(r"\bimport\b[^\n]*?\bas\s+(\w+)")


@cache
def _texts() -> dict[str, str]:
    return {p.relative_to(ROOT).as_posix(): p.read_text() for p in sorted((ROOT / "asl_kb").rglob("*.py"))}


def _candidates() -> list[str]:
    """The modules whose text might break the rule (ast decides): a
    `global`, a module-level name changed in place somewhere or, not
    UPPER_CASE, given what may be a mutable value, an attribute of a module's name (or alias) assigned."""
    texts = _texts()
    mutated = {m.group(1) or m.group(2) for t in texts.values() for m in _MUTATED.finditer(t)}
    modules = {Path(w).stem for w in texts} | {"asl_kb"}
    modules |= {a for t in texts.values() for a in _AS_NAME.findall(t)}
    modules -= {"process", "__init__"}
    return [where for where, text in texts.items() if _might_break(text, mutated, modules)]


def _might_break(text: str, mutated: set[str], modules: set[str]) -> bool:
    names = [(n, v) for n, v in _TOP_ASSIGN.findall(text) if not n.startswith("__")]
    return bool(
        _GLOBAL.search(text)
        or any(n in mutated or (not n.isupper() and _MUTABLE_START.search(v)) for n, v in names)
        or any(n in modules for n in _ATTR_ASSIGN.findall(text))
    )


@cache
def _tree(where: str) -> ast.Module:
    return ast.parse(_texts()[where], where)


def _top(tree: ast.Module):
    """The module-level statements, those inside a top-level if/try too."""
    todo = list(tree.body)
    while todo:
        s = todo.pop(0)
        if isinstance(s, ast.If | ast.Try):
            todo[:0] = (
                s.body
                + s.orelse
                + getattr(s, "finalbody", [])
                + [x for h in getattr(s, "handlers", []) for x in h.body]
            )
        else:
            yield s


def _mutable(value: ast.expr | None) -> bool:
    if isinstance(value, ast.Dict | ast.List | ast.Set | ast.DictComp | ast.ListComp | ast.SetComp):
        return True
    if isinstance(value, ast.Call):
        f = value.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        return name in MUTABLE_CALLS
    return False


def _targets(node: ast.AST) -> list:
    if isinstance(node, ast.Assign | ast.Delete):
        return node.targets
    if isinstance(node, ast.AugAssign | ast.AnnAssign):
        return [node.target]
    return []


def _mutated(tree: ast.Module) -> tuple[set[str], set[str]]:
    """The names changed in place inside a function (NAME.append(...),
    NAME[k] = v, del NAME[k], NAME[k] += v): (bare names, the last part of
    `x.NAME`). (At the top of a module, a table is being built.)"""
    bare: set[str] = set()
    attr: set[str] = set()

    def note(e):
        if isinstance(e, ast.Name):
            bare.add(e.id)
        elif isinstance(e, ast.Attribute):
            attr.add(e.attr)

    for f in ast.walk(tree):
        if not isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        for node in ast.walk(f):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
                note(node.func.value)
            for t in _targets(node):
                for e in t.elts if isinstance(t, ast.Tuple | ast.List) else [t]:
                    if isinstance(e, ast.Subscript):
                        note(e.value)
    return bare, attr


def _modules_bound(tree: ast.Module, package: str) -> set[str]:
    """The names a module binds to a module of asl_kb (import asl_kb.x as
    y; from asl_kb.x import y, where y is a module)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.asname for a in node.names if a.asname and a.name.startswith("asl_kb.")}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            if base.split(".")[0] != "asl_kb":
                continue
            for a in node.names:
                folder = ROOT.joinpath(*base.split("."))
                if (folder / f"{a.name}.py").is_file() or (folder / a.name / "__init__.py").is_file():
                    out.add(a.asname or a.name)
    return out


def _globals(where: str, tree: ast.Module) -> list[str]:
    return [f"{where}:{n.lineno}: global {', '.join(n.names)}" for n in ast.walk(tree) if isinstance(n, ast.Global)]


def _mutable_values(where: str, tree: ast.Module, elsewhere: set[str]) -> list[str]:
    """Module-level names holding a mutable value: any but an UPPER_CASE
    table never changed (here, or as `x.NAME` in another module)."""
    found = []
    mine = set().union(*_mutated(tree))
    for s in _top(tree):
        if isinstance(s, ast.AugAssign):
            found.append(f"{where}:{s.lineno}: a module-level variable rebound")
        if not isinstance(s, ast.Assign | ast.AnnAssign) or not _mutable(s.value):
            continue
        for t in s.targets if isinstance(s, ast.Assign) else [s.target]:
            name = t.id if isinstance(t, ast.Name) else "?"
            if name.startswith("__"):
                continue  # (__all__: read by tools, never changed)
            if not name.isupper() or name in mine or name in elsewhere:
                found.append(f"{where}:{s.lineno}: {name}, a module-level mutable value")
    return found


def _rebound(where: str, tree: ast.Module, package: str) -> list[str]:
    """`module.NAME = value` of a module of the package (but the state's)."""
    modules = _modules_bound(tree, package) - {"process"}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Delete):
            for t in _targets(node):
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id in modules:
                    found.append(f"{where}:{node.lineno}: {t.value.id}.{t.attr} rebound from outside")
    return found


@cache
def _problems() -> tuple[str, ...]:
    # (x.NAME changed in another module: a name of that module, maybe)
    elsewhere = {n for t in _texts().values() for n in _MUTATED_ATTR.findall(t)}
    found = []
    for where in _candidates():
        if where != STATE:
            tree, package = _tree(where), ".".join(Path(where).parent.parts)
            found += _globals(where, tree) + _mutable_values(where, tree, elsewhere) + _rebound(where, tree, package)
    return tuple(found)


def test_no_module_but_the_state_module_keeps_mutable_state():
    assert list(_problems()) == []


def _found(text: str) -> list[str]:
    """The problems of one module's text, as the test reads them (the quick
    pass first: nothing if it passes the module over)."""
    mutated = {m.group(1) or m.group(2) for m in _MUTATED.finditer(text)}
    if not _might_break(text, mutated, {"budget"}):
        return []
    tree = ast.parse(text)
    return _globals("m.py", tree) + _mutable_values("m.py", tree, set()) + _rebound("m.py", tree, "asl_kb")


def test_the_check_finds_what_it_looks_for():
    """Each kind of problem the scan names, alone in a small module, is
    found (the scan does not pass by finding nothing to look at); constants
    are not."""
    problems = {
        "global": "WHEN = None\ndef f():\n    global WHEN\n    WHEN = 1\n",
        "a private list": "_seen = []\n",
        "a lower-case dict": "cache = dict()\n",
        "a table changed": "CACHE = {}\ndef f(k):\n    CACHE[k] = 1\n",
        "a table cleared": "from collections import OrderedDict\nCACHE = OrderedDict()\ndef f():\n    CACHE.clear()\n",
        "rebound": "from asl_kb import budget\ndef f():\n    budget.PHASE = 2\n",
    }
    for kind, text in problems.items():
        assert len(_found(text)) == 1, kind
    constants = "TABLE = {'a': 1}\nWHEN = None\nNAMES = frozenset({'x'})\ndef f():\n    return TABLE['a']\n"
    assert _found(constants) == []
