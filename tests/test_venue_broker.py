"""The venue against a real Mosquitto (TLS, client certificates, the ACLs from venue init): a
cabinet's uplink publishes and the operator's view sees it; strangers are refused; a cabinet cannot
post as another; the outbox survives a broker restart with nothing lost and nothing twice."""

from __future__ import annotations

import datetime as dt
import json
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from venue_broker import Broker, make_venue

from appliance.operator.office import Office
from appliance.operator.store import GameRow, Score
from appliance.venue import init as venue_init
from appliance.venue.board import board_path, read_board, read_reactions
from appliance.venue.outbox import Outbox
from appliance.venue.uplink import Uplink, VenueSettings
from appliance.venue.view import Feed, Venue, watch

BOUND_S = 30.0  # the most any wait below may take before the test fails


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    venue = make_venue(tmp_path / "venue", ["table-1", "table-2"])
    venue.start()
    try:
        yield venue
    finally:
        venue.stop()


def until(condition: Callable[[], bool], *uplinks: Uplink, what: str, woken: threading.Event | None = None) -> None:
    """Run the uplinks' loops until `condition` holds; fail after BOUND_S. With no uplink to run, the
    view's own paho thread does the work: wait on `woken`, which it sets at every message."""
    assert uplinks or woken is not None, "nothing to run and nothing to wait on"
    deadline = time.monotonic() + BOUND_S
    while True:
        if woken is not None:
            woken.clear()  # (before the look: a message after it wakes the wait below)
        if condition():
            return
        if time.monotonic() > deadline:
            pytest.fail(f"not within {BOUND_S} s: {what}")
        for uplink in uplinks:
            uplink.step(0.02)
        if not uplinks and woken is not None:
            woken.wait(max(0.0, deadline - time.monotonic()))


def settings(broker: Broker, name: str) -> VenueSettings:
    cred = broker.credential(name)
    return VenueSettings("localhost", broker.port, name, cred / "ca.crt", cred / "cabinet.crt", cred / "cabinet.key")


def cabinet(tmp_path: Path, broker: Broker, name: str, coins: int = 0, sprints: list[float] = (),
            reactions: list[float] = ()) -> Uplink:
    state = tmp_path / name
    write_state(state, coins, sprints, reactions=reactions)
    uplink = Uplink(settings(broker, name), state, state / "venue")
    return uplink


def write_state(state: Path, coins: int, sprints: list[float] = (), no_spit_2: int = 0,
                reactions: list[float] = (), update: tuple[str, str, str] | None = None) -> None:
    """The cabinet's books as the game keeps them (its store): up to `coins` coins and as many games
    of Classic Spit, the sprints and reactions given, `no_spit_2` more games in which player 2 never
    pressed SPIT!, and an update (from, to, outcome) recorded as the updates unit does."""
    every = tuple((player, control) for player in (1, 2) for control in ("left", "right", "spit"))
    office = Office.open(state / "config.toml")
    have = office.store.rows("SELECT COUNT(*) FROM coins")[0][0]
    for _ in range(coins - have):
        office.coin()
        office.add_game(GameRow("classic", 2, 60.0, 1, False, controls=every))
    for _ in range(no_spit_2):
        office.add_game(GameRow("classic", 2, 60.0, 1, False, controls=tuple(c for c in every if c != (2, "spit"))))
    for ms in sprints:
        office.add_score(Score("sprint", "ANN", ms, 1, 0, "2026-11-25"))
    for ms in reactions:
        office.add_score(Score("reaction", "QIK", ms, 0, 0, "2026-11-25"))
    assert office.drain(10)
    if update is not None:
        office.store.add_update(office.stamp(), *update)
    office.close()


class View:
    """The operator's view (appliance/venue/view.py) on the broker, recording each fresh message."""

    def __init__(self, broker: Broker) -> None:
        self.venue = Venue()
        self.fresh: list[str] = []
        self.arrived = threading.Event()  # set at every message the view takes (on paho's thread)
        receive = self.venue.receive

        def recording(topic: str, payload: bytes):
            message = receive(topic, payload)
            if message is not None:
                self.fresh.append(message.id)
            self.arrived.set()
            return message

        self.venue.receive = recording  # type: ignore[method-assign]
        self.client = watch(self.venue, Feed(), "localhost", broker.port, broker.credential("venue"))

    def cabinet(self, name: str) -> dict:
        return next((c for c in self.venue.state()["cabinets"] if c["name"] == name), {})

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def view(broker: Broker) -> Iterator[View]:
    v = View(broker)
    try:
        yield v
    finally:
        v.close()


