"""`python -m tools.mutate` (`make mutate`): is every rule clause pinned by a
case? Deletes each clause of rules/**/*.lp in turn and negates each body
literal, runs the case suite against each mutant, lists the survivors.
See docs/mutation.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

from tools.mutate import history
from tools.mutate.mutants import DELETE, NEGATE, file_mutants, include_tree, rule_files, unsafe_mutants
from tools.mutate.pool import Pool
from tools.mutate.reach import write_probes
from asl_kb.resources import rules_dir

KILLED, ERROR, TIMEOUT, SURVIVED, UNREACHED = "killed", "error", "timeout", "survived", "unreached"
#: a mutant the rules file marks equivalent (`% equivalent: ... -- why`): not run unless asked
EQUIVALENT = "equivalent"


def _parser():
    ap = argparse.ArgumentParser(prog="python -m tools.mutate", description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "files", nargs="*", help="rules files to mutate (paths or globs, with or without rules/; default: all)"
    )
    ap.add_argument("--kind", choices=(DELETE, NEGATE, "all"), default="all", help="which mutations (default all)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 2, help="worker processes (default: all cores)")
    ap.add_argument("--suite", default="auto", help="casebook (the cases' expect:), golden (outputs as shipped), auto")
    ap.add_argument(
        "--cases",
        nargs="+",
        metavar="CASE",
        help="run only these case files (paths or globs), e.g. the case written for a survivor",
    )
    ap.add_argument("--report", default="mutation-report.json", help="JSON report file (default mutation-report.json)")
    ap.add_argument(
        "--history",
        default=str(history.DEFAULT),
        metavar="FILE",
        help="the case that killed each mutant last time, tried first; updated after a complete "
        "run of every file (default tools/mutate/history.json; '' for none)",
    )
    ap.add_argument(
        "--sample",
        type=int,
        default=1,
        metavar="N",
        help="only every Nth mutant (a quick estimate of the figures; default 1: all)",
    )
    ap.add_argument("--list", action="store_true", help="only list the mutants")
    ap.add_argument(
        "--overlay",
        nargs=2,
        metavar=("MUTANT_ID", "DIR"),
        help="write the rules folder of one mutant (an id from the report) to DIR, and stop",
    )
    ap.add_argument(
        "--search",
        action="store_true",
        help="hand the survivors of --report (or the --mutants given) to `asl-kb search diff`: the "
        "smallest position of --scope telling each apart from the shipped rules, written to "
        "--out as a proposed case, or 'equivalent within the scope' (docs/committee.md)",
    )
    ap.add_argument(
        "--mutants", nargs="+", metavar="ID", help="with --search: these mutant ids (default: the survivors)"
    )
    ap.add_argument("--scope", default="tiny", metavar="NAME|FILE", help="with --search: the scope (default tiny)")
    ap.add_argument(
        "--out",
        default="mutation-witnesses",
        metavar="DIR",
        help="with --search: where the witnesses go, one folder per mutant (default mutation-witnesses)",
    )
    ap.add_argument("--timeout", type=float, metavar="SECONDS", help="with --search: per mutant (default: none)")
    ap.add_argument(
        "--no-probes",
        action="store_true",
        help="run each mutant against every case loading its file, not only those where its clause "
        "has a ground instance (slower; a check of the probes)",
    )
    ap.add_argument(
        "--run-equivalent",
        action="store_true",
        help="also run the mutants the rules files mark equivalent (`%% equivalent:`), to check the "
        "marks: one killed is a stale mark",
    )
    ap.add_argument(
        "--only-equivalent",
        action="store_true",
        help="run only the mutants marked equivalent (a check of the marks; implies --run-equivalent)",
    )
    ap.add_argument(
        "--fail-under",
        type=float,
        default=0.0,
        metavar="PERCENT",
        help="exit 1 when fewer than PERCENT of the mutants are killed",
    )
    return ap


class Progress:
    def __init__(self, total: int):
        self.total, self.done, self.t0 = total, 0, time.monotonic()
        self.counts = {KILLED: 0, ERROR: 0, TIMEOUT: 0, SURVIVED: 0, UNREACHED: 0, EQUIVALENT: 0}
        self.tty = sys.stderr.isatty()

    def step(self, status: str, where: str):
        self.done += 1
        self.counts[status] += 1
        spent = time.monotonic() - self.t0
        eta = spent / self.done * (self.total - self.done)
        c = self.counts
        line = (
            f"[{self.done}/{self.total}] killed {c[KILLED]} errors {c[ERROR]} timeouts {c[TIMEOUT]} "
            f"survived {c[SURVIVED] + c[UNREACHED]}  {spent:.0f}s, ~{eta:.0f}s left  {where}"
        )
        if self.tty:
            sys.stderr.write("\r\033[K" + line[:160])
            if self.done == self.total:
                sys.stderr.write("\n")
        elif self.done % 25 == 0 or self.done == self.total or status in (SURVIVED, UNREACHED):
            sys.stderr.write(line + "\n")
        sys.stderr.flush()


def _status(res: list[dict], crash: str | None) -> tuple[str, dict]:
    if crash:
        return ERROR, {"detail": crash.strip().splitlines()[-1]}
    if not res:
        return UNREACHED, {}
    last = res[-1]
    info = {"by": last["case"], "detail": last["detail"], **({"run": last["run"]} if last.get("run") else {})}
    if last["status"] == "fail":
        return KILLED, info
    if last["status"] in (ERROR, TIMEOUT):
        return last["status"], info
    return SURVIVED, {}


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    bad = _bad_outputs(args)  # the files and folders it writes: checked before hours of work
    if bad:
        print(f"error: {bad}", file=sys.stderr)
        return 2
    rules = rules_dir()
    files = rule_files(rules, [f for arg in args.files for f in arg.split()])
    mutants = _chosen_mutants(args, rules, files)
    if args.overlay:
        return _overlay(args, rules, mutants)
    if args.search:
        return _search(args, rules, mutants)
    if args.list:
        for m in mutants:
            print(f"{m.file}:{m.line}: {m.mutation}: {m.clause}")
        print(f"{len(mutants)} mutants", file=sys.stderr)
        return 0

    from tools.mutate.suites import make_suite

    return _campaign(args, rules, files, mutants, make_suite(args.suite))


def _bad_outputs(args) -> str | None:
    from asl_kb import outputs

    return (
        outputs.problem("--report", args.report, (".json",))
        or (outputs.problem("--out", args.out, folder=True) if args.search else None)
        or (outputs.problem("--overlay", args.overlay[1], folder=True) if args.overlay else None)
    )


def _chosen_mutants(args, rules: Path, files: list[str]) -> list:
    """The mutants of the files, of the kind asked, equivalent only or one in
    every --sample; --only-equivalent runs them."""
    mutants = [m for f in files for m in file_mutants(rules, f) if args.kind == "all" or m.kind == args.kind]
    if args.only_equivalent:
        mutants = [m for m in mutants if m.equivalent]
        args.run_equivalent = True
    return mutants[:: args.sample] if args.sample > 1 else mutants


def _overlay(args, rules: Path, mutants) -> int:
    want, out = args.overlay
    hit = [m for m in mutants if m.id == want]
    if not hit:
        print(f"error: --overlay: no mutant {want!r}", file=sys.stderr)
        return 2
    hit[0].overlay(rules, Path(out))
    print(f"{out}: rules with {hit[0].file}:{hit[0].line} {hit[0].mutation}")
    return 0


def _chosen_cases(args, cases: list[str]) -> list[str] | None:
    """The suite's cases, those --cases names only; None (an error said)
    when it names none."""
    if not args.cases:
        return cases
    import fnmatch

    want = [str(Path(c).resolve()) for c in args.cases]
    cases = [c for c in cases if any(fnmatch.fnmatch(str(Path(c).resolve()), w) for w in want)]
    if not cases:
        print(f"error: --cases: no case matches {' '.join(args.cases)}", file=sys.stderr)
        return None
    return cases


def _campaign(args, rules: Path, files: list[str], mutants, suite) -> int:
    """The baseline, then every mutant against the cases that may tell it
    apart; the report (and, from a complete run, the history)."""
    cases = _chosen_cases(args, [str(c) for c in suite.case_files()])
    if cases is None:
        return 2
    t_start = time.monotonic()
    tmp = tempfile.TemporaryDirectory(prefix="asl-kb-probes-")
    probes = None if args.no_probes else write_probes(rules, files, Path(tmp.name) / "rules")
    pool = Pool(args.jobs, args.suite if ":" in args.suite else suite.name, rules)
    results: dict[str, dict] = {}
    try:
        print(
            f"mutate: {len(mutants)} mutants of {len(files)} files; suite {suite.name}, {len(cases)} cases, "
            f"{args.jobs} workers",
            file=sys.stderr,
        )
        probe_dir = None if probes is None else str(Path(tmp.name) / "rules")
        info, good, broken = _baseline(pool, rules, cases, probe_dir)
        print(f"mutate: baseline {time.monotonic() - t_start:.1f} s", file=sys.stderr)
        base = _Baseline(args, suite, files, info, good, broken)
        run = _Run(base, rules, mutants, probes)
        try:
            run.all(pool, results, lambda done: _write(base, done, results, time.monotonic() - t_start, False))
        except KeyboardInterrupt:
            print("\nmutate: interrupted; the report covers the mutants done", file=sys.stderr)
    finally:
        pool.close()
        tmp.cleanup()
    seconds = time.monotonic() - t_start
    done = [m for m in mutants if m.id in results]
    # the history is the casebook's killers: kept from a run where every case ran
    if len(done) == len(mutants) and not args.cases and args.sample == 1 and suite.name == "casebook":
        history.update(args.history, mutants, results)
    return _report(base, done, results, seconds, complete=len(done) == len(mutants))


def _baseline(pool: Pool, rules: Path, cases: list[str], probe_dir: str | None) -> tuple[dict, list, list]:
    """Every case once, on the rules with the probes (tools/mutate/reach.py):
    what it loads, how long it takes, which clauses have an instance there.
    (info by case, the cases that pass, those that fail on the shipped rules)"""
    info: dict[str, dict] = {}
    for _, res, _crash in pool.run((f"base:{c}", None, probe_dir, [c], 600.0) for c in cases):
        for r in res:
            info[r["case"]] = r
    again = [c for c in cases if info.get(c, {}).get("status") != "pass"] if probe_dir else []
    for _, res, _crash in pool.run((f"base:{c}", None, None, [c], 600.0) for c in again):
        for r in res:  # fails with the probes, not without: no record
            info[r["case"]] = r
    broken = sorted(c for c in cases if info.get(c, {}).get("status") != "pass")
    for c in broken:
        print(
            f"mutate: case fails on the shipped rules, left out: {c}: {info.get(c, {}).get('detail', 'no answer')}",
            file=sys.stderr,
        )
    good = [c for c in cases if c not in broken]
    trees: dict[str, set] = {}
    for c in good:
        loads: set = set()
        for entry in info[c]["entries"]:
            if entry not in trees:
                trees[entry] = include_tree(rules, entry)
            loads |= trees[entry]
        info[c]["loads"] = loads
        info[c]["kills"] = 0
        g = info[c].get("grounded")
        info[c]["grounded"] = None if g is None else {tuple(x) for x in g}
    return info, good, broken


class _Run:
    """The mutants run against the cases: which cases each goes to, in which
    order (the likeliest killers first), and what each run tells."""

    def __init__(self, base: "_Baseline", rules: Path, mutants, probes):
        args, files = base.args, base.files
        self.args, self.mutants, self.info, self.good, self.probes = args, mutants, base.info, base.good, probes
        self.by_key = {m.id: m for m in mutants}
        self.texts = {f: (rules / f).read_bytes() for f in files}
        self.reach: dict[str, int] = {}
        self.kills: dict[tuple, int] = {}  # (file, clause, case) and (file, case) -> mutants killed
        # (file, clause, case) and (file, case) -> {the label of the run that failed: mutants killed}
        self.run_kills: dict[tuple, dict] = {}
        self.last = history.load(args.history)
        self.affinity = Affinity(base.good)
        # a negation that leaves a variable unsafe no longer grounds: told from
        # the clause alone, in its #program part, without running a case
        self.unsafe = {k: v for f in files for k, v in unsafe_mutants(rules, f).items()}

    def prefer(self, m, cases) -> dict:
        """Per case, the run that killed this mutant last time, then its
        runs that killed mutants of the same clause, then of the same file,
        most first: a mutant is killed by the first run that fails, so the
        likeliest go first."""
        out = {}
        before = self.last.get(history.key(m), {})
        for c in cases:
            a, b = self.run_kills.get((m.file, m.clause, c), {}), self.run_kills.get((m.file, c), {})
            first = [before["run"]] if before.get("case") == c and before.get("run") else []
            if a or b or first:
                out[c] = first + sorted((set(a) | set(b)) - set(first), key=lambda r: (-a.get(r, 0), -b.get(r, 0), r))
        return out

    def order(self, m, case: str, killer: str | None = None) -> tuple:
        """The order a mutant's cases run in, likeliest killer first: the case
        that killed this mutant in the last complete run (`killer`, from
        tools/mutate/history.json), then the cases that killed other mutants of
        the same clause, then of the same file, then those with the most words
        in common with the clause (its rule id, its constants), then the most
        kills per second so far."""
        return (
            case != killer,
            -self.kills.get((m.file, m.clause, case), 0),
            -self.kills.get((m.file, case), 0),
            -round(self.affinity(m, case), 1),
            -(self.info[case]["kills"] + 0.5) / max(self.info[case]["seconds"], 0.05),
            case,
        )

    def skipped(self, m) -> bool:
        return (m.equivalent and not self.args.run_equivalent) or m.id in self.unsafe

    def tasks(self):
        for m in self.mutants:
            if self.skipped(m):
                continue
            rel = [c for c in self.good if m.file in self.info[c]["loads"]]
            if self.probes is not None:
                # only where the clause has an instance; none: the fastest case still runs
                # (a mutant may no longer ground at all)
                fire = [c for c in rel if self.probes.may_change(m.id, self.info[c]["grounded"])]
                self.reach[m.id] = len(fire)
                rel = fire or sorted(rel, key=lambda c: self.info[c]["seconds"])[:1]
            killer = self.last.get(history.key(m), {}).get("case")
            rel.sort(key=lambda c: self.order(m, c, killer))
            # per case: 4 s plus one and a half times its baseline, which ran with the
            # probes (some three times the plain run): more lenient than PIT's timeout
            allowed = [4.0 + 1.5 * self.info[c]["seconds"] for c in rel]
            yield (m.id, m.file, m.apply(self.texts[m.file]), rel, allowed, self.prefer(m, rel))

    def all(self, pool: Pool, results: dict, partial) -> None:
        """Every mutant's result into `results`; partial(mutants done) every
        hundred, in case the run is cut."""
        progress = Progress(len(self.mutants))
        for m in self.mutants:
            if m.equivalent and not self.args.run_equivalent:
                results[m.id] = {**m.as_dict(), "status": EQUIVALENT, "cases_run": 0, "seconds": 0.0, "cpu": 0.0}
                progress.step(EQUIVALENT, f"{m.file}:{m.line}")
            elif m.id in self.unsafe:
                results[m.id] = {
                    **m.as_dict(),
                    "status": ERROR,
                    "detail": self.unsafe[m.id],
                    "cases_run": 0,
                    "seconds": 0.0,
                    "cpu": 0.0,
                }
                progress.step(ERROR, f"{m.file}:{m.line}")
        for key, res, crash in pool.run(self.tasks()):
            m = self.by_key[key]
            results[key] = self.result(m, res, crash)
            progress.step(results[key]["status"], f"{m.file}:{m.line}")
            if len(results) % 100 == 0:  # a partial report, in case the run is cut
                partial([m for m in self.mutants if m.id in results])

    def result(self, m, res: list[dict], crash: str | None) -> dict:
        """A mutant's result from its runs; the kills counted for the order
        of the next mutants' cases."""
        status, extra = _status(res, crash)
        if m.equivalent and status == SURVIVED:
            status = EQUIVALENT
        if status in (KILLED, ERROR) and extra.get("by") in self.info:
            self.info[extra["by"]]["kills"] += 1
            for k in ((m.file, m.clause, extra["by"]), (m.file, extra["by"])):
                self.kills[k] = self.kills.get(k, 0) + 1
                if extra.get("run"):
                    runs = self.run_kills.setdefault(k, {})
                    runs[extra["run"]] = runs.get(extra["run"], 0) + 1
        return {
            **m.as_dict(),
            "status": status,
            **extra,
            **({"cases_grounding": self.reach[m.id]} if m.id in self.reach else {}),
            "cases_run": len(res),
            "seconds": round(sum(r["seconds"] for r in res), 3),
            "cpu": round(sum(r.get("cpu", 0.0) for r in res), 3),
        }


