"""Exceptions that name the rule a player broke.

Every one derives from ``ValueError`` so callers that only care that an action was refused
can catch that. Each carries its reason twice: an English message (what the engine's tests and
logs read) and a language-free ``code`` with ``params`` (what the bot words in the player's
language, ``bot/i18n``). A raise site names its own code (``code="buy.own_discard"``);
without one the class's code stands for the whole family. Parameters are numbers and
language-neutral text only (``card.pretty()``, a player's name), never English words.
"""

from __future__ import annotations

#: A refusal parameter: a number or language-neutral text.
Param = str | int


class IllegalAction(ValueError):
    """The action breaks a rule; the game state is unchanged."""

    #: The reason's code; the class attribute names the whole family (``type(e).code``).
    code: str = "illegal_action"

    def __init__(self, message: str = "", /, *, code: str | None = None, **params: Param) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.params: dict[str, Param] = params


class NotYourTurn(IllegalAction):
    """Only the in-turn player may do this now."""

    code = "not_your_turn"


class WrongStep(IllegalAction):
    """The action belongs to another step of the turn (draw, play, discard)."""

    code = "wrong_step"


class CardNotInHand(IllegalAction):
    """The player named a card they do not hold."""

    code = "card_not_in_hand"


class IllegalMeld(IllegalAction):
    """A meld is not a valid set or run under the table's rules."""

    code = "illegal_meld"


class ContractNotMet(IllegalAction):
    """The melds do not match this deal's contract."""

    code = "contract_not_met"


class BuyRefused(IllegalAction):
    """A buy request is not allowed (own discard, down, no buys left, window closed)."""

    code = "buy_refused"


class HandSizeRule(IllegalAction):
    """The play would leave a hand size the going-out rule forbids."""

    code = "hand_size_rule"


class GameOver(IllegalAction):
    """The game has ended."""

    code = "game_over"


class UnknownPlayer(IllegalAction):
    """The id is not a player at this table."""

    code = "unknown_player"


class Unreadable(IllegalAction):
    """Typed text (a card, a meld, an action) that the parser cannot read; ``text`` is the
    part it stopped at, exactly as written."""

    code = "unreadable"


class RulesConflict(IllegalAction):
    """House rules that cannot go together (``Rules`` validation); raised inside pydantic's
    validators, so it reaches callers as the ``ctx["error"]`` of a ``ValidationError``."""

    code = "rules_conflict"
