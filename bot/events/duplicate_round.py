"""A duplicate round's deals: drawn and kept, their hashes posted, their seeds revealed, and
the round's tables compared.

A *duplicate* event (``options["duplicate"]``) deals every table of a round with as many seats
the same deals: one game secret and one first-dealer seed per round and seat count, with its
stock drawn one lane a seat, kept in the event's options (``dealt``) before the round's tables
open, so a restart deals a missing table alike. Its hashes are posted when the round is
seated (owed in ``hashes_due`` until then, so a restart in between posts them when the event
resumes); its seeds, each player's private line and the round's standings only once the
round's last table has ended (``revealed``), and its standings are each player's difference
from the other tables' average (``bot.events.duplicate``).

``DuplicateRound`` does the writing and the telling (through the store and a ``Herald``) and
keeps the score sheets of tables already over; the event runner holds one and calls it at
each step, handing it the event as it stands and taking back the event as it wrote it. The
pure questions (which deals a table plays, who may watch it) are the functions below it.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Protocol

from bot.events.duplicate import (
    Comparison,
    TableDeals,
    best,
    by_player,
    compare,
    groups,
    round_points,
)
from bot.events.options import deals_of
from bot.events.standings import Finish, Standing, points_text, standings_from_points
from bot.service.live import DealtAlike
from data.events import EventRecord, EventTable
from data.store import Store
from engine import Game
from engine.shuffle import commitment, deal_seed


class Herald(Protocol):
    """What a duplicate round says in Discord: a line in the event's channel, a private line
    to a player (the event runner's ``Hall`` does both)."""

    async def announce(self, event: EventRecord, key: str, **values: Any) -> None:
        """Post a line (an i18n key) in the event's channel, in the event's language."""
        ...

    async def tell(self, event: EventRecord, user_id: int, key: str, **values: Any) -> None:
        """Say a line (an i18n key) to one player privately, in the event's language."""
        ...


@dataclass(frozen=True, slots=True)
class Scored:
    """The standings of an event's rows, and a duplicate event's comparisons of each round
    whose tables all ended."""

    standings: tuple[Standing, ...]
    comparisons: Mapping[int, Sequence[Comparison]] = field(default_factory=dict)
    #: Each such round's event points (``round_points``) by player.
    round_points: Mapping[int, Mapping[int, Fraction]] = field(default_factory=dict)


class DuplicateRound:
    """Deals, posts, reveals and scores the rounds of duplicate events."""

    def __init__(self, store: Store, herald: Herald) -> None:
        self.store = store
        self.herald = herald
        #: The score sheet and seats of each duplicate table already over, by table id:
        #: they never change again, so each game's state is read once.
        self._sheets: dict[int, TableDeals] = {}

    async def deal(self, event: EventRecord, number: int, seats: Collection[int]) -> EventRecord:
        """The event with round ``number``'s deals drawn for each seat count in ``seats``
        (a game secret and a first-dealer seed each), written before its tables open; a
        round already dealt (a retry after a restart) keeps its deals."""
        dealt = {k: dict(v) for k, v in dict(event.options.get("dealt") or {}).items()}
        this = dealt.setdefault(str(number), {})
        missing = [count for count in sorted(seats) if str(count) not in this]
        if not missing:
            return event
        for count in missing:
            this[str(count)] = [
                secrets.token_hex(32),
                random.SystemRandom().randrange(2**62),
                "per_seat",
            ]
        # The round's hashes are owed from now until posted (``post_hashes``): a restart in
        # between posts them when the event resumes.
        due = sorted({*(int(r) for r in event.options.get("hashes_due") or ()), number})
        options = {**event.options, "dealt": dealt, "hashes_due": due}
        await self.store.set_event_options(event.id, options)
        return replace(event, options=options)

    async def post_hashes(self, event: EventRecord) -> EventRecord:
        """Post the hash of each deal of every round whose hashes are owed (``hashes_due``,
        set when the round is dealt), before anyone plays it, then record them as posted; the
        event as written. A round whose seeds are already out (``revealed``) is owed nothing:
        its hashes would prove nothing any more."""
        due = [int(r) for r in event.options.get("hashes_due") or ()]
        if not due:
            return event
        revealed = {int(r) for r in event.options.get("revealed") or ()}
        for number in sorted(set(due) - revealed):
            for count, seeds in round_seeds(event, number):
                lines = "\n".join(f"{d}. `{commitment(seed)}`" for d, seed in enumerate(seeds, 1))
                await self.herald.announce(
                    event,
                    "event.dup_hashes",
                    name=event.name,
                    round=number,
                    seats=count,
                    lines=lines,
                )
        # Recorded once posted: a restart before this posts them again rather than never.
        options = {**event.options, "hashes_due": []}
        await self.store.set_event_options(event.id, options)
        return replace(event, options=options)

    async def reveal(self, event: EventRecord, scored: Scored) -> EventRecord:
        """Once every table of a duplicate round has ended: post its seeds, and tell each
        player privately how their deals compared; once per round (``revealed``). The event
        as written."""
        revealed = [int(r) for r in event.options.get("revealed") or ()]
        due = [r for r in scored.comparisons if r not in revealed]
        if not event.options.get("duplicate") or not due:
            return event
        options = {**event.options, "revealed": sorted([*revealed, *due])}
        await self.store.set_event_options(event.id, options)
        event = replace(event, options=options)
        for number in sorted(due):
            for _count, seeds in round_seeds(event, number):
                lines = "\n".join(f"{d}. `{seed.hex()}`" for d, seed in enumerate(seeds, 1))
                await self.herald.announce(
                    event, "event.dup_seeds", name=event.name, round=number, lines=lines
                )
            points = scored.round_points.get(number, {})
            for player, mine in by_player(scored.comparisons[number]).items():
                top = best(mine)
                if top is None or top.average is None:
                    continue
                await self.herald.tell(
                    event,
                    player,
                    "event.dup_private",
                    name=event.name,
                    round=number,
                    points=_signed(points.get(player, Fraction(0))),
                    deal=top.deal,
                    score=top.score,
                    average=number_text(top.average),
                )
        return event

    async def score(
        self,
        event: EventRecord,
        tables: Sequence[EventTable],
        players: list[int],
        played: list[list[Finish]],
        removed: Collection[int],
    ) -> Scored:
        """The event points of every round whose tables have all ended (a round still playing
        counts for nothing yet: its comparisons would tell of tables still to finish)."""
        rounds = int(event.options.get("rounds", 1))
        deals = deals_of(event)
        points: dict[int, Fraction] = dict.fromkeys(players, Fraction(0))
        totals: dict[int, int] = dict.fromkeys(players, 0)
        count: dict[int, int] = dict.fromkeys(players, 0)
        for finishes in played:
            for finish in finishes:
                if finish.player in totals:
                    totals[finish.player] += finish.total
                    count[finish.player] += 1
        comparisons: dict[int, list[Comparison]] = {}
        by_round: dict[int, dict[int, Fraction]] = {}
        for number in sorted({t.round for t in tables if t.round <= rounds}):
            this = [t for t in tables if t.round == number]
            if not all(t.is_over for t in this):
                continue
            found = [d for d in [await self._table_deals(t) for t in this] if d is not None]
            comparisons[number] = []
            by_round[number] = {}
            for group in groups(found):
                comparisons[number].extend(compare(group, deals))
                for player, earned in round_points(group, deals).items():
                    by_round[number][player] = earned
                    if player in points:
                        points[player] += earned
        ordered = standings_from_points(players, points, totals, count, removed)
        return Scored(tuple(ordered), comparisons, by_round)

    async def _table_deals(self, table: EventTable) -> TableDeals | None:
        """A table's seats and score sheet as its stored game left them (a computer's seat
        as 0); ``None`` for a table never started."""
        if table.table_id is None:
            return None
        known = self._sheets.get(table.table_id)
        if known is not None:
            return known
        record = await self.store.get_table(table.table_id)
        if record is None or record.state is None:
            return None
        game = Game.from_json(record.state)
        deals = TableDeals(
            table=table.table_id,
            players=tuple(0 if seat.is_computer else seat.user_id for seat in record.seats),
            sheet=tuple(tuple(row) for row in game.score_sheet),
        )
        self._sheets[table.table_id] = deals
        return deals


def dealt_of(event: EventRecord, table: EventTable) -> DealtAlike | None:
    """How ``table``'s round and seat count is dealt, or ``None`` for a table dealt its own
    cards (an ordinary event, a final table). A round written before the stock had lanes
    keeps drawing from one shared stock, so that its tables still opening draw alike."""
    dealt = (event.options.get("dealt") or {}).get(str(table.round)) or {}
    entry = dealt.get(str(len(table.players) + table.computers))
    if entry is None:
        return None
    laned = len(entry) > 2 and entry[2] == "per_seat"
    return DealtAlike(
        bytes.fromhex(str(entry[0])), int(entry[1]), "per_seat" if laned else "shared"
    )


def watchers(
    event: EventRecord, tables: Sequence[EventTable], table: EventTable
) -> tuple[int, ...]:
    """Who may see a duplicate table's thread: its players, and the organiser unless they
    play at another table of the round (the play of one table tells the others their
    cards). Nobody is listed for an ordinary table or a final: their threads are public."""
    if dealt_of(event, table) is None:
        return ()
    organiser = event.organiser_id
    elsewhere = any(
        organiser in other.players
        for other in tables
        if other.round == table.round and other is not table
    )
    return (*table.players, *(() if elsewhere or organiser in table.players else (organiser,)))


def round_seeds(event: EventRecord, number: int) -> list[tuple[int, list[bytes]]]:
    """Each seat count of round ``number`` with its deals' seeds, deal 1 first."""
    dealt = (event.options.get("dealt") or {}).get(str(number)) or {}
    deals = deals_of(event)
    return [
        (int(count), [deal_seed(bytes.fromhex(str(pair[0])), d) for d in range(deals)])
        for count, pair in sorted(dealt.items(), key=lambda item: -int(item[0]))
    ]


def _signed(points: Fraction) -> str:
    """A round's duplicate points with their sign: above 0 is better than the others."""
    return ("+" if points > 0 else "") + points_text(points)


def number_text(value: Fraction) -> str:
    """A score or an average as players read it: whole numbers bare, else one decimal."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.1f}"
