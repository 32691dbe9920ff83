"""`pip install .` gives a working asl-kb: a wheel built from this tree is
installed into a fresh venv and run from a temporary directory, with no
access to the source tree. The build and install are offline: no build
isolation (setuptools comes with the test extras), --no-deps --no-index, and
the fresh venv reads clingo/pyyaml/jinja2 from this venv's site-packages."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from asl_kb.engines.outcomes import outcomes
from asl_kb.position.loader import load_position
from asl_kb.report.render import to_json
from asl_kb.resources import cases_dir, default_position

ROOT = Path(__file__).resolve().parents[2]
#: a wheel built and installed in a fresh venv: make test-slow's (and CI's)
pytestmark = pytest.mark.slow

SOURCES = ("pyproject.toml", "README.md", "asl_kb", "tools", "rules", "facts", "docs")


def _run(cmd, cwd, **kw) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=300, **kw)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The asl-kb script of a fresh venv holding only the wheel."""
    pytest.importorskip("setuptools", minversion="70.1")  # bdist_wheel built in
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:  # a clean copy: the build writes build/ and *.egg-info
        (shutil.copytree if (ROOT / name).is_dir() else shutil.copy)(
            ROOT / name,
            src / name,
            **({"ignore": shutil.ignore_patterns("__pycache__")} if (ROOT / name).is_dir() else {}),
        )
    built = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            tmp / "dist",
            "./src",
        ],
        cwd=tmp,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (tmp / "dist").glob("asl_kb-*.whl")
    env_dir = tmp / "venv"
    venv.create(env_dir, with_pip=False)
    py = env_dir / "bin" / "python"
    done = _run([sys.executable, "-m", "pip", "--python", py, "install", "--no-deps", "--no-index", wheel], cwd=tmp)
    assert done.returncode == 0, done.stdout + done.stderr
    site = Path(_run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=tmp).stdout.strip())
    (site / "asl_kb_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return env_dir / "bin" / "asl-kb"


@pytest.fixture
def elsewhere(tmp_path) -> Path:
    d = tmp_path / "elsewhere"
    d.mkdir()
    return d


def test_the_installed_package_is_the_wheel_not_the_source_tree(installed, elsewhere):
    py = installed.parent / "python"
    where = _run(
        [py, "-c", "import asl_kb.resources as r; print(r.__file__); print(r.rules_dir()); print(r.cases_dir())"],
        cwd=elsewhere,
    )
    assert where.returncode == 0, where.stderr
    module, rules, cases = where.stdout.split()
    venv_dir = str(installed.parent.parent)
    assert all(p.startswith(venv_dir) for p in (module, rules, cases))
    assert (Path(rules) / "rout.lp").is_file() and (Path(rules) / "core" / "defined.lp").is_file()
    assert sorted(p.name for p in Path(cases).glob("*/*.yaml")) == sorted(p.name for p in cases_dir().glob("*/*.yaml"))
    # the developer tooling (tools/) is not installed: no module of it, under any name
    site = Path(module).parents[1]
    tooling = {p.name for p in (ROOT / "tools").rglob("*.py")} - {p.name for p in (ROOT / "asl_kb").rglob("*.py")}
    assert not (site / "tools").exists() and not [p for p in site.rglob("*.py") if p.name in tooling]


def test_default_position_from_any_directory(installed, elsewhere):
    r = _run([installed, "outcomes", "--format", "json"], cwd=elsewhere)
    assert r.returncode == 0, r.stderr
    assert r.stdout == to_json(outcomes(load_position(default_position())))


def test_position_file_from_any_directory(installed, elsewhere):
    shutil.copy(cases_dir() / "prisoners" / "A20.22-EX.yaml", elsewhere / "p.yaml")
    r = _run([installed, "outcomes", "p.yaml", "--format", "json"], cwd=elsewhere)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["units"] == outcomes(load_position(elsewhere / "p.yaml")).to_json()["units"]


def test_bad_input_and_internal_error_codes(installed, elsewhere):
    (elsewhere / "bad.yaml").write_text("name: x\n", encoding="utf-8")
    r = _run([installed, "outcomes", "bad.yaml"], cwd=elsewhere)
    assert (r.returncode, r.stderr.startswith("error: bad.yaml:1: attacker:")) == (2, True)
    # an internal error: a rule file missing from the installation
    rules = Path(
        _run(
            [installed.parent / "python", "-c", "import asl_kb.resources as r; print(r.rules_dir())"], cwd=elsewhere
        ).stdout.strip()
    )
    (rules / "rout" / "A10_62_dm.lp").rename(rules / "rout" / "A10_62_dm.lp.off")
    try:
        r = _run([installed, "outcomes"], cwd=elsewhere)
        assert r.returncode == 70 and "Traceback" not in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1 and "internal error" in r.stderr
        r = _run([installed, "--debug", "outcomes"], cwd=elsewhere)
        assert r.returncode == 70 and "Traceback" in r.stderr
    finally:
        (rules / "rout" / "A10_62_dm.lp.off").rename(rules / "rout" / "A10_62_dm.lp")


def test_every_folder_ships():
    """Every sub-package, rules chapter and cases chapter is a package of the
    wheel (pyproject.toml lists them: the rules and cases are mapped folders)."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    for top, name in (("asl_kb", "asl_kb"), ("rules", "asl_kb.rules"), ("facts", "asl_kb.facts")):
        for d in (ROOT / top).iterdir():
            if d.is_dir() and d.name != "__pycache__" and not d.name.startswith("."):
                assert f"{name}.{d.name}" in listed, d
