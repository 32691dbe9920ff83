"""Docs that run (issue 11, item 6): every fenced block in docs/ is a
position that loads, or a sample output that a test regenerates and
compares. A sample output is marked by a comment before its block:

    <!-- asl-kb: ARGS -->            the block is a run of consecutive lines of
                                     `asl-kb ARGS` (a ```json block: a part of
                                     its JSON — the keys and list items shown)
    <!-- asl-kb: position-error F --> the ```yaml block, loaded as file F, fails
                                     with the message in the next block

A block that is none of these fails the test: drift cannot hide."""
import json
import re
import shlex

import pytest

from asl_kb import cli
from asl_kb.errors import PositionError
from asl_kb.position.loader import load_position_text

from conftest import ROOT

DOCS = sorted((ROOT / "docs").glob("*.md"))
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.S | re.M)
DIRECTIVE = re.compile(r"<!-- asl-kb: (.*?) -->\s*$")


def blocks(path):
    """(kind, language, text, directive) for each fenced block of a doc."""
    text = path.read_text()
    out = []
    for m in FENCE.finditer(text):
        before = text[:m.start()].rstrip("\n").splitlines()
        d = DIRECTIVE.match(before[-1]) if before else None
        out.append((m.group(1), m.group(2), d.group(1) if d else None, text[:m.start()].count("\n") + 1))
    return out


def all_blocks():
    for doc in DOCS:
        bs = blocks(doc)
        skip = set()
        for i, (lang, body, directive, line) in enumerate(bs):
            if i in skip:
                continue
            if directive and directive.startswith("position-error "):
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


@pytest.mark.parametrize("doc,line,case", CASES, ids=[f"{d.name}:{l}" for d, l, _ in CASES])
def test_doc_block(doc, line, case, capsys, monkeypatch):
    kind = case[0]
    assert kind != "unchecked", f"{doc.name}:{line}: a block no test checks: mark it (see this test's docstring)"
    if kind == "position":
        load_position_text(case[1], f"{doc.name}:{line}")
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
            assert _part_of(json.loads(body), json.loads(out)), f"{doc.name}:{line}: the JSON sample is not in the output"
        else:
            want, got = body.splitlines(), out.splitlines()
            runs = [i for i in range(len(got) - len(want) + 1) if got[i:i + len(want)] == want]
            assert runs, f"{doc.name}:{line}: the sample is not in the output of `asl-kb {args}`"
