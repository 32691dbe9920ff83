"""A PNG of the report's map, taken by an installed headless Chromium driven
through Playwright (`pip install asl-kb[png]`). No browser is ever
downloaded: the Chromium binary is $ASL_KB_CHROMIUM, else `chromium` on the
PATH, else /usr/bin/chromium (Debian's `chromium` package)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

#: flags for a quiet, offline, sandbox-free headless run (CI containers)
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


class BrowserMissing(RuntimeError):
    """Playwright or a Chromium binary is not installed."""


def chromium_path() -> str | None:
    """The installed Chromium to drive, or None."""
    for candidate in (
        os.environ.get("ASL_KB_CHROMIUM"),
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
        "/usr/bin/chromium",
    ):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def launch(playwright):
    """A headless Chromium browser from an installed binary."""
    exe = chromium_path()
    if exe is None:
        raise BrowserMissing("no Chromium found (install Debian's `chromium` or set ASL_KB_CHROMIUM)")
    return playwright.chromium.launch(executable_path=exe, args=list(CHROMIUM_ARGS))


def sync_playwright():
    try:
        from playwright.sync_api import sync_playwright as sp
    except ImportError as e:
        raise BrowserMissing("needs the playwright package (pip install 'asl-kb[png]')") from e
    return sp()


def screenshot_map(page_html: str, out: str | os.PathLike, width: int = 1600) -> None:
    """Write a PNG of the page's map (the SVG board) to `out`."""
    with tempfile.TemporaryDirectory() as tmp:
        page_file = Path(tmp) / "report.html"
        page_file.write_text(page_html, encoding="utf-8")
        with sync_playwright() as p:
            browser = launch(p)
            try:
                page = browser.new_page(viewport={"width": width, "height": 1200})
                page.goto(page_file.as_uri())
                page.locator("#board").screenshot(path=os.fspath(out))
            finally:
                browser.close()
