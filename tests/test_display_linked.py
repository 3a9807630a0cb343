"""A linked game on the screen (`play --link-listen` / `--link`): the wait for the other cabinet,
the game's table once the leader deals, the pause notice when the link goes, a correction shown
short. Two real links over loopback through the test relay; both run on the harness's clock (one
machine: their clocks agree), the frames waiting on the link's condition, bounded, never sleeping."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from headless import Harness

from appliance.display.scenes.base import make
from appliance.display.scenes.play import PlayScene
from appliance.linked.game import Correction, LinkedTable
from appliance.linked.peer import Peer, offer
from lab.linked_relay import Impairment, Relay


def texts(h: Harness) -> str:
    return " | ".join(" ".join(d.words) for d in h.canvas().texts)


@pytest.fixture
def linked() -> Iterator[tuple[Harness, LinkedTable, LinkedTable, Relay]]:
    h = Harness((960, 540))
    leader_peer = Peer.listen(0, offer("classic", {}, [1], 2), host="127.0.0.1", clock=h.clock)
    relay = Relay(("127.0.0.1", 0), ("127.0.0.1", leader_peer.port), Impairment()).start()
    leader = LinkedTable(leader_peer, [1], "classic", start_delay_ns=100_000_000)
    h.runner.apply_scene(make("linked_wait", h.ctx, leader, "port 7000"))
    joiner = LinkedTable(Peer.connect("127.0.0.1", relay.port, offer("classic", {}, [2], 2), clock=h.clock),
                         [2], "classic")
    yield h, leader, joiner, relay
    joiner.close()
    leader.close()
    relay.stop()


def frames_until(h: Harness, joiner: LinkedTable, done: Callable[[], bool], limit: int = 2000) -> bool:
    for _ in range(limit):
        h.frame()
        joiner.tick(h.now_ns)
        if done():
            return True
        joiner.peer.wait_for(lambda _: False, 0.002)  # let the datagrams of this frame arrive (bounded)
    return done()


def test_the_wait_the_table_the_pause_and_a_correction(linked) -> None:  # type: ignore[no-untyped-def]
    h, leader, joiner, relay = linked
    assert "Waiting for the other cabinet" in texts(h) and "port 7000" in texts(h)
    assert frames_until(h, joiner, lambda: isinstance(h.scene, PlayScene))
    assert h.scene.match is leader.match  # the linked match, drawn by the ordinary table
    assert frames_until(h, joiner, lambda: leader.state == joiner.state == "playing")
    assert "Paused" not in texts(h)
    relay.cut = True
    assert frames_until(h, joiner, lambda: leader.state == "paused")
    assert "Paused" in texts(h) and "other table" in texts(h)
    relay.cut = False
    assert frames_until(h, joiner, lambda: leader.state == joiner.state == "playing")
    assert "Paused" not in texts(h)
    leader.corrections.append(Correction(1.0, 2, 1, 12.0, "5H"))
    h.frame()
    assert "Corrected: player 2 was first by 12 ms" in texts(h)
    h.advance(2.0)
    assert "Corrected" not in texts(h)


def test_a_refused_link_says_why_on_the_screen() -> None:
    h = Harness((960, 540))
    leader = LinkedTable(Peer.listen(0, offer("classic", {}, [1], 2), host="127.0.0.1", clock=h.clock), [1], "classic")
    joiner = LinkedTable(Peer.connect("127.0.0.1", leader.peer.port, offer("speed", {}, [2], 2), clock=h.clock),
                         [2], "speed")
    h.runner.apply_scene(make("linked_wait", h.ctx, leader, "port 7000"))
    try:
        assert frames_until(h, joiner, lambda: leader.state.startswith("refused"))
        h.frame()
        shown = texts(h)
        assert "cannot start" in shown and "'speed'" in shown
    finally:
        joiner.close()
        leader.close()


@pytest.mark.parametrize("language", ["en", "de"])
def test_two_link_words_that_differ_are_said_on_both_wait_screens(language: str) -> None:
    from appliance.display.i18n import set_language

    h = Harness((960, 540))
    leader = LinkedTable(Peer.listen(0, offer("classic", {}, [1], 2), host="127.0.0.1", clock=h.clock,
                                     word="Ahorn am Tresen 7"), [1], "classic")
    joiner = LinkedTable(Peer.connect("127.0.0.1", leader.peer.port, offer("classic", {}, [2], 2), clock=h.clock,
                                      word="Ahorn am Tresen 8"), [2], "classic")
    set_language(language)
    h.runner.apply_scene(make("linked_wait", h.ctx, leader, "port 7000"))
    try:
        assert frames_until(h, joiner, lambda: leader.problem != "" and joiner.problem != "")
        h.frame()
        said = {"en": "the other table's link word is not this one's",
                "de": "das Verbindungswort des anderen Tisches ist nicht das dieses Tisches"}[language]
        assert said in texts(h)
        h.runner.apply_scene(make("linked_wait", h.ctx, joiner, "cabinet-a:7000"))
        h.frame()
        assert said in texts(h) and leader.state == joiner.state == "connecting"
    finally:
        set_language("en")
        joiner.close()
        leader.close()


def test_the_command_line_takes_a_listening_port_or_an_address_and_refuses_a_wrong_one() -> None:
    from appliance.display.app import open_link, parse_args
    from appliance.shared.settings import Settings

    with pytest.raises(ValueError, match="HOST:PORT"):
        open_link(parse_args(["--link", "nowhere"]), Settings(), None)
    with pytest.raises(ValueError, match="seats 1 to 2"):
        open_link(parse_args(["--link-listen", "0", "--link-seats", "3"]), Settings(), None)
    table, where = open_link(parse_args(["--link-listen", "0"]), Settings(), None)
    try:
        assert (sorted(table.local_seats), table.leader, where) == ([1], True, "port 0")
    finally:
        table.close()
    table, where = open_link(parse_args(["--link", "127.0.0.1:9"]), Settings(), None)
    try:
        assert (sorted(table.local_seats), table.leader, where) == ([2], False, "127.0.0.1:9")
    finally:
        table.close()


@pytest.mark.parametrize("language", ["de", "eo"])
def test_the_links_notices_are_said_in_the_players_language(language: str) -> None:
    import re

    from appliance.display.i18n import LOCALE_DIR, read_po, set_language
    from appliance.display.scenes.at_table import link_said
    from appliance.linked.game import NO_WORD, NOTICES, Words

    catalogue = read_po(LOCALE_DIR / language / "LC_MESSAGES" / "spit_arcade.po")
    for notice in NOTICES:  # every one translated, with the same {fields}
        assert catalogue.get(notice), notice
        assert re.findall(r"{\w+}", notice) == re.findall(r"{\w+}", catalogue[notice]), notice
    set_language(language)
    try:
        said = link_said(Words(NO_WORD, s="0.8"))
        assert said == catalogue[NO_WORD].format(s="0.8") and "0.8" in said
        assert link_said(Correction(1.0, 2, 1, 12.3, "5H").words()) == catalogue[
            "Corrected: player {winner} was first by {ms} ms"].format(winner=2, ms="12")
        refused = "Refused: the other cabinet is set for 'speed'"
        assert link_said(refused) == refused  # a refusal's sentence stays English
    finally:
        set_language("en")


def test_a_linked_rematch_from_the_game_over_screen_starts_when_both_tables_want_it(linked) -> None:  # type: ignore[no-untyped-def]
    h, leader, joiner, _ = linked
    assert frames_until(h, joiner, lambda: isinstance(h.scene, PlayScene) and joiner.state == "playing")
    first = leader.match
    view = h.scene.view
    for table in (leader, joiner):  # both games over, as a game's last card leaves them
        table.match.abandon()
    h.runner.apply_scene(make("game_over", h.ctx, first, view))
    assert frames_until(h, joiner, lambda: leader.state == joiner.state == "over")
    h.advance(2.0)  # (a press in the first moments is meant for the game, not the result)
    h.press(1, "spit")
    assert frames_until(h, joiner, lambda: leader.rematch_wanted == 1)
    h.frame()
    assert "Rematch: waiting for the other table" in texts(h)
    assert not isinstance(h.scene, PlayScene)  # one table alone plays nothing
    joiner.want_rematch(h.now_ns)
    assert frames_until(h, joiner, lambda: isinstance(h.scene, PlayScene) and h.scene.match is not first
                          and joiner.game_no == 2)  # the other table gets the new deal a beat later
    assert h.scene.match is leader.match and leader.game_no == joiner.game_no == 2


# --- a find on the venue (`[link] join = "venue"`): the screen first, the find on a thread, tried again

@pytest.mark.parametrize("layout", ["tabletop", "desktop"])
def test_a_find_on_the_venue_is_shown_while_it_runs_and_escape_goes_back_to_the_title(layout: str) -> None:
    import threading

    from appliance.display.scenes.base import BACK, MenuKey
    from appliance.display.scenes.title import TitleScene
    from appliance.linked import finding
    from appliance.linked.finding import Finding

    order: list[str] = []
    release = threading.Event()
    closed: list[bool] = []

    class Found:  # what the try returns when let go: a table that says it was closed
        def close(self, linger: float = 0.0) -> None:
            closed.append(linger > 0)  # (said goodbye, off the frame loop: waiting for the acknowledgement)

    def find_once(cancel: object) -> tuple[object, str]:
        order.append("try")
        if len(order) == 1:  # the first try finds nothing (as a find on a venue with no game yet)
            raise TimeoutError("no linked game offered that fits")
        if len(order) == 2:  # the second finds only a game that does not fit: check_offer's words
            raise OSError("the link unit: no linked game offered that fits: table-1: "
                          "the other cabinet is set for 'speed', this one for 'classic'")
        assert release.wait(30)
        return Found(), "table-1"

    h = Harness((960, 540), layout)
    saved, finding.RETRY_S = finding.RETRY_S, 0.0
    try:
        table = Finding(find_once)
        h.runner.apply_scene(make("linked_wait", h.ctx, table, "venue"))
        h.frame()
        caption = h.scene.captions()[0]  # type: ignore[attr-defined]
        assert [line.words for line in caption.lines][-1] == "Escape: back to the title"
        assert table.wait_for(lambda f: f.tries == 2, 30)  # two tries ended, a third under way
        assert table.table is None
        h.frame()
        said = texts(h)
        assert "The linked game cannot start" in said and "table-1: the other cabinet is set for 'speed'" in said
        assert "Still looking for a game on the venue" in said
        h.runner.send(MenuKey(0, BACK, True, h.now_ns))  # Escape
        h.frame()
        assert isinstance(h.scene, TitleScene)
        release.set()  # the try under way ends with a table after the players went back: it is closed
        assert table.wait_for(lambda f: bool(closed) and f.said_bye and f.done, 30)
        assert closed == [True] and table.table is None and table.state == "finding"
    finally:
        finding.RETRY_S = saved
        release.set()


@pytest.mark.parametrize("layout", ["tabletop", "desktop"])
def test_the_first_frame_says_it_looks_on_the_venue_before_any_try_ends(layout: str) -> None:
    import threading

    from appliance.linked.finding import Finding

    started, release = threading.Event(), threading.Event()

    def find_once(cancel: object) -> tuple[object, str]:
        started.set()
        assert release.wait(30)
        raise TimeoutError("no linked game offered that fits")

    h = Harness((960, 540), layout)
    table = Finding(find_once)
    try:
        assert started.wait(30)  # the try is under way, and held: the frame is drawn before it ends
        h.runner.apply_scene(make("linked_wait", h.ctx, table, "venue"))
        h.frame()
        caption = h.scene.captions()[0]  # type: ignore[attr-defined]
        assert [line.words for line in caption.lines] == [
            "Waiting for the other cabinet", "Looking for a game on the venue", "Escape: back to the title"]
        assert table.tries == 0
    finally:
        release.set()
        table.close()


@pytest.mark.parametrize("language", ["de", "eo"])
def test_the_finds_words_are_said_in_the_players_language(language: str) -> None:
    from appliance.display.i18n import LOCALE_DIR, read_po

    catalogue = read_po(LOCALE_DIR / language / "LC_MESSAGES" / "spit_arcade.po")
    for words in ("Looking for a game on the venue", "Still looking for a game on the venue"):
        assert catalogue.get(words), words


def test_a_link_unit_that_does_not_answer_is_said_on_the_wait_and_the_find_goes_on() -> None:
    from appliance.linked import finding
    from appliance.linked.finding import Finding
    from appliance.linked.relay_client import RelayError

    def find_once(cancel: object) -> tuple[object, str]:
        raise RelayError("the link unit at /run/spit-arcade-link.sock does not answer (No such file or directory)")

    h = Harness((960, 540))
    saved, finding.RETRY_S = finding.RETRY_S, 0.0
    table = Finding(find_once)
    try:
        h.runner.apply_scene(make("linked_wait", h.ctx, table, "venue"))
        assert table.wait_for(lambda f: f.tries >= 2, 30)  # tried again
        h.frame()
        lines = [line.words for line in h.scene.captions()[0].lines]  # type: ignore[attr-defined]
        assert lines == ["Waiting for the other cabinet", "Looking for a game on the venue",
                         "the link unit at /run/spit-arcade-link.sock does not answer (No such file or directory)",
                         "Escape: back to the title"]
    finally:
        table.close()
        finding.RETRY_S = saved


def test_leaving_the_wait_calls_the_running_try_off_at_once() -> None:
    """Escape on the wait: the try under way (a find waits up to 45 s) is woken by its Cancel and
    ends; no try follows, none is counted as a failure, and the frame loop never waited for it."""
    import threading

    from appliance.display.scenes.base import BACK, MenuKey
    from appliance.display.scenes.title import TitleScene
    from appliance.linked.finding import Finding

    started = threading.Event()
    seen: list[bool] = []

    def find_once(cancel) -> tuple[object, str]:  # type: ignore[no-untyped-def]
        started.set()
        seen.append(cancel.wait(60))  # a long find: it ends only when called off
        cancel.check()
        raise AssertionError("not called off")

    h = Harness((960, 540))
    table = Finding(find_once)
    h.runner.apply_scene(make("linked_wait", h.ctx, table, "venue"))
    assert started.wait(30)
    h.frame()
    h.runner.send(MenuKey(0, BACK, True, h.now_ns))  # Escape
    h.frame()
    assert isinstance(h.scene, TitleScene)
    assert table.wait_for(lambda f: f.done, 30)
    assert seen == [True] and table.tries == 0 and table.table is None and not table.said_bye


def test_a_pairing_found_after_the_players_left_is_told_goodbye() -> None:
    """The try's call was on the way as the players left: the other cabinet took its hello. It is
    told goodbye (a BYE resent until acknowledged, on the try's thread), so it shows that this table
    left instead of waiting for it; the wait scene was long gone."""
    import threading

    from appliance.linked.finding import Finding
    from appliance.linked.game import LEFT

    other = LinkedTable(Peer.listen(0, offer("classic", {}, [1], 2), host="127.0.0.1"), [1], "classic")
    left = threading.Event()

    def find_once(cancel) -> tuple[object, str]:  # type: ignore[no-untyped-def]
        assert cancel.wait(60)  # (the players leave while the call is on the way ...)
        left.set()
        table = LinkedTable(Peer.connect("127.0.0.1", other.peer.port, offer("classic", {}, [2], 2)), [2], "classic")
        return table, "table-1"  # (... and it pairs all the same)

    table = Finding(find_once)
    try:
        table.close()  # the players leave: never waits
        assert left.wait(30)
        for _ in range(3000):  # the other cabinet's frames: it learns of the pairing, then of the goodbye
            other.tick(other.peer.clock())
            if other.state.startswith("closed"):
                break
            other.peer.wait_for(lambda _: False, 0.01)
        assert other.state == "closed: the other cabinet left" and other.notice == LEFT, (other.state, other.notice)
        assert table.wait_for(lambda f: f.said_bye and f.done, 30)
        assert table.table is None
    finally:
        table.close()
        other.close()
