"""Fixtures of the browser tests: the server, Debian's chromium, a fresh page (web_harness.py)."""

from __future__ import annotations

import pytest

from web_harness import CHROMIUM, Server


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("web-games")).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser():
    if CHROMIUM is None:
        pytest.skip("the browser tests need Debian's chromium (apt-get install chromium fonts-nanum); "
                    ".ci/run installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 860})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.js_errors = errors
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
