"""Exit codes: an unexpected exception is an internal error (70, one line on
stderr); the traceback only with the global --debug flag."""

from __future__ import annotations

import pytest

from asl_kb import cli
from asl_kb.engines import outcomes as outcomes_module


@pytest.fixture
def broken(monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("parsing failed\nsecond line")

    monkeypatch.setattr(outcomes_module, "outcomes", boom)


def test_internal_error_is_70_in_one_line(broken, capsys):
    assert cli.main(["outcomes"]) == cli.EXIT_INTERNAL == 70
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "internal error" in err and "RuntimeError" in err and "Traceback" not in err


def test_debug_prints_the_traceback(broken, capsys):
    assert cli.main(["--debug", "outcomes"]) == 70
    err = capsys.readouterr().err
    assert "Traceback" in err and "internal error" in err.strip().splitlines()[-1]


def test_bad_input_stays_2(tmp_path, capsys):
    (tmp_path / "x.yaml").write_text("name: x\n", encoding="utf-8")
    assert cli.main(["outcomes", str(tmp_path / "x.yaml")]) == 2
    assert capsys.readouterr().err.startswith(f"error: {tmp_path / 'x.yaml'}:1: attacker:")
