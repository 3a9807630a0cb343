"""One game across two cabinets: each applies its own presses at once, the other's in edge order.

The game's clock is the leader's (the cabinet that listened): game time t (µs) is `base` plus the
time since the leader's clock read `base_ns`; the other cabinet reads the leader's clock through the
clock sync (clock.py). Every press is stamped at its edge on its own cabinet's clock, mapped onto
the game clock there, applied there at once, and sent (the journals' press line, plus the game's
number: `{"g": 1, "t": 12.345678, "player": 2, "press": "left"}`). The leader's presses fall on even
microseconds, the other's on odd ones, so two cabinets never tie and both order every pair alike.

The promise that makes both tables agree: each cabinet says, in a BEAT every `BEAT_NS`, its
*watermark* W — every press it will ever stamp is at or after W (and every one before has been
sent: the BEAT names its newest message, and W counts only once all up to it have arrived). A
cabinet's game clock never runs more than the rollback horizon H past the other's W. So a press from
the other cabinet, however late it arrives, is never older than H on this one's clock: the match
(appliance/match.py) always rolls back and applies it in its place, and both journals, replayed,
end in the same state, byte for byte. A race whose winner changed is a `Correction` (the screen
shows it, with the margin in ms).

When the clock reaches that bound (the other cabinet has said nothing for about H: a pulled cable,
a crashed peer) the table *pauses*: its clock stands still, local presses are refused with the
notice, and it tells the other, which pauses too. When both are paused and each has everything the
other sent, the leader sends RESUME: the clock goes on from the later of the two frozen times, at a
moment a little ahead on the leader's clock, so both tables start again together. Nothing applied is
lost; a press refused while paused was never applied anywhere.

A power cut: the table that goes on pauses (no word from the other). The cabinet that comes back
finds its unfinished linked journal (`unfinished_linked`), plays it again to where it stopped
(`resume_from`), and pairs again in a new session (peer.py). Each table then says, in a SYNC, the game
it is in and which of the other's presses it has (the other's watermark it had taken, and how many
presses and the newest); each sends again its own presses the other may lack (paced: `RESEND_PER_FRAME`,
and its beat promises nothing past the first not yet sent), and drops the ones it has already (by
their time: each cabinet's presses have times of their own). Every press the other lacks is within
the horizon of its clock, so it is put in its place; the leader resumes both tables as after a pulled
cable, from the later of the two frozen times (and past every time promised before the cut), and both
journals replay to the same final state. If the two are not in the same game (the power cut fell as a
game was dealt), the game is left and the leader deals a new one.

Bad input from the other cabinet — a press for a seat that is not its own (forged), stamped in the
future or before its own watermark (far in the past), off its grid of microseconds, for an unknown
control or game — is refused, counted (`refusals`) and said once on standard error; it was never
applied here, so an honest peer never sends one (its own checks are the same).
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from appliance.journal import Journal, journal_path, read_journal
from appliance.match import Match, Recorder, setup_line
from appliance.rules import CONTROLS, Event, Phase, seats_of
from appliance.rules.events import Play, Reject
from appliance.rules.terms import Reason

from . import wire
from .pairing import unfinished_linked as unfinished_linked  # (kept here too: where app.py and the tests look)
from .peer import Peer

# The rollback horizon: how far one table's clock may run past the other's word. It must cover the
# word's lag (SLACK_US, the one-way delay and jitter) plus a lost press's resend (a round trip or
# two): at 50 ms one-way, 2 % loss, 500 ms paused both tables now and then (bench linked); a longer
# one costs only the checkpoints kept (a few copies of the game) and a pause noticed that much later.
HORIZON_US = 750_000
BEAT_NS = 20_000_000
SLACK_US = 100_000  # a local press reaches the table this long after its frame's time at most (else moved
# up): the merger's window (5 ms) and a pad's link; a loop that stalls after its frame's time costs
# nothing (the watermark is the frame's); it only brings a pause this much sooner
FUTURE_US = 500_000  # a remote press stamped this far past the game's clock (plus the sync's bound) is refused
START_DELAY_NS = 1_000_000_000  # a new game starts this long after the leader deals it
RESUME_DELAY_NS = 300_000_000  # both tables start again this long after the leader says so
MAX_PENDING = 256  # presses of the next game that came before its START
RESEND_PER_FRAME = 64  # presses sent again after a restart, at most this many a frame


class Words(str):
    """A notice, in English, that also keeps its template and fields: the screen says it in the
    players' language (`_(words.template).format(**words.fields)`; the catalogues have every one
    of `NOTICES`)."""

    template: str
    fields: dict[str, Any]

    def __new__(cls, template: str, **fields: Any) -> Words:
        words = super().__new__(cls, template.format(**fields))
        words.template, words.fields = template, fields
        return words


STARTS = "The game starts"
LEFT = "The other table left the game"
RESUMING = "Resuming the game: waiting for the other table"
RESTARTED = "Paused: the other table restarted; catching up"
ANOTHER_GAME = "The other table is in another game: a new one is dealt"
LINK_BACK = "The link is back: play on"
NO_WORD = "Paused: no word from the other table for {s} s (the link is down?)"
WAITING = "Paused: waiting for the other table"
SETTING_CLOCKS = "Setting the clocks"
OTHER_WAITS = "Paused: the other table is waiting for the link"
CLOCK_JUMPED = "Paused: the other cabinet's clock jumped; setting the clocks again"
CORRECTED = "Corrected: player {winner} was first by {ms} ms"
REMATCH_WAIT = "Rematch: waiting for the other table"
REMATCH_WANTED = "The other table wants a rematch"
NOTICES = (STARTS, LEFT, RESUMING, RESTARTED, ANOTHER_GAME, LINK_BACK, NO_WORD, WAITING, SETTING_CLOCKS, OTHER_WAITS,
           CLOCK_JUMPED, CORRECTED, REMATCH_WAIT, REMATCH_WANTED)


@dataclass(frozen=True, slots=True)
class Correction:
    """A race redrawn: a late press from the other table won it. `margin_ms`: by how much."""

    t: float
    winner: int
    loser: int
    margin_ms: float
    card: str

    def words(self) -> Words:
        return Words(CORRECTED, winner=self.winner, ms=f"{self.margin_ms:.0f}")


class LinkedMatch(Match):
    """A Match whose clock is the linked table's: the screen drives it as it drives any match, and
    its presses and ticks go through the table (to the other cabinet and back)."""

    def __init__(self, table: LinkedTable, seed: int, journal: Recorder | None, variant: str,
                 options: Mapping[str, Any]) -> None:
        self.over_confirmed = False
        super().__init__(seed, 0, journal, variant=variant, options=options)
        self.table = table
        self.horizon_s = table.horizon_us / 1e6

    def game_time(self, t_ns: int) -> float:
        return self.table.clock_us(t_ns) / 1e6

    def _happened(self, events: list[Event], round_over: bool = False) -> None:
        """A game over is not final until the other table's word has passed it: a press of theirs
        from before it may still come and change it (a rollback). Until then the journal stays open
        and the match is not `finished` (so that press is put in its place, not refused)."""
        if self.game.phase == Phase.OVER and not self.over_confirmed:
            self.events += events
            return
        super()._happened(events, round_over)

    def confirm_over(self) -> None:
        """The other table's word has passed the game's end: it is over for good (journal closed)."""
        self.over_confirmed = True
        super()._happened([])

    def press(self, t_ns: int, player: int, control: str, source: str = "keyboard") -> list[Event]:
        return self.table.press(t_ns, player, control, source)

    def tick(self, now_ns: int) -> list[Event]:
        return self.table.tick(now_ns)

    def idle_s(self, now_ns: int) -> float:
        """Never left for idleness: the other table may be playing (leaving is a BYE, Escape)."""
        return 0.0

    def hold(self, now_ns: int) -> None:
        """A linked game's clock is both tables': only the link pauses it (a screen's hold is not)."""

    def release(self, now_ns: int) -> None:
        """See `hold`."""


class LinkedTable:
    """This cabinet's side of a linked game: the link, the game clock, the current match."""

    def __init__(self, peer: Peer, seats: list[int], variant: str, options: Mapping[str, Any] | None = None,
                 journal_dir: Path | None = None, horizon_us: int = HORIZON_US,
                 start_delay_ns: int = START_DELAY_NS, seed: Callable[[int], int] | None = None) -> None:
        self.peer = peer
        self.leader = peer.leader
        self.local_seats = frozenset(seats)
        self.variant = variant
        self.options = dict(options or {})
        self.table_seats = seats_of(variant, self.options)
        self.remote_seats = frozenset(range(1, self.table_seats + 1)) - self.local_seats
        self.journal_dir = journal_dir
        self.horizon_us = horizon_us
        self.start_delay_ns = start_delay_ns
        self.seed = seed or (lambda game: int.from_bytes(os.urandom(6), "big"))  # the leader deals
        self.parity = 0 if self.leader else 1
        self.state = "connecting"  # syncing, starting, playing, paused, resuming, over, refused: ..., closed: ...
        self.notice = ""  # what the screen says while not playing ("" while playing)
        self.match: LinkedMatch | None = None
        self.game_no = 0
        self.corrections: list[Correction] = []
        self.refusals: Counter[str] = Counter()
        self.refused_local = 0  # local presses refused while paused or starting
        self.late_local = 0  # local presses moved up to the watermark already promised
        self.pauses = 0
        self.after_game_over = 0  # the other's presses made before its table knew the game was over
        self.pause_log: list[dict[str, Any]] = []  # each pause: when, why, the other's word then
        self._pending: list[dict[str, Any]] = []
        self.said: dict[str, str] = {}  # the first refusal of each kind, in words
        self._next_beat = 0
        self._reset_clock(0, 0)
        self.peer_synced = False
        self.peer_paused = False
        self.peer_frozen_us: int | None = None
        self._peer_beat = -1
        self._beats = 0
        self._taken_upto = 1  # the other's reliable messages handled here, all up to this (1: its hello)
        self._taken_seqs: set[int] = set()
        self._peer_session: int | None = None  # the other's session whose hello was taken
        self.own_presses: list[tuple[int, int, str]] = []  # this table's presses in this game: (t µs, seat, control)
        self.remote_seen: dict[int, tuple[int, str]] = {}  # the other's presses applied in this game, by time
        self._resend: list[tuple[int, int, str, bool]] = []  # presses to send again after a restart (True: its own)
        self.resumed_from: Path | None = None  # the journal this cabinet came back with (a power cut)
        self.repairs = 0  # pairings again after a restart (of either cabinet)
        self._sync_sent = False  # this table's SYNC in the other's current session
        self._sync_due = False  # the other's SYNC not yet here: this table's beats promise nothing new
        self._held: list[wire.Datagram] = []  # the other's presses that came before its SYNC (see _message)
        self.rematch_wanted: int | None = None  # the game over after which this table wants the same again
        self.peer_rematch: int | None = None  # ... and the other table

    @property
    def problem(self) -> str:
        """What keeps the link from pairing, for the wait screen ("" if nothing: peer.py's `problem`)."""
        return self.peer.problem

    # ------------------------------------------------------------------ the game clock

    def _reset_clock(self, base_us: int, base_ns: int) -> None:
        self.base_us = base_us  # game time at ...
        self.base_ns = base_ns  # ... this moment of the leader's clock
        self.remote_w_us = base_us  # the other table's watermark (its presses are all at or after it)
        self.frozen_us: int | None = None  # the clock while paused
        self.floor_us = base_us  # the clock never goes back
        self.w_sent_us = base_us  # this table's watermark as last said
        self.last_local_us = base_us - 2  # this table's last press
        self.resumes = 0

    def leader_ns(self, local_ns: int) -> int:
        return local_ns if self.leader else self.peer.sync.to_peer(local_ns)

    def raw_us(self, local_ns: int) -> int:
        """The game clock at `local_ns` if nothing held it back."""
        return self.base_us + (self.leader_ns(local_ns) - self.base_ns) // 1000

    @property
    def cap_us(self) -> int:
        return self.remote_w_us + self.horizon_us

    def clock_us(self, local_ns: int) -> int:
        """The game clock (µs): stands still while paused, never past the other table's word plus the
        horizon, never backwards."""
        if self.frozen_us is not None:
            return self.frozen_us
        if self.state not in ("playing", "paused"):
            return self.floor_us
        return max(self.floor_us, min(self.raw_us(local_ns), self.cap_us))

    def _grid(self, t_us: int) -> int:
        """The first microsecond of this cabinet's grid at or after `t_us`."""
        return t_us + ((self.parity - t_us) % 2)

    # ------------------------------------------------------------------ this table's presses

    def press(self, t_ns: int, player: int, control: str, source: str = "keyboard") -> list[Event]:
        """A press at this cabinet (its edge `t_ns`, this cabinet's clock): applied here and sent."""
        match = self.match
        if match is None or match.finished or control not in CONTROLS or player not in self.local_seats:
            return []
        if self.state != "playing":
            self.refused_local += 1
            return []
        t_us = self.raw_us(t_ns)  # (before the game's clock: the match rolls back)
        if t_us > self.cap_us:  # the other table's word is too far behind: the table pauses now
            self._pause(max(t_ns, self.peer.clock()), self._silence_words(max(t_ns, self.peer.clock())))
            self.refused_local += 1
            return []
        if t_us < self.w_sent_us:
            self.late_local += 1
            t_us = self.w_sent_us
        # Strictly after this table's last press: the other applies presses at equal times in the
        # order they arrive, and datagrams overtake each other.
        t_us = self._grid(max(t_us, self.last_local_us + 1))
        try:
            self.peer.send(wire.PRESS, {"g": self.game_no, "t": t_us / 1e6, "player": player, "press": control})
        except OverflowError:
            self.refused_local += 1
            return []
        self.last_local_us = t_us
        self.own_presses.append((t_us, player, control))
        return self._apply(t_us, player, control, source)

    def _apply(self, t_us: int, player: int, control: str, source: str) -> list[Event]:
        match = self.match
        assert match is not None
        old, corrections = match.events, match.corrections
        events = match.apply(t_us / 1e6, player, control, source)
        if match.corrections > corrections:
            self._corrected(old, match.events, match.rewritten_from[-1])
        return events

    def _corrected(self, old: list[Event], new: list[Event], first: int) -> None:
        """A rollback rewrote the events from `first`: a race whose winner changed is a correction."""
        before = next((e for e in old[first:] if isinstance(e, Play)), None)
        after = next((e for e in new[first:] if isinstance(e, Play)), None)
        if before is None or after is None or before.player == after.player:
            return
        by = next((e.by_ms for e in new[first:] if isinstance(e, Reject) and e.reason == Reason.TOO_LATE
                   and e.player == before.player and e.by_ms is not None), None)
        margin = by if by is not None else abs(before.t - after.t) * 1000
        self.corrections.append(Correction(after.t, after.player, before.player, round(margin, 3), str(after.card)))

    # ------------------------------------------------------------------ the other table's messages

    def _refuse(self, kind: str, words: str) -> None:
        self.refusals[kind] += 1
        if kind not in self.said:
            self.said[kind] = words
            print(f"spit-arcade: linked game: {words}: refused (more are counted, not said)", file=sys.stderr)

    def _remote_press(self, body: dict[str, Any], now_ns: int) -> None:
        g, t, player, control = body.get("g"), body.get("t"), body.get("player"), body.get("press")
        if not isinstance(g, int) or isinstance(g, bool):
            self._refuse("malformed", "a press with no game number")
            return
        if g > self.game_no:
            if len(self._pending) < MAX_PENDING:
                self._pending.append(body)
            else:
                self._refuse("flood", "presses for a game not started")
            return
        if g == self.game_no - 1:  # made before the game's last press reached its table: it changes nothing
            self.after_game_over += 1
            return
        if g < self.game_no or self.match is None:
            self._refuse("stale", f"a press for game {g}, which is over")
            return
        if body.get("yours") is True and isinstance(player, int) and player in self.local_seats:
            if control in CONTROLS and isinstance(t, int | float) and not isinstance(t, bool):
                self._own_back(round(t * 1e6), player, str(control))
            else:
                self._refuse("malformed", "a press of this cabinet's sent back without its time or control")
            return
        if not isinstance(player, int) or player not in self.remote_seats:
            why = "this cabinet's" if player in self.local_seats else "no seat at this table"
            self._refuse("forged", f"the other cabinet sent a press for seat {player!r}, {why}")
            return
        if control not in CONTROLS:
            self._refuse("control", f"the other cabinet sent an unknown control {control!r}")
            return
        if not isinstance(t, int | float) or isinstance(t, bool):
            self._refuse("malformed", "a press with no time")
            return
        t_us = round(t * 1e6)
        if t_us % 2 != 1 - self.parity:
            self._refuse("grid", f"a press at {t} s, off the other cabinet's grid of microseconds")
            return
        if t_us in self.remote_seen:  # sent again after a restart, and here already
            return
        if t_us < self.remote_w_us:
            self._refuse("past", f"a press stamped at {t_us} µs, {(self.remote_w_us - t_us) / 1000:.1f} ms before "
                         "the other cabinet's own watermark (far in the past)")
            return
        now_ns = max(now_ns, self.peer.clock())  # (the frame's time may be stale: a loop that stalled)
        synced = self.leader or self.peer.sync.synced
        bound_us = self.peer.sync.error_bound_ns(now_ns) // 1000 if not self.leader and synced else 0
        ahead = max(self.raw_us(now_ns) if synced else 0, self.frozen_us or 0, self.peer_frozen_us or 0)
        if self.state in ("playing", "paused") and t_us > ahead + FUTURE_US + bound_us:
            self._refuse("future", f"a press stamped {(t_us - ahead) / 1000:.0f} ms in the future")
            return
        self.remote_seen[t_us] = (player, str(control))
        self._apply(t_us, player, str(control), "link")

    def _own_back(self, t_us: int, player: int, control: str) -> None:
        """A press of this cabinet's the other sends back after a restart: sent before the power cut
        but not in this journal (the cut fell between the two). Applied in its place once."""
        if t_us % 2 != self.parity:
            self._refuse("grid", f"a press of this cabinet's at {t_us} µs, off its grid")
            return
        if any(t == t_us for t, _, _ in self.own_presses):
            return
        self.own_presses.append((t_us, player, control))
        self.own_presses.sort()
        self.last_local_us = max(self.last_local_us, t_us)
        if self.frozen_us is not None:
            self.frozen_us = max(self.frozen_us, t_us)
        self._apply(t_us, player, control, "link")

    def _beat(self, body: dict[str, Any], session: int) -> None:
        if session != self._peer_session:
            return  # the other's earlier session (it restarted): its numbers are not this one's
        n, g, w, last = body.get("n"), body.get("g"), body.get("w"), body.get("s")
        if not all(isinstance(v, int) for v in (n, g, w, last)):
            self._refuse("malformed", "a beat without its numbers")
            return
        assert isinstance(n, int) and isinstance(w, int) and isinstance(last, int)
        if n <= self._peer_beat:
            return  # an older beat, overtaken
        self._peer_beat = n
        self.peer_synced = bool(body.get("synced"))
        if g != self.game_no:
            return
        if body.get("r") == self.resumes:
            self.peer_paused = bool(body.get("paused"))
            frozen = body.get("frozen")
            self.peer_frozen_us = frozen if isinstance(frozen, int) else None
        if last <= self._taken_upto:  # every message it had sent by then has been applied here
            self.remote_w_us = max(self.remote_w_us, w)

    def _start(self, g: int, seed: int, at_ns: int) -> None:
        if self.match is not None and not self.match.finished:
            self.match.abandon()
        self.game_no = g
        journal: Recorder | None = None
        if self.journal_dir is not None:
            setup = {**setup_line(seed, self.variant, self.options),
                     "linked": {"g": g, "seats": sorted(self.local_seats), "leader": self.leader}}
            journal = Journal(journal_path(self.journal_dir, seed), setup)
        self.match = LinkedMatch(self, seed, journal, self.variant, self.options)
        self.own_presses, self.remote_seen, self._resend = [], {}, []
        self._reset_clock(0, at_ns)
        self.peer_paused, self.peer_frozen_us = False, None
        self.state, self.notice = "starting", Words(STARTS)
        pending, self._pending = self._pending, []
        for body in pending:
            self._remote_press(body, at_ns)

    def start_game(self, now_ns: int) -> int:
        """(The leader.) Deal a new game; both tables start it `start_delay_ns` from now."""
        g, seed, at_ns = self.game_no + 1, self.seed(self.game_no + 1), now_ns + self.start_delay_ns
        self.peer.send(wire.START, {"g": g, "seed": seed, "at_ns": at_ns})
        self._start(g, seed, at_ns)
        return g

    def _taken(self, seq: int) -> None:
        """A reliable message of the other cabinet's has been handled here (not just received: a beat
        that counts on it may be read before it in the same batch)."""
        self._taken_seqs.add(seq)
        while self._taken_upto + 1 in self._taken_seqs:
            self._taken_upto += 1
            self._taken_seqs.discard(self._taken_upto)

    def _message(self, datagram: wire.Datagram, now_ns: int) -> None:
        body = datagram.body
        if datagram.kind == wire.HELLO:
            self._hello(datagram.session, now_ns)
        if datagram.kind == wire.PRESS and self._sync_due and not (self.leader or self.peer.sync.synced):
            # After a restart, before the other's SYNC and the clock sync, nothing here says where the
            # other's clock stands: its presses (sent again, they may overtake its SYNC on the way) are
            # judged once the SYNC has come, and count as taken only then (its beats' word waits too).
            if len(self._held) < MAX_PENDING:
                self._held.append(datagram)
            else:
                self._refuse("flood", "presses before the other cabinet's sync")
            return
        if datagram.seq and datagram.session == self._peer_session:
            self._taken(datagram.seq)
        if datagram.kind == wire.PRESS:
            self._remote_press(body, now_ns)
        elif datagram.kind == wire.BEAT:
            self._beat(body, datagram.session)
        elif datagram.kind == wire.SYNC:
            self._sync(body, now_ns)
        elif datagram.kind == wire.REMATCH:
            g = body.get("g")
            if isinstance(g, int) and not isinstance(g, bool) and g == self.game_no:
                self.peer_rematch = g
                if self.state == "over" and self.rematch_wanted != g:
                    self.notice = Words(REMATCH_WANTED)
        elif datagram.kind == wire.START and not self.leader:
            g, seed, at_ns = body.get("g"), body.get("seed"), body.get("at_ns")
            if isinstance(g, int) and isinstance(seed, int) and isinstance(at_ns, int) and g > self.game_no:
                self._start(g, seed, at_ns)
        elif datagram.kind == wire.RESUME and not self.leader:
            g, r, from_us, at_ns = body.get("g"), body.get("r"), body.get("from_us"), body.get("at_ns")
            if (g == self.game_no and isinstance(r, int) and r > self.resumes and isinstance(from_us, int)
                    and isinstance(at_ns, int)):
                self._resume(r, from_us, at_ns)
        elif datagram.kind == wire.BYE:
            self.state, self.notice = "closed: the other cabinet left", Words(LEFT)
            if self.match is not None and not self.match.finished:
                self.match.abandon()

    # ------------------------------------------------------------------ a restart (a power cut)

    def resume_from(self, path: Path) -> None:
        """(Before the first frame.) The linked game `path` was cut off in: played again to where it
        stopped, its journal going on in the same file, the table paused until the other's SYNC and
        the leader's RESUME. ValueError if it cannot be (not a linked game of these seats, unreadable)."""
        from appliance.scripting import ScriptError, parse_script

        lines, _ = read_journal(path)
        try:
            script = parse_script(lines)
        except ScriptError as error:
            raise ValueError(f"{path.name}: {error}") from None
        linked = script.setup.get("linked")
        if script.final_state is not None or not isinstance(linked, dict) or not isinstance(linked.get("g"), int):
            raise ValueError(f"{path.name} is not an unfinished linked game")
        if sorted(self.local_seats) != linked.get("seats") or script.setup.get("variant", "classic") != self.variant:
            raise ValueError(f"{path.name} was played at other seats or another variant")
        match = LinkedMatch(self, int(script.setup.get("seed", 0)), None, self.variant, self.options)
        own: list[tuple[int, int, str]] = []
        seen: dict[int, tuple[int, str]] = {}
        for press in script.ordered():
            if press.press is None:
                match.advance(press.t)
                continue
            match.apply(press.t, press.player, press.press, "journal")
            t_us = round(press.t * 1e6)
            if press.player in self.local_seats:
                own.append((t_us, press.player, press.press))
            else:
                seen[t_us] = (press.player, press.press)
        match.journal = Journal.reopen(path)
        self.game_no, self.match, self.resumed_from = int(linked["g"]), match, path
        frozen = max([round(match.game.now * 1e6), *(t for t, _, _ in own), *seen])
        self._reset_clock(frozen, 0)
        self.remote_w_us = 0  # the other's word is not known yet: its presses before this may be missing here
        self.own_presses, self.remote_seen = own, seen
        self.last_local_us = max((t for t, _, _ in own), default=frozen - 2)
        self.frozen_us = frozen
        self.state, self.notice = "paused", Words(RESUMING)
        print(f"spit-arcade: linked game {self.game_no} resumed from {path.name} at press {match.presses}",
              file=sys.stderr)

    def _hello(self, session: int, now_ns: int) -> None:
        """The other's hello: the first pairing, or again after a restart (its, or this cabinet's)."""
        again = self._peer_session is not None
        self._peer_session = session
        self._taken_upto, self._taken_seqs = 1, set()
        self._peer_beat = -1
        self.peer_synced, self.peer_paused, self.peer_frozen_us = False, False, None
        self._sync_sent = False
        self._held = []  # (the other's earlier session: what this one lacks, it sends again)
        if not again and self.resumed_from is None:
            return
        self.repairs += 1
        if self.state == "playing":
            self._pause(now_ns, Words(RESTARTED))
        self._send_sync()

    def _send_sync(self) -> None:
        """The game this table is in, and which of the other's presses it has: all before the other's
        watermark taken here, and `have_n` from there up to `have_last`."""
        self._sync_sent, self._sync_due = True, True
        theirs = [t for t in self.remote_seen if t >= self.remote_w_us]
        mine = max((t for t, _, _ in self.own_presses), default=None)
        latest = max([self.frozen_us or 0, *theirs, mine or 0])  # the game goes on from past all it has
        if self.frozen_us is not None:
            self.frozen_us = latest
        self.peer.send(wire.SYNC, {"g": self.game_no, "seed": self.match.seed if self.match is not None else None,
                                   "frozen": latest, "r": self.resumes, "your_w": self.remote_w_us,
                                   "have_n": len(theirs), "have_last": max(theirs, default=None), "mine_last": mine})

    def _sync(self, body: dict[str, Any], now_ns: int) -> None:
        """The other's SYNC: the same game goes on (send it what it lacks), or it is left for a new one."""
        g, seed, r, your_w = body.get("g"), body.get("seed"), body.get("r"), body.get("your_w")
        if not isinstance(g, int) or not isinstance(r, int) or not isinstance(your_w, int):
            self._refuse("malformed", "a sync without its numbers")
            return
        if not self._sync_sent:  # (this table came back with no game: it answers all the same)
            self._send_sync()
        self._sync_due = False
        held, self._held = self._held, []
        match = self.match
        if match is None or match.finished or g != self.game_no or seed != match.seed:
            self.game_no = max(self.game_no, g)  # not the same game: the leader deals a new one
            if match is not None and not match.finished:
                match.abandon()
            self.match = None
            self.state, self.notice = "syncing", Words(ANOTHER_GAME)
            return
        self.resumes = max(self.resumes, r)
        frozen = body.get("frozen")
        if isinstance(frozen, int):
            self.peer_frozen_us = frozen
        # Every press of this table's the other promised to have been told of, it was: this one's
        # presses from now on are at or after it, and the game goes on from past it.
        self.w_sent_us = max(self.w_sent_us, your_w)
        if self.frozen_us is not None:
            self.frozen_us = max(self.frozen_us, your_w)
        floor = your_w
        have_n, have_last = body.get("have_n"), body.get("have_last")
        if isinstance(have_n, int) and isinstance(have_last, int):
            had = [t for t, _, _ in self.own_presses if your_w <= t <= have_last]
            if len(had) == have_n:  # it has every one of them up to its newest
                floor = max(floor, have_last + 1)
        again = [(t, player, control, False) for t, player, control in self.own_presses if t >= floor]
        # and its own presses it sent here before the cut that its journal lacks (newer than its newest)
        mine_last = body.get("mine_last")
        back = [(t, player, control, True) for t, (player, control) in self.remote_seen.items()
                if not isinstance(mine_last, int) or t > mine_last]
        self._resend = sorted({*self._resend, *again, *back})
        for datagram in held:  # judged now (not the same game, above: they were for the game left)
            self._message(datagram, now_ns)

    def _send_again(self) -> None:
        """This frame's share of the presses the other may lack (the link holds MAX_WINDOW unacknowledged)."""
        sent = 0
        while self._resend and sent < RESEND_PER_FRAME and self.peer.link.can_send():
            t_us, player, control, yours = self._resend[0]
            body = {"g": self.game_no, "t": t_us / 1e6, "player": player, "press": control}
            try:
                self.peer.send(wire.PRESS, {**body, "yours": True} if yours else body)
            except OverflowError:
                return
            self._resend.pop(0)
            sent += 1

    # ------------------------------------------------------------------ a rematch

    def want_rematch(self, now_ns: int) -> None:
        """This table's players want the same game again (the game-over screen's SPIT!): said to the
        other; once both want it, the leader deals (both tables start the new game together)."""
        if self.state != "over" or self.rematch_wanted == self.game_no:
            return
        self.rematch_wanted = self.game_no
        self.notice = Words(REMATCH_WAIT)
        self.peer.send(wire.REMATCH, {"g": self.game_no})

    # ------------------------------------------------------------------ pause and resume

    def _pause(self, now_ns: int, why: str) -> None:
        self.pause_log.append({"game": self.game_no, "at_us": self.clock_us(now_ns), "raw_us": self.raw_us(now_ns),
                               "their_watermark_us": self.remote_w_us, "why": why})
        self.frozen_us = self.clock_us(now_ns)
        self.state, self.notice = "paused", why
        self.pauses += 1

    def _resume(self, r: int, from_us: int, at_ns: int) -> None:
        self.resumes = r
        self.base_us, self.base_ns = from_us, at_ns
        self.floor_us = max(self.floor_us, from_us)
        self.frozen_us = None
        self.peer_paused, self.peer_frozen_us = False, None
        self.state, self.notice = "resuming", Words(LINK_BACK)

    def _silence_words(self, now_ns: int) -> str:
        heard = self.peer.last_heard_ns
        quiet = (now_ns - heard) / 1e9 if heard is not None else None
        if quiet is not None and quiet >= 0.3:
            return Words(NO_WORD, s=f"{quiet:.1f}")
        return Words(WAITING)

    # ------------------------------------------------------------------ every frame

    def tick(self, now_ns: int) -> list[Event]:
        """The link's work for this frame: messages in, the clock, pause and resume, the beat out.
        `now_ns` is the frame's time: the local presses with their edges before it have been pressed."""
        peer = self.peer
        frame_ns = now_ns  # every local press with its edge before this has been delivered (the caller's word)
        now_ns = max(now_ns, peer.clock())  # the frame's time, or later if the frame began a while ago
        peer.tick(now_ns)
        for datagram in sorted(peer.messages(), key=lambda d: d.kind == wire.BEAT):  # beats last
            self._message(datagram, now_ns)
        if peer.state.startswith(("refused", "closed")):
            if not self.state.startswith(("refused", "closed")):
                self.state, self.notice = peer.state, peer.state.capitalize()
            return []
        if self.state.startswith("closed"):
            return []
        if self.state == "connecting" and peer.up:
            self.state, self.notice = "syncing", Words(SETTING_CLOCKS)
        synced = self.leader or peer.sync.synced
        if self.leader and self.match is None and peer.up and self.peer_synced:
            self.start_game(now_ns)
        events: list[Event] = []
        if self.state in ("starting", "resuming") and self.leader_ns(now_ns) >= self.base_ns:
            self.state, self.notice = "playing", ""
        if self.state == "playing":
            if self.raw_us(now_ns) > self.cap_us:
                self._pause(now_ns, self._silence_words(now_ns))
            elif self.peer_paused:
                self._pause(now_ns, Words(OTHER_WAITS))
            elif not synced:
                self._pause(now_ns, Words(CLOCK_JUMPED))
        if self.state == "paused":
            if not synced:  # this cabinet's clock jumped: its sync starts again (and the silence it
                self.notice = Words(CLOCK_JUMPED)  # measured on that clock was the jump, not the link)
            elif "no word" in self.notice or "waiting" in self.notice:
                self.notice = self._silence_words(now_ns)
            if self.leader and self.peer_paused and self.peer_frozen_us is not None and self.peer_synced:
                heard = peer.last_heard_ns
                if heard is not None and now_ns - heard < 200_000_000 and self.remote_w_us >= self.peer_frozen_us:
                    assert self.frozen_us is not None
                    from_us = max(self.frozen_us, self.peer_frozen_us)
                    rtt = peer.sync.delay_ns or 0
                    at_ns = now_ns + max(RESUME_DELAY_NS, 3 * rtt)
                    peer.send(wire.RESUME, {"g": self.game_no, "r": self.resumes + 1, "from_us": from_us,
                                            "at_ns": at_ns})
                    self._resume(self.resumes + 1, from_us, at_ns)
        match = self.match
        clock = self.clock_us(now_ns)
        self.floor_us = clock
        if match is not None and self.state == "playing" and not match.finished:
            events = match.advance(clock / 1e6)
            match._journal_tick()
        if (match is not None and not match.finished and match.game.phase == Phase.OVER
                and self.remote_w_us >= round(match.game.now * 1e6)):
            match.confirm_over()
        if match is not None and match.finished and self.state != "over":
            self.state, self.notice = "over", Words(REMATCH_WANTED) if self.peer_rematch == self.game_no else ""
        if (self.leader and self.state == "over" and self.rematch_wanted == self.peer_rematch == self.game_no
                and peer.up):
            self.start_game(now_ns)  # a rematch both tables want
        if self._resend and peer.up:
            self._send_again()
        if now_ns >= self._next_beat:
            self._next_beat = now_ns + BEAT_NS
            self._send_beat(frame_ns, synced)
        return events

    def watermark_us(self, now_ns: int) -> int:
        """Every press this table will still stamp is at or after this. `now_ns` is the frame's time,
        not the clock now: the local presses are delivered up to the frame's time, so a loop that
        stalls after it (a rollback, a busy machine) must not promise past presses it has not yet
        been given (they would be moved up to the promise: out of edge order)."""
        if self.frozen_us is not None or self.state != "playing":
            return self.clock_us(now_ns)
        return max(self.w_sent_us, min(self.raw_us(now_ns) - SLACK_US, self.cap_us))

    def _send_beat(self, now_ns: int, synced: bool) -> None:
        w = self.watermark_us(now_ns)
        self.w_sent_us = max(self.w_sent_us, w)
        self._beats += 1
        said = min(self.w_sent_us, self._resend[0][0]) if self._resend else self.w_sent_us  # (not past one unsent)
        if self._sync_due:
            said = 0  # which presses the other lacks is not known yet (the other keeps the most it was told)
        self.peer.send(wire.BEAT, {"n": self._beats, "g": self.game_no, "w": said,
                                   "s": self.peer.link.last_sent, "paused": self.state == "paused",
                                   "frozen": self.frozen_us, "r": self.resumes, "synced": synced})

    def close(self, linger: float = 0.0) -> None:
        """Leave: the game abandoned, the other told (`linger`: see Peer.close; never on the frame loop)."""
        if self.match is not None and not self.match.finished:
            self.match.abandon()
        self.peer.close(linger=linger)
