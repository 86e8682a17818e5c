"""Nudge and skip: a table need not sit out a whole turn limit for one absent player.

An absent player cost everyone 90 + 91 + 91 s before the bot took their seat over. Now the
host may **nudge** the player to move (one ping a turn, after ``NUDGE_AFTER`` seconds of it),
and the other people at the table may **vote to skip**: once most of them have (after
``SKIP_AFTER`` seconds), the bot plays that turn at once, exactly as if its time had run out, so
the away rules stay as they are (a skipped turn counts as a timed-out one).

``TurnNudges`` holds one turn's nudge and votes and alone changes them; the checks here only
read the table and return what a request leads to, or raise the ``UserError`` that says why
not. ``TableService`` carries them out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.ground.errors import NotHost, NotSeated, UserError, WrongPhase

if TYPE_CHECKING:
    from bot.service.live import LiveTable

#: Seconds of a turn before its player may be nudged, and before the others may vote to skip.
NUDGE_AFTER = 20.0
SKIP_AFTER = 30.0


@dataclass
class TurnNudges:
    """The nudge and the skip votes of one turn (``turn``: that turn's deadline, which every
    new turn changes), forgotten when the turn ends."""

    turn: float | None = None
    nudged: bool = False
    votes: set[int] = field(default_factory=set)

    def for_turn(self, turn: float | None) -> TurnNudges:
        """This turn's record: a new turn starts with no nudge and no votes."""
        if turn != self.turn:
            self.turn, self.nudged, self.votes = turn, False, set()
        return self

    def nudge(self) -> None:
        self.nudged = True

    def vote(self, seat: int) -> int:
        self.votes.add(seat)
        return len(self.votes)

    def nudged_in(self, turn: float | None) -> bool:
        return self.turn == turn and self.nudged

    def voted_in(self, turn: float | None, seat: int) -> bool:
        return self.turn == turn and seat in self.votes


@dataclass(frozen=True)
class SkipVote:
    """What a skip vote came to: the votes so far, how many it takes, whether the bot played."""

    votes: int
    needed: int
    played: bool


def _turn_of_a_person(table: LiveTable, now: float, after: float, turn_seconds: float) -> int:
    """The seat to move, when it is a present person's turn that has run ``after`` seconds."""
    game = table.game
    if game is None or game.is_over or table.closed:
        raise WrongPhase("The game hasn't started yet.", code="not_started")
    seat = game.current
    if table.is_computer(seat) or table.is_away(seat) or seat in table.removed:
        raise UserError("The bot is playing that seat already.", code="nudge.bot_plays")
    deadline = table.turn_deadline
    started = None if deadline is None else deadline - turn_seconds
    waited = 0.0 if started is None else now - started
    if waited < after:
        left = max(1, round(after - waited))
        raise UserError(
            f"Give them a moment: that is possible in {left} s.", code="nudge.too_soon", left=left
        )
    return seat


def check_nudge(table: LiveTable, user_id: int, now: float, turn_seconds: float) -> int:
    """The user id to ping when the host nudges now."""
    if user_id != table.record.host_id:
        raise NotHost("nudge a player", code="not_host.nudge")
    seat = _turn_of_a_person(table, now, NUDGE_AFTER, turn_seconds)
    if table.seat_of(user_id) == seat:
        raise UserError("It's your own turn.", code="nudge.own_turn")
    if table.nudges.nudged_in(table.turn_deadline):
        raise UserError("You nudged them this turn already.", code="nudge.once")
    return table.record.seats[seat].user_id


def voters(table: LiveTable, seat: int) -> list[int]:
    """The seats that may vote to skip ``seat``'s turn: the other present people."""
    return [
        other
        for other in range(len(table.record.seats))
        if other != seat
        and not table.is_computer(other)
        and not table.is_away(other)
        and other not in table.removed
    ]


def check_skip(table: LiveTable, user_id: int, now: float, turn_seconds: float) -> tuple[int, int]:
    """(the voter's seat, the votes needed) for a skip vote now: most of the other people."""
    voter = table.seat_of(user_id)
    if voter is None:
        raise NotSeated()
    seat = _turn_of_a_person(table, now, SKIP_AFTER, turn_seconds)
    if voter == seat:
        raise UserError("It's your own turn: just play it.", code="nudge.own_turn_skip")
    if table.nudges.voted_in(table.turn_deadline, voter):
        raise UserError("You voted to skip this turn already.", code="nudge.voted")
    return voter, len(voters(table, seat)) // 2 + 1
