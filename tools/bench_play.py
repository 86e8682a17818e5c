"""``python -m tools.bench_play``: whole games through simcord, played by scripted people.

Each person clicks only what a member of the channel sees: the table message's buttons and
their own ephemeral hand message (opened once with **My hand**, then kept). They decide with
the engine's ``normal`` strategy from their own hand (the benchmark peeks at their own view to
choose, never at anyone else's), and every click costs ``--pace`` seconds of the virtual clock.
Where the hand offers a play and the person's next one in one pick (take then discard, lay
down then discard, a joker swapped and placed...), they use it. The people who wait do only
what their hand asks: when it asks about the upcard (their buy preference, by default only
a card that helps their contract), **Buy** if the strategy wants it, else **Pass**; their
clicks are counted. ``--game`` plays Shanghai's other presets or classic Rummy.

It prints, per table layout (4 people; 2 people + 2 computers):

- turn flow: clicks per turn of the person whose turn it is (median, mean, max), the share of
  turns that needed a Refresh (a click answered "earlier moment", or a hand without the
  controls of the turn), the wait of a held draw from its click until the card is in hand
  (median, p95), and the game's length at that pace;
- channel traffic (the calls that post or edit the table's channel messages: by REST, and
  through people's clicks' webhooks when the table message rides on them,
  ``bot.channel.courier``): new messages, edits, deletes, bytes uploaded (channel and
  interaction responses separately), the most channel calls in any 5 s window, calls per
  turn; then the REST ones alone, which count against the bot's 50 requests/s ("on the
  token"), and the busy tables one token can serve (50 / token calls per second);
- how far the table message is behind its game, as a spectator sees it: for each call that
  posts or edits a channel message while the game is played, the oldest change the table
  must show (``bot.channel.table_text.worth_showing``: a turn passed, a deal, a buy, a
  lay-down) that no call since the previous one has shown (median, p99, most).
  ``--spectator-seconds`` sets the bot's pace of redraws carried on clicks
  (``SHANGHAI_SPECTATOR_SECONDS``), to measure the other side of that trade.

The figures are for whole games unless ``--deals`` shortens them.

Measured on November 30 (seed 1, 2.5 s a click, whole 10-deal games, 4 people):

=========================  ==========================  ===========================
figure                     before (issues 9/10 open)   after
=========================  ==========================  ===========================
clicks per turn            median 3, mean 3.51, max 13  median 2, mean 2.26, max 7
turns needing Refresh      98%                          0%
held-draw wait             median 3.0 s, p95 3.0 s      median 0.0 s, p95 0.0 s
game length                52.3 min                     27.2 min (52%)
channel calls per turn     4.02 (1.61 msg + 2.41 edit)  1.30 (0.07 msg + 1.23 edit)
uploaded to the channel    15.9 MiB                     2.5 MiB
most calls in any 5 s      5 (8 with 2 computers)       3 (4 with 2 computers)
busy tables per 50 req/s   135                          218
=========================  ==========================  ===========================

Then Buy / Pass moved into the open hands and a table whose people all follow their hands is
redrawn at most every 7.5 s (same run, both layouts: 4 people | 2 people + 2 computers):

=========================  ==========================  ===========================
figure                     before                       after
=========================  ==========================  ===========================
clicks per turn            median 2, mean 2.26 | 2.26  median 2, mean 2.26 | 2.26
held-draw wait             median 0.0 s, p95 0.0 s      median 0.0 s, p95 0.0 s
channel calls per turn     1.30 | 1.29                  0.84 | 0.79
uploaded to the channel    2.45 | 2.58 MiB              2.95 | 2.68 MiB
most calls in any 5 s      3 | 4                        4 | 4
busy tables per 50 req/s   218 | 214                    335 | 351
=========================  ==========================  ===========================

Then the table picture drew the seats and melds only (the upcard, stock and turn are the
embed's words), so an edit that changes neither keeps the attachment; the table picture went
up as lossless WebP, the hands in 32 colours and the score sheet 480 px wide (December 3, same
run, both layouts: 4 people | 2 people + 2 computers):

=========================  ==========================  ===========================
figure                     before                       after
=========================  ==========================  ===========================
channel calls per turn     0.72 | 0.70                  0.72 | 0.70
uploaded to the channel    4.54 | 5.13 MiB              1.28 | 1.64 MiB
uploaded to the hands      3.83 | 1.82 MiB              2.13 | 1.02 MiB
=========================  ==========================  ===========================

Those "after" figures were taken on the branch of that change; the same run on the merged
main of that day (57036d1, with the ending, the pause between deals and the replays) gave
1.46 | 1.78 MiB to the channel and 3.28 | 1.67 MiB to the hands. Then the hand pictures went
up as lossless WebP of the same 32 colours, and the table message lost its Buy / Pass
(December 3, 4 people | 2 people + 2 computers, same run):

=========================  ==========================  ===========================
figure                     before (57036d1)             after
=========================  ==========================  ===========================
clicks per turn            median 2, mean 1.94 | 1.93   median 2, mean 1.94 | 1.93
channel calls per turn     0.72 | 0.68                  0.72 | 0.68
uploaded to the channel    1.46 | 1.78 MiB              1.45 | 1.78 MiB
uploaded to the hands      3.28 | 1.67 MiB              2.48 | 1.26 MiB
=========================  ==========================  ===========================

Then the private hand became a Components V2 layout (the turn's prompt first, the picture at
full width, the controls last), and a click whose answer shows the same picture (Buy, Pass,
Hint, Options, Back, a refusal) names the attachment the message has instead of sending it
again (December 3, seed 1, 4 people | 2 people + 2 computers; the layout alone, before the
pictures were kept, gave the same figures as before):

=========================  ==========================  ===========================
figure                     before (aa28ac5)             after
=========================  ==========================  ===========================
clicks per turn            median 2, mean 1.94 | 1.93   median 2, mean 1.94 | 1.93
clicks of those who wait   0.26 | 0.13 a turn           0.26 | 0.13 a turn
channel calls per turn     0.72 | 0.68                  0.72 | 0.68
uploaded to the channel    1.46 | 1.78 MiB              1.45 | 1.78 MiB
uploaded to the hands      2.48 | 1.26 MiB              2.20 | 1.12 MiB
=========================  ==========================  ===========================

Then the hands went up in 24 colours instead of 32 (December 3, seed 1, 4 people): 971 hand
pictures, 2.20 -> 1.93 MiB; nothing else changed.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import logging
import random
import statistics
import tempfile
from collections import Counter
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import simcord
import simcord.http.router as simcord_router
from pydantic import SecretStr

from bot import Settings, create_bot
from bot.channel.publisher import Publisher
from bot.channel.table_text import worth_showing
from bot.service import Change
from bot.service.shortcuts import lay_off_all, new_melds
from engine.actions import (
    Action,
    BuyInTurn,
    Discard,
    DrawStock,
    GoDown,
    LayMelds,
    LayOff,
    LayOffItem,
    RequestBuy,
    SwapJoker,
    TakeUpcard,
)
from engine.players.levels import make_strategy
from tools.message_parts import items, text
from tools.reachable import offered_place

TOKEN = "x" * 24 + ".abcdef." + "y" * 27
STALE = "earlier moment"
CHANNEL_RATE = 50.0  # requests per second per bot token


@dataclass
class Call:
    """One REST request the bot made."""

    at: float
    method: str
    path: str
    uploaded: int


@dataclass
class Figures:
    """What one game measured."""

    layout: str
    turns: int = 0
    #: Every turn of the game, computers' too (the per-turn channel figures use these).
    all_turns: int = 0
    clicks: list[int] = field(default_factory=list)
    #: Clicks of the people who wait (Buy or Pass when their hand asks them), and the clicks
    #: that opened every person's hand when the game started.
    other_clicks: int = 0
    #: Of those, the Buy clicks (the rest are Pass).
    buy_clicks: int = 0
    opening_clicks: int = 0
    refreshes: int = 0
    held_waits: list[float] = field(default_factory=list)
    unreachable: int = 0
    #: The clicks of each turn that took more than two, for ``--long-turns``.
    long_turns: list[str] = field(default_factory=list)
    length: float = 0.0
    calls: list[Call] = field(default_factory=list)
    channel_id: int = 0
    #: The game's thread, when it moved into one (its calls count as the channel's: Discord
    #: limits each the same way, and they are what the game costs).
    thread_id: int | None = None
    #: When the game changed (a committed change with engine events), on the virtual clock.
    changes: list[float] = field(default_factory=list)

    def behind(self) -> list[float]:
        """For each channel post or edit, how long the oldest change it was the first to
        show had waited: how far the channel was behind the game when it caught up."""
        waits: list[float] = []
        pending = iter(sorted(self.changes))
        oldest = next(pending, None)
        for call in sorted(self.channel_calls(), key=lambda c: c.at):
            if call.method not in ("POST", "PATCH") or oldest is None or oldest > call.at:
                continue
            waits.append(call.at - oldest)
            while oldest is not None and oldest <= call.at:
                oldest = next(pending, None)
        return waits

    def channel_calls(self) -> list[Call]:
        """The calls that post or edit the channel's messages: by REST on the token, or
        through a click's webhook (a public follow-up carrying the table message, and its
        edits; a hand's own ``@original`` answer is not the channel's)."""
        prefixes = self._prefixes()
        return [c for c in self.calls if c.path.startswith(prefixes) or _carried(c)]

    def token_calls(self) -> list[Call]:
        """The channel calls made by REST, which spend the bot token's budget."""
        prefixes = self._prefixes()
        return [c for c in self.calls if c.path.startswith(prefixes)]

    def _prefixes(self) -> tuple[str, ...]:
        homes = [self.channel_id] if self.thread_id is None else [self.channel_id, self.thread_id]
        return tuple(f"/channels/{home}/messages" for home in homes)


