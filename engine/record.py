"""A finished game as a document: the JSON game record of ``docs/game-record.md``.

A record holds what it takes to play the game again with the engine and nothing the engine
can work out: the rules, the seats, the seed (the first dealer, and the shuffles of a game
from before the checkable shuffle), the deal seeds revealed at the end, and every action in
order. The final totals and winners come along so that a replay can be checked against
them. The models are pydantic, like ``Rules``, which a record embeds as it is: reading a
record validates the rules, the seeds and every action's text in one go, and the error
names the field that is wrong.

The models live in the engine, not in ``data``: a record is the engine's own account of a
game (its actions' text, its rules, its seeds) and is read without any storage at all
(``python -m bot replay FILE``); ``data`` only keeps the rows a record is built from.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from .actions import Action, parse_action
from .game import Game
from .rules import Rules

#: The record format this module writes; reading refuses any other.
RECORD_VERSION: Literal[1] = 1
_HEX_SEED = re.compile(r"[0-9a-f]{64}")


class RecordedAction(BaseModel):
    """One accepted action: the seat that made it and its text (``str(action)``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int = Field(ge=0)
    action: str

    @field_validator("action")
    @classmethod
    def _parses(cls, text: str) -> str:
        parse_action(text)  # raises ValueError naming the text
        return text

    def parsed(self) -> Action:
        return parse_action(self.action)


class RecordedResult(BaseModel):
    """The game's end as it was played, by seat, for checking a replay."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    totals: tuple[int, ...]
    winners: tuple[int, ...]


class GameRecord(BaseModel):
    """A whole game, as ``docs/game-record.md`` describes it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["shanghai-game-record"] = "shanghai-game-record"
    version: Literal[1] = 1
    rules: Rules
    #: The players' ids in seat order (the engine's ``Game.players``).
    seats: tuple[str, ...] = Field(min_length=2)
    seed: int
    #: Every deal attempt's seed in lowercase hex, attempt 0 first; empty for a game shuffled
    #: the older way (from ``seed``).
    deal_seeds: tuple[str, ...] = ()
    actions: tuple[RecordedAction, ...]
    result: RecordedResult | None = None

    @field_validator("deal_seeds")
    @classmethod
    def _hex_seeds(cls, seeds: tuple[str, ...]) -> tuple[str, ...]:
        for seed in seeds:
            if not _HEX_SEED.fullmatch(seed):
                raise ValueError(f"{seed!r} is not a deal seed (64 lowercase hex digits)")
        return seeds

    @model_validator(mode="after")
    def _seats_agree(self) -> GameRecord:
        for index, entry in enumerate(self.actions):
            if entry.seat >= len(self.seats):
                raise ValueError(f"action {index} is by seat {entry.seat}, beyond the table")
        if self.result is not None and len(self.result.totals) != len(self.seats):
            raise ValueError("the result's totals do not match the seats")
        return self

    def new_game(self) -> Game:
        """The game as it stood before its first action: seated, shuffled, dealt."""
        seeds = [bytes.fromhex(seed) for seed in self.deal_seeds] if self.deal_seeds else None
        return Game.new(self.seats, self.rules, self.seed, deal_seeds=seeds)


def record_game(game: Game, actions: Iterable[tuple[int, Action | str]]) -> GameRecord:
    """The record of ``game``, which must be over, played with ``actions`` (seat, action) in
    order from its first deal. Raises ``ValueError`` for a game still in play: its seeds are
    not revealed yet."""
    if not game.is_over:
        raise ValueError("A game is recorded once it is over (its deal seeds are secret till then)")
    return GameRecord(
        rules=game.rules,
        seats=game.players,
        seed=game.seed,
        deal_seeds=game.revealed_seeds,
        actions=tuple(RecordedAction(seat=seat, action=str(action)) for seat, action in actions),
        result=RecordedResult(totals=tuple(game.totals), winners=game.winner_seats),
    )


def record_from_stored(state_json: str, actions: Sequence[tuple[str, str]]) -> GameRecord:
    """The record of a game the bot stored: its last saved state (which holds the rules, the
    seats, the seed and any secret) and its action log as (player id, action text) pairs in
    order. Raises ``ValueError`` for a state that does not load, a game not over, or an
    action by someone not seated."""
    game = Game.from_json(state_json)
    seats = {player: seat for seat, player in enumerate(game.players)}
    try:
        pairs = [(seats[player], text) for player, text in actions]
    except KeyError as error:
        raise ValueError(f"an action by {error.args[0]!r}, who has no seat") from None
    return record_game(game, pairs)


def write_record(record: GameRecord) -> str:
    """The record as JSON text, keys in the documented order: one line per top-level key
    and one per action, so that a record reads (and diffs) action by action."""
    parts = []
    for key, value in record.model_dump(mode="json").items():
        if key == "actions" and value:
            rows = ",\n    ".join(json.dumps(entry, separators=(", ", ": ")) for entry in value)
            text = f"[\n    {rows}\n  ]"
        else:
            text = json.dumps(value, separators=(", ", ": "))
        parts.append(f"  {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def read_record(text: str) -> GameRecord:
    """A record from JSON text; raises ``ValueError`` saying what is wrong with it."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"Not JSON: {error}") from None
    if not isinstance(data, dict) or data.get("format") != "shanghai-game-record":
        raise ValueError('Not a Shanghai game record (no "format": "shanghai-game-record")')
    if data.get("version") != RECORD_VERSION:
        raise ValueError(f"Unknown record version {data.get('version')!r}; this reads 1")
    try:
        return GameRecord.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise ValueError(f"Bad record at {where}: {first['msg']}") from None


__all__ = [
    "RECORD_VERSION",
    "GameRecord",
    "RecordedAction",
    "RecordedResult",
    "read_record",
    "record_from_stored",
    "record_game",
    "write_record",
]
