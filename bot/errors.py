"""Refusals the bot explains to a user, as opposed to bugs it logs.

Everything derived from ``ValueError`` (the engine's ``IllegalAction`` included) carries a
message written for the player; the handlers in ``bot.interactions`` show it ephemerally and
log nothing about it. Any other exception is a bug: it is logged with its traceback and the
user gets a generic apology.
"""

from __future__ import annotations


class UserError(ValueError):
    """A polite refusal; the message is shown to the user as it is."""


class NoTable(UserError):
    """The channel or table id names no open table."""

    def __init__(self, what: str = "There is no open Shanghai table here.") -> None:
        super().__init__(what)


class NotSeated(UserError):
    """The user is not a player at this table."""

    def __init__(self) -> None:
        super().__init__("You are not playing at this table. Join the next game!")


class NotHost(UserError):
    """Only the table's host may do this."""

    def __init__(self, action: str) -> None:
        super().__init__(f"Only the host can {action}.")


class WrongPhase(UserError):
    """The table is in the lobby when the game is needed, or the other way round."""


class StaleControl(UserError):
    """A button from an earlier state of the game."""

    def __init__(self) -> None:
        super().__init__(
            "That button belongs to an earlier moment of the game, so nothing was done."
        )
