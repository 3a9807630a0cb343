"""Updates on the game's side: the service menu's Update page and the operator layer's `Updates`,
against the real updater on its real socket (tests/test_updater.py's bundles, made by
make-bundle.sh, and RAUC's own service on a private bus): "Update 0.1.0 → 0.2.0" with what
changes and who signed it, asked once (a downgrade in its own words), RAUC's progress, a refusal in
plain words, and after a fallback that the update failed and why; every update tried and every
rollback in the store's audits, once."""

from __future__ import annotations

import json
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_display_service_menu import cursor_line, go, menu, seen
from test_updater import BOOTED, bus, cabinet, made, rauc_status, stick_with, tools
from test_updater import installed as slot_installed

from appliance.display.coins import office
from appliance.display.i18n import LOCALE_DIR, read_po, set_language
from appliance.operator.store import Store, store_path
from appliance.operator.updates import Updates, unreachable
from appliance.updater import bundles
from appliance.updater.server import NOT_ON_STICK, Server, Updater, install_refusal

__all__ = ["bus", "made", "tools"]  # the fixtures, shared with tests/test_updater.py

UPDATE_ROW = 4  # the service menu's first page: Diagnostics, Audits, Adjustments, Utilities, Update, Exit


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    set_language("en")
    yield
    set_language("en")


def serve(tmp_path: Path, updater: Updater) -> Iterator[Path]:
    path = tmp_path / "updater.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(4)
    server = Server(updater, listener, idle_s=600)
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        yield path
    finally:
        server.stop()
        thread.join(10)
        listener.close()


@pytest.fixture
def stick(tmp_path: Path) -> Path:
    (tmp_path / "stick").mkdir()
    return tmp_path / "stick"


@pytest.fixture
def updater_socket(tmp_path: Path, stick: Path) -> Iterator[Path]:
    updater = Updater(cabinet(tmp_path), stick=lambda: stick if stick.is_dir() else None, reboot=lambda: None,
                      entries=tmp_path / "entries")  # fmt: skip
    yield from serve(tmp_path, updater)


def update_page(tmp_path: Path, path: Path) -> Any:
    """The service menu over the title, its Update page open, the updater asked and answered."""
    h = menu(tmp_path)
    h.ctx.updates = Updates(office(h.ctx), path)
    go(h, UPDATE_ROW)
    assert h.ctx.updates.drain(120)
    h.frame()
    return h


def rows(tmp_path: Path, table: str) -> list[tuple[Any, ...]]:
    store = Store.open(store_path(tmp_path / "config.toml"))
    try:
        columns = "from_version, to_version, " + ("outcome, detail" if table == "updates" else "reason")
        return [tuple(r) for r in store.connection.execute(f"SELECT {columns} FROM {table} ORDER BY boot, seq")]
    finally:
        store.close()


def test_the_update_page_offers_each_bundle_newest_first_with_what_changes_and_its_signer(
    tmp_path: Path, made: dict[str, Path], stick: Path, updater_socket: Path
) -> None:
    stick_with(tmp_path, made, "new", "old", "unsigned")
    h = update_page(tmp_path, updater_socket)
    shown = seen(h)
    assert shown[:4] == ["Update", "▶  Update 0.1.0 → 0.2.0  ◀", "Go back 0.1.0 → 0.0.9 (older)",
                         "unsigned.raucb: cannot be installed"]  # fmt: skip
    assert "signed by Spit Arcade DEVELOPMENT signer - not for the field" in shown
    assert "what changes: Faster deal; Running Spit: sprint times kept" in shown
    h.press(0, "start")  # asks once
    assert cursor_line(h) == "▶  Update 0.1.0 → 0.2.0: press again to install  ◀"
    h.press(1, "right")  # a player's RIGHT: down
    assert cursor_line(h) == "▶  Go back 0.1.0 → 0.0.9 (older)  ◀"  # moving away forgets the question
    assert "0.0.9 is OLDER than 0.1.0: the cabinet goes back to it" in seen(h)
    h.press(0, "start")
    assert cursor_line(h) == "▶  Go back to the older 0.0.9? Press again  ◀"
    h.press(1, "right")  # a player's RIGHT: down
    assert ("refused: not signed: this bundle has no signature, and the cabinet installs only signed bundles"
            in seen(h))  # fmt: skip
    h.press(0, "start")
    h.press(0, "start")
    assert h.scene.page == "update"  # a refused bundle is never installed
    set_language("de")
    assert ("abgelehnt: nicht signiert: dieses Paket hat keine Signatur, und der Automat installiert nur signierte "
            "Pakete") in seen(h)  # fmt: skip


def test_installing_shows_raucs_progress_and_how_it_ended_and_the_audits_keep_it(
    tmp_path: Path, made: dict[str, Path], stick: Path, updater_socket: Path, bus: Path
) -> None:
    stick_with(tmp_path, made, "new")
    h = update_page(tmp_path, updater_socket)
    h.press(0, "start")
    h.press(0, "start")
    assert h.scene.page == "installing"
    assert h.ctx.updates.drain(120)
    h.frame()
    done = h.ctx.updates.installing
    assert done is not None and done.done and done.percent >= 40  # RAUC checked signature and manifest
    shown = seen(h)
    assert shown[1] == "installing 0.2.0"
    assert shown[2].startswith("█") and shown[2].endswith(f"  {done.percent}%")
    if done.ok:  # a kernel with the device mapper: RAUC wrote the other slot
        assert ("installed: the cabinet restarts into 0.2.0 once; if it does not come up it goes back to 0.1.0 "
                "by itself") in shown  # fmt: skip
        assert shown[-1].startswith("START: restart now")
    else:  # this container: RAUC cannot open a verity bundle, says so
        assert shown[3].startswith("not installed: RAUC could not open the bundle to check it")
        assert shown[3].endswith("The running version is untouched.")
    assert office(h.ctx).drain(10)
    (kept,) = rows(tmp_path, "updates")
    assert kept[:3] == (BOOTED, "0.2.0", "installed" if done.ok else "failed")
    assert kept[3].startswith("new.raucb")


