"""A rules folder written against older rules: said, not run silently.

Two signs, each a finding `{file, line, kind, ...}`:

* `reads_nothing`: an edited clause (one the folder adds or rewrites)
  reads a predicate that no clause of the rule set derives, no input of
  rules/core/defined.lp gives and no program hands over -- a predicate the
  shipped rules no longer have (`enemy/2`). Read positively it never
  holds; under `not` it always does.
* `older_text`: a file the folder replaces is closer to an earlier text of
  the shipped file than to the current one (the shipped rules' git
  history, where the rules folder is a git checkout). Its edits that only
  carry that earlier text are named: a clause the shipped rules added since
  that the folder drops (`drops_later`), one they deleted since that it
  re-adds (`readds_deleted`), one they rewrote since that it keeps as it
  was (`keeps_older`).
* A folder naming the rules version it edits (its overlay.toml,
  committee/overlay_file.py) is read against that version's clauses as the
  package records them (committee/released/), git or not: besides the three
  above, each clause of that version its edits touch (delete or rewrite)
  that the shipped rules no longer have (`edits_gone`), and a file of that
  version it replaces that the shipped rules no longer have (`file_gone`).
  A folder naming the running rules' version gets none of these.

`asl-kb` warns of each on standard error wherever the folder is used as a
rule set (`warning: FILE:LINE: stale: ...`); the committee's reports carry
them as `stale`.
"""

from __future__ import annotations

import collections
import functools
import subprocess
import sys
from pathlib import Path

from asl_kb import process
from asl_kb.resources import rules_dir


def _names_read(rule) -> set[tuple[str, int]]:
    """(name, arity) of every atom a clause's body reads, either sign, in
    aggregates and conditions too."""
    import clingo.ast as A

    from asl_kb.committee.reach import functions

    found: set = set()

    class V(A.Transformer):
        def visit_SymbolicAtom(self, node):
            found.update((f.name, len(f.arguments)) for f in functions(node.symbol))
            return node

    for lit in rule.body:
        V()(lit)
    if rule.head.ast_type != A.ASTType.Literal:  # conditions of a head aggregate or disjunction

        class C(A.Transformer):
            def visit_ConditionalLiteral(self, node):
                for lit in node.condition:
                    V()(lit)
                return node

        C()(rule.head)
    return found


def _unread(folder: str, rs) -> list[dict]:
    from asl_kb.committee import edits as edits_mod
    from asl_kb.committee.reach import handed_over, heads_of, rules_of, clauses, inputs

    have: set = {(n, a) for n, a, _ in inputs(Path(folder))} | {("in_force", 1)}
    for c in clauses(folder):
        have |= heads_of(c.rule)
    handed = handed_over(folder)
    anyname = {n for n, a in handed if a == -1}
    have |= {x for x in handed if x[1] >= 0}
    out = []
    for e in edits_mod.edits(rs):
        if not e.clause:
            continue
        for c in rules_of(e.clause, e.file, e.line):
            for name, arity in sorted(_names_read(c.rule)):
                if (name, arity) not in have and name not in anyname:
                    out.append(
                        {"file": e.file, "line": e.line, "kind": "reads_nothing", "predicate": f"{name}/{arity}"}
                    )
    return out


def _git(*args: str) -> str | None:
    try:
        r = subprocess.run(["git", *args], capture_output=True, text=True, timeout=20, cwd=rules_dir())
    except (OSError, subprocess.SubprocessError):
        return None
    return r.stdout if r.returncode == 0 else None


#: earlier texts of a shipped file looked at, newest first
HISTORY_AT_MOST = 60


