"""Every case file under facts/ holds: its `expect:` is what the rules give.

One test per case file (its id is the file's path under facts/); a failure
lists every expectation not met, FILE:LINE first. A position file without
`expect:` is an error: every bundled position is a case."""

import pytest

from tools.casebook import case_files, run_case
from asl_kb.resources import cases_dir
from conftest import sampled

CASES = case_files()


def test_there_are_cases():
    assert len(CASES) >= 40


# make test runs the sample's cases (tests/conftest.py), make test-slow the rest
@pytest.mark.parametrize("path", sampled(CASES), ids=[str(p.relative_to(cases_dir())) for p in CASES])
def test_case(path):
    # the runner's engine runs are the session's shared ones (conftest.py,
    # tests/_runs.py): a run the digests, the schema or the report tests made
    # is not made again
    failures = run_case(path)
    assert not failures, "\n".join(map(str, failures))
