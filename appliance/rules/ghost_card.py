"""The ghost card (V14): a card that is never turned, that the player who plays out races to take.

When a player's spit cards run out (their last one turned at a "Spit!"), the opponent lays their
top spit card face down beside that player: the ghost card. It is never turned up. When a player
plays out their stock, the round does not end at once: both race to take the ghost card (the
`slap` control) for `window` seconds, if the player who played out has no spit cards left (out of
cards to play). If the player who played out touches it first, they win the game (holding nothing:
the ghost card goes to the other player). If the other player is first, they take it into their
spit cards and the round ends as usual; if nobody takes it in time it goes back to the player who
laid it, and the round ends as usual. Piles are chosen only after the race.

A house rule (house_rule.py): this object holds the ghost card, whom it lies beside, who laid it,
and the race for it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, ClassVar, Self

from .cards import Card
from .events import Event, GhostLaid, GhostTaken
from .house_rule import Prompt, Verdict, Verdicts
from .moves import SLAP_TABLE, Action
from .setup_values import card as read_card
from .setup_values import seat_number
from .terms import Phase, Reason

if TYPE_CHECKING:
    from .engine import Engine


@dataclass
class GhostCard:
    key: ClassVar[str] = "ghost"
    slaps: ClassVar[str] = "ghost"  # what the slap control slaps in this game (the legends name it)
    window: ClassVar[float] = 1.0  # seconds after a player plays out in which the ghost card can be taken

    card: Card | None = None
    beside: int = 0  # the player it lies beside
    giver: int = 0  # who laid it
    race: tuple[float, int] | None = None  # (when the race began, the player who played out)
    said: Verdicts = field(default_factory=Verdicts, compare=False, repr=False)  # what its races decided

    # ------------------------------------------------------------------ the protocol

    def copy(self) -> Self:
        return replace(self, said=self.said.copy())

    def begin(self, game: Engine, rng: random.Random) -> None:
        pass

    def dealt(self, game: Engine, events: list[Event], t: float) -> None:
        pass

    def revealed(self, game: Engine, events: list[Event], t: float) -> None:
        """A player whose spit cards just ran out gets a ghost card from the player with the most."""
        if self.card is not None:
            return
        empty = [n for n in game.table.players if not game.player(n).spit_cards and game.player(n).playing]
        givers = sorted((n for n in game.table.players if game.player(n).spit_cards),
                        key=lambda n: -len(game.player(n).spit_cards))
        if empty and givers:
            self.giver, self.beside = givers[0], empty[0]
            self.card = game.player(self.giver).spit_cards.pop(0)
            events.append(GhostLaid(t, self.beside, self.giver))

    def played_out(self, game: Engine, player: int, t: float) -> bool:
        """`player` played out with no spit cards left ("an Karte knapp … um zu spielen": out of cards
        to play): with a ghost card on the table the race for it begins (True). A player who still
        holds spit cards has cards to play, and the round ends as usual."""
        if self.card is None or game.player(player).spit_cards:
            return False
        self.race = (t, player)
        return True

    def deadline(self) -> float | None:
        return None if self.race is None else self.race[0] + self.window

    def press(self, game: Engine, events: list[Event], t: float, player: int, control: str) -> bool:
        if self.race is None:
            if control == "slap":  # the slap is the ghost card's, and only in its race
                game.reject(events, t, player, control, Reason.WRONG_PHASE)
                return True
            return False
        if control != "slap":
            game.reject(events, t, player, control, Reason.GHOST_FIRST)
            return True
        card = self.card
        opened, out = self.race
        assert card is not None
        self._let_go()
        by_ms = round((t - opened) * 1000, 3)
        taken = GhostTaken(t, player, by_ms, player == out)
        events.append(taken)
        slower = tuple(n for n in game.table.players if n != player)
        self.said.say(taken, Verdict("ghost_won", player, ms=by_ms, late=slower, good=True) if player == out
                      else Verdict("ghost_taken", player, out, by_ms, late=slower))
        if player == out:  # they win holding nothing: the ghost card goes to the other player
            game.player(game.table.others(player)[0]).spit_cards.append(card)
            game.win_now(events, t, player)
        else:
            game.player(player).spit_cards.append(card)
            game.after_race(events, t, out)
        return True

    def close(self, game: Engine, events: list[Event], t: float) -> None:
        """Nobody took it in time: it goes back under the spit cards of the player who laid it."""
        assert self.card is not None and self.race is not None
        card, giver, (_, out) = self.card, self.giver, self.race
        self._let_go()
        game.player(giver).spit_cards.append(card)
        home = GhostTaken(t, None, None, False)
        events.append(home)
        self.said.say(home, Verdict("ghost_home", other=giver))
        game.after_race(events, t, out)

    def _let_go(self) -> None:
        self.card, self.beside, self.giver, self.race = None, 0, 0, None

    def actions(self, game: Engine, player: int) -> list[Action] | None:
        return [SLAP_TABLE] if self.race is not None else None

    def also(self, game: Engine, player: int) -> list[Action]:
        return []

    def holds_play(self) -> bool:
        return False

    def prompt(self, game: Engine, player: int) -> Prompt | None:
        """In the race: the player who played out slaps to win, the other to take it first; while a
        ghost card lies out, everybody is told what it is for."""
        if self.race is not None:
            out = self.race[1]
            return Prompt("slap_ghost_to_win", urgent=True) if player == out else \
                Prompt("slap_before", out, urgent=True)
        if self.card is not None and game.phase == Phase.PLAYING:
            return Prompt("ghost_out")
        return None

    def verdict(self, event: Event) -> Verdict | None:
        """Who took the ghost card (`ghost_won`: the player who played out, and wins; `ghost_taken`: the
        other, `other` having played out) and how many ms after the round ended; or nobody, and it goes
        back to `other` (`ghost_home`)."""
        return self.said.of(event)

    def cards(self) -> list[Card]:
        return [] if self.card is None else [self.card]

    def gather(self, player: int) -> list[Card]:
        """At a new layout a ghost card not raced for goes home to the player who laid it."""
        card = self.card
        if card is None or player != self.giver:
            return []
        self._let_go()
        return [card]

    def to_state(self) -> Any:
        if self.card is None:
            return None
        return {"card": self.card, "beside": self.beside, "giver": self.giver,
                "race": None if self.race is None else list(self.race)}

    def read_state(self, game: Engine, value: Any) -> None:
        """Its part of a setup position: absent or null, there is none."""
        if value is None:
            return
        if not isinstance(value, dict):
            raise ValueError("ghost must be an object {card, beside, giver, race}")
        card = read_card(value.get("card"), "ghost.card", game.decks)
        seats = game.table.seats
        beside, giver = (seat_number(value.get(name), f"ghost.{name}", seats) for name in ("beside", "giver"))
        race = value.get("race")
        if race is not None:
            if not (isinstance(race, list) and len(race) == 2 and isinstance(race[0], int | float)
                    and not isinstance(race[0], bool)):
                raise ValueError("ghost.race must be [t, player who played out]")
            self.race = (float(race[0]), seat_number(race[1], "ghost.race[1]", seats))
        self.card, self.beside, self.giver = card, beside, giver
