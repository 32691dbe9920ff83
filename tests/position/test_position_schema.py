"""docs/position.schema.json is the position format, written once and read
by asl_kb/position/schema.py (its keywords in Python; jsonschema_rs for
where a file breaks it): it is a draft-07 schema, every bundled position
conforms to it, and the reading agrees with the reference implementation
(jsonschema, the tests' own) on every bundled position and every bad input,
and with jsonschema_rs where Python's regular expressions are not
ECMA-262's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from asl_kb.errors import PositionError
from asl_kb.position import schema
from asl_kb.position.loader import _parse, load_position_text
from asl_kb.resources import cases_dir

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from test_bad_input import CASES  # noqa: E402

BUNDLED = sorted(cases_dir().rglob("*.yaml"))


def test_the_schema_is_a_draft_7_schema():
    jsonschema.Draft7Validator.check_schema(json.loads((ROOT / "docs" / "position.schema.json").read_text()))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.relative_to(cases_dir()).as_posix())
def test_every_bundled_position_conforms(path):
    instance = schema.as_json(_parse(path.read_text(encoding="utf-8"), str(path)))
    assert [e.message for e in jsonschema.Draft7Validator(schema.schema()).iter_errors(instance)] == []
    assert schema.conforms(instance)


def test_an_editor_reading_yaml_itself_finds_the_bundled_positions_valid():
    # what a YAML editor hands its JSON Schema support: the YAML's own types
    # (core schema: numbers, booleans); the loader's reading is laxer
    validator = jsonschema.Draft7Validator(schema.schema())
    bad = {
        p.name: [e.message for e in validator.iter_errors(yaml.load(p.read_text(), Loader=yaml.CSafeLoader))]
        for p in BUNDLED
    }
    assert {k: v for k, v in bad.items() if v} == {}


def _instances():
    """Every bad input that parses, and every bundled position."""
    for name, (text, _, _) in sorted(CASES.items()):
        try:
            tree = _parse(text, name)
        except PositionError:
            continue
        if isinstance(tree, dict):
            yield name, schema.as_json(tree)
    for p in BUNDLED:
        yield p.name, schema.as_json(_parse(p.read_text(encoding="utf-8"), str(p)))


def test_the_validator_agrees_with_jsonschema():
    validator = jsonschema.Draft7Validator(schema.schema())
    seen = {True: 0, False: 0}
    for name, instance in _instances():
        valid = validator.is_valid(instance)
        assert schema.conforms(instance) == valid, name
        seen[valid] += 1
        # and on each key of each unit (a sample of the nodes, of a few files)
        units = instance.get("units") if isinstance(instance.get("units"), list) and seen[valid] % 4 == 1 else []
        for unit in units:
            for key in list(unit) if isinstance(unit, dict) else []:
                for value in ("x", 0, [], {}, "on", -1):
                    changed = {"name": "x", "attacker": "r", "units": [dict(unit, **{key: value})]}
                    assert schema.conforms(changed) == validator.is_valid(changed), (name, key, value)
    assert seen[True] and seen[False]


def test_the_reading_agrees_with_jsonschema_rs_on_patterns():
    """A pattern is read as ECMA-262 reads it (jsonschema_rs): `$` is the
    end of the string, not before a last line break; \\d is 0-9 only."""
    import jsonschema_rs

    validator = jsonschema_rs.Draft7Validator(schema.schema())
    unit = {"id": "R1", "side": "r", "type": "squad", "counter": "4-4-7", "at": "L2"}
    for key in ("id", "side", "at"):
        for value in ("L2\n", "r\n", "R1\n", "L\u0662", "r\u2028", "L2 ", ""):
            changed = {"name": "x", "attacker": "r", "units": [dict(unit, **{key: value})]}
            assert schema.conforms(changed) == validator.is_valid(changed), (key, value)
    assert schema.conforms({"name": "x", "attacker": "r", "units": [unit]})


HEAD = "name: x\nattacker: r\n"
UNIT = "units:\n  - {id: R1, side: r, type: squad, counter: 4-4-7, at: L2, "


@pytest.mark.parametrize(
    "text, line, key, words",
    [
        (HEAD + UNIT + "morale: 13}\n", 4, "units[0].morale", "13 is out of range 1..12"),
        (HEAD + UNIT + "status: ['']}\n", 4, "units[0].status[0]", "must not be empty"),
        (HEAD + "map:\n  area: [J0]\n", 4, "map.area", "expected two corner hexes, e.g. [J0, P10], got 1 items"),
        (HEAD + "no_quarter:\n  - german\n  - german\n", 5, "no_quarter[1]", "'german' is listed twice"),
        (HEAD + "errata:\n  a20: off\n", 4, "errata.a20", "'a20' is not a rule number like A20.3"),
        (HEAD + "map:\n  terrain: [M2]\n", 4, "map.terrain", "expected a mapping keyed by hex, e.g. {M7: building}"),
        (HEAD + "los:\n  blocked: [[J1]]\n", 4, "los.blocked[0]", "expected [J1, L1], got a list of 1"),
        ("name: x\nattacker: 7\n", 2, "attacker", "'7' is not a lower-case name"),
        (HEAD + "fire_effects:\n  eliminated: [R1]\n", 4, "fire_effects.by", "required key 'by' is missing"),
    ],
)
def test_schema_errors_point_at_the_node(text, line, key, words):
    with pytest.raises(PositionError) as info:
        load_position_text(text, "p.yaml")
    assert (info.value.line, info.value.key) == (line, key)
    assert words in info.value.message


def test_jsonschema_rs_is_asked_only_for_a_file_that_does_not_conform():
    """A valid position is read by the schema's keywords in Python alone; a
    bad one asks jsonschema_rs where it breaks the schema (the reference
    implementation, jsonschema, is the tests')."""
    code = (
        "import sys; from asl_kb.errors import PositionError; "
        "from asl_kb.position.loader import load_position, load_position_text; "
        f"load_position({str(BUNDLED[0])!r}); print('jsonschema' in sys.modules, 'jsonschema_rs' in sys.modules)\n"
        "try: load_position_text('name: x\\nattacker: 7\\n', 'p.yaml')\n"
        "except PositionError as e: print(e.key, 'jsonschema_rs' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.split() == ["False", "False", "attacker", "True"]


def test_the_loaders_names_are_the_schemas():
    """The names the loader and the committee's scopes use (loader.PHASES,
    ...) are the schema's: a name added to one is added to the other."""
    from asl_kb.position import loader

    defs = schema.schema()["definitions"]
    unit = defs["unit"]["properties"]
    assert schema.schema()["properties"]["phase"]["enum"] == list(loader.PHASES)
    assert defs["terrain_name"]["enum"] == list(loader.TERRAINS)
    assert defs["feature"]["enum"] == list(loader.FEATURES)
    assert unit["type"]["enum"] == list(loader.UNIT_TYPES) + list(loader.TYPE_ALIASES)
    assert unit["status"]["items"]["enum"] == list(loader.STATUSES)
    assert unit["class"]["enum"] == list(loader.UNIT_CLASSES)
    fire = schema.schema()["properties"]["fire_effects"]["properties"]
    assert fire["random_selection"]["properties"]["result"]["enum"] == list(loader.FIRE_RESULTS)


def test_any_value_anywhere_is_bad_input_or_loads(tmp_path):
    """Every node of a few bundled cases (their expect: included) replaced by
    a value of another kind, or emptied: the case loads or gives one
    PositionError, never another exception."""
    import random

    from tools.casebook import load_case

    rnd = random.Random(29)
    files = [
        cases_dir() / "rout" / "A10.5-EX.yaml",
        cases_dir() / "prisoners" / "A20.55-EX.yaml",
        cases_dir() / "phase" / "article-Ex13.yaml",
        cases_dir() / "rout" / "A10.5-may-rout.yaml",
    ]
    tried = 0
    for path in files:
        base = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        nodes = []

        def walk(x, trail):
            if trail:
                nodes.append(trail)
            items = x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ()
            for k, v in items:
                walk(v, trail + (k,))

        walk(base, ())
        for trail in rnd.sample(nodes, min(8, len(nodes))):
            for value in ("", "zz", ["zz"], {"zz": 1}, -3):
                doc = json.loads(json.dumps(base, default=str))
                parent = doc
                for k in trail[:-1]:
                    parent = parent[k]
                parent[trail[-1]] = value
                case = tmp_path / "case.yaml"
                case.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
                try:
                    load_case(case)
                except PositionError:
                    pass
                tried += 1
    assert tried == 5 * 8 * len(files)


def test_an_editor_reading_yaml_1_2_finds_numbers_where_names_may_be_numbers():
    """A YAML 1.2 editor reads `1e3` as a number, the loader as a string:
    the schema accepts both where a name or text may look like a number."""
    validator = jsonschema.Draft7Validator(schema.schema())
    doc = {
        "name": 1e3,
        "attacker": "r",
        "notes": 2.5,
        "map": {"board": 5},
        "units": [{"id": 1e10, "side": "r", "type": "squad", "counter": 447.0, "at": "L2"}],
    }
    assert [e.message for e in validator.iter_errors(doc)] == []
    assert schema.conforms(doc)
