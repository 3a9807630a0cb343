"""The audits: counted from closed journals (games per variant, play time, races and their margins),
lifetime totals beside resettable ones with the date cleared, written atomically, read leniently."""

from __future__ import annotations

from pathlib import Path

from appliance import audits as audit
from appliance.match import Match, open_journal


def played(directory: Path, seed: int, abandon: bool = False, variant: str = "classic") -> Path:
    """A short game journalled in `directory`: both call, a few presses; closed (or abandoned)."""
    journal = open_journal(directory, seed, variant)
    path = Path(journal.path)  # type: ignore[attr-defined]
    match = Match(seed, 0, journal, variant=variant)
    for t, player, control in [(0.5, 1, "spit"), (0.6, 2, "spit"), (1.0, 1, "pile1"), (1.5, 2, "pile2")]:
        match.press(round(t * 1e9), player, control)
    if abandon:
        match.abandon()
    else:
        match.journal.finish(match.game.state())  # type: ignore[union-attr]
    return path


def test_closed_games_are_counted_once_and_the_game_going_on_is_left_for_later(tmp_path: Path) -> None:
    journals = tmp_path / "journals"
    first = played(journals, 1)
    played(journals, 2, abandon=True)
    going_on = open_journal(journals, 3)  # still being played: not counted yet
    a = audit.Audits()
    assert audit.update_from_journals(a, journals) == 2
    assert (a.lifetime.games, a.lifetime.finished, a.lifetime.abandoned) == (2, 1, 1)
    assert a.lifetime.variants == {"classic": 2} and a.since.games == 2
    assert a.lifetime.play_s > 0 and a.lifetime.average_game_s == a.lifetime.play_s / 2
    assert audit.update_from_journals(a, journals) == 0  # nothing new: nothing counted twice
    assert a.through > first.name
    going_on.finish({"phase": "over"})
    assert audit.update_from_journals(a, journals) == 1  # now it has ended


def test_margins_fall_in_buckets() -> None:
    totals = audit.Totals()
    totals.add(audit.GameFigures("classic", 60.0, False, [4.0, 30.0, 400.0]))
    assert (totals.races, totals.margins) == (3, {"<10": 1, "<50": 1, "250+": 1})
    assert totals.average_margin_ms == (4 + 30 + 400) / 3


def test_races_decided_in_a_real_game_are_counted_with_their_margins(tmp_path: Path) -> None:
    """A whole computer-against-computer game (seed 2 has five races), in virtual time."""
    from appliance.match import make_bot
    from appliance.scripting import parse_script, run

    journals = tmp_path / "journals"
    journal = open_journal(journals, 2, bots={1: "5", 2: "5"})
    path = Path(journal.path)  # type: ignore[attr-defined]
    match = Match(2, 0, journal, {1: make_bot("5", 1, 2), 2: make_bot("5", 2, 102)})  # type: ignore[dict-item]
    t = 0
    while not match.finished and t < 600 * 10**9:
        t += 10_000_000
        match.tick(t)
    assert match.finished
    events, _ = run(parse_script(path.read_text().splitlines()))
    margins = [float(e.to_json()["by_ms"]) for e in events if e.to_json().get("reason") == "too_late"]
    assert len(margins) >= 2
    a = audit.Audits()
    assert audit.update_from_journals(a, journals) == 1
    assert a.lifetime.races == a.since.races == len(margins)
    assert a.lifetime.race_margin_ms == round(sum(margins), 3)
    assert sum(a.lifetime.margins.values()) == len(margins)
    assert a.lifetime.play_s == round(match.game.now, 3)


def test_resetting_keeps_the_lifetime_totals_and_notes_the_date(tmp_path: Path) -> None:
    a = audit.Audits()
    a.add(audit.GameFigures("classic", 100.0, False, [12.0]))
    a.reset("2026-11-22")
    assert a.lifetime.games == 1 and a.since.games == 0 and a.cleared == "2026-11-22"
    a.add(audit.GameFigures("mod-spit", 50.0, False, []))
    assert (a.lifetime.games, a.since.games, a.since.variants) == (2, 1, {"mod-spit": 1})


