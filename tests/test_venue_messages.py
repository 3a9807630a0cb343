import json

import pytest

from appliance.venue import messages
from appliance.venue.messages import Message, Refused, Seen, decode


def msg(cabinet: str = "table-1", boot: int = 1, seq: int = 1, kind: str = "health") -> Message:
    return Message(cabinet, boot, seq, kind, "2026-11-25T20:00:00Z", {"version": "0.1.0"})


def test_a_message_round_trips_through_its_topic():
    m = msg(seq=41, kind="audits")
    assert m.topic == "spit/venue/table-1/audits"
    assert m.id == "table-1:1:41"
    assert decode(m.topic, m.encode()) == m


@pytest.mark.parametrize(("topic", "payload", "reason"), [
    ("spit/venue/table-1/health", b"{not json", "malformed"),
    ("spit/venue/table-1/health", b"[1, 2]", "malformed"),
    ("spit/venue/table-1/health", b"x" * (messages.MAX_BYTES + 1), "oversized"),
    ("spit/venue/table-2/health", msg().encode(), "foreign"),  # table-1's message on table-2's topic
    ("spit/venue/table-1/audits", msg().encode(), "foreign"),  # a health message on the audits topic
    ("spit/other/table-1/health", msg().encode(), "foreign"),
    ("spit/venue/Table 1/health", msg().encode(), "foreign"),
])
def test_what_is_not_ours_is_refused_with_a_reason(topic, payload, reason):
    with pytest.raises(Refused) as refused:
        decode(topic, payload)
    assert refused.value.reason == reason


def test_a_message_whose_id_lies_is_refused():
    data = json.loads(msg().encode())
    data["id"] = "table-1:1:99"
    with pytest.raises(Refused, match="id"):
        decode("spit/venue/table-1/health", json.dumps(data).encode())


def test_seen_drops_what_came_before_by_boot_and_sequence_not_by_clock():
    seen = Seen()
    assert [seen.fresh(m) for m in (msg(seq=1), msg(seq=2), msg(seq=2), msg(seq=1), msg(boot=2, seq=1),
                                    msg(seq=9), msg("table-2", seq=1))] == \
        [True, True, False, False, True, False, True]


@pytest.mark.parametrize("name", ["", "Table", "a b", "-x", "x" * 33, "a/b", "+", "#"])
def test_a_cabinet_name_is_a_plain_topic_level(name):
    with pytest.raises(ValueError):
        messages.check_name(name)