def test_a_cabinet_publishes_and_the_venue_view_sees_it(tmp_path, broker, view):
    table = cabinet(tmp_path, broker, "table-1", coins=5, sprints=[4210.0])
    until(lambda: view.cabinet("table-1").get("version"), table, what="table-1's heartbeat in the view")
    write_state(tmp_path / "table-1", coins=8, sprints=[4210.0])
    table.next_read = 0.0
    until(lambda: view.cabinet("table-1").get("coins_today") == 3, table, what="three coins today in the view")
    seen = view.cabinet("table-1")
    assert (seen["coins_lifetime"], seen["games_today"], seen["faults"]) == (8, 3, [])
    assert seen["best_sprint"]["sprint_ms"] == 4210.0
    table.close()


def test_one_cabinets_board_reaches_the_others(tmp_path, broker):
    one = cabinet(tmp_path, broker, "table-1", sprints=[5100.0], reactions=[201.5])
    two = cabinet(tmp_path, broker, "table-2", sprints=[3900.5, 4400.0], reactions=[230.0])
    board = board_path(tmp_path / "table-1" / "config.toml")
    until(lambda: len(read_board(board)) == 3, one, two, what="both boards on table-1's board file")
    assert [(p.initials, p.sprint_ms, p.cabinet) for p in read_board(board)] == \
        [("ANN", 3900.5, "table-2"), ("ANN", 4400.0, "table-2"), ("ANN", 5100.0, "table-1")]
    until(lambda: len(read_reactions(board)) == 2, one, two, what="both cabinets' reactions on table-1's board")
    assert [(r.initials, r.reaction_ms, r.cabinet) for r in read_reactions(board)] == \
        [("QIK", 201.5, "table-1"), ("QIK", 230.0, "table-2")]
    one.close()
    two.close()


def raw_client(broker: Broker, cert: Path | None, key: Path | None, name: str = "raw") -> mqtt.Client:
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=name, protocol=mqtt.MQTTv5)
    context = ssl.create_default_context(cafile=str(broker.directory / "ca.crt"))
    if cert is not None and key is not None:
        context.load_cert_chain(str(cert), str(key))
    client.tls_set_context(context)
    return client


def connects(client: mqtt.Client, broker: Broker) -> str:
    """'connected', or how the broker refused the client (the TLS handshake, or the CONNACK)."""
    outcome: list[str] = []
    client.on_connect = lambda c, u, f, reason, p: outcome.append("refused: " + str(reason) if reason.is_failure
                                                                    else "connected")
    client.on_disconnect = lambda c, u, f, reason, p: outcome.append(f"refused: closed by the broker ({reason})")
    try:
        client.connect("localhost", broker.port)
    except (OSError, ssl.SSLError) as error:
        return f"refused: {error}"
    deadline = time.monotonic() + BOUND_S
    while not outcome and time.monotonic() < deadline:
        if client.loop(timeout=0.05) not in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_AGAIN):
            outcome.append("refused: the connection was closed")
    client.disconnect()
    return outcome[0] if outcome else "no answer"


def test_a_cabinets_own_credential_connects(broker):
    cred = broker.credential("table-1")
    assert connects(raw_client(broker, cred / "cabinet.crt", cred / "cabinet.key", "table-1"), broker) == "connected"


def test_anonymous_is_refused(broker):
    assert connects(raw_client(broker, None, None), broker).startswith("refused")
    assert broker.wait_for_log("peer did not return a certificate"), broker.log_text()


def test_a_certificate_of_another_ca_is_refused(tmp_path, broker):
    ca_key, ca_cert = venue_init.make_ca("a stranger's CA")
    key, cert = venue_init.issue(ca_key, ca_cert, "table-1")  # even with a cabinet's name
    (tmp_path / "s.crt").write_bytes(venue_init.cert_pem(cert))
    (tmp_path / "s.key").write_bytes(venue_init.key_pem(key))
    assert connects(raw_client(broker, tmp_path / "s.crt", tmp_path / "s.key"), broker).startswith("refused")


def test_a_revoked_cabinet_is_refused_after_a_reload_and_the_others_connect(broker):
    def connect(name: str) -> str:
        cred = broker.credential(name)
        return connects(raw_client(broker, cred / "cabinet.crt", cred / "cabinet.key", name), broker)

    assert (connect("table-1"), connect("table-2")) == ("connected", "connected")
    venue_init.revoke(broker.directory, "table-2")
    assert connect("table-2") == "connected"  # the broker has not read the new CRL yet
    broker.reload()  # SIGHUP: Mosquitto 2 reads its configuration, and the CRL, again
    assert connect("table-2").startswith("refused")
    assert broker.wait_for_log("certificate verify failed"), broker.log_text()
    assert connect("table-1") == "connected"
    broker.restart()  # and at every start
    assert (connect("table-1"), connect("table-2")[:7]) == ("connected", "refused")


