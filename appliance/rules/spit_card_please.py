"""'Spit card, please' (V13): the short player borrows a spit card, and slaps it to win.

000: "wenn ein Spieler ihr Lager nicht füllen und mindestens eine Spieß-Karte übrighaben kann,
bitten sie oder nehmen eine Spieß-Karte oder anderen Gegenstand vom anderen Spieler. Sie müssen dann
die Spieß-Karte zuschlagen, um [zu gewinnen] … Wenn der gewinnende Spieler scheitert, die Spieß-Karte
rechtzeitig zuzuschlagen, dann bekommen sie den ganzen Spieß-Stapel, und der andere Spieler bekommt
die Spieß-Karte." Our reading (seeds/README.md):

- At a new layout that leaves one player short (rule 9: they can't lay a full layout and keep a
  spit card), they borrow the lender's top spit card; it lies face down by them. Nothing else
  happens at the deal: play goes on as in rules 9-10, the lender spitting alone.
- When the short player plays out their stock, the borrowed card is their claim to victory: they
  must slap it (`slap`) in time, that is before the lender slaps it and within `window` seconds.
  In time: the lender gets the card back and the short player, holding no card, wins the game.
  Not in time: they take the whole spit pile, the lender gets the card back, and the next layout
  is dealt.
- Any other end of the round (the lender plays out, play is blocked): the round ends as rules 8-10
  say, and the card stays the borrower's (the seed gives it back to the lender only when the claim
  fails): it goes into their cards for the new layout.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .events import Event, SpitCardLent, SpitCardLost, SpitCardWon

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class SpitCardPlease:
    window: float = 2.0  # seconds after playing out in which the short player's slap claims the win

    def after_deal(self, game: Game, events: list[Event], t: float) -> None:
        """A layout leaves exactly one player short: they borrow a spit card from one who can spare
        one (holding two or more, so the lender still starts the spit pile)."""
        short = [n for n in game.table.players if not game.player(n).spit_cards]
        lenders = [n for n in game.table.players if len(game.player(n).spit_cards) > 1]
        if len(short) == 1 and lenders:
            lender = lenders[0]
            game.please = (short[0], lender, game.player(lender).spit_cards.pop(0), None)
            events.append(SpitCardLent(t, short[0], lender))

    def claim(self, game: Game, player: int, t: float) -> bool:
        """`player` played out: if they hold a borrowed card, the window to slap it opens (True)."""
        if game.please is None or game.please[0] != player:
            return False
        short, lender, card, _ = game.please
        game.please = (short, lender, card, t)
        return True

    def claiming(self, game: Game) -> bool:
        """Is the window to slap the borrowed card open?"""
        return game.please is not None and game.please[3] is not None

    def deadline(self, game: Game) -> float | None:
        if game.please is None or game.please[3] is None:
            return None
        return game.please[3] + self.window

    def press(self, game: Game, events: list[Event], t: float, player: int, control: str) -> bool:
        """A press while a card is lent; True if this rule took it."""
        if not self.claiming(game):
            if control == "slap":  # nothing to slap yet: the card counts once its holder plays out
                game.reject(events, t, player, control, "wrong_phase")
                return True
            return False
        if control != "slap":
            game.reject(events, t, player, control, "card_first")
            return True
        assert game.please is not None
        short, lender, card, since = game.please
        assert since is not None
        by_ms = round((t - since) * 1000, 3)
        if player == short:
            game.please = None
            game.player(lender).spit_cards.insert(0, card)  # the lender gets the card back
            events.append(SpitCardWon(t, short, by_ms))
            game.win_now(events, t, short)
        else:
            self.lose(game, events, t, slapper=player, by_ms=by_ms)
        return True

    def close(self, game: Game, events: list[Event], t: float) -> None:
        """The window closed with no slap: the short player was not in time."""
        self.lose(game, events, t, slapper=None, by_ms=None)

    def lose(self, game: Game, events: list[Event], t: float, slapper: int | None, by_ms: float | None) -> None:
        """The short player takes the whole spit pile; the lender gets the card back; a new layout."""
        assert game.please is not None
        short, lender, card, _ = game.please
        game.please = None
        game.player(lender).spit_cards.insert(0, card)
        middle = [i for i, pile in enumerate(game.spit_piles) if pile]
        events.append(SpitCardLost(t, short, lender, sum(len(game.spit_piles[i]) for i in middle), slapper, by_ms))
        game.new_layout(events, t, {short: middle})

