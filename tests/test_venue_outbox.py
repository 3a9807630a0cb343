import sqlite3

import pytest

from appliance.venue.messages import decode
from appliance.venue.outbox import Outbox


def test_messages_keep_their_order_and_id_across_a_restart(tmp_path):
    box = Outbox(tmp_path / "outbox.sqlite", "table-1")
    assert box.boot == 1
    for n in range(3):
        box.put("audits", {"coins": n})
    first = box.pending(0, 10)
    box.done(first[0].row)
    box.close()
    again = Outbox(tmp_path / "outbox.sqlite", "table-1")
    assert again.boot == 2
    left = again.pending(0, 10)
    assert [p.id for p in left] == ["table-1:1:2", "table-1:1:3"]
    assert [decode(p.topic, p.payload).body for p in left] == [{"coins": 1}, {"coins": 2}]
    assert again.put("health", {}).id == "table-1:2:1"
    assert [p.id for p in again.pending(left[-1].row, 10)] == ["table-1:2:1"]


def test_a_full_outbox_drops_heartbeats_first_and_never_money(tmp_path, capsys):
    box = Outbox(tmp_path / "outbox.sqlite", "table-1", limit=4)
    box.put("audits", {"coins": 1})
    box.put("health", {"n": 1})
    box.put("board", {"n": 1})
    box.put("health", {"n": 2})
    box.put("audits", {"coins": 2})  # five: the oldest heartbeat goes
    kinds = [decode(p.topic, p.payload).kind for p in box.pending(0, 10)]
    assert kinds == ["audits", "board", "health", "audits"]
    box.put("audits", {"coins": 3})  # then the other heartbeat
    box.put("audits", {"coins": 4})  # then the board
    box.put("audits", {"coins": 5})  # only money left: kept past the bound
    bodies = [decode(p.topic, p.payload).body for p in box.pending(0, 10)]
    assert bodies == [{"coins": n} for n in range(1, 6)]
    assert box.dropped() == {"board": 1, "health": 2}
    said = capsys.readouterr().out
    assert "dropped the 1 oldest health message(s)" in said
    assert "all of it money" in said


def test_a_message_its_drop_and_the_drops_count_are_kept_together_or_not_at_all(tmp_path):
    path = tmp_path / "outbox.sqlite"
    box = Outbox(path, "table-1", limit=2)
    box.put("health", {"n": 1})
    box.put("audits", {"coins": 1})
    other = sqlite3.connect(path)  # the count's write fails (as a full card would refuse it)
    other.execute("CREATE TRIGGER refused BEFORE INSERT ON dropped BEGIN SELECT RAISE(ABORT, 'card full'); END")
    other.commit()
    with pytest.raises(sqlite3.Error, match="card full"):
        box.put("audits", {"coins": 2})
    kept = [decode(p.topic, p.payload).body for p in box.pending(0, 10)]
    assert kept == [{"n": 1}, {"coins": 1}]  # the heartbeat not dropped uncounted, the message not half kept
    assert box.dropped() == {}
    other.execute("DROP TRIGGER refused")
    other.commit()
    assert box.put("audits", {"coins": 2}).id == "table-1:1:3"  # no gap in the order for the put that failed
    assert [decode(p.topic, p.payload).body for p in box.pending(0, 10)] == [{"coins": 1}, {"coins": 2}]
    assert box.dropped() == {"health": 1}
