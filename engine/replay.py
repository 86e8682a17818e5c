"""Playing a recorded game again, step by step, as each person at the table saw it.

``replay(record)`` rebuilds the game from its record with the engine itself (every action is
applied and judged again, so a record that was tampered with fails loudly) and yields one
``ReplayStep`` before the first action and one after each. A step offers only what a viewer
was entitled to: ``view(viewer)`` is the engine's own per-player view (a spectator's has no
hand), and the hands left when a deal ended, which its scoring laid open, are in
``revealed``. The live game is never handed out, so a screen built on a step cannot peek.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from .actions import Action
from .cards import Card, format_cards
from .errors import IllegalAction
from .events import (
    BuyAwarded,
    DealEnded,
    DealStarted,
    Event,
    GameEnded,
    JokerSwapped,
    Restocked,
    UpcardDead,
    WentOut,
)
from .game import Game
from .record import GameRecord
from .view import PlayerView


class ReplayError(ValueError):
    """The record does not replay: an action the engine refuses, or a result that differs."""


@dataclass(frozen=True, slots=True)
class Line:
    """The material of one step's one-line description, for a screen to word: who (seat
    and player id) did what (the action's kind and text), and what followed from it, each
    as public as the table saw it."""

    seat: int | None
    player: str | None
    kind: str
    action: str
    notes: tuple[str, ...]

    def text(self) -> str:
        """Plain English, for the command line and logs of tests."""
        who = "" if self.player is None else f"{self.player} (seat {self.seat}): "
        tail = "".join(f"; {note}" for note in self.notes)
        return f"{who}{self.action}{tail}"


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """The game after ``index`` actions (0: as dealt, before any action)."""

    index: int
    #: The action that led here and its seat; None for the first step.
    seat: int | None
    action: Action | None
    events: tuple[Event, ...]
    line: Line
    #: Hands laid open by a deal that ended at this step (its scoring counts them), by seat;
    #: empty at every other step.
    revealed: tuple[tuple[Card, ...], ...]
    #: Which deal the revealed hands are from.
    revealed_deal: int | None
    _views: Mapping[str | None, PlayerView]

    def view(self, viewer: str | None) -> PlayerView:
        """The engine's view for ``viewer`` (a seated player's id, or None: a spectator)."""
        try:
            return self._views[viewer]
        except KeyError:
            raise ValueError(f"{viewer!r} is not seated at this game") from None


def replay(record: GameRecord) -> Iterator[ReplayStep]:
    """Every step of the recorded game; raises ``ReplayError`` at the first action the
    engine refuses, and after the last one if the game is not over or its result differs
    from the record's."""
    try:
        game = record.new_game()
    except ValueError as error:
        raise ReplayError(f"The game cannot be set up: {error}") from None
    opening = Line(None, None, "deal", f"deal 1, dealt by seat {game.dealer}", ())
    yield _step(game, 0, None, None, (), opening)
    for index, entry in enumerate(record.actions, start=1):
        action = entry.parsed()
        player = game.players[entry.seat]
        try:
            events = tuple(game.apply(player, action))
        except (IllegalAction, ValueError) as error:
            raise ReplayError(f"action {index} ({player}: {action}) is refused: {error}") from None
        line = Line(entry.seat, player, action.name, str(action), _notes(game, events))
        yield _step(game, index, entry.seat, action, events, line)
    if not game.is_over:
        raise ReplayError(f"the record ends after {len(record.actions)} actions, mid-game")
    if record.deal_seeds and game.revealed_seeds != record.deal_seeds:
        raise ReplayError(
            f"the record has {len(record.deal_seeds)} deal seeds, the game dealt "
            f"{game.deal_attempt + 1} times"
        )
    result = record.result
    if result is not None and (
        tuple(game.totals) != result.totals or game.winner_seats != result.winners
    ):
        raise ReplayError(
            f"the replay ends with totals {game.totals}, the record says {list(result.totals)}"
        )


def _step(
    game: Game,
    index: int,
    seat: int | None,
    action: Action | None,
    events: tuple[Event, ...],
    line: Line,
) -> ReplayStep:
    ended = next((e for e in events if isinstance(e, DealEnded) and e.hands), None)
    views = {viewer: game.view(viewer) for viewer in (None, *game.players)}
    return ReplayStep(
        index,
        seat,
        action,
        events,
        line,
        () if ended is None else ended.hands,
        None if ended is None else ended.deal,
        views,
    )


def _notes(game: Game, events: tuple[Event, ...]) -> tuple[str, ...]:
    """What followed from an action, as the table was told (no hidden card is named)."""
    names = game.players
    notes: list[str] = []
    for event in events:
        if isinstance(event, BuyAwarded) and not event.in_turn:
            notes.append(f"{names[event.player]} bought {event.card}")
        elif isinstance(event, UpcardDead):
            notes.append(f"{event.card} is dead")
        elif isinstance(event, Restocked):
            notes.append(f"the stock is rebuilt ({event.cards} cards)")
        elif isinstance(event, JokerSwapped):
            notes.append(f"took {event.wild} from meld {event.meld}")
        elif isinstance(event, WentOut):
            notes.append("went out" + (" blind" if event.blind else ""))
        elif isinstance(event, DealEnded):
            scores = " ".join(str(score) for score in event.scores)
            notes.append(f"deal {event.deal} ends ({event.reason}): {scores}")
        elif isinstance(event, DealStarted):
            notes.append(f"deal {event.deal}, dealt by seat {event.dealer}")
        elif isinstance(event, GameEnded):
            winners = ", ".join(names[seat] for seat in event.winners)
            notes.append(f"the game is over, won by {winners}")
    return tuple(notes)


def describe_hands(step: ReplayStep) -> list[str]:
    """The revealed hands of a step, one line per seat (for the command line)."""
    return [f"seat {seat}: {format_cards(hand) or '-'}" for seat, hand in enumerate(step.revealed)]
