"""One CLI (issue 11, item 5): every subcommand takes the common options it
uses (--rules, --format, --limit, --debug, --version) and refuses the others;
every argument has help text that states its default; one exit-code table."""

import argparse
import json

import pytest

from asl_kb import cli
from conftest import FACTS

COMMANDS = ("outcomes", "diff", "check", "why-not", "search", "report", "los", "import", "serve")


def _subparsers():
    ap = cli._parser()
    sub = next(a for a in ap._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices


#: the common options a subcommand has no use for: report writes HTML, serve a
#: web page, los lists every pair asked, import writes a position file (it runs no rules)
UNUSED = {
    "report": {"--format"},
    "serve": {"--format", "--limit"},
    "los": {"--limit"},
    "import": {"--rules", "--format", "--limit"},
}
COMMON = {"--rules", "--format", "--limit", "--timeout", "--max-memory", "--debug", "--version", "--help"}


def test_every_subcommand_takes_the_common_options_it_uses():
    subs = _subparsers()
    assert set(subs) == set(COMMANDS)
    for name, p in subs.items():
        opts = {s for a in p._actions for s in a.option_strings}
        assert COMMON - UNUSED.get(name, set()) <= opts, name
        assert not opts & UNUSED.get(name, set()), name


def _leaves(subs, prefix=()):
    """(command words, parser) of every subcommand, `search`'s own included."""
    for name, p in subs.items():
        inner = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        if inner:
            yield from _leaves(inner[0].choices, prefix + (name,))
        else:
            yield prefix + (name,), p


def test_every_subcommand_takes_a_rule_set_as_the_readme_says():
    # (README: --rules everywhere but `import`, which runs no rules; --switch, all but `search coverage`, which
    # reads clauses, and `los`, geometry)
    for words, p in _leaves(_subparsers()):
        if words == ("import",):
            continue
        opts = {s for a in p._actions for s in a.option_strings}
        assert "--rules" in opts, words
        assert ("--switch" in opts) == (words not in (("search", "coverage"), ("los",))), words


@pytest.mark.parametrize(
    "argv", [["serve", "--format", "json"], ["serve", "--limit", "3"], ["report", "--format", "json"]]
)
def test_an_option_a_subcommand_does_not_use_is_refused(capsys, argv):
    with pytest.raises(SystemExit) as e:
        cli.main(argv)
    assert e.value.code == cli.EXIT_BAD_INPUT
    assert f"unrecognized arguments: {argv[1]}" in capsys.readouterr().err


def test_every_argument_has_help_with_its_default():
    for name, p in _subparsers().items():
        for a in p._actions:
            if isinstance(a, (argparse._HelpAction, argparse._VersionAction)):
                continue
            assert a.help, (name, a.dest)
            required_positional = not a.option_strings and a.nargs not in ("?", "*")
            if not required_positional:
                assert "default" in a.help, (name, a.dest, a.help)


def test_version(capsys):
    for argv in (["--version"], ["outcomes", "--version"], ["why-not", "--version"]):
        with pytest.raises(SystemExit) as e:
            cli.main(argv)
        assert e.value.code == 0
        assert capsys.readouterr().out.startswith("asl-kb ")


def test_limit_applies_without_phase(capsys):
    """--limit is not ignored without --phase: it cuts the fates (--all) and the
    destinations (summary), and says what it counted."""
    ex = str(FACTS / "rout/A10.531-EX.yaml")
    assert cli.main(["outcomes", ex, "--all", "--limit", "2"]) == 0
    out = capsys.readouterr().out
    assert "(2 of 14 fates listed: --limit)" in out
    assert cli.main(["outcomes", ex, "--limit", "1"]) == 0
    assert (
        "(1 of 3 destinations listed: --limit)" in capsys.readouterr().out
    )  # after A10.52: no Low Crawl ending no closer


def test_no_limit_note_when_everything_is_listed(capsys):
    ex = str(FACTS / "phase/article-Ex13.yaml")
    assert cli.main(["outcomes", ex, "--phase", "--limit", "100000"]) == 0
    assert "listed: --limit" not in capsys.readouterr().out


@pytest.mark.parametrize("name", ["phase/article-Ex13.yaml", "rout/A10.5-EX.yaml"])
def test_phase_count_says_what_it_counts(name, capsys):
    # (A10.5 EX: one unit, no unit depends on another, combinations 0)
    ex = str(FACTS / name)
    assert cli.main(["outcomes", ex, "--phase", "--format", "json", "--limit", "3"]) == 0
    ph = json.loads(capsys.readouterr().out)["phase"]
    free = 1
    for i in ph["independent"]:
        free *= i["fates"]
    assert ph["count"] == max(ph["combinations"], 1) * free and len(ph["outcomes"]) == min(3, ph["combinations"])
    assert (ph["combinations"] == 0) == (name == "rout/A10.5-EX.yaml")
    assert cli.main(["outcomes", ex, "--phase", "--limit", "3"]) == 0
    head = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("Whole Rout Phase"))
    # the text names combinations only where some units depend on each other
    # and others are independent (else the count says it all)
    assert ("combination" in head) == (ph["combinations"] > 0 and bool(ph["independent"]))


