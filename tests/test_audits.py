"""The audits: counted from closed journals (games per variant, play time, races and their margins),
lifetime totals beside resettable ones with the date cleared, written atomically, read leniently."""

from __future__ import annotations

import json
from pathlib import Path

from appliance import audits as audit
from appliance.match import Match, make_bot, open_journal
from appliance.operator import books
from appliance.operator.office import Office, game_row


def test_margins_fall_in_buckets() -> None:
    totals = audit.Totals()
    totals.add(audit.GameFigures("classic", 60.0, False, [4.0, 30.0, 400.0]))
    assert (totals.races, totals.margins) == (3, {"<10": 1, "<50": 1, "250+": 1})
    assert totals.average_margin_ms == (4 + 30 + 400) / 3


def test_resetting_keeps_the_lifetime_totals_and_notes_the_date(tmp_path: Path) -> None:
    a = audit.Audits()
    a.add(audit.GameFigures("classic", 100.0, False, [12.0]))
    a.reset("2026-11-22")
    assert a.lifetime.games == 1 and a.since.games == 0 and a.cleared == "2026-11-22"
    a.add(audit.GameFigures("mod-spit", 50.0, False, []))
    assert (a.lifetime.games, a.since.games, a.since.variants) == (2, 1, {"mod-spit": 1})


def test_the_release_befores_file_is_read_back_and_junk_reads_as_empty(tmp_path: Path) -> None:
    path = audit.audits_path(tmp_path / "config.toml")
    assert path == tmp_path / "audits" / "audits.json"
    a = audit.Audits()
    a.add(audit.GameFigures("classic", 100.0, True, [12.0]))
    a.reset("2026-01-02")
    a.add(audit.GameFigures("classic", 10.0, False, []))
    path.parent.mkdir()
    path.write_text(json.dumps(a.to_json()))  # as the release before wrote it
    assert audit.load_audits(path) == a
    path.write_text("{not json")
    assert audit.load_audits(path) == audit.Audits()
    path.write_text('{"lifetime": {"games": -3, "variants": {"classic": "many"}}, "cleared": 7}')
    assert audit.load_audits(path) == audit.Audits()


def test_coins_are_counted_once_from_the_coin_box_lifetime_beside_resettable(tmp_path: Path) -> None:
    from appliance.credits import CreditBank, credits_path

    bank = CreditBank.load(credits_path(tmp_path / "config.toml"))
    for _ in range(3):
        bank.coin()
    path = audit.audits_path(tmp_path / "config.toml")
    a = audit.load_audits(path)
    assert audit.count_coins(a, bank.box, bank.coins) == 3
    assert audit.count_coins(a, bank.box, bank.coins) == 0  # looked again: nothing new
    a.reset("2026-03-04")
    bank.coin()
    bank.pay(1)  # paying for a game is not a coin
    assert audit.count_coins(a, bank.box, bank.coins) == 1
    assert (a.lifetime.coins, a.since.coins) == (4, 1)
    assert audit.Audits.from_json(json.loads(json.dumps(a.to_json()))) == a
    # a new box (its file lost, or read as junk) is counted from its first coin, not from the old count
    fresh = CreditBank.load(None)
    fresh.coin()
    assert audit.count_coins(a, fresh.box, fresh.coins) == 1 and a.lifetime.coins == 5
    assert (a.coin_box, a.coins_through) == (fresh.box, 1)


def test_audits_from_before_the_coin_input_read_as_no_coins(tmp_path: Path) -> None:
    path = audit.audits_path(tmp_path / "config.toml")
    path.parent.mkdir()
    path.write_text('{"lifetime": {"games": 2}, "since": {"games": 1}, "cleared": null, "through": "x"}')
    a = audit.load_audits(path)
    assert (a.lifetime.games, a.lifetime.coins, a.coin_box, a.coins_through) == (2, 0, "", 0)
    path.write_text('{"lifetime": {"coins": -1}, "coins_through": true, "coin_box": 5}')
    assert audit.load_audits(path) == audit.Audits()


def test_races_decided_in_a_real_game_are_counted_with_their_margins_as_it_ends(tmp_path: Path) -> None:
    """A whole computer-against-computer game (seed 2 has five races), in virtual time: the row the
    operator layer writes as it ends has the races its journal replays to."""
    from appliance.scripting import parse_script, run

    office = Office.open(tmp_path / "config.toml")
    journal = open_journal(tmp_path / "journals", 2, bots={1: "5", 2: "5"})
    path = Path(journal.path)  # type: ignore[attr-defined]
    match = Match(2, 0, journal, {1: make_bot("5", 1, 2), 2: make_bot("5", 2, 102)})  # type: ignore[dict-item]
    match.ended = office.game_over
    t = 0
    while not match.finished and t < 600 * 10**9:
        t += 10_000_000
        match.tick(t)
    assert match.finished and office.drain(10)
    events, _ = run(parse_script(path.read_text().splitlines()))
    margins = [float(e.to_json()["by_ms"]) for e in events if e.to_json().get("reason") == "too_late"]
    assert len(margins) >= 2
    totals = books.totals(office.store)
    assert (totals.games, totals.finished, totals.races) == (1, 1, len(margins))
    assert totals.race_margin_ms == round(sum(margins), 3) and sum(totals.margins.values()) == len(margins)
    assert totals.play_s == round(match.game.now, 3)
    assert office.store.rows("SELECT winner FROM games") == [(match.spit.winner,)]
    office.close()


def test_running_spit_sprints_are_kept_in_the_audits() -> None:
    match = Match(4, 0, None, {1: make_bot("5", 1, 4), 2: make_bot("5", 2, 5)}, variant="running")
    for frame in range(1, 60 * 90):
        match.tick(frame * 1_000_000_000 // 60)
    row = game_row(match, abandoned=True)
    assert row.variant == "running" and row.abandoned and row.winner is None and len(row.sprints_ms) >= 3
    assert all(1000 < sprint < 10_000 for sprint in row.sprints_ms)  # the bots' 3 m runs
    totals = audit.Totals()
    totals.add(audit.GameFigures(row.variant, row.length_s, row.abandoned, list(row.margins_ms), list(row.sprints_ms)))
    assert totals.sprints == len(row.sprints_ms) and totals.fastest_sprint_ms == min(row.sprints_ms)
    assert audit.Totals.from_json(totals.to_json()) == totals