_RULE_ID = re.compile(r"^([A-Z]\d+)_(\d+)")
_WORD = re.compile(r"[A-Z]\d+(?:\.\d+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)*")


class Affinity:
    """How much a clause and a case have in common in words: the clause's
    constants and predicate names (and its file's rule id) that the case's
    YAML also uses, each weighted by how few cases use it (a rarely used word
    such as `only_infantry_escape` or `A20.55` says more than `unit`)."""

    def __init__(self, cases: list[str]):
        self.words = {c: set(_WORD.findall(Path(c).read_text(errors="replace") + " " + Path(c).stem)) for c in cases}
        import math

        df: dict[str, int] = {}
        for ws in self.words.values():
            for w in ws:
                df[w] = df.get(w, 0) + 1
        self.weight = {w: math.log(len(cases) / n) for w, n in df.items()}

    def __call__(self, m, case: str) -> float:
        clause = set(_WORD.findall(m.clause)) | set(re.split(r"[_\W]+", m.clause))
        rule = _RULE_ID.match(Path(m.file).name)
        if rule:
            clause.add(f"{rule[1]}.{rule[2]}")
        return sum(self.weight.get(w, 0.0) for w in clause & self.words[case])


def _to_search(args, by_id: dict) -> list[str] | None:
    """The mutants --search takes: --mutants, else the survivors of the
    last report; None (an error said) when there is none to take or a
    mutant named is not one of the files'."""
    if args.mutants:
        want = args.mutants
    else:
        try:
            report = json.loads(Path(args.report).read_text())
        except (OSError, ValueError) as e:
            print(
                f"error: {args.report}: --search: no mutation report to take the survivors from ({e}); "
                f"run `make mutate` first or name --mutants",
                file=sys.stderr,
            )
            return None
        want = [r["id"] for r in report["mutants"] if r["status"] in (SURVIVED, UNREACHED)]
    missing = [w for w in want if w not in by_id]
    if missing:
        print(f"error: --mutants: no mutant {missing[0]!r} among the files given", file=sys.stderr)
        return None
    return want