def test_check_takes_rules(capsys):
    ex = str(FACTS / "rout/A10.5-EX.yaml")
    assert cli.main(["check", ex, "--rules", "prior", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "prior"


def test_bad_option_value_is_exit_2(capsys):
    # --rules takes a version or a rules folder: neither is one line, exit 2
    assert cli.main(["outcomes", "--rules", "1985"]) == cli.EXIT_BAD_INPUT
    assert "1985: --rules: no such rule version or folder" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        cli.main(["outcomes", "--limit", "-1"])
    assert e.value.code == cli.EXIT_BAD_INPUT


def test_internal_error_is_exit_70_without_traceback(monkeypatch, capsys):
    import asl_kb.engines.outcomes as o

    def broken(*a, **k):
        raise KeyError("bug")

    monkeypatch.setattr(o, "outcomes", broken)
    assert cli.main(["outcomes", str(FACTS / "rout/A10.5-EX.yaml")]) == cli.EXIT_INTERNAL == 70
    err = capsys.readouterr().err
    assert "internal error" in err and "Traceback" not in err
    assert cli.main(["outcomes", str(FACTS / "rout/A10.5-EX.yaml"), "--debug"]) == 70
    assert "Traceback" in capsys.readouterr().err
    assert cli.main(["--debug", "outcomes", str(FACTS / "rout/A10.5-EX.yaml")]) == 70
    assert "Traceback" in capsys.readouterr().err


def test_exit_code_table():
    assert sorted(cli.EXIT_CODES) == [0, 1, 2, 3, 70, 130]


def test_exit_code_table_is_documented():
    """docs/output-format.md lists exactly the codes the CLI uses."""
    import re
    from conftest import ROOT

    doc = (ROOT / "docs" / "output-format.md").read_text()
    section = doc[doc.index("## Exit codes") : doc.index("## `asl-kb outcomes`")]
    assert sorted(int(c) for c in re.findall(r"^\| (\d+) \|", section, flags=re.M)) == sorted(cli.EXIT_CODES)


@pytest.mark.parametrize("command", COMMANDS)
def test_a_subcommand_parsed_alone_reads_as_among_all(command, capsys):
    # main() builds only the named subcommand's parser: its help and its
    # parse of the same arguments are those of the parser with every one
    argv = [command, "--help"]
    with pytest.raises(SystemExit):
        cli._parser().parse_args(argv)
    full = capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli._parser(argv).parse_args(argv)
    alone = capsys.readouterr().out
    assert alone == full and command in alone
    if command in ("outcomes", "check", "report"):
        args = [command, "x.yaml", "--limit", "3"] + (["--format", "json"] if command != "report" else [])
        assert vars(cli._parser(args).parse_args(args)) == vars(cli._parser().parse_args(args))


def test_one_default_phase_listing():
    """The CLI's default --limit for --phase is the engine's (written twice
    only so that the CLI's start does not import the engine)."""
    from asl_kb.engines.outcomes import DEFAULT_PHASE_LISTING

    assert cli.DEFAULT_PHASE_LIMIT == DEFAULT_PHASE_LISTING