def _carried(call: Call) -> bool:
    """A call through a click's webhook that posts or edits a public message."""
    path = call.path
    if not path.startswith("/webhooks/") or path.endswith("/messages/@original"):
        return False
    return call.method == "POST" or "/messages/" in path


class Recorder:
    """Every REST request with its virtual time and the bytes of its files."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.env: simcord.Env | None = None

    @contextmanager
    def installed(self) -> Iterator[None]:
        original = simcord_router.dispatch

        def dispatch(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            size = 0
            for file in kwargs.get("files") or []:
                fp = getattr(file, "fp", None)
                if isinstance(fp, io.BytesIO):
                    size += len(fp.getbuffer())
            at = self.env.backend.clock.elapsed if self.env is not None else 0.0
            self.calls.append(Call(at, method, path, size))
            return original(backend, method, path, **kwargs)

        simcord_router.dispatch = dispatch
        try:
            yield
        finally:
            simcord_router.dispatch = original


def _items(message: Any) -> list[dict[str, Any]]:
    """The buttons and selects of a discord.Message or a simcord ResponseMessage, as payload
    dicts (nested in a Components V2 layout or in classic rows)."""
    return items(message)


def _labels(message: Any) -> list[str]:
    return [str(item["label"]) for item in _items(message) if item.get("label")]


def _select(message: Any, value: str, verb: str = "") -> str | None:
    """The custom_id of the select on ``message`` offering ``value`` (for ``verb``), if any."""
    for item in _items(message):
        if verb and f":{verb}" not in str(item.get("custom_id")):
            continue
        if item.get("type") == 3 and any(o.get("value") == value for o in item.get("options", [])):
            return str(item["custom_id"])
    return None


def _select_prefix(message: Any, prefix: str) -> str | None:
    """``custom_id\\x00value`` of the first option whose value is ``prefix`` or goes on
    from it with a suit (``...|JK>1`` or ``...|JK>1:D``), if any."""
    for item in _items(message):
        if item.get("type") != 3:
            continue
        for option in item.get("options", []):
            value = str(option.get("value"))
            if value == prefix or value.startswith(prefix + ":"):
                return f"{item['custom_id']}\x00{value}"
    return None


def _values(message: Any, verb: str) -> set[str]:
    """Every option value of the ``verb`` selects on ``message``."""
    return {
        str(option.get("value"))
        for item in _items(message)
        if f":{verb}" in str(item.get("custom_id")) and item.get("type") == 3
        for option in item.get("options", [])
    }


def _layoff_values(message: Any, items: list[str]) -> list[str]:
    """What the person picks in the lay-off select for these places: the place itself where
    the select lists a card's places (a wild on a set by its meld, whatever suit the hand
    declared), else the card (its one place, or the picker asks where)."""
    offered = _values(message, "layoff")
    values = [
        offered_place(LayOffItem.parse(text), offered) or text.split(">")[0] for text in items
    ]
    return sorted(dict.fromkeys(values))


class Game:
    """One table played to the end by scripted people."""

    def __init__(
        self,
        env: simcord.Env,
        people: int,
        computers: int,
        pace: float,
        deals: int | None,
        seed: int,
        game: str = "standard",
    ) -> None:
        self.env = env
        #: ``standard``, ``preset_000`` or ``preset_004`` (Shanghai's presets), or ``rummy``.
        self.game_kind = game
        self.pace = pace
        self.rng = random.Random(seed)
        self.strategy = make_strategy("normal")
        self.guild = env.create_guild()
        self.channel = self.guild.create_text_channel("cards")
        names = ["alice", "bob", "carol", "dave"][:people]
        self.members = [self.guild.add_member(env.create_user(n)) for n in names]
        self.hands: dict[int, simcord.InteractionResult] = {}
        self.computers = computers
        self.deals = deals
        self.table_id = 0
        #: Every click of the turns, for debugging a layout by hand.
        self.trace: list[str] = []
        self.figures = Figures(
            f"{game}, {people} people + {computers} computers", channel_id=self.channel.id
        )

    # -- what people see -----------------------------------------------------------------------

    @property
    def service(self) -> Any:
        return self.env.bot.service  # type: ignore[attr-defined]

    @property
    def table(self) -> Any:
        return self.service.tables.get(self.table_id)

    def table_message(self) -> Any:
        """The table message where the table lives: its channel, or its game's thread."""
        table = self.table
        message_id = table.record.message_id
        home = self.channel
        if table.channel_id != self.channel.id:
            home = next(t for t in self.channel.threads if t.id == table.channel_id)
            self.figures.thread_id = home.id
        for message in reversed(home.history()):
            if message.id == message_id:
                return message
        raise AssertionError("the table message is gone")

    async def click(self, member: Any, message: Any, label: str) -> simcord.InteractionResult:
        await self.wait(self.pace)
        result: simcord.InteractionResult = await self.settled(member.click(message, label=label))
        return result

    async def wait(self, seconds: float) -> None:
        """Let ``seconds`` of virtual time pass, however long the bot takes to settle."""
        clock = self.env.backend.clock
        target = clock.elapsed + seconds
        for _ in range(60):
            try:
                await self.env.advance_time(max(0.0, target - clock.elapsed))
                return
            except TimeoutError:
                continue
        raise TimeoutError("the bot does not settle")

    async def settled(self, step: Awaitable[Any]) -> Any:
        """Run one click; on a loaded machine a picture may take longer to render than the
        settle timeout allows (1 s, kept under the publisher's 1.5 s so its waits stay
        virtual): then wait for the bot to finish before going on."""
        try:
            return await step
        except TimeoutError:
            for _ in range(60):
                try:
                    await self.env.advance_time(0)
                    return None
                except TimeoutError:
                    continue
            raise

    # -- the game ----------------------------------------------------------------------------

    async def play(self) -> Figures:
        host = self.members[0]
        options: dict[str, Any] = {} if self.deals is None else {"deals": self.deals}
        command = "shanghai new"
        if self.game_kind == "rummy":
            command, options = "rummy new", {}
        elif self.game_kind != "standard":
            options["preset"] = self.game_kind
        opened = await host.slash(self.channel, command, **options)
        assert opened.acknowledged, "could not open a table"
        self.table_id = self.service.for_channel(self.channel.id).id
        for member in self.members[1:]:
            await self.settled(member.click(self.table_message(), label="Join"))
        for _ in range(self.computers):
            await self.settled(host.click(self.table_message(), label="Add computer (normal)"))
        started_at = self.env.backend.clock.elapsed
        await self.settled(host.click(self.table_message(), label="Start"))
        await self.wait(self.pace)  # the table message is posted in the game's thread
        for member in self.members:  # everyone looks at their cards when the game starts
            self.hands[member.id] = await self.settled(
                member.click(self.table_message(), label="My hand")
            )
            self.figures.opening_clicks += 1
        guard = 0
        last = (-1, -1)
        while self.table is not None and not self.table.game.is_over:
            guard += 1
            if guard > 5_000:
                raise AssertionError("the game does not end")
            game = self.table.game
            seat = game.current
            if self.table.pause_until is not None:  # the last deal's recap stands alone
                await self.wait(max(0.0, self.table.pause_until - self.service.clock()) + 0.01)
                continue
            if (game.deal, game.current) != last:
                last = (game.deal, game.current)
                self.figures.all_turns += 1
            if self.table.is_computer(seat):
                await self.buyers()
                await self.wait(0.5)
                continue
            await self.person_turn(int(game.players[seat]))
        self.figures.length = self.env.backend.clock.elapsed - started_at
        return self.figures

    def member(self, user_id: int) -> Any:
        return next(m for m in self.members if m.id == user_id)

    def running(self) -> bool:
        table = self.table
        return table is not None and table.window.is_running(table.game, self.service.clock())

    async def buyers(self, skip: int | None = None) -> None:
        """The people who wait do only what the bot asks of them: one whose open hand asks
        about the upcard (Buy / Pass, by their buy preference) decides, Buy if the strategy
        wants the card; everyone else does nothing. Their clicks are counted."""
        table = self.table
        if table is None or not self.running():
            return
        game = table.game
        for member in self.members:
            if member.id == skip or not self.running():
                continue
            player = str(member.id)
            if player not in game.players or not game.is_legal(player, RequestBuy()):
                continue
            hand = self.hands.get(member.id)
            message = hand.response if hand is not None else None
            if message is None or "Pass" not in _labels(message):
                continue  # not asked: a person who waits does nothing
            labels = _labels(message)
            buy = next((label for label in labels if label.startswith("Buy ")), None)
            if buy is None:
                continue
            wants = self.strategy.wants_buy(game.view(player), self.rng)
            await self.settled(member.click(message, label=buy if wants else "Pass"))
            self.figures.other_clicks += 1
            self.figures.buy_clicks += int(wants)

    async def person_turn(self, user_id: int) -> None:
        member = self.member(user_id)
        figures = self.figures
        figures.turns += 1
        clicks = 0
        first_trace = len(self.trace)
        refreshed = False
        if user_id not in self.hands:
            await self.wait(self.pace)
            self.hands[user_id] = await self.settled(
                member.click(self.table_message(), label="My hand")
            )
            clicks += 1
        hand = self.hands[user_id]
        deal = self.table.game.deal
        # The people asked about the upcard decide while P looks at their hand: their clicks
        # land at the same moment as P's first one (they click at the same pace).
        await self.wait(self.pace)
        await self.buyers(skip=user_id)
        first_click_waited = True
        out_of_reach: set[str] = set()
        for _ in range(40):
            table = self.table
            if table is None or table.game.is_over:
                break
            game = table.game
            if game.current_player != str(user_id) or game.deal != deal:
                break
            message = hand.response
            labels = _labels(message)
            player = str(user_id)
            legal = [a for a in game.legal_actions(player) if str(a) not in out_of_reach]
            action = self.strategy.choose(game.view(player), legal, self.rng)
            steps = self.compound(action, game, player, message) or self.clicks_for(
                action, message, labels
            )
            if steps is None:
                # What the person wants is not on their message: they ask for it again.
                if "Refresh" not in labels or refreshed:
                    figures.unreachable += 1
                    out_of_reach.add(str(action))
                    continue
                refreshed = True
                await self.click(member, message, "Refresh")
                self.trace.append(f"{member.name}:Refresh")
                clicks += 1
                continue
            for kind, what in steps:
                current = hand.response
                if first_click_waited:
                    first_click_waited = False
                    await self.wait(0)
                    pace_left = 0.0
                else:
                    pace_left = self.pace
                if kind == "prefix":
                    # The combined swap: the option for that meld and end, whatever suit the
                    # hand declared for a joker on a set.
                    found = _select_prefix(current, what)
                    if found is None:
                        figures.unreachable += 1
                        out_of_reach.add(str(action))
                        break
                    what, kind = found, "select"
                if kind == "first":
                    # Asked only when the lay-offs allowed together are too many to list.
                    cid = _select(current, what, "laystart")
                    if cid is None:
                        continue
                    what, kind = f"{cid}\x00{what}", "select"
                if kind == "place":
                    # Asked only when the card has several places; else it went already. A
                    # wild on a set is offered once per set, its suit declared by the hand
                    # (engine.wild_suits): the person picks that set's place.
                    place = offered_place(LayOffItem.parse(what), _values(current, "place"))
                    cid = _select(current, place, "place") if place is not None else None
                    if cid is None:
                        continue
                    what, kind = f"{cid}\x00{place}", "select"
                await self.wait(pace_left)
                if kind == "button":
                    result = await self.settled(member.click(current, label=what))
                elif kind == "meld":
                    values = what.split(",")
                    cid = _select(current, values[0], "meld")
                    if cid is None:
                        figures.unreachable += 1
                        out_of_reach.add(str(action))
                        break
                    result = await self.settled(member.select(current, values, custom_id=cid))
                elif kind == "cards":
                    values = _layoff_values(current, what.split(","))
                    cid = _select(current, values[0], "layoff")
                    if cid is None:
                        figures.unreachable += 1
                        out_of_reach.add(str(action))
                        break
                    result = await self.settled(member.select(current, values, custom_id=cid))
                else:
                    if kind == "pick":
                        cid = _select(current, what)
                        if cid is None:
                            figures.unreachable += 1
                            out_of_reach.add(what)
                            break
                        what = f"{cid}\x00{what}"
                    cid, value = what.split("\x00")
                    result = await self.settled(member.select(current, [value], custom_id=cid))
                clicks += 1
                self.trace.append(f"{member.name}:{what.split(chr(0))[-1]}")
                if (
                    result is not None
                    and result.response is not None
                    and STALE in text(result.response)
                ):
                    refreshed = True
                    break
                if isinstance(action, (DrawStock, TakeUpcard)) and self.waiting(user_id):
                    await self.held_draw(user_id)
        self.trace.append(f"-- {clicks} clicks")
        if clicks > 2:
            figures.long_turns.append(" ".join(self.trace[first_trace:]))
        figures.clicks.append(clicks)
        if refreshed:
            figures.refreshes += 1

    def waiting(self, user_id: int) -> bool:
        table = self.table
        return (
            table is not None
            and table.window.held is not None
            and table.game.players[table.window.held.seat] == str(user_id)
        )

    async def held_draw(self, user_id: int) -> None:
        """The others decide about the upcard; the drawer waits until the card is in hand."""
        clock = self.env.backend.clock
        start = clock.elapsed
        await self.buyers(skip=user_id)
        while self.waiting(user_id):
            await self.wait(0.25)
            if clock.elapsed - start > 600:
                raise AssertionError("a held draw never resolves")
        self.figures.held_waits.append(clock.elapsed - start)

    def then(self, game: Any, player: str, *first: Action) -> Action | None:
        """What the person would do right after ``first`` (on a copy, with a copy of their
        random choices, so the game itself is not steered by looking ahead)."""
        trial = game.copy()
        for play in first:
            trial.apply(player, play)
            if trial.is_over or trial.current_player != player:
                return None
        if trial.is_over or trial.current_player != player:
            return None
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        legal = trial.legal_actions(player)
        return self.strategy.choose(trial.view(player), legal, rng) if legal else None

    def melds_then_discard(self, game: Any, player: str, action: LayMelds) -> str | None:
        """Rummy: the finish select's value when the person would lay just the hand's
        proposed new melds (in any order) and then throw a card, else None."""
        proposal = new_melds(game, game.seat_of(player), game.legal_actions(player))
        trial = game.copy()
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        laid: list[Any] = []
        step: Action | None = action
        while isinstance(step, LayMelds) and len(laid) < len(proposal):
            laid.extend(step.melds)
            trial.apply(player, step)
            if trial.is_over or trial.current_player != player:
                return None
            legal = trial.legal_actions(player)
            step = self.strategy.choose(trial.view(player), legal, rng) if legal else None
        if not isinstance(step, Discard) or Counter(map(str, laid)) != Counter(map(str, proposal)):
            return None
        return f"m:{step.card}"

    def compound(
        self, action: Action, game: Any, player: str, message: Any
    ) -> list[tuple[str, str]] | None:
        """The one pick that makes ``action`` and the person's next play together, when the
        hand offers it: take the upcard then discard; lay down (or lay off all) then discard;
        swap a joker and place it."""
        if isinstance(action, TakeUpcard):
            after = self.then(game, player, action)
            if isinstance(after, Discard):
                value = str(after.card)
                cid = _select(message, value, "takethrow")
                if cid is not None:
                    return [("select", f"{cid}\x00{value}")]
        if isinstance(action, LayMelds):
            finish = self.melds_then_discard(game, player, action)
            cid = _select(message, finish, "finish") if finish is not None else None
            if finish is not None and cid is not None:
                return [("select", f"{cid}\x00{finish}")]
        if isinstance(action, GoDown):
            after = self.then(game, player, action)
            if isinstance(after, Discard):
                value = f"d:{after.card}"
                cid = _select(message, value, "finish")
                if cid is not None:
                    return [("select", f"{cid}\x00{value}")]
            down = game.copy()
            down.apply(player, action)
            batch = lay_off_all(down, game.seat_of(player)) if isinstance(after, LayOff) else None
            if isinstance(after, LayOff) and batch and set(after.items) <= set(batch.items):
                last = self.then(game, player, action, batch)
                if isinstance(last, Discard):
                    value = f"b:{last.card}"
                    cid = _select(message, value, "finish")
                    if cid is not None:
                        return [("select", f"{cid}\x00{value}")]
        if isinstance(action, LayOff):
            batch = lay_off_all(game, game.seat_of(player))
            if batch is not None and set(action.items) <= set(batch.items):
                after = self.then(game, player, batch)
                if isinstance(after, Discard):
                    value = f"a:{after.card}"
                    cid = _select(message, value, "finish")
                    if cid is not None:
                        return [("select", f"{cid}\x00{value}")]
        if isinstance(action, SwapJoker):
            after = self.then(game, player, action)
            if isinstance(after, LayOff) and len(after.items) == 1:
                item = after.items[0]
                end = f":{item.end}" if item.end else ""
                value = f"{action}|{item.card}>{item.meld}{end}"
                if _select_prefix(message, value) is not None:  # the swaps on the screen
                    return [("prefix", value)]
                if "Swap joker" in _labels(message):
                    return [("button", "Swap joker"), ("prefix", value)]
        return None

    def clicks_for(
        self, action: Action, message: Any, labels: list[str]
    ) -> list[tuple[str, str]] | None:
        """The clicks that make ``action`` from what ``message`` shows, or None if absent."""

        def button(label: str) -> list[tuple[str, str]] | None:
            return [("button", label)] if label in labels else None

        if isinstance(action, DrawStock):
            return button("Draw from stock")
        if isinstance(action, TakeUpcard):
            take = next((label for label in labels if label.startswith("Take ")), None)
            return [("button", take)] if take else None
        if isinstance(action, BuyInTurn):
            return button("Buy in turn")
        if isinstance(action, Discard):
            cid = _select(message, str(action.card), "discard")
            return [("select", f"{cid}\x00{action.card}")] if cid else None
        if isinstance(action, GoDown):
            if "Lay down these melds" in labels:
                return [("button", "Lay down these melds")]
            if "Lay down" not in labels:
                return None
            return [("button", "Lay down"), ("button", "Confirm lay down")]
        if isinstance(action, LayMelds) and len(action.melds) == 1:
            # Rummy's new meld: its cards picked in the hand's meld select.
            cards = ",".join(str(placed.card) for placed in action.melds[0].cards)
            if _select(message, cards.split(",")[0], "meld") is not None:
                return [("meld", cards)]
        if isinstance(action, (LayOff, SwapJoker, LayMelds)):
            return self.two_step(action, message, labels)
        return None

    def card_by_card(self, action: LayOff) -> bool:
        """Whether each card of ``action`` may be laid off alone (the picker's way)."""
        game = self.table.game
        singles = {
            a.items[0].card
            for a in game.legal_actions(game.current_player)
            if isinstance(a, LayOff) and len(a.items) == 1
        }
        return all(item.card in singles for item in action.items)

    def two_step(
        self, action: Action, message: Any, labels: list[str]
    ) -> list[tuple[str, str]] | None:
        """Lay-offs and swaps: the picker (cards, then a place if several) or a plain select."""
        if isinstance(action, LayOff):
            everything = next((x for x in labels if x.startswith("Lay off all that fits")), None)
            if everything is not None:
                return [("button", everything)]
            items = ",".join(str(item) for item in action.items)
            first = _layoff_values(message, [str(action.items[0])])[0]
            if _select(message, first, "layoff") is not None:
                return [("cards", items), *(("place", str(item)) for item in action.items)]
        if isinstance(action, LayOff) and "Lay off" in labels and self.card_by_card(action):
            items = ",".join(str(item) for item in action.items)
            steps = [("button", "Lay off"), ("cards", items)]
            steps.extend(("place", str(item)) for item in action.items)
            return steps
        if isinstance(action, LayOff) and "Lay off" in labels:
            # Allowed only together: the screen lists them, or asks the first place first.
            return [("button", "Lay off"), ("first", str(action.items[0])), ("pick", str(action))]
        value = str(action)
        cid = _select(message, value)
        if cid is not None:
            return [("select", f"{cid}\x00{value}")]
        opener = "Lay off" if isinstance(action, LayOff) else "Swap joker"
        if opener in labels:
            return [("button", opener), ("pick", value)]
        return None


