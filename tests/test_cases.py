"""Every case file under cases/ holds: its `expect:` is what the rules give.

One test per case file (its id is the file's path under cases/); a failure
lists every expectation not met, FILE:LINE first."""
import pytest

from asl_kb.casebook import case_files, has_expect, run_case
from asl_kb.resources import cases_dir

CASES = case_files()


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(cases_dir())) for p in CASES])
def test_case(path):
    if not has_expect(path):
        pytest.skip("no expect: yet")   # migration in progress: becomes a failure when every position has one
    failures = run_case(path)
    assert not failures, "\n".join(map(str, failures))
