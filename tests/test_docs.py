"""Docs that run (issue 11, item 6): every fenced block in docs/ is a
position that loads, or a sample output that a test regenerates and
compares. A sample output is marked by a comment before its block:

    <!-- asl-kb: ARGS -->            the block is a run of consecutive lines of
                                     `asl-kb ARGS` (a ```json block: a part of
                                     its JSON — the keys and list items shown)
    <!-- asl-kb: position-error F --> the ```yaml block, loaded as file F, fails
                                     with the message in the next block
    <!-- asl-kb: shell -->           commands: each `make T` names a Makefile
                                     target, each `asl-kb ...` parses, each
                                     path into a folder of the checkout exists
    <!-- asl-kb: expect-format -->   the grammar of a case's `expect:`: every
                                     key it shows is one the casebook accepts,
                                     and every run key is shown
    <!-- asl-kb: expect-run CASE --> the block is one run of `expect.runs`:
                                     it loads in place of CASE's runs
    <!-- asl-kb: scope -->           the ```yaml block loads as a search scope
    <!-- asl-kb: exit-2 ARGS -->     `asl-kb ARGS` exits 2 and prints the block
                                     on stderr (the checkout's path as ...)

A block that is none of these fails the test: drift cannot hide."""

import functools
import json
import re
import shlex
from pathlib import Path

import pytest

from asl_kb import cli
from asl_kb.errors import PositionError
from asl_kb.position.loader import load_position_text

from conftest import ROOT

DOCS = sorted((ROOT / "docs").glob("*.md"))
#: the docs whose fenced blocks are checked: the README's sample output and commands too
BLOCK_DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *DOCS]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.S | re.M)
DIRECTIVE = re.compile(r"<!-- asl-kb: (.*?) -->\s*$")


def blocks(path):
    """(kind, language, text, directive) for each fenced block of a doc."""
    text = path.read_text()
    out = []
    for m in FENCE.finditer(text):
        before = text[: m.start()].rstrip("\n").splitlines()
        d = DIRECTIVE.match(before[-1]) if before else None
        out.append((m.group(1), m.group(2), d.group(1) if d else None, text[: m.start()].count("\n") + 1))
    return out


def all_blocks():
    for doc in BLOCK_DOCS:
        bs = blocks(doc)
        skip = set()
        for i, (lang, body, directive, line) in enumerate(bs):
            if i in skip:
                continue
            if directive in ("shell", "expect-format", "scope") or (directive or "").startswith(
                ("expect-run ", "exit-2 ")
            ):
                yield doc, line, (directive.split()[0], directive, body)
            elif directive and directive.startswith("position-error "):
                skip.add(i + 1)
                yield doc, line, ("error", directive.split()[1], body, bs[i + 1][1])
            elif directive:
                yield doc, line, ("output", directive, lang, body)
            elif lang == "yaml":
                yield doc, line, ("position", body)
            else:
                yield doc, line, ("unchecked", lang, body)


CASES = list(all_blocks())


def test_docs_have_checked_blocks():
    kinds = {c[2][0] for c in CASES}
    assert {"position", "output", "error"} <= kinds


def _part_of(sample, actual) -> bool:
    """Every key and list item of the sample is in the actual JSON (list items
    in order)."""
    if isinstance(sample, dict):
        return isinstance(actual, dict) and all(k in actual and _part_of(v, actual[k]) for k, v in sample.items())
    if isinstance(sample, list):
        if not isinstance(actual, list):
            return False
        i = 0
        for item in sample:
            while i < len(actual) and not _part_of(item, actual[i]):
                i += 1
            if i == len(actual):
                return False
            i += 1
        return True
    return sample == actual


def _heavy(case) -> bool:
    """A sample of the committee's commands (`search`, `diff`): each runs
    the rules under several rule sets, for seconds: make test-slow's."""
    return case[0] == "output" and case[1].split()[0] in ("search", "diff")