def test_an_expired_certificate_is_refused(tmp_path, broker):
    ca_key, ca_cert = venue_init.load_ca(broker.directory)
    now = dt.datetime.now(dt.UTC)
    key, cert = venue_init.issue(ca_key, ca_cert, "table-1", not_before=now - dt.timedelta(days=400),
                                 not_after=now - dt.timedelta(days=1))
    (tmp_path / "old.crt").write_bytes(venue_init.cert_pem(cert))
    (tmp_path / "old.key").write_bytes(venue_init.key_pem(key))
    assert connects(raw_client(broker, tmp_path / "old.crt", tmp_path / "old.key"), broker).startswith("refused")
    assert broker.wait_for_log("certificate verify failed"), broker.log_text()  # (a valid one of the CA connects)


def test_a_cabinet_cannot_post_on_another_cabinets_topics_nor_read_them(tmp_path, broker, view):
    cred = broker.credential("table-1")
    forger = raw_client(broker, cred / "cabinet.crt", cred / "cabinet.key", "table-1")
    acks: dict[int, str] = {}
    got: list[str] = []
    forger.on_publish = lambda c, u, mid, reason, p: acks.__setitem__(mid, str(reason))
    forger.on_message = lambda c, u, m: got.append(m.topic)
    assert connects(forger, broker) == "connected"
    forger.reconnect()
    forger.subscribe("spit/venue/#", qos=1)  # every topic asked for: the ACL lets only the boards through
    forged = {"v": 1, "id": "table-2:1:1", "cabinet": "table-2", "boot": 1, "seq": 1, "kind": "audits",
              "sent": "2026-11-25T20:00:00Z", "body": {"day": "2026-11-25", "today": {"coins": 500}}}
    bad = forger.publish("spit/venue/table-2/audits", json.dumps(forged).encode(), qos=1).mid
    two = cabinet(tmp_path, broker, "table-2", coins=1, sprints=[4000.0])
    deadline = time.monotonic() + BOUND_S
    while (bad not in acks or "spit/venue/table-2/board" not in got or "table-2" not in view.venue.cabinets) \
            and time.monotonic() < deadline:
        forger.loop(timeout=0.02)
        two.step(0.02)
    assert acks[bad] == "Not authorized"
    assert got == ["spit/venue/table-2/board"]  # table-2's board, none of its audits or heartbeats
    until(lambda: view.cabinet("table-2").get("coins_lifetime") == 1, two, what="table-2's own audits")
    assert view.cabinet("table-2")["coins_today"] == 0  # not the forged 500
    assert all(i.startswith("table-2:") for i in view.fresh)
    forger.disconnect()
    two.close()


def table_1_and_table_2s_own_client(tmp_path: Path, broker: Broker, window: int = 20) -> tuple[Uplink, mqtt.Client]:
    """table-1's uplink, connected; and a client of table-2's credential, connected (to post on
    table-2's own topics what no uplink would)."""
    one = cabinet(tmp_path, broker, "table-1")
    until(lambda: one.connected, one, what="table-1 connected")
    cred = broker.credential("table-2")
    other = raw_client(broker, cred / "cabinet.crt", cred / "cabinet.key", "table-2")
    other.max_inflight_messages_set(window)
    assert connects(other, broker) == "connected"
    other.reconnect()
    return one, other


def test_malformed_oversized_and_foreign_boards_are_refused_and_counted(tmp_path, broker, capsys):
    one, other = table_1_and_table_2s_own_client(tmp_path, broker)
    lie = {"v": 1, "id": "table-3:1:1", "cabinet": "table-3", "boot": 1, "seq": 1, "kind": "board",
           "sent": "2026-11-25T20:00:00Z", "body": {"fastest_sprints": []}}
    for payload in (b"{garbage", b"{" + b" " * 20000 + b"}", json.dumps(lie).encode()):
        other.publish("spit/venue/table-2/board", payload, qos=1)
    until(lambda: sum(one.board.refused().values()) == 3, one, what="three refused on table-1")
    assert one.board.refused() == {"foreign": 1, "malformed": 1, "oversized": 1}
    said = capsys.readouterr().out
    assert "refused a message (oversized: 20002 bytes on spit/venue/table-2/board (at most 16384)); 2 refused so far" \
        in said
    assert read_board(board_path(tmp_path / "table-1" / "config.toml")) == []
    other.disconnect()
    one.close()