def _write_witness(out: Path, m, where: str, scope: str, w: dict) -> Path:
    """The witness of a mutant told apart, as a proposed case."""
    out.mkdir(parents=True, exist_ok=True)
    case = out / "witness.yaml"
    changes = [f"{s} {e['outcome']}" for k, s in (("appeared", "+"), ("vanished", "-")) for e in w[k]]
    case.write_text(
        f"# proposed case for the mutant {m.id} ({where}):\n"
        f"# the smallest position of scope {scope} where it differs from the shipped rules.\n"
        f"# Check the expected outcome against the rule text before adding an expect: block.\n"
        + "".join(f"# {c}\n" for c in changes[:12])
        + w["yaml"],
        encoding="utf-8",
    )
    return case


def _search(args, rules: Path, mutants) -> int:
    """Each survivor (or --mutants) as a rules folder, searched against the
    shipped rules: a distinguishing position is a proposed case (its expected
    outcome to be checked by a person against the rule text), none means the
    mutant is equivalent within the scope. Exit 1 when some mutant is told
    apart, else 3 when some search was cut (--timeout: that mutant is
    unfinished, neither told apart nor equivalent), 0 when none is, 2 on
    bad input."""
    import tempfile
    from asl_kb.committee.progress import bar_for
    from asl_kb.committee.rulesets import parse_ruleset
    from asl_kb.committee.scope import load_scope
    from asl_kb.committee.search import search_diff
    from asl_kb.errors import PositionError

    by_id = {m.id: m for m in mutants}
    want = _to_search(args, by_id)
    if want is None:
        return 2
    try:
        scope = load_scope(args.scope)
    except PositionError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    current = parse_ruleset("current")
    told = unfinished = 0
    rows = []
    with tempfile.TemporaryDirectory(prefix="asl-kb-mutant-") as tmp:
        for n, key in enumerate(want, 1):
            m = by_id[key]
            folder = m.overlay(rules, Path(tmp) / f"m{n}")
            out = Path(args.out) / f"mutant-{n:03d}"
            # a progress bar per mutant on a terminal's standard error (committee/progress.py)
            bar = bar_for(scope, False)
            try:
                r = search_diff(
                    scope, current, parse_ruleset(str(folder)), witnesses=1, timeout=args.timeout, progress=bar
                )
            finally:
                if bar is not None:
                    bar.close()
            where = f"rules/{m.file}:{m.line}: {m.mutation}"
            if r["witnesses"]:
                told += 1
                w = r["witnesses"][0]
                case = _write_witness(out, m, where, scope.name, w)
                print(
                    f"{where}\n    told apart by {w['position']} ({w['units']} unit(s), {w['non_open']} "
                    f"non-open hex(es)) after {r['tried']} positions: {case}"
                )
                rows.append(
                    {
                        **m.as_dict(),
                        "told_apart": True,
                        "position": w["position"],
                        "file_out": str(case),
                        "appeared": w["appeared"],
                        "vanished": w["vanished"],
                    }
                )
            else:
                # a search cut (--timeout, Ctrl-C) tells nothing of the mutant:
                # unfinished, not "not told apart"
                state = "equivalent within the scope" if r["complete"] else "UNFINISHED"
                unfinished += not r["complete"]
                print(
                    f"{where}\n    {state}: none in {r['tried']} positions of scope {scope.name}"
                    + ("" if r["complete"] else f" ({'; '.join(r['incomplete_because'])})")
                )
                rows.append({**m.as_dict(), "told_apart": False, "tried": r["tried"], "complete": r["complete"]})
    print(
        f"\n{len(want)} mutant(s) searched in scope {scope.name}: {told} told apart (proposed cases under "
        f"{args.out}/), {len(want) - told - unfinished} equivalent within the scope, {unfinished} unfinished"
    )
    Path(args.out).mkdir(parents=True, exist_ok=True)
    (Path(args.out) / "search-report.json").write_text(
        json.dumps({"scope": scope.name, "mutants": rows}, indent=1) + "\n"
    )
    return 1 if told else (3 if unfinished else 0)