@pytest.mark.parametrize(
    "block",
    [pytest.param(c, marks=pytest.mark.slow) if _heavy(c[2]) else c for c in CASES],
    ids=[f"{d.name}:{l}" for d, l, _ in CASES],
)
def test_doc_block(block, capsys, monkeypatch, tmp_path):
    doc, line, case = block
    kind = case[0]
    assert kind != "unchecked", f"{doc.name}:{line}: a block no test checks: mark it (see this test's docstring)"
    if kind == "position":
        load_position_text(case[1], f"{doc.name}:{line}")
    elif kind == "shell":
        _check_commands(case[2], f"{doc.name}:{line}")
    elif kind == "scope":
        from asl_kb.committee.scope import scope_from_text

        assert scope_from_text(case[2], f"{doc.name}:{line}").specs
    elif kind == "expect-format":
        _check_expect_format(case[2], f"{doc.name}:{line}")
    elif kind == "exit-2":
        monkeypatch.chdir(ROOT)
        assert cli.main(shlex.split(case[1])[1:]) == 2
        err = capsys.readouterr().err.replace(str(ROOT), "...")
        assert err == case[2], f"{doc.name}:{line}: the error is not the one shown"
    elif kind == "expect-run":
        _check_expect_run(case[1].split()[1], case[2], f"{doc.name}:{line}", tmp_path)
    elif kind == "error":
        _, name, body, message = case
        with pytest.raises(PositionError) as e:
            load_position_text(body, name)
        assert str(e.value) == message.strip()
    else:
        _, args, lang, body = case
        monkeypatch.chdir(ROOT)
        code = cli.main(shlex.split(args))
        out = capsys.readouterr().out
        assert code in (cli.EXIT_OK, cli.EXIT_DIFFERS), code
        if lang == "json":
            assert _part_of(json.loads(body), json.loads(out)), (
                f"{doc.name}:{line}: the JSON sample is not in the output"
            )
        else:
            want, got = body.splitlines(), out.splitlines()
            runs = [i for i in range(len(got) - len(want) + 1) if got[i : i + len(want)] == want]
            assert runs, f"{doc.name}:{line}: the sample is not in the output of `asl-kb {args}`"


MAKE_TARGET = re.compile(r"^([\w-]+):", re.M)
A_PATH = re.compile(r"(?<![\w.])((?:[\w.-]+/)+[\w.-]+\.(?:py|yaml|lp|md|json))\b")


def _check_commands(body, where):
    targets = set(MAKE_TARGET.findall((ROOT / "Makefile").read_text()))
    for text in body.splitlines():
        command = text.split("#")[0].strip()
        words = shlex.split(command) if command else []
        if words[:1] == ["make"]:
            for target in (w for w in words[1:] if "=" not in w):
                assert target in targets, f"{where}: no Makefile target {target!r}"
        if words and words[0].endswith("asl-kb"):
            try:
                cli._parser(words[1:]).parse_args(words[1:])
            except SystemExit as e:
                pytest.fail(f"{where}: `{command}` does not parse (exit {e.code})")
        for path in A_PATH.findall(command):
            if (ROOT / path.split("/")[0]).is_dir() and not path.startswith(".venv/"):  # not a folder the block makes
                assert (ROOT / path).exists(), f"{where}: no file {path}"


def _check_expect_format(body, where):
    from asl_kb.position.schema import schema

    defs = schema()["definitions"]
    run_keys = set(defs["run"]["properties"])
    shown = set(re.findall(r"^\s*(?:- )?(\w+):", body, re.M))
    accepted = (
        {"name", "expect", "source", "runs"}
        | run_keys
        | set(defs["run_options"]["properties"])
        | set(defs["check_expect"]["properties"])
        | set(defs["unit_expect"]["properties"])
    )
    assert shown <= accepted, f"{where}: keys the casebook does not accept: {sorted(shown - accepted)}"
    assert run_keys <= shown, f"{where}: run keys not shown: {sorted(run_keys - shown)}"


def _check_expect_run(case_file, body, where, tmp_path):
    """The block replaces the case's runs; the case must still load."""
    import yaml
    from tools import casebook

    text = (ROOT / case_file).read_text()
    head = text[: text.index("\nexpect:")]
    run = "\n".join("      " + l if l else l for l in body.splitlines())
    source = yaml.load(text[text.index("\nexpect:") :], Loader=yaml.CSafeLoader)["expect"]["source"]
    doc = f"{head}\nexpect:\n  source: {json.dumps(source)}\n  runs:\n    - label: docs\n{run}\n"
    path = tmp_path / "doc-case.yaml"
    path.write_text(doc)
    case = casebook.load_case(path)
    assert [r.label for r in case.runs] == ["docs"], where


# ---------------------------------------------------------------- named paths

NAMED_PATH = re.compile(r"(?<![\w./<>*$~{-])((?:[\w.-]+/)+[\w.-]+\.(?:py|lp|md|json|yaml|png|j2|toml))(?![\w*/])")
BARE_FILE = re.compile(r"(?<![\w./<>*$~{-])([\w-]+\.(?:lp|md|py)|Makefile|pyproject\.toml)(?![\w*/-]|\.\w)")
#: paths a doc names that are not files of the checkout: what a command writes, the sources outside it
NOT_IN_CHECKOUT = (
    "mutation-report.json",
    "tools/mutate/history.json",
    "report.html",
    "shared/sources/",
    "mutation-witnesses/",
)


