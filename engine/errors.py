"""Exceptions that name the rule a player broke.

Every one derives from ``ValueError`` so callers that only care that an action was refused
can catch that; each message is written to be shown to the player as it is.
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """The action breaks a rule; the game state is unchanged."""


class NotYourTurn(IllegalAction):
    """Only the in-turn player may do this now."""


class WrongStep(IllegalAction):
    """The action belongs to another step of the turn (draw, play, discard)."""


class CardNotInHand(IllegalAction):
    """The player named a card they do not hold."""


class IllegalMeld(IllegalAction):
    """A meld is not a valid set or run under the table's rules."""


class ContractNotMet(IllegalAction):
    """The melds do not match this deal's contract."""


class BuyRefused(IllegalAction):
    """A buy request is not allowed (own discard, down, no buys left, window closed)."""


class HandSizeRule(IllegalAction):
    """The play would leave a hand size the going-out rule forbids."""


class GameOver(IllegalAction):
    """The game has ended."""


class UnknownPlayer(IllegalAction):
    """The id is not a player at this table."""
