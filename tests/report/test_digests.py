"""Same input, same output: the JSON of every bundled position (plain and
--phase) and of a few small benchmark positions has the sha256 stored in
tests/data/digests.json. A speed change must leave every digest as it was.

When an output changes ON PURPOSE (a rule fixed, a field added), regenerate
the digests and commit them with the change, saying why in the message:

    .venv/bin/python tests/report/test_digests.py --update

(`--update` prints which digests changed; check each is one you meant.)
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIGESTS = ROOT / "tests" / "data" / "digests.json"
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))  # _runs, when run as a script (--update)

from generate import Stack, generate_open_stack, generate_position, generate_stack  # noqa: E402

import _runs  # noqa: E402
from asl_kb.position.loader import load_position, load_position_text  # noqa: E402
from asl_kb.report.render import to_json  # noqa: E402
from asl_kb.resources import cases_dir  # noqa: E402

#: small benchmark positions (benchmarks/generate.py): name -> (YAML text, phase)
BENCH = {
    "bench:spread-1x10": (lambda: generate_position(1, 10, 0, spread=True), False),
    "bench:spread-2x3": (lambda: generate_position(2, 3, 0, spread=True), False),
    "bench:stack-2": (lambda: generate_stack(2, 0, 0), True),
    "bench:stack-3+4smc": (lambda: generate_stack(3, 4, 0), True),
    # issue 28: a stack that surrenders or is rejected as a stack (world 1 not figured)
    "bench:open-stack-3+4smc": (lambda: generate_open_stack(Stack(3, smc=4), 0), True),
    "bench:open-stack-10": (lambda: generate_open_stack(Stack(10), 0), True),
}


def _keys() -> list[str]:
    keys = []
    for f in sorted(cases_dir().rglob("*.yaml")):
        rel = f.relative_to(cases_dir()).as_posix()
        keys += [f"{rel}:json", f"{rel}:phase"]
    return keys + sorted(BENCH)


def _digest(key: str) -> str:
    if key in BENCH:
        make, phase = BENCH[key]
        position = load_position_text(make(), key)
    else:
        rel, _, mode = key.rpartition(":")
        position, phase = load_position(cases_dir() / rel), mode == "phase"
    text = to_json(_runs.outcomes(position, phase=phase))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _stored() -> dict:
    return json.loads(DIGESTS.read_text(encoding="utf-8"))


def _params() -> list:
    """make test checks the sample's positions (tests/conftest.py) and the
    benchmark ones; make test-slow the rest."""
    from conftest import SAMPLE

    return [
        k if k in BENCH or k.rpartition(":")[0] in SAMPLE else pytest.param(k, marks=pytest.mark.slow) for k in _keys()
    ]


@pytest.mark.parametrize("key", _params())
def test_json_digest_unchanged(key):
    stored = _stored()
    assert key in stored, f"no stored digest for {key}: run `python tests/report/test_digests.py --update`"
    assert _digest(key) == stored[key], f"{key}: JSON output changed (see this module's docstring)"


def test_no_stale_digests():
    assert sorted(_stored()) == sorted(_keys())


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit(__doc__)
    old = _stored() if DIGESTS.exists() else {}
    new = {k: _digest(k) for k in _keys()}
    for k in sorted(set(old) | set(new)):
        if old.get(k) != new.get(k):
            print(f"{'changed' if k in old and k in new else 'added' if k in new else 'removed'}: {k}")
    DIGESTS.parent.mkdir(exist_ok=True)
    DIGESTS.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n", encoding="utf-8")