def test_they_are_written_atomically_and_read_back_and_junk_reads_as_empty(tmp_path: Path) -> None:
    path = audit.audits_path(tmp_path / "config.toml")
    assert path == tmp_path / "audits" / "audits.json"
    a = audit.Audits()
    a.add(audit.GameFigures("classic", 100.0, True, [12.0]))
    a.reset("2026-01-02")
    a.add(audit.GameFigures("classic", 10.0, False, []))
    assert audit.save_audits(path, a) is None
    assert audit.load_audits(path) == a
    assert [p.name for p in path.parent.iterdir()] == ["audits.json"]  # no temporary file left
    path.write_text("{not json")
    assert audit.load_audits(path) == audit.Audits()
    path.write_text('{"lifetime": {"games": -3, "variants": {"classic": "many"}}, "cleared": 7}')
    assert audit.load_audits(path) == audit.Audits()


def test_a_journal_that_does_not_replay_is_not_counted(tmp_path: Path) -> None:
    journals = tmp_path / "journals"
    journals.mkdir()
    (journals / "20260101-000000-seed1.jsonl").write_text('{"setup": {"variant": "nope", "seed": 1}}\n{"state": {}}\n')
    a = audit.Audits()
    assert audit.update_from_journals(a, journals) == 0 and a.lifetime.games == 0
    assert a.through == "20260101-000000-seed1.jsonl"


def test_the_start_counts_in_the_background_a_few_journals_at_a_time_and_keeps_a_reset(tmp_path: Path) -> None:
    journals = tmp_path / "journals"
    for seed in range(1, 6):
        played(journals, seed)
    path = audit.audits_path(tmp_path / "config.toml")
    audit.refresh_in_background(path, journals).join(timeout=60)
    kept = audit.load_audits(path)
    assert kept.lifetime.games == kept.since.games == 5
    kept.reset("2026-11-22")
    audit.save_audits(path, kept)
    played(journals, 9)
    assert audit.refresh(path, journals, step=1) == 1  # one journal a step, each on a fresh read of the file
    kept = audit.load_audits(path)
    assert (kept.lifetime.games, kept.since.games, kept.cleared) == (6, 1, "2026-11-22")
    assert audit.refresh(path, journals) == 0


def test_running_spit_sprints_are_kept_in_the_audits(tmp_path: Path) -> None:
    from appliance.audits import Totals, game_figures
    from appliance.match import Match, make_bot, open_journal

    journal = open_journal(tmp_path, 4, "running", None, {1: "5", 2: "5"})
    match = Match(4, 0, journal, {1: make_bot("5", 1, 4), 2: make_bot("5", 2, 5)}, variant="running")
    for frame in range(1, 60 * 90):
        match.tick(frame * 1_000_000_000 // 60)
    match.abandon()
    figures = game_figures(next(tmp_path.glob("*.jsonl")))
    assert figures is not None and figures.variant == "running" and len(figures.sprints_ms) >= 3
    assert all(1000 < sprint < 10_000 for sprint in figures.sprints_ms)  # the bots' 3 m runs
    totals = Totals()
    totals.add(figures)
    assert totals.sprints == len(figures.sprints_ms) and totals.fastest_sprint_ms == min(figures.sprints_ms)
    assert Totals.from_json(totals.to_json()) == totals


def test_coins_are_counted_once_from_the_coin_box_lifetime_beside_resettable(tmp_path: Path) -> None:
    from appliance.credits import CreditBank, credits_path

    bank = CreditBank.load(credits_path(tmp_path / "config.toml"))
    for _ in range(3):
        bank.coin()
    path = audit.audits_path(tmp_path / "config.toml")
    a = audit.load_audits(path)
    assert audit.count_coins(a, bank.box, bank.coins) == 3
    assert audit.count_coins(a, bank.box, bank.coins) == 0  # looked again: nothing new
    assert audit.save_audits(path, a) is None
    a.reset("2026-03-04")
    bank.coin()
    bank.pay(1)  # paying for a game is not a coin
    assert audit.count_coins(a, bank.box, bank.coins) == 1
    assert (a.lifetime.coins, a.since.coins) == (4, 1)
    assert audit.save_audits(path, a) is None and audit.load_audits(path) == a
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