def _figures(rows, seconds, jobs) -> dict:
    count = {
        s: sum(1 for r in rows if r["status"] == s) for s in (KILLED, ERROR, TIMEOUT, SURVIVED, UNREACHED, EQUIVALENT)
    }
    dead = count[KILLED] + count[ERROR] + count[TIMEOUT]
    pct = 100.0 * dead / len(rows) if rows else 100.0
    rest = len(rows) - count[EQUIVALENT]
    score = 100.0 * dead / rest if rest else 100.0
    return {
        "mutants": len(rows),
        "killed": count[KILLED],
        "errors": count[ERROR],
        "timeouts": count[TIMEOUT],
        "survived": count[SURVIVED],
        "unreached": count[UNREACHED],
        "killed_total": dead,
        "killed_percent": round(pct, 2),
        "equivalent": count[EQUIVALENT],
        # the mutation score: killed of the mutants not marked equivalent
        "killed_percent_not_equivalent": round(score, 2),
        "seconds": round(seconds, 1),
        "jobs": jobs,
        # CPU seconds the workers spent on the mutants: the wall time on
        # `jobs` otherwise idle cores is about cpu_seconds / jobs
        "cpu_seconds": round(sum(r.get("cpu", 0.0) for r in rows), 1),
    }


class _Baseline(NamedTuple):
    """What a run's report says besides its mutants: the options, the suite,
    the files mutated, and the baseline (info by case, the cases that pass,
    those that fail on the shipped rules)."""

    args: argparse.Namespace
    suite: Any  # (tools/mutate/suites.py make_suite)
    files: list[str]
    info: dict
    good: list[str]
    broken: list[str]


