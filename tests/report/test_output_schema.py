"""The JSON output is documented by a JSON Schema (docs/output.schema.json,
described in docs/output-format.md): every bundled position's output (with
--phase, and --voluntary-break where it is quick) and why-not's answers
validate against it. Documents are validated by jsonschema-rs (Draft
2020-12, as jsonschema reads it, a hundred times faster on answers of
thousands of fates); jsonschema, the reference, checks the schema against
the metaschema, and both agree on sample documents, valid and not."""

import functools
import json
from pathlib import Path

import jsonschema
import jsonschema_rs
import pytest

from asl_kb.engines.outcomes import outcomes
from asl_kb.engines.why_not import parse_proposal, why_not
from asl_kb.position.loader import load_position
from asl_kb.report.render import to_json

from conftest import FACTS, ROOT, full_outcomes, sampled

SCHEMA = json.loads((ROOT / "docs" / "output.schema.json").read_text())


def _inlined(node, defs: dict, within: tuple = ()):
    """`node` with each local $ref replaced by the $def it names (beside other
    keywords: allOf it, as 2020-12 reads a $ref with siblings); a $def met
    again inside itself keeps its $ref. The same schema, read without a
    reference lookup at every node of a document: validating the bundled
    outputs took twice as long."""
    if isinstance(node, list):
        return [_inlined(x, defs, within) for x in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref", "")
    name = ref.removeprefix("#/$defs/")
    if not ref.startswith("#/$defs/") or name in within:
        return {k: _inlined(v, defs, within) for k, v in node.items()}
    rest = {k: _inlined(v, defs, within) for k, v in node.items() if k != "$ref"}
    target = _inlined(defs[name], defs, within + (name,))
    return {"allOf": [target], **rest} if rest else target


def _schema(ref=None) -> dict:
    return SCHEMA if ref is None else {"$schema": SCHEMA["$schema"], "$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{ref}"}


@functools.cache
def reference(ref=None):
    """jsonschema's validator (of one of its $defs): the schema checked
    against the metaschema, once (a check takes a fifth of a second)."""
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    return jsonschema.Draft202012Validator(_inlined(_schema(ref), SCHEMA["$defs"]))


@functools.cache
def validator(ref=None):
    """The schema's validator for the documents (jsonschema-rs), once the
    reference has checked the schema itself."""
    reference(ref)
    return jsonschema_rs.Draft202012Validator(_schema(ref))


@pytest.mark.parametrize("path", sampled(sorted(FACTS.glob("*/*.yaml"))), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_outcomes_json_validates(path: Path):
    validator().validate(json.loads(to_json(full_outcomes(path))))


def test_all_paths_validates():
    r = outcomes(load_position(FACTS / "rout/A10.531-EX.yaml"), all_paths=True)
    validator().validate(json.loads(to_json(r)))


def test_schema_rejects_a_term_string():
    """Structured results: a prisoners state written as a term string fails."""
    r = json.loads(to_json(outcomes(load_position(FACTS / "prisoners/article-Ex18.yaml"))))
    first = next(iter(r["prisoners"]["states"]))
    r["prisoners"]["states"][first] = ["guarded_by(R447)"]
    with pytest.raises(jsonschema_rs.ValidationError):
        validator().validate(r)
    with pytest.raises(jsonschema.ValidationError):
        reference().validate(r)


def _broken(doc: dict) -> list[dict]:
    """`doc` broken a few ways the schema forbids: a required key gone, a
    unit's fates a string, an unknown top-level key, a count a string."""
    out = []
    for change in ("drop", "fates", "extra", "count"):
        d = json.loads(json.dumps(doc))
        if change == "drop":
            del d["units"]
        elif change == "fates" and d["units"]:
            d["units"][0]["fates"] = "rout"
        elif change == "extra":
            d["no_such_key"] = 1
        elif change == "count" and d["units"]:
            d["units"][0]["fates"] = [{**f, "kind": 7} for f in d["units"][0]["fates"]]
        out.append(d)
    return out


@pytest.mark.parametrize(
    "name", ["rout/A10.5-EX.yaml", "rout/A10.531-EX.yaml", "prisoners/article-Ex18.yaml", "phase/article-Ex6.yaml"]
)
def test_the_two_validators_agree(name):
    doc = json.loads(to_json(full_outcomes(FACTS / name)))
    assert validator().is_valid(doc) and reference().is_valid(doc), name
    for d in _broken(doc):
        assert not validator().is_valid(d) and not reference().is_valid(d), name


@pytest.mark.parametrize("fate", [["rout", "L3"], ["rout", "M4"], ["stay"], ["surrender", "G2"]])
def test_why_not_json_validates(fate):
    p = load_position(FACTS / "rout/A10.5-EX.yaml")
    validator("why_not").validate(why_not(p, parse_proposal(p, "R1", fate)))
