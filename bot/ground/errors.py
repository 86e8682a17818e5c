"""Refusals the bot explains to a user, as opposed to bugs it logs.

Everything derived from ``ValueError`` (the engine's ``IllegalAction`` included) carries a
message written for the player; the handlers in ``bot.interactions.handler`` show it ephemerally and
log nothing about it. Any other exception is a bug: it is logged with its traceback and the
user gets a generic apology.

Like the engine's refusals, a ``UserError`` carries a ``code`` and ``params`` beside its English
message; ``bot.i18n.refusals`` words it in the reader's language from the catalogue key
``error.<code>``.
"""

from __future__ import annotations

from pydantic import ValidationError

from engine.errors import IllegalAction, Param, RulesConflict


class UserError(ValueError):
    """A polite refusal; the message is the English wording, ``code`` names it for others."""

    #: The catalogue key is ``error.<code>``; the class attribute names the whole family.
    code: str = "user_error"

    def __init__(self, message: str = "", /, *, code: str | None = None, **params: Param) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.params: dict[str, Param] = params


def rules_refusal(error: ValueError) -> IllegalAction:
    """The engine's coded reason why house rules were refused.

    ``Rules`` raises ``RulesConflict`` inside pydantic's validators, which wrap it in a
    ``ValidationError``; a wrong value's type error has no code and gets the family's wording.
    """
    if isinstance(error, IllegalAction):
        return error
    if isinstance(error, ValidationError):
        for detail in error.errors():
            cause = (detail.get("ctx") or {}).get("error")
            if isinstance(cause, IllegalAction):
                return cause
    return RulesConflict(str(error))


class NoTable(UserError):
    """The channel or table id names no open table."""

    code = "no_table"

    def __init__(
        self, what: str = "There is no open Shanghai table here.", *, code: str | None = None
    ) -> None:
        super().__init__(what, code=code)


class NotSeated(UserError):
    """The user is not a player at this table."""

    code = "not_seated"

    def __init__(self) -> None:
        super().__init__("You are not playing at this table. Join the next game!")


class NotHost(UserError):
    """Only the table's host may do this; ``code`` names what (``not_host.kick``)."""

    code = "not_host"

    def __init__(self, action: str, *, code: str | None = None) -> None:
        super().__init__(f"Only the host can {action}.", code=code)


class WrongPhase(UserError):
    """The table is in the lobby when the game is needed, or the other way round."""

    code = "wrong_phase"


class StaleControl(UserError):
    """A button from an earlier state of the game."""

    code = "stale_control"

    def __init__(self) -> None:
        super().__init__(
            "That button belongs to an earlier moment of the game, so nothing was done."
        )