def _tracked(committed_only: bool = False) -> list[str]:
    """The checkout's files: those committed, and (unless `committed_only`)
    the new ones .gitignore does not ignore."""
    import subprocess

    out = subprocess.run(
        ["git", "ls-files", "--cached"] + ([] if committed_only else ["--others", "--exclude-standard"]),
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if out.returncode:
        pytest.skip("not a git checkout")
    return [p for p in out.stdout.splitlines() if (ROOT / p).exists()]


@functools.cache
def _named_texts() -> tuple:
    """(file, line number, text) of every doc line and every comment of the
    rules and of the Python of the package and the tooling (read once a
    process: two tests read them)."""
    return tuple(_read_named_texts())


def _read_named_texts():
    for doc in (*BLOCK_DOCS, ROOT / "CHANGES.md"):
        if doc.exists():
            for n, line in enumerate(doc.read_text().splitlines(), 1):
                yield doc, n, line
    for lp in sorted((ROOT / "rules").rglob("*.lp")):
        for n, line in enumerate(lp.read_text().splitlines(), 1):
            yield lp, n, line  # comments and #include names alike
    for py in sorted([*(ROOT / "asl_kb").rglob("*.py"), *(ROOT / "tools").rglob("*.py")]):
        yield from _python_texts(py)


#: a Python string (its prefix, triple-quoted or not) or a comment (group 1),
#: scanned left to right: the comments tokenize finds, at C speed (its
#: pure-Python tokenizer took seconds over the package)
STRING_OR_COMMENT = re.compile(
    r"""[rRbBuUfF]{0,2}(?:'{3}[\s\S]*?'{3}|"{3}[\s\S]*?"{3}|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*")|(#[^\r\n]*)"""
)


def _python_texts(py: Path):
    """(file, line number, text) of each comment and docstring line of a
    Python file."""
    import ast

    text = py.read_text()
    n, at = 1, 0
    for m in STRING_OR_COMMENT.finditer(text):
        if m.group(1) is not None:
            n, at = n + text.count("\n", at, m.start()), m.start()
            yield py, n, m.group(1)
    for node in _statements(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                for i, line in enumerate(first.value.value.splitlines()):
                    yield py, first.lineno + i, line


def _statements(module):
    """The module and every statement in it, as ast.walk gives them, without
    the expressions (a class or a function stands only in a list of
    statements; walking the expressions too cost seconds)."""
    from collections import deque

    todo = deque([module])
    while todo:
        node = todo.popleft()
        yield node
        for field in ("body", "handlers", "orelse", "finalbody", "cases"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                todo.extend(children)


def _exists(name: str, where: Path, tracked: set[str], basenames: set[str]) -> bool:
    if any(x in name for x in NOT_IN_CHECKOUT) or name.startswith((".venv/", "/", "../")) or "..." in name:
        return True
    if "/" not in name:
        return name in basenames
    bases = (ROOT, where.parent, ROOT / "rules", ROOT / "facts", ROOT / "asl_kb", ROOT / "docs")
    top = name.split("/")[0]
    if not any((base / top).is_dir() for base in bases):
        return True  # a folder the text makes (a witness folder, an erratum folder), not the checkout's
    return any((base / name).exists() for base in bases)


def test_every_named_path_exists():
    """Every path (`dir/file.ext`) and rule or doc file (`x.lp`, `x.md`) a doc,
    a rule comment or a Python comment or docstring names exists."""
    tracked = set(_tracked())
    basenames = {p.rsplit("/", 1)[-1] for p in tracked}
    missing = []
    for path, n, line in _named_texts():
        for name in NAMED_PATH.findall(line) + BARE_FILE.findall(line):
            if not _exists(name, path, tracked, basenames):
                missing.append(f"{path.relative_to(ROOT)}:{n}: {name}")
    assert not missing, "named paths that do not exist:\n" + "\n".join(missing)


def test_rules_catalogue_is_current():
    """docs/rules-catalogue.md is what `python -m tools.catalogue` writes from
    the rule files' header comments."""
    from tools import catalogue

    assert (ROOT / "docs" / "rules-catalogue.md").read_text(encoding="utf-8") == catalogue.render(ROOT / "rules"), (
        "docs/rules-catalogue.md is not current: run python -m tools.catalogue"
    )


#: the project's top level (issue 29): nothing else is committed there
TOP_LEVEL = {
    "pyproject.toml",
    "rules",
    "asl_kb",
    "facts",
    "tests",
    "docs",
    "README.md",
    "Makefile",
    ".ci",
    "benchmarks",
    "tools",
    "CHANGES.md",
    "CONTRIBUTING.md",
    ".gitignore",
}


def test_top_level_holds_only_the_layout():
    # (what is committed: the README tour's `report -o report.html` leaves a
    # file in a user's checkout that is theirs, not the layout's)
    extra = {p.split("/")[0] for p in _tracked(committed_only=True)} - TOP_LEVEL
    assert not extra, f"top-level entries beyond the layout: {sorted(extra)}"


def test_readme_is_a_front_door():
    """At most 200 lines (a front door, not a manual), and exactly two commands under "Two commands"."""
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 200
    section = text.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    block = FENCE.search(section).group(2)
    assert [line.split()[:2] for line in block.splitlines()] == [["make", "run"], ["make", "test"]]


def test_design_is_reference_not_a_diary():
    """docs/design.md: at most 300 lines of decisions and rejected
    alternatives; a part's own design stands in its page (real boards)."""
    assert len((ROOT / "docs" / "design.md").read_text().splitlines()) <= 300


def test_rulings_page_is_current():
    """docs/rulings.md is what `python -m tools.rulings` writes from the
    comments of rules/core/versions.lp, the cases and the witnesses (each
    witness block is checked against its command as every sample output)."""
    from tools import rulings

    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    assert text == rulings.render(rulings.found_in(text)), "docs/rulings.md is not current: run python -m tools.rulings"


DOTTED = re.compile(r"\basl_kb(?:\.\w+)+(?!\w|\.<)")  # (not a template: asl_kb.rules.<chapter>)


def _resolves(name: str) -> bool:
    """Whether a dotted name is a module of asl_kb, or an attribute of one."""
    import importlib

    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def test_every_named_python_name_exists():
    """Every dotted Python name a doc names (`asl_kb.position.loader.load_position`)
    is a module of the package or an attribute of one."""
    missing = [
        f"{doc.relative_to(ROOT)}:{n}: {name}"
        for doc in (*BLOCK_DOCS, ROOT / "CHANGES.md")
        if doc.exists()
        for n, line in enumerate(doc.read_text().splitlines(), 1)
        for name in DOTTED.findall(line)
        if not _resolves(name.rstrip("."))
    ]
    assert not missing, "named Python names that do not exist:\n" + "\n".join(missing)


# ---------------------------------------------------------------- figures

#: a measured figure: a decimal time or ratio (0.11 s, 1.48x, 39 ms, 2.5 µs),
#: a memory figure in decimal units (350 MB: the project's limits are in MiB),
#: or a before -> after pair of numbers
_UNIT = r"(?:s|ms|µs|x|×|%|MB|MiB|GB)"
FIGURE = re.compile(
    rf"(?<![\w.])(?:\d+\.\d+ ?(?:s|ms|µs|x|×)|\d+ ?(?:ms|µs|MB|GB)"
    rf"|\d[\d.,]* ?{_UNIT}? ?(?:→|->) ?\d[\d.,]* ?{_UNIT}|\d[\d.,]* ?{_UNIT} ?(?:→|->) ?\d)(?![\w])"
)


def test_figures_only_in_the_performance_page():
    """Timings and memory figures live in docs/performance.md (make bench
    writes its table): a figure in another doc, a rule comment or the
    package's comments and docstrings is a claim that goes stale."""
    found = []
    for path, n, line in _named_texts():
        if path.name in ("performance.md", "CHANGES.md"):  # the figures; the history
            continue
        found += [f"{path.relative_to(ROOT)}:{n}: {m}" for m in FIGURE.findall(line)]
    assert not found, "figures outside docs/performance.md:\n" + "\n".join(found)


def test_changes_by_version():
    """CHANGES.md: Unreleased on top, then one section per released version,
    newest first, the newest pyproject.toml's version; each change under a
    capability heading of its section."""
    import tomllib

    sections = re.findall(r"^## (.+)$", (ROOT / "CHANGES.md").read_text(), re.M)
    assert sections[0] == "Unreleased", "new entries go under ## Unreleased, as ### sections"
    versions = sections[1:]
    assert versions and all(re.fullmatch(r"\d+\.\d+\.\d+", v) for v in versions), versions
    numbers = [tuple(map(int, v.split("."))) for v in versions]
    assert numbers == sorted(numbers, reverse=True) and len(set(numbers)) == len(numbers)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert versions[0] == project["version"]
