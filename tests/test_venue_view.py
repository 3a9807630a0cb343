"""The operator's page (spit-arcade venue), in a real browser: headless Chromium opens it while a
cabinet's uplink publishes through a real Mosquitto, and the page changes as messages arrive."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from browser import Browser
from test_venue_broker import BOUND_S, View, broker, cabinet, write_state  # noqa: F401  (broker: a fixture)

from appliance.venue.uplink import Uplink
from appliance.venue.view import Feed, make_server


@pytest.fixture
def page(broker) -> Iterator[tuple[View, str]]:  # noqa: F811
    view = View(broker)
    feed = Feed()
    changed = view.venue.receive

    def receive(topic: str, payload: bytes) -> Any:
        message = changed(topic, payload)
        if message is not None:
            feed.changed()
        return message

    view.venue.receive = receive  # type: ignore[method-assign]
    server = make_server(view.venue, feed, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield view, f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        view.close()


def shown(browser: Browser, cabinet: str) -> list[str]:
    return browser.evaluate(f"Array.from(document.querySelectorAll('#cabinet-{cabinet} td'), td => td.textContent)") \
        or []


def until_shown(browser: Browser, condition: Callable[[list[str]], bool], uplink: Uplink, what: str) -> list[str]:
    deadline = time.monotonic() + BOUND_S
    while True:
        cells = shown(browser, uplink.settings.cabinet)
        if condition(cells):
            return cells
        if time.monotonic() > deadline:
            pytest.fail(f"the page did not show {what} within {BOUND_S} s: {cells}")
        uplink.step(0.05)


def test_the_page_shows_every_cabinet_live_as_messages_arrive(tmp_path, broker, page):  # noqa: F811
    _view, url = page
    browser = Browser(tmp_path / "profile")
    try:
        table = cabinet(tmp_path, broker, "table-1", coins=5)
        browser.open(url)
        cells = until_shown(browser, lambda c: len(c) == 9 and c[7] == "0.1.0", table, "table-1's heartbeat")
        assert cells[0] == "table-1" and cells[1:5] == ["0", "0", "0", "0"] and cells[5] == "none"
        assert cells[6].endswith("s ago") and cells[8] == "none"  # no update recorded yet
        write_state(tmp_path / "table-1", coins=8)  # three coins, three games: the page follows, no reload
        table.next_read = 0.0
        cells = until_shown(browser, lambda c: c[1] == "3", table, "three coins today")
        assert cells[1:5] == ["3", "3", "3", "3"]
        write_state(tmp_path / "table-1", coins=8, no_spit_2=30)  # a fault, with the next heartbeat
        table.next_read = table.next_heartbeat = 0.0
        cells = until_shown(browser, lambda c: c[5] != "none", table, "the fault")
        assert cells[5] == "player 2's SPIT button: not pressed in the last 30 games"
        write_state(tmp_path / "table-1", coins=8, update=("0.1.0", "0.2.0", "installed"))  # the updates unit's row
        table.next_read = table.next_heartbeat = 0.0
        cells = until_shown(browser, lambda c: c[8] != "none", table, "the last update")
        shown_update = r"update 0\.1\.0 \u2192 0\.2\.0 \(installed\), \d{4}-\d\d-\d\d \d\d:\d\d UTC"
        assert re.fullmatch(shown_update, cells[8]), cells[8]
        assert browser.evaluate("document.getElementById('status').textContent") == "1 cabinet(s), live"
        assert json.loads(browser.evaluate("JSON.stringify(Array.from(document.querySelectorAll('tbody tr'), "
                                           "r => r.id))")) == ["cabinet-table-1"]
        table.close()
    finally:
        browser.close()