def test_a_refusal_before_rauc_began_is_audited_as_refused(tmp_path: Path, made: dict[str, Path], stick: Path,
                                                          updater_socket: Path) -> None:
    stick_with(tmp_path, made, "new")
    h = update_page(tmp_path, updater_socket)
    (stick / "new.raucb").unlink()  # pulled after the look
    h.press(0, "start")
    h.press(0, "start")
    assert h.ctx.updates.drain(120)
    h.frame()
    assert "not installed: that bundle is not on the stick (pulled, or renamed?): look again" in seen(h)
    assert office(h.ctx).drain(10)
    assert [r[:3] for r in rows(tmp_path, "updates")] == [(BOOTED, "0.2.0", "refused")]


def test_no_stick_no_bundle_and_no_updater_are_said(tmp_path: Path, stick: Path, updater_socket: Path) -> None:
    h = update_page(tmp_path, updater_socket)
    assert "no update bundle (.raucb) on the USB stick" in seen(h)
    stick.rmdir()
    h.press(0, "service")
    go(h, 0)  # (the first page's cursor is still on Update)
    assert h.ctx.updates.drain(120)
    h.frame()
    assert "no USB stick: put one in with an update bundle (.raucb)" in seen(h)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    h = update_page(elsewhere, tmp_path / "no-such.sock")
    assert ("no update here: the updater is not installed on this machine (no spit-arcade-updater.socket)"
            in seen(h))  # fmt: skip


def test_after_a_fallback_the_page_says_the_update_failed_and_why_and_the_rollback_is_kept_once(
    tmp_path: Path, stick: Path
) -> None:
    """The cabinet booted 0.2.0 from slot B, which never showed its title: the boot check marked it
    bad after its first boot and it is back on 0.1.0 (RAUC's status as RAUC 1.8 writes it)."""
    entries = tmp_path / "entries"
    entries.mkdir()
    (entries / "spit-a.conf").write_text("")
    (entries / "spit-b+0-1.conf").write_text("")
    at = "2026-11-25T23:00:00Z"
    status = rauc_status({"boot_status": "good", "slot_status": {"bundle": {"compatible": None}}},
                         {"boot_status": "bad", "slot_status": slot_installed("0.2.0", at)})  # fmt: skip

    def run(args: list[str]) -> subprocess.CompletedProcess[str]:
        if args[0] == "status" or args[1] == "status":
            return subprocess.CompletedProcess(args, 0, json.dumps(status), "")
        return bundles.run_rauc(args)

    updater = Updater(cabinet(tmp_path), stick=lambda: stick, run=run, entries=entries)
    for path in serve(tmp_path, updater):
        h = update_page(tmp_path, path)
        shown = seen(h)
        assert "The update to 0.2.0 failed: back on 0.1.0" in shown
        assert ("0.2.0 did not come up: its game did not show the title within 300 s of power-on, or failed 3 "
                "starts; the cabinet went back to 0.1.0 by itself (boots tried: 1)") in shown  # fmt: skip
        h.ctx.updates.check_status()  # asked again (the next start): kept once
        assert h.ctx.updates.drain(30) and office(h.ctx).drain(10)
    (rollback,) = rows(tmp_path, "rollbacks")
    assert rollback[:2] == ("0.2.0", BOOTED) and rollback[2].endswith(f"(installed {at})")
    assert [r[:3] for r in rows(tmp_path, "updates")] == [(BOOTED, "0.2.0", "rolled_back")]


def test_the_update_pages_words_are_in_german_and_esperanto() -> None:
    import ast

    source = (Path(__file__).resolve().parents[1] / "appliance/display/scenes/service_menu.py").read_text()
    section = source[source.index("# ---- update".replace("----", "-" * 66)):source.index("def background")]
    words = {node.args[0].value for node in ast.walk(ast.parse("class X:\n" + section))
             if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "_"
             and isinstance(node.args[0], ast.Constant)}  # fmt: skip
    words |= {"Update", "{service}: back (the install goes on)", "restarting..."}
    assert len(words) > 15
    # the updater's plain words, which the page shows through the catalogue
    here, gone = Path(__file__), Path("/no/such/bundle.raucb")
    words |= {bundles.refusal(said, here) for said in ("Signature size is 0", "signature verification failed: "
              "Verify error", "bundle payload is corrupted", "Invalid bundle format: x", "CMS signature broken",
              "Failed: Input/output error")}  # fmt: skip
    words |= {bundles.refusal("", gone), install_refusal("", gone), bundles.NO_RAUC, NOT_ON_STICK,
              unreachable(FileNotFoundError()), unreachable(PermissionError())}  # fmt: skip
    words |= {install_refusal(said, here) for said in ("Failed: Input/output error", "Compatible mismatch",
              "No space left on device", "Installation already in progress")}  # fmt: skip
    updater = Updater(bundles.Cabinet("c", Path(), "0.1.0"), stick=lambda: None)
    words |= {str(updater.reboot()["refused"]), str(updater.install(1, False, print)["refused"])} - {
        "install needs a bundle's name (from look) and confirm_downgrade"}  # (never sent by the game)
    with updater.lock:
        words.add(str(updater.install("x", False, print)["refused"]))
    for code in ("de", "eo"):
        catalogue = read_po(LOCALE_DIR / code / "LC_MESSAGES" / "spit_arcade.po")
        assert not [w for w in words if not catalogue.get(w)], code