async def play_one(
    people: int,
    computers: int,
    pace: float,
    deals: int | None,
    seed: int,
    folder: Path,
    threads: bool = True,
    game: str = "standard",
    spectator_seconds: float | None = None,
) -> Figures:
    settings = Settings(
        discord_token=SecretStr(TOKEN),
        database=folder / f"bench-{people}-{computers}-{seed}-{threads}.sqlite3",
        seed=seed,
        threads=threads,
        spectator_seconds=spectator_seconds,
    )
    recorder = Recorder()
    changes: list[float] = []
    bot = create_bot(settings)
    with recorder.installed():
        async with simcord.run(bot, settle_timeout=1.0) as env:
            recorder.env = env
            note_changes(bot.publisher, env, changes)
            figures = await Game(env, people, computers, pace, deals, seed, game).play()
    figures.calls = recorder.calls
    figures.changes = changes
    return figures


def note_changes(publisher: Publisher, env: simcord.Env, changes: list[float]) -> None:
    """Record on the virtual clock each change of a game being played that the table message
    must show (``worth_showing``: a turn passed, a deal, a buy, a lay-down; a draw or a closed
    window waits for the turn's end by design), as the publisher hears of it (the listeners
    look its ``table_changed`` up at each change)."""
    heard = publisher.table_changed

    def table_changed(change: Change) -> None:
        if change.table.playing and worth_showing(change):
            changes.append(env.backend.clock.elapsed)
        heard(change)

    publisher.table_changed = table_changed  # type: ignore[method-assign]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def most_in_window(times: list[float], window: float = 5.0) -> int:
    best = start = 0
    for end, at in enumerate(times):
        while at - times[start] >= window:
            start += 1
        best = max(best, end - start + 1)
    return best