def _write(b: _Baseline, mutants, results: dict, seconds: float, complete: bool) -> dict:
    args, suite, files, info, good, broken = b
    rows = [results[m.id] for m in mutants]
    figures = _figures(rows, seconds, args.jobs)
    report = {
        "suite": suite.name,
        "complete": complete,
        "files": files,
        "figures": figures,
        "cases": [
            {
                "case": c,
                "seconds": round(info[c]["seconds"], 3),
                "kills": info[c]["kills"],
                "loads": sorted(info[c]["loads"]),
            }
            for c in good
        ],
        "cases_failing_on_shipped_rules": broken,
        "mutants": rows,
    }
    Path(args.report).write_text(json.dumps(report, indent=1) + "\n")
    return figures


def _report(b: _Baseline, mutants, results: dict, seconds: float, complete: bool = True) -> int:
    args = b.args
    rows = [results[m.id] for m in mutants]
    figures = _write(b, mutants, results, seconds, complete)
    count = {s: figures[s] for s in (KILLED, SURVIVED, UNREACHED)}
    count[ERROR], count[TIMEOUT] = figures["errors"], figures["timeouts"]
    dead, pct = figures["killed_total"], figures["killed_percent"]
    survivors = [r for r in rows if r["status"] in (SURVIVED, UNREACHED)]
    if survivors:
        print(f"\nSurvivors ({len(survivors)}):")
        for r in survivors:
            tag = (
                "  [no case loads this file]"
                if r["status"] == UNREACHED
                else "  [no case grounds this clause]"
                if r.get("cases_grounding") == 0
                else ""
            )
            print(f"  rules/{r['file']}:{r['line']}: {r['mutation']}{tag}\n      {r['clause']}")
    stale = [r for r in rows if r.get("equivalent") and r["status"] in (KILLED, ERROR, TIMEOUT)]
    if stale:
        print(f"\nMarked equivalent, but killed ({len(stale)}): remove the `% equivalent:` mark")
        for r in stale:
            print(f"  rules/{r['file']}:{r['line']}: {r['mutation']} (by {r.get('by', '?')})")
    errs = [r for r in rows if r["status"] in (ERROR, TIMEOUT)]
    equivalent = figures["equivalent"]
    print(
        f"\n{len(rows)} mutants: {dead} killed ({pct:.1f}%) = {count[KILLED]} by a failing case + "
        f"{count[ERROR]} that no longer ground/run + {count[TIMEOUT]} timeouts; "
        f"{len(survivors)} survived; {equivalent} marked equivalent"
        + (" (not run)" if not args.run_equivalent else "")
        + f" -- {figures['killed_percent_not_equivalent']:.1f}% of the others killed. "
        f"{seconds:.0f} s on {args.jobs} workers "
        f"({figures['cpu_seconds']:.0f} CPU s on mutants). Report: {args.report}"
        + (f" ({len(errs)} errors/timeouts listed there)" if errs else "")
        + ("" if complete else " [INCOMPLETE: interrupted]")
    )
    return 1 if figures["killed_percent_not_equivalent"] < args.fail_under or stale else 0


if __name__ == "__main__":
    sys.exit(main())
