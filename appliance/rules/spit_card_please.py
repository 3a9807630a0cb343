"""'Spit card, please' (V13): a reflex duel for the player one layout away from winning.

Our reading of the garbled passage (seeds/README.md): a player whose cards no longer fill a layout
with a spit card left over (rule 9's short player, about to win) asks for a spit card. The other
player turns their top spit card whenever they like (their `spit` press; after `turn_within` seconds
it is turned for them), and the short player must slap it (`slap`) within `window` seconds: in time,
they win the game. Too late, or slapping before it is turned: they take the other player's whole
stack of spit cards, the other player gets the spit card back, and the round is played as usual.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .events import Event, SpitCardAsked, SpitCardLost, SpitCardTurned, SpitCardWon

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class SpitCardPlease:
    window: float = 0.6  # seconds after the card is turned in which the short player's slap wins
    turn_within: float = 10.0  # the other player turns the card by then, or it is turned for them

    def after_deal(self, game: Game, events: list[Event], t: float) -> None:
        short = [n for n in game.table.players if not game.player(n).spit_cards]
        lenders = [n for n in game.table.players if game.player(n).spit_cards]
        if len(short) == 1 and lenders:
            game.please = (short[0], lenders[0], None, t)
            events.append(SpitCardAsked(t, short[0], lenders[0]))

    def deadline(self, game: Game) -> float | None:
        if game.please is None:
            return None
        _, _, card, since = game.please
        return since + (self.turn_within if card is None else self.window)

    def turn(self, game: Game, events: list[Event], t: float) -> None:
        """The lender turns their top spit card: the short player's window opens."""
        assert game.please is not None
        player, lender, _, _ = game.please
        card = game.player(lender).spit_cards.pop(0)
        game.please = (player, lender, card, t)
        events.append(SpitCardTurned(t, lender, card))

    def press(self, game: Game, events: list[Event], t: float, player: int, control: str) -> bool:
        """A press during the duel; True if the duel took it."""
        assert game.please is not None
        short, lender, card, since = game.please
        if control == "spit" and player == lender and card is None:
            self.turn(game, events, t)
            return True
        if control == "slap" and player == short:
            if card is not None and t - since <= self.window:
                events.append(SpitCardWon(t, short, round((t - since) * 1000, 3)))
                game.please = None
                game.player(lender).spit_cards.insert(0, card)
                game.win_now(events, t, short)
            else:
                self.lose(game, events, t, early=card is None)
            return True
        if control == "slap":
            game.reject(events, t, player, control, "wrong_phase")
            return True
        return False

    def close(self, game: Game, events: list[Event], t: float) -> None:
        """Time is up: the card is turned for the lender, or the short player was too slow."""
        assert game.please is not None
        if game.please[2] is None:
            self.turn(game, events, t)
        else:
            self.lose(game, events, t, early=False)

    def lose(self, game: Game, events: list[Event], t: float, early: bool) -> None:
        assert game.please is not None
        short, lender, card, _ = game.please
        game.please = None
        stack = game.player(lender).spit_cards
        game.player(short).spit_cards = list(stack)
        game.player(lender).spit_cards = [] if card is None else [card]
        if card is None:  # a false start: the card was never turned, the lender keeps the rest
            game.player(lender).spit_cards, game.player(short).spit_cards = stack[:1], stack[1:]
        events.append(SpitCardLost(t, short, lender, len(game.player(short).spit_cards), early))