def report(figures: Figures, pace: float) -> None:
    channel = figures.channel_calls()
    posts = sum(1 for c in channel if c.method == "POST")
    edits = sum(1 for c in channel if c.method == "PATCH")
    deletes = sum(1 for c in channel if c.method == "DELETE")
    channel_bytes = sum(c.uploaded for c in channel)
    other_bytes = sum(c.uploaded for c in figures.calls) - channel_bytes
    turns = max(1, figures.all_turns)
    clicks = figures.clicks or [0]
    token = figures.token_calls()
    per_second = len(token) / figures.length if figures.length else 0.0
    tables = CHANNEL_RATE / per_second if per_second else float("inf")
    waits = figures.held_waits
    where = "in a thread" if figures.thread_id is not None else "in the channel"
    print(f"== {figures.layout}, {pace:g} s a click, the game {where}")
    print(
        f"  person turns {figures.turns}; clicks per turn median {statistics.median(clicks):g}, "
        f"mean {statistics.fmean(clicks):.2f}, max {max(clicks)}"
    )
    print(
        f"  turns needing Refresh {figures.refreshes / max(1, figures.turns):.0%}; "
        f"unreachable plays {figures.unreachable}; held draws {len(waits)}: wait median "
        f"{percentile(waits, 50):.2f} s, p95 {percentile(waits, 95):.2f} s"
    )
    print(
        f"  people who wait: {figures.other_clicks} clicks = "
        f"{figures.other_clicks / turns:.2f} a turn, {figures.buy_clicks} of them Buy (and "
        f"{figures.opening_clicks} to open the "
        f"hands at the start); longest turn {max(clicks)} clicks"
    )
    print(
        f"  game length {figures.length / 60:.1f} min, {figures.length / turns:.1f} s a turn "
        f"({figures.all_turns} turns)"
    )
    print(
        f"  channel: {posts} messages, {edits} edits, {deletes} deletes = {len(channel)} calls "
        f"({posts / turns:.2f} + {edits / turns:.2f} + {deletes / turns:.2f} = "
        f"{len(channel) / turns:.2f} per turn, {figures.all_turns} turns)"
    )
    print(
        f"  uploaded: channel {channel_bytes / 2**20:.2f} MiB, interaction responses "
        f"{other_bytes / 2**20:.2f} MiB; most channel calls in 5 s: "
        f"{most_in_window([c.at for c in channel])}"
    )
    print(
        f"  on the token: {len(token)} calls = {len(token) / turns:.2f} per turn (the rest "
        "through clicks' webhooks)"
    )
    behind = figures.behind() or [0.0]
    print(
        f"  table message behind its game: median {percentile(behind, 50):.1f} s, p99 "
        f"{percentile(behind, 99):.1f} s, most {max(behind):.1f} s ({len(figures.changes)} "
        "changes)"
    )
    print(
        f"  token calls per second {per_second:.3f} -> {tables:,.0f} busy tables per "
        f"{CHANNEL_RATE:g} req/s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pace", type=float, default=2.5, help="virtual seconds per click")
    parser.add_argument("--deals", type=int, default=None, help="deals per game (default all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--layouts", default="4+0,2+2", help="people+computers per table, comma-separated"
    )
    parser.add_argument(
        "--long-turns", action="store_true", help="print the clicks of turns over two clicks"
    )
    parser.add_argument(
        "--threads", choices=("on", "off"), default="on", help="a thread per game (as shipped)"
    )
    parser.add_argument(
        "--game",
        choices=("standard", "preset_000", "preset_004", "rummy"),
        default="standard",
        help="Shanghai's preset, or classic Rummy",
    )
    parser.add_argument(
        "--spectator-seconds",
        type=float,
        default=None,
        help="the pace of table redraws carried on clicks (default: the bot's, 12 s)",
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    with tempfile.TemporaryDirectory() as folder:
        for layout in args.layouts.split(","):
            people, computers = (int(n) for n in layout.split("+"))
            figures = asyncio.run(
                play_one(
                    people,
                    computers,
                    args.pace,
                    args.deals,
                    args.seed,
                    Path(folder),
                    threads=args.threads == "on",
                    game=args.game,
                    spectator_seconds=args.spectator_seconds,
                )
            )
            report(figures, args.pace)
            if args.long_turns:
                print("\n".join(f"  {turn}" for turn in figures.long_turns))


if __name__ == "__main__":
    main()