@functools.lru_cache(maxsize=64)
def _history(rel: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(commit, the file's clauses) of the earlier texts of a shipped rules
    file, newest first, each text once; () without a git history."""
    from asl_kb.committee.clauses import text_clauses

    top = _git("rev-parse", "--show-toplevel")
    if top is None:
        return ()
    path = (rules_dir() / rel).resolve().relative_to(Path(top.strip()).resolve()).as_posix()
    log = _git("log", f"-{HISTORY_AT_MOST}", "--format=%H", "--", f":(top){path}")
    commits = (log or "").split()
    if not commits:
        return ()
    # every text in one `git cat-file --batch`
    try:
        r = subprocess.run(
            ["git", "cat-file", "--batch"],
            input="".join(f"{c}:{path}\n" for c in commits).encode(),
            capture_output=True,
            timeout=20,
            cwd=rules_dir(),
        )
    except (OSError, subprocess.SubprocessError):
        return ()
    data, at, out, seen = r.stdout, 0, [], set()
    for commit in commits:
        end = data.index(b"\n", at)
        head = data[at:end].split()
        at = end + 1
        if len(head) < 3 or head[1] != b"blob":
            continue
        size = int(head[2])
        blob, at = data[at : at + size], at + size + 1
        if head[0] not in seen:
            seen.add(head[0])
            out.append((commit, tuple(c.text for c in text_clauses(blob))))
    return tuple(out)


def _older(complete: Path, rs) -> list[dict]:
    from asl_kb.committee import edits as edits_mod
    from asl_kb.committee.clauses import text_clauses

    out = []
    for rel in rs.replaces:
        mine = collections.Counter(c.text for c in text_clauses((complete / rel).read_bytes()))
        now = collections.Counter(c.text for c in text_clauses((rules_dir() / rel).read_bytes()))

        def apart(other: collections.Counter) -> int:
            return sum(((mine - other) + (other - mine)).values())

        best = min(
            ((apart(collections.Counter(texts)), n, commit, texts) for n, (commit, texts) in enumerate(_history(rel))),
            default=None,
        )
        if best is None or best[0] >= apart(now):
            continue
        base = collections.Counter(best[3])
        for e in edits_mod.edits(rs):
            if e.file != rel:
                continue
            was = [t.decode() for t in e.was_texts]
            kind = None
            if e.kind == "deleted" and all(base[_collapse(t)] == 0 for t in was):
                kind = "drops_later"
            elif e.kind == "added" and base[e.clause] and not now[e.clause]:
                kind = "readds_deleted"
            elif e.kind == "changed" and base[e.clause] and not any(base[_collapse(t)] for t in was):
                kind = "keeps_older"
            if kind:
                out.append({"file": rel, "line": e.line, "kind": kind, "against": best[2][:12], "clause": e.text()})
    return out


def _collapse(text: str) -> str:
    return " ".join(text.split())


def _against(complete: Path, rs, version: str) -> list[dict]:
    """What the folder's edits of `version`'s rules (the package's record)
    touch or undo that the shipped rules have changed since (module doc)."""
    from asl_kb.committee.overlay_file import clauses_of

    record = clauses_of(version)
    out = []
    for rel in sorted(rs.replaces + rs.adds):
        if rel in record and rel in rs.adds:
            clause = f"rules/{rel} of {version}"
            out.append({"file": rel, "line": 1, "kind": "file_gone", "against": version, "clause": clause})
        elif rel in record:
            found = _apart(record[rel], _clauses_at(rules_dir() / rel), _clauses_at(complete / rel))
            out += [{"file": rel, "line": line, "kind": k, "against": version, "clause": t} for k, line, t in found]
    return out


def _clauses_at(path: Path) -> list:
    from asl_kb.committee.clauses import text_clauses

    return text_clauses(path.read_bytes())


def _apart(base: tuple[str, ...], now_clauses: list, mine_clauses: list) -> list[tuple[str, int, str]]:
    """(kind, line in the folder's file, clause) of what a file's text, an
    edit of `base`, touches or undoes of the shipped text since `base`."""
    import difflib

    now, mine = [c.text for c in now_clauses], [c.text for c in mine_clauses]
    lines = [c.line for c in mine_clauses]

    def line_at(j: int) -> int:
        return lines[j] if j < len(lines) else (lines[-1] if lines else 1)

    since: dict[int, str] = {}  # base index -> how the shipped rules changed it since: delete, replace
    since_into: dict[int, set] = {}  # base index -> the shipped clauses it was rewritten into
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, base, now, autojunk=False).get_opcodes():
        since.update((i, tag) for i in range(i1, i2) if tag != "equal")
        since_into.update((i, set(now[j1:j2])) for i in range(i1, i2) if tag == "replace")
    out = []
    rewritten = set()  # what the shipped rules rewrote a clause the folder edits into: said once, as edits_gone
    for tag, i1, i2, j1, _j2 in difflib.SequenceMatcher(None, base, mine, autojunk=False).get_opcodes():
        for k, i in enumerate(range(i1, i2)):
            if i not in since:
                continue
            if tag != "equal":  # the folder edits a clause since deleted or rewritten
                out.append(("edits_gone", line_at(j1), base[i]))
                rewritten |= since_into.get(i, set())
            else:  # the folder keeps a clause since deleted or rewritten
                kind = "readds_deleted" if since[i] == "delete" else "keeps_older"
                out.append((kind, line_at(j1 + k), base[i]))
    had, kept = set(base), set(mine)
    for tag, i1, i2, j1, _j2 in difflib.SequenceMatcher(None, now, mine, autojunk=False).get_opcodes():
        if tag != "equal":  # a clause the shipped rules added or rewrote since, which the folder lacks
            out += [
                ("drops_later", line_at(j1), t)
                for t in now[i1:i2]
                if t not in had and t not in kept and t not in rewritten
            ]
    return sorted(out, key=lambda x: (x[1], x[0], x[2]))


@functools.lru_cache(maxsize=16)
def _findings(folder: Path) -> tuple:
    from asl_kb.committee.overlay_file import read
    from asl_kb.committee.rulesets import materialize, overlay

    rs = overlay(folder)
    complete = materialize(folder)
    named = read(folder)
    older = _older(complete, rs) if named is None else _against(complete, rs, named.against)
    return tuple(_unread(str(complete), rs) + older)


def findings(rs) -> list[dict]:
    """What says a rule set's folder was written against older rules (module
    doc); [] for a rule version."""
    if rs.folder is None:
        return []
    return [dict(f) for f in _findings(rs.folder)]


def _said(f: dict) -> str:
    if f["kind"] == "reads_nothing":
        return f"reads {f['predicate']}, which no rule derives and no position gives (written against older rules?)"
    words = {
        "drops_later": "drops a clause the shipped rules added since",
        "readds_deleted": "re-adds a clause the shipped rules deleted since",
        "keeps_older": "keeps a clause as it was before the shipped rules rewrote it",
        "edits_gone": "edits a clause the shipped rules no longer have",
        "file_gone": "replaces a file the shipped rules no longer have",
    }[f["kind"]]
    clause = f["clause"] if len(f["clause"]) <= 120 else f["clause"][:119] + "…"
    if f["kind"] in ("edits_gone", "file_gone") or "." in f["against"]:
        return f"written against rules {f['against']} (overlay.toml): it {words}: {clause}"
    return f"an older text of the shipped file (as of {f['against']}): it {words}: {clause}"


def warn(rs) -> None:
    """Each finding on standard error, once per folder and process (the
    folders warned of: the process's memo, asl_kb/process.py)."""
    warned = process.kept("committee.stale warned")
    if rs.folder is None or rs.folder in warned:
        return
    warned[rs.folder] = True
    found = findings(rs)
    for f in found:
        print(f"warning: {rs.folder / f['file']}:{f['line']}: stale: {_said(f)}", file=sys.stderr)
    _refused(rs.folder, found)


def _refused(folder: Path, found: list[dict]) -> None:
    """A folder whose overlay.toml says `on_stale = "refuse"`, edits of an
    older version found: RulesError at its `against` (exit 2)."""
    from asl_kb.committee.overlay_file import read
    from asl_kb.errors import RulesError

    named = read(folder)
    old = [f for f in found if f.get("against") == getattr(named, "against", None)]
    if named is not None and named.on_stale == "refuse" and old:
        raise RulesError(
            str(named.file),
            named.line,
            "against",
            f"the folder edits rules {named.against}, and {len(old)} of its clauses' edits touch or undo what "
            'the shipped rules have changed since (the warnings above); on_stale = "refuse"',
        )