def test_the_outbox_survives_a_broker_restart_nothing_lost_nothing_twice(tmp_path, broker, view):
    table = cabinet(tmp_path, broker, "table-1")
    until(lambda: table.outbox.pending(0, 1) == [] and table.connected, table, what="the first messages sent")
    ids = []
    for n in range(40):
        ids.append(table.outbox.put("audits", {"day": "2026-11-25", "today": {"coins": n}}).id)
        if n == 15:
            until(lambda: len(table.in_flight) == 0 and len(table.outbox) == 0, table, what="half sent")
            broker.stop()
            until(lambda: not table.connected, table, what="the uplink notices")
    assert len(table.outbox) == 24  # kept while the broker is away
    broker.start()
    until(lambda: len(table.outbox) == 0, table, what="the outbox empties after the restart")
    until(lambda: ids[-1] in view.fresh, what="the last message in the view", woken=view.arrived)
    sent = [i for i in view.fresh if i in ids]
    assert sent == ids  # every one, once, in order
    table.close()
    # A restart of the uplink itself: what was waiting is sent under its old id, new ones under the next boot.
    again = cabinet(tmp_path, broker, "table-1")
    assert again.outbox.boot == 2
    until(lambda: any(i.startswith("table-1:2:") for i in view.fresh), again, what="the second boot's messages")
    again.close()


def test_two_cabinets_with_one_name_are_told(tmp_path, broker, capsys):
    first = cabinet(tmp_path, broker, "table-1")
    until(lambda: first.connected, first, what="the first table-1 connected")
    second = Uplink(settings(broker, "table-1"), tmp_path / "table-1", tmp_path / "the-other-one")
    until(lambda: first.taken_over > 0, first, second, what="the first told it was taken over")
    assert "another client connected as 'table-1': two cabinets with one name" in capsys.readouterr().out
    first.close()
    second.close()


def test_a_flood_of_boards_from_one_cabinet_is_refused_past_its_rate(tmp_path, broker, capsys):
    """What a flood costs: table-2's boards past its allowance (20 at once, then one a second) are
    refused, counted and said, and table-1's operator is told in its heartbeat's faults. Only boards
    are rate-limited (each replaces the last, and the board message carries no money): table-2's
    audits reach the view by another way, untouched by this."""
    one, flooder = table_1_and_table_2s_own_client(tmp_path, broker, window=0)  # no window: all at once
    for seq in range(1, 301):
        board = {"v": 1, "id": f"table-2:1:{seq}", "cabinet": "table-2", "boot": 1, "seq": seq, "kind": "board",
                 "sent": "2026-11-25T20:00:00Z", "body": {"fastest_sprints": [{"initials": "FLD", "sprint_ms": seq}]}}
        flooder.publish("spit/venue/table-2/board", json.dumps(board).encode(), qos=1)
    taken: list[int] = []
    one.on_board = lambda message: taken.extend([message.seq] if message.cabinet == "table-2" else [])  # (not its own)
    deadline = time.monotonic() + BOUND_S
    while len(taken) + one.board.refused().get("flood", 0) < 300 and time.monotonic() < deadline:
        flooder.loop(timeout=0.01)
        one.step(0.01)
    flooder.disconnect()
    assert 20 <= len(taken) < 300 and one.board.refused()["flood"] == 300 - len(taken)
    assert taken == sorted(taken) and taken[:20] == list(range(1, 21))  # the first 20 taken, in order
    assert "table-2 sent more than 20 boards at once" in capsys.readouterr().out
    one.read_figures(one.next_heartbeat)  # the next heartbeat: the operator is told
    health = json.loads(one.outbox.pending(0, 1000)[-1].payload)
    assert health["kind"] == "health" and health["body"]["refused"] == {"flood": 300 - len(taken)}
    assert f"boards refused as a flood (more than 20 at once): {300 - len(taken)} from table-2" \
        in health["body"]["faults"]
    one.close()


def test_what_the_outbox_dropped_while_the_broker_was_away_is_named_in_the_heartbeat(tmp_path, broker):
    """The broker gone for long: the outbox is bounded and drops heartbeats first, never money, and
    the next heartbeat names what went (the operator's view shows it among the faults)."""
    table = cabinet(tmp_path, broker, "table-1", coins=2)  # never stepped: the broker is away
    table.outbox.close()
    table.outbox = Outbox(tmp_path / "table-1" / "venue" / "small.sqlite", "table-1", limit=3)
    for n in range(3):
        table.outbox.put("health", {"n": n})
    table.read_figures(0.0)  # audits, the board and a heartbeat go in: three heartbeats make way
    kinds = [json.loads(p.payload)["kind"] for p in table.outbox.pending(0, 100)]
    assert kinds == ["audits", "board", "health"] and table.outbox.dropped() == {"health": 3}
    table.read_figures(table.next_heartbeat)
    health = json.loads(table.outbox.pending(0, 100)[-1].payload)
    assert "outbox full while the broker was away: dropped 3 health" in health["body"]["faults"]
    kinds = [json.loads(p.payload)["kind"] for p in table.outbox.pending(0, 100)]
    assert kinds == ["audits", "board", "health"]  # the money kept, the older heartbeat gone
    table.close()
