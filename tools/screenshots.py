"""The README's screenshots made again: `python -m tools.screenshots` (or
`make screenshots`). Developer tooling (not installed by pip install .):
Debian's Chromium through Playwright (never a downloaded browser).

- docs/report-A10.531-EX.png: `asl-kb report facts/rout/A10.531-EX.yaml
  --fate RG2:2 --png ...`, RG2's rout through F2 to F1 drawn;
- docs/serve.png: `asl-kb serve` at 1366x768 with the A10.531 EX opened,
  the map fitted to the units, RJ2 selected (its destinations coloured) and
  RG2's Interdicted rout drawn."""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
A10_531 = ROOT / "facts" / "rout" / "A10.531-EX.yaml"
#: the window a player's laptop gives the page
VIEWPORT = {"width": 1366, "height": 768}


def report_png(out: Path) -> None:
    from asl_kb import cli

    code = cli.main(["report", str(A10_531), "--fate", "RG2:2", "--png", str(out)])
    if code != 0:
        raise SystemExit(f"asl-kb report --png: exit {code}")


def serve_png(out: Path) -> None:
    import socket

    import uvicorn

    from asl_kb.report import png
    from asl_kb.serve.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(None), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        end = time.monotonic() + 60
        while not server.started and time.monotonic() < end:
            time.sleep(0.05)
        with png.sync_playwright() as p:
            browser = png.launch(p)
            try:
                page = browser.new_page(viewport=VIEWPORT)
                page.goto(f"http://127.0.0.1:{port}/")
                done = "['answered', 'error'].includes(document.body.dataset.state)"
                page.wait_for_function(f"document.body.dataset.answers > 0 && {done}", timeout=60_000)
                n = int(page.evaluate("document.body.dataset.answers"))
                page.set_input_files("#open-file", str(A10_531))
                page.wait_for_function(f"document.body.dataset.answers > {n} && {done}", timeout=60_000)
                frame = page.frame_locator("#report")
                frame.locator('g.counter[data-unit="RJ2"]').click()
                frame.locator('li.fate[data-unit="RG2"]').nth(2).click()
                page.wait_for_timeout(200)
                page.screenshot(path=str(out))
            finally:
                browser.close()
    finally:
        server.should_exit = True
        thread.join(10)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.screenshots", description=__doc__.split("\n\n")[0])
    ap.add_argument("which", nargs="*", metavar="NAME", help="report, serve (default: both)")
    args = ap.parse_args(argv)
    made = {"report": (report_png, DOCS / "report-A10.531-EX.png"), "serve": (serve_png, DOCS / "serve.png")}
    unknown = [w for w in args.which if w not in made]
    if unknown:
        ap.error(f"no screenshot named {', '.join(unknown)} (names: {', '.join(made)})")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.which or list(made):
            make, target = made[name]
            fresh = Path(tmp) / target.name
            make(fresh)  # (written whole, then moved: a failed run leaves the old picture)
            target.write_bytes(fresh.read_bytes())
            print(f"wrote {target.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
