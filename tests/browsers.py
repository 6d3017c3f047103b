"""Browser fixtures: Playwright (Python) on Debian's /usr/bin/chromium, never a downloaded browser.

A pytest plugin (tests/conftest.py names it), so that every folder's browser tests share them:
tests/browser/, tests/journeys/ and the replay's. Every page they open fails its test if it
breaks the Content-Security-Policy or shows text that was never rendered for a person (None,
undefined, NaN, "[object", "{{"), whether in the first draw or after any htmx swap."""

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="module")
def browser():
    """One chromium per test module.

    Playwright's sync API runs an event loop in this thread, and Django refuses ORM calls from a
    thread with a running loop unless told the caller knows what it is doing (these tests are
    synchronous). The permission lasts only while the browser runs, so no other test inherits it.
    """
    if not shutil.which(CHROMIUM):
        pytest.skip(f"needs Debian's chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
            )
            yield browser
            browser.close()
    finally:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


# Every page repeats what the browser refused under the Content-Security-Policy on its console;
# the script runs before the page's own (Playwright's init scripts are not subject to the policy).
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", function (event) {
  console.error("securitypolicyviolation: " + event.violatedDirective + " blocked " +
                event.blockedURI + " at " + event.sourceFile + ":" + event.lineNumber);
});
"""
VIOLATION_MARKERS = ("Content Security Policy", "securitypolicyviolation")

# Text no person should ever read: a Python None, a script's undefined or NaN, an object printed
# as "[object Object]", a template tag left unrendered. Looked for in what the page shows (its
# innerText: hidden parts aside) once it has loaded and after every htmx swap.
CHECK_TEXT = r"""
(function () {
  var unrendered = /\bNone\b|\bundefined\b|\bNaN\b|\[object |\{\{|\{%/;
  function check() {
    var text = document.body ? document.body.innerText : "";
    var found = text.match(unrendered);
    if (!found) return;
    var at = text.indexOf(found[0]);
    console.error("unrendered-text: " + JSON.stringify(text.slice(Math.max(0, at - 60), at + 60)) +
                  " on " + location.href);
  }
  document.addEventListener("DOMContentLoaded", check);
  document.addEventListener("htmx:afterSettle", check);
})();
"""
TEXT_MARKER = "unrendered-text:"


@pytest.fixture
def new_page(browser):
    """Opens pages in fresh contexts (separate cookies), as separate people would. The test
    fails if any page reports a Content-Security-Policy violation or shows unrendered text."""
    contexts = []
    violations: list[str] = []
    unrendered: list[str] = []

    def listen(message) -> None:
        if any(marker in message.text for marker in VIOLATION_MARKERS):
            violations.append(f"{message.location.get('url', '')}: {message.text}")
        if message.text.startswith(TEXT_MARKER):
            unrendered.append(message.text.removeprefix(TEXT_MARKER).strip())

    def open_page(width: int = 1280, height: int = 900, locale: str | None = None):
        # `locale` is the browser's language, sent as Accept-Language ("fr-FR").
        options = {"locale": locale} if locale else {}
        context = browser.new_context(viewport={"width": width, "height": height}, **options)
        context.set_default_timeout(10_000)
        context.add_init_script(REPORT_VIOLATIONS)
        context.add_init_script(CHECK_TEXT)
        contexts.append(context)
        page = context.new_page()
        page.on("console", listen)
        return page

    yield open_page
    for context in contexts:
        context.close()
    if violations:
        pytest.fail("Content-Security-Policy violations:\n" + "\n".join(violations))
    if unrendered:
        pytest.fail("Pages showed text never rendered for a person:\n" + "\n".join(unrendered))


@pytest.fixture
def page(new_page):
    return new_page()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """Where browser tests leave pictures of what a player saw (test-results/, git-ignored)."""
    folder = Path(__file__).resolve().parents[1] / "test-results" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
