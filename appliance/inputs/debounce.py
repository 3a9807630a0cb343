"""Debouncing on edge times: a leading-edge lockout per control, and stuck controls.

The first edge after a quiet spell is taken at once, at its own edge time (so bounce never delays a
slap); every edge within `lockout_ns` of an accepted one is bounce and swallowed. If the contact has
settled the other way when the lockout ends (a release that bounced, or a genuine quick second tap),
the settled level is reported then, stamped with the edge that set it: `tick(now)` does that, and so
does the next edge of the same control.

A control held down longer than `stuck_ns` is flagged stuck (a jammed microswitch, a pint glass on a
pad): its edges are ignored until it is released, and the game goes on.

The coin input (`COIN`) takes its press the same way, with a longer lockout, but its release only
once the contact has stayed open for the lockout (`settle_release`): a coin mech's pulse (20 to 150
ms) is one press however its contact chatters, and a coin switch held down or stuck, that opens for
a moment now and then (a jammed coin rattling on the lever), stays one press: a blip open is not a
release, so the close after it is not another coin. Two real coins are never that close.

The debouncer reads no clock: every call brings its time. It is not thread-safe; each source drives its
own from one thread.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

MICROSWITCH_LOCKOUT_NS = 10_000_000
PAD_LOCKOUT_NS = 30_000_000
COIN_LOCKOUT_NS = 50_000_000
STUCK_NS = 5_000_000_000


@dataclass(frozen=True)
class Timing:
    lockout_ns: int = MICROSWITCH_LOCKOUT_NS
    stuck_ns: int = STUCK_NS
    settle_release: bool = False  # a release counts once open for `lockout_ns` (then stamped at its edge)


@dataclass
class _Contact:
    timing: Timing
    reported: bool = False  # the debounced level, as last reported
    raw: bool = False  # the level of the latest edge seen
    raw_t: int = 0
    locked_until: int = -(2**63)
    down_since: int = 0
    stuck: bool = False
    bounces: int = 0
    presses: int = 0


BUTTON = Timing()
PAD = Timing(lockout_ns=PAD_LOCKOUT_NS)
COIN = Timing(lockout_ns=COIN_LOCKOUT_NS, settle_release=True)

Key = tuple[int, str]  # (player, control)
Edge = tuple[Key, bool, int]  # (control, down, t_ns)


class Debouncer:
    def __init__(self, timings: dict[Key, Timing]) -> None:
        self._contacts = {key: _Contact(timing) for key, timing in timings.items()}

    def keys(self) -> Iterable[Key]:
        return self._contacts.keys()

    def _accept(self, key: Key, contact: _Contact, down: bool, t_ns: int) -> Edge:
        contact.reported = down
        contact.locked_until = t_ns + contact.timing.lockout_ns
        if down:
            contact.down_since = t_ns
            contact.presses += 1
        return (key, down, t_ns)

    def _catch_up(self, key: Key, contact: _Contact, now_ns: int) -> list[Edge]:
        if contact.timing.settle_release and contact.reported and not contact.raw:
            return self._settle(key, contact, now_ns)
        if contact.stuck or contact.raw == contact.reported or now_ns < contact.locked_until:
            return []
        return [self._accept(key, contact, contact.raw, contact.raw_t)]

    def _settle(self, key: Key, contact: _Contact, now_ns: int) -> list[Edge]:
        """A `settle_release` contact that opened: released once it has stayed open for the lockout
        (a stuck one just un-flagged, as any stuck control is by its release)."""
        settled = contact.raw_t + contact.timing.lockout_ns
        if now_ns < settled:
            return []
        if contact.stuck:
            contact.stuck = False
            contact.reported = False
            contact.locked_until = settled
            return []
        return [self._accept(key, contact, False, contact.raw_t)]

    def edge(self, key: Key, down: bool, t_ns: int) -> list[Edge]:
        """One raw edge (the level the contact went to, and when). Returns the edges to report."""
        contact = self._contacts[key]
        out = self._catch_up(key, contact, t_ns)
        if contact.timing.settle_release and contact.reported:
            if down and not contact.raw:
                contact.bounces += 2  # it opened and closed again within the lockout: no release
            contact.raw, contact.raw_t = down, t_ns
            return out  # down, or opened and waiting to settle (`_catch_up`)
        contact.raw, contact.raw_t = down, t_ns
        if contact.stuck:
            if not down:
                contact.stuck = False
                contact.reported = False
                contact.locked_until = t_ns + contact.timing.lockout_ns
            return out
        if t_ns < contact.locked_until:
            contact.bounces += 1
            return out
        if down == contact.reported:
            return out
        out.append(self._accept(key, contact, down, t_ns))
        return out

    def tick(self, now_ns: int, known_ns: int | None = None) -> list[Edge]:
        """Report levels that settled during a lockout now over, and flag controls held too long.
        `known_ns`: the time up to which every edge is known (a link's edges come late, and a release
        still on its way is no stuck switch); held too long is judged there. Default: `now_ns`."""
        out: list[Edge] = []
        judged_ns = now_ns if known_ns is None else min(now_ns, known_ns)
        for key, contact in self._contacts.items():
            out += self._catch_up(key, contact, now_ns)
            held_ns = judged_ns - contact.down_since
            if contact.reported and not contact.stuck and held_ns >= contact.timing.stuck_ns:
                contact.stuck = True
        return out

    def is_down(self, key: Key) -> bool:
        return self._contacts[key].reported

    def is_stuck(self, key: Key) -> bool:
        return self._contacts[key].stuck

    def counts(self, key: Key) -> tuple[int, int]:
        """(debounced presses, swallowed bounces) of one control."""
        contact = self._contacts[key]
        return contact.presses, contact.bounces
