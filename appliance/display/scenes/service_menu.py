"""The operator's service menu, as pinball and arcade machines have it: the SERVICE button (F2 on a
keyboard) opens it over whatever is running (the runner pushes it), and closing it gives that back.

    Diagnostics   switch test (every control's edges, stuck flags, serial links, clock offsets),
                  screen test, sound test, switch health (a control not pressed in the last 30 games),
                  the start's notices and the books' (a coin held in memory while the card is full)
    Audits        games per variant, play time, average game length, races decided and their
                  margins, coins: the lifetime totals beside the resettable ones, with the date last
                  cleared; the credits there are now
    Adjustments   default game and house rules (the players' game menu, over this one: what it keeps
                  is the default), computer level, attract mode, idle timeout, volume, language,
                  free play or credits (a game's price), a linked game (link_settings.py)
    Utilities     reset audits, factory settings (each asks for a second press), the audits exported
                  to the operator's USB stick (the CSV of `spit-arcade audits --csv`)
    Update        the update bundles on the operator's USB stick, as the updater found them (newest
                  first): "Update 0.1.0 → 0.2.0", what changes, who signed it; asks once (a
                  downgrade in its own words), then RAUC's progress and the restart; after a
                  fallback, that the last update failed and why

Buttons: up and down (the arrow keys; a player's LEFT and RIGHT) move; START or SPIT enters a page or
steps a value (the arrow keys left/right step either way); SERVICE or Escape goes back a page, and
out of the menu from its first page. In the switch test every control is shown, START and SPIT
included: only SERVICE (or Escape) leaves it. A click or a tap on a row goes to it, on the row
already chosen it is START, and on the last line (the keys) it is SERVICE: back (menu_taps.py).

Adjustments apply at once and are written to the settings file atomically (appliance/shared/config_file.py:
a power cut leaves the old file or the new one) by the operator layer's writer thread, never on the
frame: the page says "saving..." until it is done, then "saved" or why not. Nothing here runs a
program or reaches a shell; an update is the updater's (its own unit, asked by the operator layer's
`Updates` on its own thread).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame

from appliance import audits as audit
from appliance.operator import books
from appliance.operator.updates import Updates
from appliance.shared.settings import COMPUTER_LEVELS, CREDITS, Settings

from ..captions import Caption, Line
from ..coins import office
from ..compositor import Canvas
from ..game_length import length_words, next_length
from ..i18n import LANGUAGE_NAMES, LANGUAGES, _, set_language
from ..keys import key_label
from ..menu_taps import row_tap, tapped_row
from ..rules_words import preset_name
from ..table_view import GOLD, RED, SOFT, WHITE
from .base import (
    BACK,
    Context,
    Input,
    Pop,
    Push,
    Replace,
    Transition,
    draw_overlay,
    draw_scene,
    make,
    startup_notices,
)
from .link_settings import LinkPage, link_words

IDLE_CHOICES = (30.0, 60.0, 90.0, 120.0, 180.0, 300.0, 600.0, 1800.0)
VOLUMES = tuple(round(v / 10, 1) for v in range(11))
STUCK_S = 5.0  # a control held down this long in the switch test is flagged
SCREEN_PATTERNS = ("white", "red", "green", "blue", "black", "grid")
ROWS_SHOWN = 8  # lines of a page shown at once (the rest scroll with the cursor)
BAR = 20  # the install's progress bar, in blocks


@dataclass
class Item:
    words: Callable[[], str]
    act: Callable[[int], Transition | None] | None = None  # step +1 (select, right) or -1 (left)


class ServiceMenuScene:
    service = True  # the runner sends SERVICE here instead of opening another menu
    calm = True  # changes only when pressed (and the install's progress): drawn 10 times a second (runner.CALM_FPS)

    def __init__(self, ctx: Context, page: str = "main") -> None:
        self.ctx = ctx
        self.pages: list[list[Any]] = []  # [name, cursor] from the first page to the one showing
        self.now_ns = ctx.clock()
        self.opened_ns = self.now_ns
        self.message = ""  # the last thing an action said (written, could not be written, ...)
        self.saves = 0  # adjustments handed to the operator layer to save (the last one's answer is shown)
        self.exports = 0  # exports of the audits asked for (the last one's answer is shown)
        self.confirm: str | None = None  # the utility waiting for its second press
        self.pattern = 0
        # the switch test: (player, control) -> [edges, pressed at (None: up), source]
        self.seen: dict[tuple[int, str], list[Any]] = {}
        self.recent: list[str] = []
        self.figures: AuditFigures | None = None  # the audits, read by the operator layer off the frame loop
        self.health: list[str] | None = None  # the switch-health audit's lines (None: being read)
        self.held: Any = None  # the match under the menu: its clock stands still while the menu is open
        self.covered = False  # the game menu is over it (DefaultGameScene): only that one is drawn
        self.link_page = LinkPage(self)  # the Adjustments' linked game ([link]) and its address editor
        self.open(page)

    def hold(self, match: Any) -> None:
        """Stop `match`'s clock while the menu is open (the menu gives it back where it was)."""
        if match is not None and hasattr(match, "hold"):
            match.hold(self.opened_ns)
            self.held = match

    def close(self) -> Transition:
        """Out of the menu: the game under it goes on from the moment it was left."""
        match, self.held = self.held, None
        if match is not None:
            match.release(self.ctx.clock())
        return Pop()

    # ------------------------------------------------------------------ pages
    @property
    def page(self) -> str:
        return str(self.pages[-1][0])

    @property
    def cursor(self) -> int:
        return int(self.pages[-1][1])

    def open(self, page: str) -> None:
        self.pages.append([page, 0])
        self.message = ""
        self.confirm = None
        if page == "audits":
            self.figures = None
            office(self.ctx).ask(AuditFigures.read, self.read_figures)
        elif page == "switch_health":
            self.health = None
            office(self.ctx).ask(books.switch_health, self.read_health)
        elif page == "switch_test":
            self.seen.clear()
            self.recent.clear()
        elif page == "screen_test":
            self.pattern = 0
        elif page == "update":
            updates(self.ctx).look()
            updates(self.ctx).check_status()

    def back(self) -> Transition | None:
        if len(self.pages) == 1:
            return self.close()
        self.pages.pop()
        self.message = ""
        self.confirm = None
        return None

    def items(self) -> list[Item]:
        page = self.page
        if page == "main":
            return [
                Item(lambda: _("Diagnostics"), self.go("diagnostics")),
                Item(lambda: _("Audits"), self.go("audits")),
                Item(lambda: _("Adjustments"), self.go("adjustments")),
                Item(lambda: _("Utilities"), self.go("utilities")),
                Item(lambda: _("Update"), self.go("update")),
                Item(lambda: _("Exit"), lambda step: self.close()),
            ]
        if page == "diagnostics":
            return [
                Item(lambda: _("Switch test"), self.go("switch_test")),
                Item(lambda: _("Screen test"), self.go("screen_test")),
                Item(lambda: _("Sound test"), self.go("sound_test")),
                Item(lambda: _("Start-up notices ({n})").format(n=len(startup_notices(self.ctx))), self.go("notices")),
                Item(lambda: _("Switch health"), self.go("switch_health")),
            ]
        if page == "sound_test":
            from ..sound import TUNES

            return [Item(self.sound_words(name), self.sound(name)) for name in TUNES]
        if page == "adjustments":
            return self.adjustments()
        if page == "link":
            return [Item(words, act) for words, act in self.link_page.rows()]
        if page == "update":
            return self.update_items()
        if page == "installing":
            return []
        if page == "utilities":
            return [
                Item(lambda: self.confirming("reset_audits", _("Reset audits")), self.utility("reset_audits")),
                Item(lambda: self.confirming("factory", _("Factory settings")), self.utility("factory")),
                Item(lambda: _("Export audits to USB stick"), self.export_audits),
            ]
        return []

    def go(self, page: str) -> Callable[[int], Transition | None]:
        def act(step: int) -> Transition | None:
            if step > 0:
                self.open(page)
            return None

        return act

    # ------------------------------------------------------------------ inputs
    def on_event(self, press: Input) -> Transition | None:
        if not press.pressed:
            if self.page == "switch_test":
                self.note(press)
            return None
        if press.control in (BACK, "service"):
            return self.back()
        if self.page == "switch_test":
            self.note(press)
            return None
        if self.page == "installing":
            done = updates(self.ctx).installing
            if press.control in ("start", "spit") and done is not None and done.done and done.ok:
                updates(self.ctx).reboot()
                self.message = _("restarting...")
            return None
        if self.page == "link_address":
            self.link_page.on_editor(press)
            return None
        if self.page == "screen_test":
            if press.control in ("start", "spit", "right", "down"):
                self.pattern = (self.pattern + 1) % len(SCREEN_PATTERNS)
            elif press.control in ("left", "up"):
                self.pattern = (self.pattern - 1) % len(SCREEN_PATTERNS)
            return None
        arrow = press.player == 0 and press.control in ("left", "right")  # the keyboard's arrows
        if self.page == "audits":  # up and down scroll: every row is reached
            if press.control in ("up", "down") or (press.control in ("left", "right") and not arrow):
                self.scroll(-1 if press.control in ("up", "left") else 1)
            return None
        items = self.items()
        if items and self.cursor >= len(items):  # a row gone (free play hides what a game costs)
            self.pages[-1][1] = len(items) - 1
        tapped = tapped_row(press)
        if tapped is not None:
            self.move(tapped - self.cursor, items)  # a tap on a row: to it
        elif press.control == "up" or (press.control == "left" and not arrow):
            self.move(-1, items)
        elif press.control == "down" or (press.control == "right" and not arrow):
            self.move(1, items)
        elif press.control in ("start", "spit") or arrow:
            step = -1 if press.control == "left" else 1
            if items and items[self.cursor].act is not None:
                act = items[self.cursor].act
                assert act is not None
                return act(step)
        return None

    def move(self, step: int, items: list[Item]) -> None:
        if items:
            self.pages[-1][1] = (self.cursor + step) % len(items)
            self.confirm = None

    def note(self, press: Input) -> None:
        """The switch test: every edge of every control, from whichever source."""
        key = (press.player, press.control)
        if not press.pressed and key not in self.seen:
            return  # the release of the button that opened this page
        entry = self.seen.setdefault(key, [0, None, press.source])
        entry[2] = press.source
        if press.pressed:
            entry[0] += 1
            entry[1] = press.t_ns
        else:
            entry[1] = None
        what = _("pressed") if press.pressed else _("released")
        self.recent.append(f"{seat_name(press.player)} {press.control} {what} ({press.source})")
        del self.recent[:-3]

    def update(self, now_ns: int) -> Transition | None:
        self.now_ns = now_ns
        return None

    # ------------------------------------------------------------------ audits
    def read_figures(self, figures: AuditFigures) -> None:
        """The audits, as the operator layer read them (on its thread: one assignment)."""
        self.figures = figures

    def read_health(self, found: list[dict[str, Any]]) -> None:
        self.health = [str(row["words"]) for row in found]

    def audit_rows(self) -> list[Line]:
        """The books in a bar owner's words, money first, then the games (every game, most played
        first), then the play itself; each row all time | since the last reset. The page shows
        ROWS_SHOWN of them at once and scrolls (`audit_lines`)."""
        if self.figures is None:
            return [Line(_("reading the books..."), 0.11, SOFT)]
        a = self.figures
        rows = [
            self.pair(_("coins taken"), a.lifetime.coins, a.since.coins),
            Line(_("credits paid for, not yet played: {n}").format(n=office(self.ctx).credits), 0.12, WHITE),
            self.pair(_("games played"), a.lifetime.games, a.since.games),
        ]
        most = sorted(a.lifetime.variants.items(), key=lambda item: (-item[1], item[0]))
        rows += [self.pair(preset_name(variant), games, a.since.variants.get(variant, 0)) for variant, games in most]
        rows += [
            self.pair(_("finished / walked away from"), f"{a.lifetime.finished} / {a.lifetime.abandoned}",
                      f"{a.since.finished} / {a.since.abandoned}"),
            self.pair(_("time played"), clock(a.lifetime.play_s), clock(a.since.play_s)),
            self.pair(_("length of a game, on average"), clock(a.lifetime.average_game_s),
                      clock(a.since.average_game_s)),
            self.pair(_("races to a card won"), a.lifetime.races, a.since.races),
            self.pair(_("won by, on average"), f"{a.lifetime.average_margin_ms:.0f} ms",
                      f"{a.since.average_margin_ms:.0f} ms"),
            self.pair(_("sprints (Running Spit)"), a.lifetime.sprints, a.since.sprints),
            self.pair(_("fastest / average sprint"),
                      f"{a.lifetime.fastest_sprint_ms / 1000:.2f} / {a.lifetime.average_sprint_ms / 1000:.2f} s",
                      f"{a.since.fastest_sprint_ms / 1000:.2f} / {a.since.average_sprint_ms / 1000:.2f} s"),
        ]  # fmt: skip
        buckets = [f"<{edge}" for edge in audit.MARGIN_BUCKETS] + [f"{audit.MARGIN_BUCKETS[-1]}+"]
        margins = "  ".join(f"{key}: {a.lifetime.margins[key]}" for key in buckets if key in a.lifetime.margins)
        if margins:
            rows.append(Line(_("races won by, ms (all time): {margins}").format(margins=margins), 0.11, WHITE))
        return rows

    def audit_lines(self) -> list[Line]:
        """Whose figures (all time | since the last reset), then the rows from the one scrolled to."""
        cleared = self.figures.cleared if self.figures is not None else None
        head = Line(_("all time  |  since the last reset ({date})").format(date=cleared or _("never reset")),
                    0.12, GOLD)  # fmt: skip
        rows = self.audit_rows()
        first = min(self.cursor, max(0, len(rows) - ROWS_SHOWN))
        return [head, *rows[first : first + ROWS_SHOWN]]

    def scroll(self, step: int) -> None:
        """The audits page moved a row up or down (as far as its last row shown at the bottom)."""
        last = max(0, len(self.audit_rows()) - ROWS_SHOWN)
        self.pages[-1][1] = max(0, min(last, self.cursor + step))

    @staticmethod
    def pair(label: str, lifetime: Any, since: Any) -> Line:
        return Line(f"{label}:  {lifetime}  |  {since}", 0.12, WHITE)

    # ------------------------------------------------------------------ adjustments
    @property
    def settings(self) -> Settings:
        return self.ctx.settings

    def write(self, house_rules: dict[str, Any] | None = None, said: str | None = None, **values: Any) -> None:
        """Apply adjustments now and have the operator layer write them to the settings file
        (atomically, in one write; with the `[house_rules]` too unless None) on its writer thread: the
        page says "saving..." until it is done, then `said` ("saved") or why not."""
        for name, value in values.items():
            setattr(self.settings, name, value)
        if house_rules is not None:
            self.settings.house_rules = dict(house_rules)
        path = self.ctx.config_path
        if path is None:
            self.message = _("changed for now (no settings file)")
            return
        office(self.ctx).adjust_later(values, house_rules, self.saving(said))  # (its changes kept in the books)

    def saving(self, said: str | None = None) -> Callable[[str | None], None]:
        """Says "saving..." on the page now; returns what says how the save went, on the writer's
        thread: `said` ("saved") or why not (the words chosen now, in the language of the moment)."""
        self.saves += 1
        token, done, not_done = self.saves, said or _("saved"), _("changed for now; not saved: {why}")

        def answer(failed: str | None) -> None:  # one assignment
            if token == self.saves:  # (a later save's answer is the one to show)
                self.message = done if failed is None else not_done.format(why=failed)

        self.message = _("saving...")
        return answer

    def cycle(
        self, name: str, choices: tuple[Any, ...], then: Callable[[Any], None] | None = None
    ) -> Callable[[int], None]:
        def act(step: int) -> None:
            now = getattr(self.settings, name)
            index = choices.index(now) if now in choices else -1
            value = choices[(index + step) % len(choices)]
            if then is not None:  # first: a new language says "saved" in itself
                then(value)
            self.write(**{name: value})

        return act

    def adjustments(self) -> list[Item]:
        s = self.settings
        return [
            Item(lambda: _("default game: {game}").format(game=preset_name(s.game)), self.choose_game),
            Item(lambda: self.house_rules_words(), self.clear_house_rules),
            Item(lambda: _("computer level: {n}").format(n=s.computer_level),
                 self.cycle("computer_level", COMPUTER_LEVELS)),
            Item(lambda: _("attract mode: {on}").format(on=on_off(s.attract)), self.cycle("attract", (True, False))),
            Item(lambda: _("idle timeout: {s:.0f} s").format(s=s.idle_timeout_s),
                 self.cycle("idle_timeout_s", IDLE_CHOICES)),
            Item(lambda: _("volume: {v:.0%}").format(v=s.volume), self.cycle("volume", VOLUMES, self.set_volume)),
            Item(lambda: _("language: {name}").format(name=LANGUAGE_NAMES.get(s.language, s.language)),
                 self.cycle("language", LANGUAGES, set_language)),
            Item(lambda: _("free play: {on}").format(on=on_off(s.free_play)), self.cycle("free_play", (True, False))),
            Item(lambda: length_words(s), self.cycle_length),  # a game's length (ours: display/game_length.py)
            Item(lambda: link_words(s.link), self.go("link")),  # a linked game ([link]: link_settings.py)
        ] + ([] if s.free_play else [  # what a game costs only where games cost credits
            Item(lambda: _("credits a game: {n}").format(n=s.credits_per_game),
                 self.cycle("credits_per_game", tuple(range(CREDITS[0], CREDITS[1] + 1)))),
        ])  # fmt: skip

    def write_link(self, link: dict[str, Any]) -> None:
        """The `[link]` table made `link` (checked: link_settings.py), now and by the operator layer
        (its writer thread, as `write`); saved, it holds from the next start, when the link opens."""
        self.settings.link = dict(link)
        if self.ctx.config_path is None:
            self.message = _("changed for now (no settings file)")
            return
        office(self.ctx).adjust_later({}, None, self.saving(_("saved: it holds from the next start")),
                                      tables={"link": link})

    def cycle_length(self, step: int) -> None:
        rounds, minutes = next_length(self.settings, step)
        self.write(limit_rounds=rounds, limit_minutes=minutes)  # one write: both or neither

    def choose_game(self, step: int) -> Transition:
        """The players' game menu over this page: what it keeps is the default game and its house
        rules (it writes them to the settings file as it does for players)."""
        self.message = ""
        self.covered = True
        return Push(DefaultGameScene(self.ctx, self))

    def chosen(self, kept: bool) -> None:
        """The game menu over this page is gone: kept (being saved: `saving`), or left as it was."""
        self.covered = False
        if not kept:
            self.message = ""
        elif self.ctx.config_path is None:
            self.message = _("changed for now (no settings file)")

    def house_rules_words(self) -> str:
        rules = self.settings.house_rules
        if not rules:
            return _("house rules: none (set them in the game menu)")
        return _("house rules: {n} set (START clears them)").format(n=len(rules))

    def clear_house_rules(self, step: int) -> None:
        if step > 0 and self.settings.house_rules:
            self.settings.house_rules = {}
            self.remember()

    def remember(self) -> None:
        """The default game and its house rules, written as the game menu writes them."""
        self.write(self.settings.house_rules, game=self.settings.game)

    def set_volume(self, volume: Any) -> None:
        sound = self.ctx.sound
        sound.volume = float(volume)
        for each in sound.sounds.values():
            each.set_volume(float(volume))
        sound.play("select")

    @staticmethod
    def sound_words(name: str) -> Callable[[], str]:
        return lambda: _("play: {name}").format(name=name)

    def sound(self, name: str) -> Callable[[int], None]:
        def act(step: int) -> None:
            self.ctx.sound.play(name)
            silent = self.ctx.sound.silent
            self.message = _("no sound device: silent") if silent else _("played {name}").format(name=name)

        return act

    # ------------------------------------------------------------------ utilities
    def confirming(self, name: str, words: str) -> str:
        return _("{what}: press again (cannot be undone)").format(what=words) if self.confirm == name else words

    def utility(self, name: str) -> Callable[[int], None]:
        def act(step: int) -> None:
            if step <= 0:
                return
            if self.confirm != name:
                self.confirm = name
                return
            self.confirm = None
            if name == "reset_audits":
                self.reset_audits()
            else:
                self.factory_settings()

        return act

    def reset_audits(self) -> None:
        """The resettable audits start again (a failure to write it is the operator layer's notice)."""
        office(self.ctx).reset_audits()
        self.message = _("audits reset")

    def export_audits(self, step: int) -> None:
        """The audits onto the USB stick, written by the operator layer off the frame: "exporting..."
        now, then where it went or why not (no stick, full, read-only)."""
        if step <= 0:
            return
        self.exports = token = self.exports + 1
        words = {"written": _("written to the USB stick: {name}"), "no_stick": _("no USB stick: plug one in"),
                 "full": _("the USB stick is full"), "read_only": _("the USB stick is read-only (its lock switch?)"),
                 "failed": _("the USB stick could not be written: {why}")}

        def answer(found: Any) -> None:  # on the operator layer's thread: one assignment
            if token == self.exports:
                name = f"{found.path.parent.name}/{found.path.name}" if found.path is not None else ""
                self.message = words.get(found.outcome, words["failed"]).format(name=name, why=found.detail)

        self.message = _("exporting to the USB stick...")
        office(self.ctx).export_audits(answer)

    def factory_settings(self) -> None:
        """Every adjustment back to its built-in value (the layout, keys, journal place and [link] kept:
        where the cabinet stands, not how it plays)."""
        d = Settings()
        values = {
            name: getattr(d, name)
            for name in ("computer_level", "attract", "idle_timeout_s", "volume", "language", "free_play",
                         "credits_per_game", "limit_rounds", "limit_minutes")
        }  # fmt: skip
        set_language(d.language)
        self.set_volume(d.volume)
        self.write(house_rules={}, said=_("factory settings restored"), game=d.game, **values)  # all or none

    # ------------------------------------------------------------------ update
    def update_items(self) -> list[Item]:
        looked = updates(self.ctx).looked
        if looked is None or not looked.bundles:
            return []
        return [Item(self.bundle_words(bundle), self.choose_bundle(bundle)) for bundle in looked.bundles]

    def bundle_words(self, bundle: dict[str, Any]) -> Callable[[], str]:
        def words() -> str:
            looked = updates(self.ctx).looked
            old, new = looked.booted if looked else "?", bundle.get("version") or "?"
            if bundle.get("refused"):
                return _("{name}: cannot be installed").format(name=bundle.get("name", "?"))
            if self.confirm == bundle.get("name"):
                if bundle.get("needs_confirm"):
                    return _("Go back to the older {new}? Press again").format(new=new)
                return _("Update {old} → {new}: press again to install").format(old=old, new=new)
            if bundle.get("needs_confirm"):
                return _("Go back {old} → {new} (older)").format(old=old, new=new)
            return _("Update {old} → {new}").format(old=old, new=new)

        return words

    def choose_bundle(self, bundle: dict[str, Any]) -> Callable[[int], None]:
        def act(step: int) -> None:
            name = str(bundle.get("name", ""))
            running = updates(self.ctx).installing
            if step > 0 and running is not None and not running.done:  # one install at a time: its progress
                self.open("installing")
                return
            if step <= 0 or bundle.get("refused"):
                return
            if self.confirm != name:  # asks once (a downgrade in its own words)
                self.confirm = name
                return
            self.confirm = None
            updates(self.ctx).install(name, confirm_downgrade=bool(bundle.get("needs_confirm")))
            self.open("installing")

        return act

    def update_lines(self) -> list[Line]:
        """Under the bundles: the one under the cursor (what changes, who signed it, or why it cannot
        be installed); before them, a fallback since the last update, or why there is nothing."""
        u = updates(self.ctx)
        out: list[Line] = []
        if u.fallback is not None:
            out.append(Line(_("The update to {new} failed: back on {old}").format(
                new=u.fallback.get("from") or "?", old=u.fallback.get("to") or "?"), 0.12, RED))
            out.append(Line(fallback_words(u.fallback), 0.1, RED))
        looked = u.looked
        if looked is None:
            out.append(Line(_("looking at the USB stick..."), 0.11, SOFT))
            return out
        if looked.refused:
            out.append(Line(_("no update here: {why}").format(why=_(looked.refused)), 0.11, SOFT))
            return out
        if not looked.stick:
            out.append(Line(_("no USB stick: put one in with an update bundle (.raucb)"), 0.11, SOFT))
            return out
        if not looked.bundles:
            out.append(Line(_("no update bundle (.raucb) on the USB stick"), 0.11, SOFT))
            return out
        bundle = looked.bundles[min(self.cursor, len(looked.bundles) - 1)]
        if bundle.get("refused"):
            out.append(Line(_("refused: {why}").format(why=refusal_words(bundle)), 0.11, RED))
            return out
        out.append(Line(_("signed by {signer}").format(signer=bundle.get("signer") or "?"), 0.11, WHITE))
        changes = str(bundle.get("description", "")).splitlines()[1:4]
        if changes:
            out.append(Line(_("what changes: {changes}").format(changes="; ".join(changes)), 0.11, WHITE))
        if bundle.get("needs_confirm"):
            out.append(Line(_("{new} is OLDER than {old}: the cabinet goes back to it").format(
                new=bundle.get("version"), old=looked.booted), 0.11, GOLD))
        return out

    def install_lines(self) -> list[Line]:
        done = updates(self.ctx).installing
        if done is None:
            return []
        filled = round(BAR * max(0, min(100, done.percent)) / 100)
        out = [Line(_("installing {new}").format(new=done.version or done.name), 0.13, WHITE),
               Line(f"{'█' * filled}{'░' * (BAR - filled)}  {done.percent}%", 0.13, GOLD)]
        if not done.done:
            out.append(Line(done.step, 0.1, SOFT))
        elif done.ok:
            out.append(Line(_("installed: the cabinet restarts into {new} once; if it does not come up it goes "
                              "back to {old} by itself").format(new=done.version, old=done.from_version or "?"),
                            0.11, WHITE))  # fmt: skip
            if updates(self.ctx).rebooting:
                out.append(Line(_("not restarted: {why}").format(why=_(updates(self.ctx).rebooting)), 0.11, RED))
        else:
            out.append(Line(_("not installed: {why}").format(why=_(done.refused)), 0.11, RED))
        return out

    # ------------------------------------------------------------------ drawing
    def background(self) -> pygame.Surface:
        return self.ctx.view(show_keys=False).background()

    def title(self) -> str:
        names = {
            "main": _("Service menu"), "diagnostics": _("Diagnostics"), "switch_test": _("Switch test"),
            "screen_test": _("Screen test"), "sound_test": _("Sound test"), "notices": _("Start-up notices"),
            "audits": _("Audits"), "adjustments": _("Adjustments"), "utilities": _("Utilities"),
            "switch_health": _("Switch health"), "update": _("Update"), "installing": _("Update"),
            "link": _("Linked game"), "link_address": _("Linked game"),
        }  # fmt: skip
        return names.get(self.page, self.page)

    def lines(self) -> tuple[Line, ...]:
        out = [Line(self.title(), 0.2, GOLD)]
        page = self.page
        if page == "switch_test":
            out += [Line(words, 0.11, RED if "STUCK" in words else WHITE) for words in self.switch_lines()]
        elif page == "notices":  # the start's, then the books' (a coin held in memory, a damaged store)
            books_said = [n for n in office(self.ctx).notices if n not in startup_notices(self.ctx)]
            notices = startup_notices(self.ctx) + books_said or [_("none: the cabinet started cleanly")]
            out += [Line(words, 0.11, WHITE) for words in notices[-ROWS_SHOWN:]]
        elif page == "switch_health":
            health = self.health
            if health is None:
                out.append(Line(_("reading the books..."), 0.11, SOFT))
            else:
                said = health or [_("every control pressed in the last {n} games").format(n=books.SWITCH_GAMES)]
                out += [Line(line, 0.11, RED if health else WHITE) for line in said[:ROWS_SHOWN]]
        elif page == "audits":
            out += self.audit_lines()
        elif page == "screen_test":
            out.append(Line(_("pattern: {name}").format(name=SCREEN_PATTERNS[self.pattern]), 0.12, WHITE))
        elif page == "installing":
            out += self.install_lines()
        elif page == "link_address":
            out += self.link_page.editor_lines()
        else:
            items = self.items()
            first = max(0, min(self.cursor - ROWS_SHOWN // 2, len(items) - ROWS_SHOWN))
            for index in range(first, min(len(items), first + ROWS_SHOWN)):
                words = items[index].words()
                if index == self.cursor:  # (a tap on it: START, chosen)
                    out.append(Line(f"▶  {words}  ◀", 0.16, GOLD, "start"))
                else:
                    out.append(Line(words, 0.14, WHITE, row_tap(index)))
            if page == "update":
                out += self.update_lines()
            elif page == "link":
                out += self.link_page.notes()
        if self.message:
            out.append(Line(self.message, 0.11, SOFT))
        out.append(Line(self.hint(), 0.11, SOFT, "service"))  # (a tap: back)
        return tuple(out)

    def service_key(self) -> str:
        """The menu's own button, with its key where the keyboard has one: "SERVICE (F2)"."""
        key = key_label(self.ctx.keymap, 0, "service")
        return _("SERVICE ({key})").format(key=key) if key else "SERVICE"

    def hint(self) -> str:
        service = self.service_key()
        if self.page == "switch_test":
            return _("press every control; {service}: back").format(service=service)
        if self.page == "screen_test":
            return _("START: next pattern; {service}: back").format(service=service)
        if self.page == "link_address":
            return self.link_page.editor_hint(service)
        if self.page == "installing":
            done = updates(self.ctx).installing
            if done is not None and done.done and done.ok:
                return _("START: restart now; {service}: back (it restarts into it at the next power-on)").format(
                    service=service
                )
            return _("{service}: back (the install goes on)").format(service=service)
        if self.page == "audits":
            rows = len(self.audit_rows())
            first = min(self.cursor, max(0, rows - ROWS_SHOWN))
            last = min(rows, first + ROWS_SHOWN)
            shown = _("lines {first} to {last} of {n}").format(first=first + 1, last=last, n=rows)
            return _("up/down: scroll ({shown}); {service}: back").format(shown=shown, service=service)
        return _("up/down: move; START: choose; {service}: back").format(service=service)

    def switch_lines(self) -> list[str]:
        """Every control seen (edges, held, stuck), then each cabinet source's state: serial links
        and their clock offsets, the stuck flags its debouncer raised."""
        out: list[str] = []
        for (player, control), (edges, down_since, source) in sorted(self.seen.items()):
            state = _("up")
            if down_since is not None:
                held = (self.now_ns - down_since) / 1e9
                state = _("STUCK {s:.0f} s").format(s=held) if held >= STUCK_S else _("down")
            out.append(f"{seat_name(player)} {control}: {edges} {_('edges')}, {state}  ({source})")
        merger = getattr(self.ctx, "inputs", None)
        if merger is not None:
            for status in merger.status(self.now_ns):
                details = status.details
                extra = "".join(
                    f", {k} {details[k]}" for k in ("clock offset", "clock error", "bad frames (1 s)") if k in details
                )
                out.append(f"{status.name}: {status.link}{extra}")
                out += [
                    f"  {seat_name(c.player)} {c.control} {c.wiring}: STUCK"
                    for c in status.controls
                    if c.stuck
                ]
        if not out:
            out.append(_("no control pressed yet"))
        out += self.recent
        return out[-ROWS_SHOWN:]

    def captions(self) -> list[Caption]:
        backdrop = 0 if self.page == "screen_test" else None  # the pattern must fill the screen round it
        return [Caption("panel", None, self.lines(), 225, backdrop)]

    def draw(self, canvas: Canvas) -> None:
        if self.covered:
            return
        if self.page == "screen_test":  # the pattern over everything, the page's panel over it
            canvas.cover(pygame.Rect((0, 0), canvas.size))
            canvas.blit(screen_pattern(canvas.size, SCREEN_PATTERNS[self.pattern]), (0, 0))
            draw_scene(canvas, self.ctx, self.captions())
        else:
            draw_overlay(canvas, self.ctx, self.captions())


@dataclass(frozen=True)
class AuditFigures:
    """The Audits page's figures, read from the store on the operator layer's thread."""

    lifetime: audit.Totals
    since: audit.Totals
    cleared: str | None

    @classmethod
    def read(cls, store: Any) -> AuditFigures:
        return cls(books.totals(store), books.totals(store, since_reset=True), books.cleared(store))


class DefaultGameScene:
    """The players' game menu (scenes/game_menu.py) pushed over the service menu's Adjustments, to
    choose the default game and its house rules: START or SPIT keeps them (the game menu writes them
    to the settings file), SERVICE or Escape goes back without; either way back to the Adjustments
    (the game menu's own way out, to choosing players, is turned into that)."""

    service = True  # SERVICE comes here (it goes back), not to a new service menu

    def __init__(self, ctx: Context, menu: ServiceMenuScene) -> None:
        self.ctx = ctx
        self.menu = menu
        self.game_menu: Any = make("game_menu", ctx)

    def on_event(self, press: Input) -> Transition | None:
        if press.pressed and press.control == "service":
            return self.back(kept=False)
        keeping = bool(press.pressed) and press.control in ("start", "spit")
        if keeping and self.ctx.config_path is not None:  # the game menu keeps it: "saving...", then how it went
            self.game_menu.on_saved = self.menu.saving()
        if self.game_menu.on_event(press) is None:
            return None
        return self.back(kept=keeping)  # the game menu is done: kept, or left with Escape

    def back(self, kept: bool) -> Transition:
        self.menu.chosen(kept)
        return Pop()

    def update(self, now_ns: int) -> Transition | None:
        left: Any = self.game_menu.update(now_ns)  # nobody touched it for a while: back, unkept
        return self.back(kept=False) if isinstance(left, Replace) else None

    def background(self) -> pygame.Surface:
        return self.game_menu.background()

    def captions(self) -> list[Caption]:
        return self.game_menu.captions()

    def draw(self, canvas: Canvas) -> None:
        self.game_menu.draw(canvas)


def updates(ctx: Context) -> Updates:
    """The operator layer's updates of this run (made beside the office the first time it is asked)."""
    found = ctx.updates
    if found is None:
        found = ctx.updates = Updates(office(ctx))
    return found


def refusal_words(bundle: dict[str, Any]) -> str:
    """Why a bundle cannot be installed, in the operator's language: the updater's plain words are
    the catalogue's keys; those with a version or a machine in them are said again from the fields."""
    refused = str(bundle.get("refused", ""))
    if bundle.get("compare") == "same":
        return _("the cabinet runs {version} already: nothing to update").format(version=bundle.get("version"))
    if refused.startswith("made for another machine"):
        return _("made for another machine ({compatible})").format(compatible=bundle.get("compatible") or "?")
    return _(refused)


def fallback_words(fallback: dict[str, Any]) -> str:
    """Why the last update was rolled back, from the updater's status (its boot check's bounds)."""
    if fallback.get("bound_s") is None:
        return str(fallback.get("why", ""))
    tries = fallback.get("tries")
    said = _("{new} did not come up: its game did not show the title within {s} s of power-on, or failed {n} "
             "starts; the cabinet went back to {old} by itself").format(
        new=fallback.get("from"), s=fallback.get("bound_s"), n=fallback.get("starts"), old=fallback.get("to"))
    return said if tries is None else said + " " + _("(boots tried: {n})").format(n=tries)


def seat_name(player: int) -> str:
    return _("cabinet") if player == 0 else _("P{n}").format(n=player)


def on_off(value: bool) -> str:
    return _("on") if value else _("off")


def clock(seconds: float) -> str:
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"


_patterns: dict[tuple[tuple[int, int], str], pygame.Surface] = {}


def screen_pattern(size: tuple[int, int], name: str) -> pygame.Surface:
    """A full-screen test pattern: a plain colour (dead pixels, tint), or a grid with a border
    (geometry, overscan: the border must be seen on every edge)."""
    key = (size, name)
    found = _patterns.get(key)
    if found is not None:
        return found
    colours = {"white": (255, 255, 255), "red": (255, 0, 0), "green": (0, 255, 0), "blue": (0, 0, 255)}
    surface = pygame.Surface(size)
    surface.fill(colours.get(name, (0, 0, 0)))
    if name == "grid":
        w, h = size
        step = max(8, min(w, h) // 8)
        for x in range(0, w, step):
            pygame.draw.line(surface, (200, 200, 200), (x, 0), (x, h - 1))
        for y in range(0, h, step):
            pygame.draw.line(surface, (200, 200, 200), (0, y), (w - 1, y))
        pygame.draw.rect(surface, (255, 255, 0), surface.get_rect(), 3)
    _patterns[key] = surface
    return surface
