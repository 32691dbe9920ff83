"""The package's modules in floors: a module uses the ones below it, never
back (no import cycle, lazy imports inside functions included), and none
imports another module's private name (`_name`), by `from M import _name`
or as `M._name`. Read from the source with ast, as the before-stop hook
does; the tooling (tools/) may import asl_kb, asl_kb never imports it."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _modules(top: str) -> dict[str, Path]:
    out = {}
    for p in (ROOT / top).rglob("*.py"):
        name = ".".join(p.relative_to(ROOT).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = p
    return out


MODULES = _modules("asl_kb")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@cache
def _read(name: str, path: Path) -> tuple[list, list]:
    """A module's imports and its `x._name` attributes, read in one walk of
    its source (parsed once a process: the tests read the same modules)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    imports, private = [], []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for a in node.names:
                imports.append((node.lineno, a.name, (), a.asname or a.name.split(".")[0]))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            imports.append((node.lineno, base, tuple(a.name for a in node.names), None))
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and _private(node.attr):
            private.append((node.lineno, node.value.id, node.attr))
    return imports, private


def _imports(name: str, path: Path) -> list:
    """(line, module imported, the names taken from it, the name bound) of
    every import of a module, at its top or inside a function."""
    return _read(name, path)[0]


def _owner(dotted: str) -> str | None:
    """The module of ours that a dotted name is (or is in)."""
    while dotted and dotted not in MODULES:
        dotted = dotted.rpartition(".")[0]
    return dotted or None


def _graph() -> dict[str, set[str]]:
    g: dict[str, set[str]] = {m: set() for m in MODULES}
    for m, p in MODULES.items():
        for _, base, names, _ in _imports(m, p):
            for x in [base, *(f"{base}.{n}" for n in names)]:
                owner = _owner(x)
                if owner and owner != m:
                    g[m].add(owner)
    return g


def test_no_import_cycle():
    g = _graph()

    def reach(a: str) -> set[str]:
        seen, todo = set(), [a]
        while todo:
            for b in g[todo.pop()]:
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        return seen

    cycles = sorted({tuple(sorted((a, b))) for a in g for b in g[a] if a in reach(b)})
    assert not cycles, "import cycles: " + "; ".join(f"{a} <-> {b}" for a, b in cycles)


def test_no_private_name_of_another_module_is_imported():
    found = []
    for m, p in MODULES.items():
        # names bound to a module of ours: `import asl_kb.x as y`, `from asl_kb import x`
        bound: dict[str, str] = {}
        for line, base, names, alias in _imports(m, p):
            if not base.startswith("asl_kb"):
                continue
            if not names and alias != base.split(".")[0]:  # `import asl_kb.x as y`
                bound[alias] = base
            for n in names:
                if f"{base}.{n}" in MODULES:
                    bound[n] = f"{base}.{n}"
                elif _private(n):
                    found.append(f"{p.relative_to(ROOT)}:{line}: from {base} import {n}")
        for line, value, attr in _read(m, p)[1]:
            target = bound.get(value)
            if target and target != m:
                found.append(f"{p.relative_to(ROOT)}:{line}: {value}.{attr} ({target})")
    assert not found, "private names of another module:\n" + "\n".join(found)


def test_the_package_never_imports_the_tooling():
    found = [
        f"{p.relative_to(ROOT)}:{line}: {base}"
        for m, p in MODULES.items()
        for line, base, _, _ in _imports(m, p)
        if base == "tools" or base.startswith("tools.")
    ]
    assert not found, found
