"""The ghost card (V14): a card that is never turned, that the player who plays out races to take.

When a player's spit cards run out (their last one turned at a "Spit!"), the opponent lays their
top spit card face down beside that player: the ghost card. It is never turned up. When a player
plays out their stock, the round does not end at once: both race to take the ghost card (the
`slap` control) for `window` seconds, if the player who played out has no spit cards left (out of
cards to play). If the player who played out touches it first, they win the game (holding nothing:
the ghost card goes to the other player). If the other player is first, they take it into their
spit cards and the round ends as usual; if nobody takes it in time it goes back to the player who
laid it, and the round ends as usual. Piles are chosen only after the race.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .events import Event, GhostLaid, GhostTaken

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True)
class GhostCard:
    window: float = 1.0  # seconds after a player plays out in which the ghost card can be taken

    def after_reveal(self, game: Game, events: list[Event], t: float) -> None:
        """A player whose spit cards just ran out gets a ghost card from the player with the most."""
        if game.ghost is not None:
            return
        empty = [n for n in game.table.players if not game.player(n).spit_cards and game.player(n).playing]
        givers = sorted((n for n in game.table.players if game.player(n).spit_cards),
                        key=lambda n: -len(game.player(n).spit_cards))
        if empty and givers:
            giver = givers[0]
            game.ghost = (game.player(giver).spit_cards.pop(0), empty[0], giver)
            events.append(GhostLaid(t, empty[0], giver))

    def race(self, game: Game, player: int, t: float) -> bool:
        """`player` played out with no spit cards left ("an Karte knapp … um zu spielen": out of cards
        to play): with a ghost card on the table the race for it begins (True). A player who still
        holds spit cards has cards to play, and the round ends as usual."""
        if game.ghost is None or game.player(player).spit_cards:
            return False
        game.ghost_race = (t, player)
        return True

    def take(self, game: Game, events: list[Event], t: float, player: int) -> None:
        assert game.ghost is not None and game.ghost_race is not None
        card, _, _ = game.ghost
        opened, out = game.ghost_race
        game.ghost, game.ghost_race = None, None
        events.append(GhostTaken(t, player, round((t - opened) * 1000, 3), player == out))
        if player == out:  # they win holding nothing: the ghost card goes to the other player
            game.player(game.table.others(player)[0]).spit_cards.append(card)
            game.win_now(events, t, player)
        else:
            game.player(player).spit_cards.append(card)
            game.rules.round_end.after_race(game, events, t, out)

    def close(self, game: Game, events: list[Event], t: float) -> None:
        """Nobody took it in time: it goes back under the spit cards of the player who laid it."""
        assert game.ghost is not None and game.ghost_race is not None
        card, _, giver = game.ghost
        _, out = game.ghost_race
        game.ghost, game.ghost_race = None, None
        game.player(giver).spit_cards.append(card)
        events.append(GhostTaken(t, None, None, False))
        game.rules.round_end.after_race(game, events, t, out)
