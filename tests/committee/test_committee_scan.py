"""The search loop: JSON-lines streaming and --resume, --timeout, `search
gaps`, and a 2-worker local Dask cluster giving the report of a serial run."""

import json

import pytest

from asl_kb.committee.rulesets import parse_ruleset
from asl_kb.committee.scope import scope_from_text
from asl_kb.committee.search import search_diff
from test_committee_diff import run, without_captor_clause

# margin 0: the map is the patch alone, so a broken unit has few rout fates
# and each position is judged in a fraction of a second (these tests compare
# runs of the search loop with each other, not the rules' answer)
PAIR = """\
name: pair
map: {centre: P15, radius: 1, margin: 0}
units:
  count: 2
  kinds:
    - {type: squad, counter: 4-4-7, side: russian, status: [broken]}
    - {type: squad, counter: 4-6-7, side: german, status: []}
attacker: german
"""


@pytest.fixture(scope="module")
def erratum(tmp_path_factory):
    return without_captor_clause(tmp_path_factory.mktemp("rules") / "erratum")


def shown(report):
    return {k: v for k, v in report.items() if not k.startswith("_")}


def test_stream_and_resume_give_the_same_report(tmp_path, erratum):
    scope = scope_from_text(PAIR, "pair.yaml")
    a, b = parse_ruleset("current"), parse_ruleset(str(erratum))
    stream = tmp_path / "run.jsonl"
    whole = search_diff(scope, a, b, witnesses=1, stream=str(stream))
    lines = [json.loads(x) for x in stream.read_text().splitlines()]
    assert [x["index"] for x in lines] == list(range(whole["tried"]))
    assert [x["verdict"]["witness"] for x in lines] == [False] * (len(lines) - 1) + [True]
    # an interrupted run: the witness and a line cut short lost; resuming
    # judges only what is missing and reports the same
    stream.write_text("".join(json.dumps(x) + "\n" for x in lines[:-1]) + '{"index": 9')
    resumed = search_diff(scope, a, b, witnesses=1, stream=str(stream), resume=True)
    assert shown(resumed) == shown(whole)


def test_timeout_marks_the_report_incomplete(erratum):
    scope = scope_from_text(PAIR.replace("count: 2", "count: [1, 2]"), "pair.yaml")
    # (say_idle=False: the scope is walked, though the switch can act in no
    # position of it, which passes it over otherwise)
    r = search_diff(
        scope,
        parse_ruleset("current"),
        parse_ruleset("current", switch="massacre_in_location"),
        timeout=0.0,
        say_idle=False,
    )
    assert not r["complete"] and r["incomplete_because"] == ["stopped: --timeout 0 s reached"]
    assert r["tried"] == 1 and r["witnesses"] == []


def test_search_gaps_runs_to_the_end_of_a_scope(capsys, tmp_path):
    f = tmp_path / "lone.yaml"
    f.write_text(PAIR.replace("count: 2", "count: 1"))
    code, out, _ = run(capsys, "search", "gaps", "--scope", str(f), "--format", "json")
    r = json.loads(out)
    assert r["complete"] and r["stopped"] == "scope exhausted" and r["tried"] > 0
    # each finding names the clauses in conflict by rule id
    assert code == (1 if r["witnesses"] else 0)
    for w in r["witnesses"]:
        assert all(f["rules"] for f in w["findings"])


def test_two_children_and_two_dask_workers_give_the_serial_report(erratum):
    """`--workers 2` (child processes of this one) and a cluster
    (`--scheduler`: here a local Dask cluster) report what judging every
    position in this process reports."""
    pytest.importorskip("distributed")
    from asl_kb.committee.dask_run import cluster_evaluator
    from asl_kb.committee.scan import forked

    scope = scope_from_text(PAIR, "pair.yaml")
    a, b = parse_ruleset("current"), parse_ruleset(str(erratum))
    serial = search_diff(scope, a, b, witnesses=1)
    with forked(2) as evaluator:
        assert shown(search_diff(scope, a, b, witnesses=1, evaluator=evaluator)) == shown(serial)
    with cluster_evaluator(workers=2) as evaluator:
        parallel = search_diff(scope, a, b, witnesses=1, evaluator=evaluator)
    assert serial["witnesses"] and shown(parallel) == shown(serial)


def test_ctrl_c_writes_what_it_has_and_marks_the_report_incomplete(tmp_path, erratum):
    # an interruption after the second position: the report and the stream
    # hold the two judged, and say the search was interrupted
    from asl_kb.committee.scan import serial
    from asl_kb.committee.search import judge_diff
    import functools

    scope = scope_from_text(PAIR, "pair.yaml")
    a, b = parse_ruleset("current"), parse_ruleset("current", switch="massacre_in_location")
    judge = functools.partial(judge_diff, a=a, b=b, phase=False)
    calls = []

    def interrupted(name, text):
        calls.append(name)
        if len(calls) == 2:  # Ctrl-C while the second position is judged
            import os
            import signal

            os.kill(os.getpid(), signal.SIGINT)
        return judge(name, text)

    stream = tmp_path / "run.jsonl"
    # (say_idle=False: walked, not passed over)
    r = search_diff(scope, a, b, evaluator=lambda _judge: serial(interrupted), stream=str(stream), say_idle=False)
    assert r["tried"] == 2 and not r["complete"] and r["incomplete_because"] == ["stopped: interrupted"]
    assert [json.loads(x)["index"] for x in stream.read_text().splitlines()] == [0, 1]
