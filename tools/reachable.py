"""Which legal plays the private hand can make, and whole games played through it.

Issue 29.1: a play the engine allows but the hand does not offer can only be made by the turn
timer. ``reach`` answers, for a seat's snapshot, how the hand's controls produce each legal
action: the clicks (from the main screen, through the Lay down / Lay off / Swap screens and
the melds form) or None when no control can. It asks the same functions the hand does: the
screens come from ``bot.screens.hand_screen.hand_screen`` and a control's meaning from
``bot.views.hand_choices.resolver``, so what it finds is what a player finds.

``play_game`` plays one game in simcord, every person clicking only what their own hand
message shows, and at every decision point counts the *unreachable plays*: legal actions of
``Game.legal_actions`` for which ``reach`` finds no clicks. What each person plays is the
``normal`` computer strategy's choice among the plays the hand offers.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import simcord

from bot.i18n.terms import melds_for_form, melds_from_form
from bot.screens.hand_screen import Button, HandScreen, Mode, Select, hand_screen, layoff_cards
from bot.service import SeatSnapshot
from bot.service.shortcuts import Plays
from bot.views.hand_choices import resolver
from engine import Game
from engine.actions import (
    Action,
    CancelBuy,
    GoDown,
    LayMelds,
    LayOff,
    LayOffItem,
    RequestBuy,
    parse_action,
)
from engine.cards import Card
from engine.players.levels import make_strategy
from tools.message_parts import items

#: One click: ("button", verb), ("select", verb, values) or ("form", text) (the melds form,
#: opened by its button).
Step = tuple[Any, ...]


_screens: dict[tuple[int, str, str], tuple[SeatSnapshot, HandScreen]] = {}


def _screen(snap: SeatSnapshot, mode: Mode, picked: Card | LayOffItem | None = None) -> HandScreen:
    """The hand's screen in ``mode`` (drawn once per snapshot: every action asks)."""
    key = (id(snap), mode, str(picked))
    kept = _screens.get(key)
    if kept is not None and kept[0] is snap:
        return kept[1]
    if len(_screens) > 64:
        _screens.clear()
    screen = hand_screen(snap, "s", mode=mode, picked=picked)
    _screens[key] = (snap, screen)
    return screen


def _buttons(screen: HandScreen) -> set[str]:
    return {c.verb for c in screen.controls if isinstance(c, Button)}


def _select_values(screen: HandScreen, verb: str) -> set[str]:
    return {
        o.value for c in screen.controls if isinstance(c, Select) and c.verb == verb
        for o in c.options
    }  # fmt: skip


def _resolves(verb: str, values: list[str], snap: SeatSnapshot) -> Action | Plays | None:
    """What the hand makes of choosing ``values`` in a ``verb`` select, as it would."""
    try:
        meaning = resolver(verb, values)
        return meaning(snap) if meaning is not None else None
    except ValueError:
        return None


def _item_key(item: LayOffItem) -> str:
    """A lay-off's place without the suit a wild on a set declares: the hand declares it for
    the player (``engine.wild_suits``, issue 23.3), so one place per meld stands for all."""
    return str(replace(item, suit=None)) if item.suit is not None else str(item)


def _same(one: Action | Plays | None, other: Action) -> bool:
    """Equal actions (a compound play is none of them); a lay-off's cards in any order (the
    engine lays them the same), a wild on a set whatever suit it declares."""
    if isinstance(one, tuple):
        return False
    if isinstance(one, LayOff) and isinstance(other, LayOff):
        return Counter(map(_item_key, one.items)) == Counter(map(_item_key, other.items))
    return one == other


def reach(snap: SeatSnapshot, action: Action) -> list[Step] | None:
    """The clicks on ``snap``'s hand message that make ``action``, or None if none do."""
    main = _screen(snap, "main")
    buttons = _buttons(main)
    for verb in ("draw", "take", "buyin", "buy", "unbuy"):
        if verb in buttons and _same(_resolves_button(verb, snap), action):
            return [("button", verb)]
    if isinstance(action, RequestBuy) and "buy" in buttons:
        return [("button", "buy")]
    if isinstance(action, CancelBuy) and "unbuy" in buttons:
        return [("button", "unbuy")]
    for verb in ("discard", "laybatch", "place", "swap"):
        for value in sorted(_select_values(main, verb)):
            if _same(_resolves(verb, [value], snap), action):
                return [("select", verb, [value])]
    if "layall" in buttons and _same(_resolves_button("layall", snap), action):
        return [("button", "layall")]
    if isinstance(action, GoDown):
        return _go_down(snap, action, buttons)
    if isinstance(action, LayMelds):
        return _lay_melds(snap, action, main)
    if isinstance(action, LayOff):
        return _lay_off(snap, action, main, buttons)
    if "swap" in buttons:
        swaps = _screen(snap, "swap")
        for value in sorted(_select_values(swaps, "swap")):
            if _same(_resolves("swap", [value], snap), action):
                return [("button", "swap"), ("select", "swap", [value])]
    return None


def _resolves_button(verb: str, snap: SeatSnapshot) -> Action | Plays | None:
    try:
        meaning = resolver(verb, None)
        return meaning(snap) if meaning is not None else None
    except ValueError:
        return None


def _go_down(snap: SeatSnapshot, action: GoDown, buttons: set[str]) -> list[Step] | None:
    if "downok" in buttons and _same(_resolves_button("downok", snap), action):
        return [("button", "downok")]
    if "down" in buttons:  # the Lay down screen lists the other arrangements
        for value in sorted(_select_values(_screen(snap, "down"), "downpick")):
            if _same(_resolves("downpick", [value], snap), action):
                return [("button", "down"), ("select", "downpick", [value])]
    if "downedit" not in buttons:
        return None
    text = melds_for_form(action.melds)  # what a player writes: the melds
    try:
        written = parse_action("down " + melds_from_form(text))
    except ValueError:
        return None
    return [("form", text)] if written == action else None


def _lay_melds(snap: SeatSnapshot, action: LayMelds, main: HandScreen) -> list[Step] | None:
    options = _select_values(main, "meld")
    if len(action.melds) != 1 or not options:
        return None
    cards = [placed.card for placed in action.melds[0].cards]
    values = [str(card) for card in cards]
    if len(set(values)) != len(values) or not set(values) <= options:
        return None
    return [("select", "meld", values)] if _same(_resolves("meld", values, snap), action) else None


def _lay_off(
    snap: SeatSnapshot, action: LayOff, main: HandScreen, buttons: set[str]
) -> list[Step] | None:
    """Lay-offs go through the cards select (on the main screen, or the Lay off screen), and
    for a card with several places through the picker's place select."""
    places = layoff_cards(snap.legal, snap.view)
    if "layoff" in buttons:  # the Lay off screen pages what the main screen has no room for
        screen = _screen(snap, "layoff")
        for value in sorted(_select_values(screen, "laybatch")):
            if _same(_resolves("laybatch", [value], snap), action):
                return [("button", "layoff"), ("select", "laybatch", [value])]
        starts = _select_values(screen, "laystart")  # too many to list: a first place first
        for start in (i for i in action.items if str(i) in starts):  # any order, as _same
            first = str(start)
            then = _screen(snap, "layoff", picked=start)
            for value in sorted(_select_values(then, "laybatch")):
                if _same(_resolves("laybatch", [value], snap), action):
                    return [
                        ("button", "layoff"),
                        ("select", "laystart", [first]),
                        ("select", "laybatch", [value]),
                    ]
    cards = [item.card for item in action.items]
    if len(set(cards)) != len(cards) or any(card not in places for card in cards):
        return None
    opener: list[Step] = []
    offered = _select_values(main, "layoff")
    values = _layoff_values(action, offered)
    if values is None and "layoff" in buttons:
        opener = [("button", "layoff")]
        offered = _select_values(_screen(snap, "layoff"), "layoff")
        values = _layoff_values(action, offered)
    if values is None:
        return None
    chosen = _resolves("layoff", values, snap)
    if chosen is not None:
        return [*opener, ("select", "layoff", values)] if _same(chosen, action) else None
    if len(cards) != 1:
        return None
    picker = _screen(snap, "layoff", picked=cards[0])
    wanted = _item_key(action.items[0])
    for item in sorted(_select_values(picker, "place")):
        if _item_key(LayOffItem.parse(item)) == wanted:
            return [*opener, ("select", "layoff", values), ("select", "place", [item])]
    return None


def _layoff_values(action: LayOff, offered: set[str]) -> list[str] | None:
    """The lay-off select's values that pick ``action``'s cards: a card's own place where the
    select lists its places (a wild on a set whatever suit it declares), else the card."""
    values = []
    for item in action.items:
        place = offered_place(item, offered)
        if place is None and str(item.card) not in offered:
            return None
        values.append(place or str(item.card))
    return sorted(values)


def offered_place(item: LayOffItem, offered: Iterable[str]) -> str | None:
    """The offered select value that places ``item``'s card where ``item`` does (a wild on a
    set whatever suit the hand declared for it), if any."""
    wanted = _item_key(item)
    return next((v for v in offered if ">" in v and _item_key(LayOffItem.parse(v)) == wanted), None)


def card_by_card(snap: SeatSnapshot, action: Action, game: Game) -> list[Step] | None:
    """A lay-off of several cards made one card at a time, as the hand means it to be
    (``hand_screen.lay_offs_together`` offers only those that can't be): the clicks of its
    first card, if the hand offers that card's lay-off now and each next card's is legal
    once the ones before it are laid (checked on a copy of ``game``, ``snap``'s state)."""
    if not isinstance(action, LayOff) or len(action.items) < 2:
        return None
    first = reach(snap, LayOff(action.items[:1]))
    if first is None:
        return None
    after = game.copy()
    player = str(snap.user_id)
    for item in action.items:
        single = LayOff((item,))
        if not after.is_legal(player, single):
            return None
        after.apply(player, single)
    return first


def unreachable(snap: SeatSnapshot, game: Game | None = None) -> list[Action]:
    """The legal actions of ``snap`` that the hand's controls cannot make (with ``game``,
    ``snap``'s state, a lay-off of several cards counts as made card by card if it can)."""
    return [
        action
        for action in snap.legal
        if reach(snap, action) is None
        and (game is None or card_by_card(snap, action, game) is None)
    ]


# -- whole games through the hand --------------------------------------------------------------


@dataclass
class Counts:
    """What one game through the hand found."""

    preset: str
    decisions: int = 0
    actions: int = 0
    clicks: int = 0
    deals: int = 0
    unreachable: list[str] = field(default_factory=list)


def _items(message: Any) -> list[dict[str, Any]]:
    """The buttons and selects of a discord.Message or a simcord ResponseMessage, as payload
    dicts (nested in a Components V2 layout or in classic rows)."""
    return items(message)


def _control(message: Any, verb: str, values: list[str] | None = None) -> str | None:
    """The custom id of the control of ``verb`` on ``message`` (a select offering
    ``values``), if it is there."""
    for item in _items(message):
        custom_id = str(item.get("custom_id", ""))
        parts = custom_id.split(":")
        if len(parts) < 6 or parts[5] != verb:
            continue
        if values is None:
            return custom_id
        offered = {o.get("value") for o in item.get("options", [])}
        if set(values) <= offered:
            return custom_id
    return None


def _tag(message: Any) -> str | None:
    for item in _items(message):
        parts = str(item.get("custom_id", "")).split(":")
        if len(parts) >= 6 and parts[0] == "sh" and parts[1] in ("h", "hs"):
            return parts[3]
    return None


class Table:
    """One table played to its end through the hands, in simcord."""

    def __init__(self, env: simcord.Env, preset: str, people: int, seed: int) -> None:
        self.env, self.preset = env, preset
        self.rng = random.Random(seed)
        self.strategy = make_strategy("normal")
        self.guild = env.create_guild()
        self.channel = self.guild.create_text_channel("cards")
        names = ["alice", "bob", "carol", "dave"][:people]
        self.members = [self.guild.add_member(env.create_user(n)) for n in names]
        self.hands: dict[int, Any] = {}
        self.counts = Counts(preset)
        self.table_id = 0

    @property
    def service(self) -> Any:
        return self.env.bot.service  # type: ignore[attr-defined]

    @property
    def table(self) -> Any:
        return self.service.tables.get(self.table_id)

    def table_message(self) -> Any:
        message_id = self.table.record.message_id
        return next(m for m in reversed(self.channel.history()) if m.id == message_id)

    async def open(self, deals: int | None, full: bool = False) -> None:
        host = self.members[0]
        if self.preset == "rummy":  # a short game unless ``full`` (150 points)
            target = {} if full else {"target": 40 if deals is None else 20 * deals}
            opened = await host.slash(self.channel, "rummy new", **target)
        else:
            options: dict[str, Any] = {"preset": self.preset}
            if deals is not None:
                options["deals"] = deals
            opened = await host.slash(self.channel, "shanghai new", **options)
        assert opened.acknowledged, "could not open a table"
        self.table_id = self.service.for_channel(self.channel.id).id
        for member in self.members[1:]:
            assert (await member.click(self.table_message(), label="Join")).acknowledged
        assert (await host.click(self.table_message(), label="Start")).acknowledged
        for member in self.members:
            self.hands[member.id] = await member.click(self.table_message(), label="My hand")

    async def play(
        self, deals: int | None = None, *, full: bool = False, limit: int = 5000
    ) -> Counts:
        await self.open(deals, full)
        for _ in range(limit):
            table = self.table
            if table is None or table.game is None or table.game.is_over:
                return self.counts
            self.counts.deals = table.game.deal
            if table.pause_until is not None:  # the last deal's recap stands alone
                await self.env.advance_time(max(0.0, table.pause_until - self.service.clock()))
                continue
            if table.window.is_running(table.game, self.service.clock()):
                await self.buyers()
            if table.window.held is not None:
                await self.env.advance_time(1)  # the drawer waits out the window
                continue
            await self.turn_step()
        raise AssertionError(f"{self.preset}: the game did not end in {limit} steps")

    def snapshot(self, user_id: int) -> SeatSnapshot:
        return self.service.snapshot(self.table_id, user_id)  # type: ignore[no-any-return]

    async def buyers(self) -> None:
        """Every other person decides about the upcard where their hand asks (Buy when the
        strategy wants it, else Pass); a legal buy the hand can't make is counted."""
        game = self.table.game
        for member in self.members:
            seat = game.players.index(str(member.id))
            if seat == game.current or not self.table.window.is_running(game, self.service.clock()):
                continue
            snap = self.snapshot(member.id)
            legal = list(game.legal_actions(str(member.id)))
            # A seat that decided, or whose buy preference decided for it, is not asked
            # again: its hand rightly offers no Buy (and the table message carries none).
            decided = seat in self.table.window.decided
            for action in legal:
                if reach(snap, action) is None and not (isinstance(action, RequestBuy) and decided):
                    self.counts.unreachable.append(f"{self.preset} deal {game.deal}: {action}")
            message = self.hands[member.id].response
            if _control(message, "pass") is None:
                continue
            wants = RequestBuy() in legal and self.strategy.wants_buy(
                game.view(str(member.id)), self.rng
            )
            verb = "buy" if wants and _control(message, "buy") else "pass"
            await member.click(message, custom_id=_control(message, verb))
            self.counts.clicks += 1

    async def turn_step(self) -> None:
        """One decision of the person to move: count what the hand can't make, then make the
        strategy's choice among what it can, by clicking."""
        game = self.table.game
        user_id = int(game.current_player)
        member = next(m for m in self.members if m.id == user_id)
        hand = self.hands[user_id]
        snap = self.snapshot(user_id)
        if _tag(hand.response) != snap.tag:  # the hand is behind: look again
            await member.click(hand.response, custom_id=_control(hand.response, "refresh"))
            self.counts.clicks += 1
            snap = self.snapshot(user_id)
        self.counts.decisions += 1
        paths = {str(a): reach(snap, a) or card_by_card(snap, a, game) for a in snap.legal}
        for action in snap.legal:
            if paths[str(action)] is None:
                self.counts.unreachable.append(f"{self.preset} deal {game.deal}: {action}")
        offered = [a for a in snap.legal if paths[str(a)] is not None]
        if not offered:
            await self.env.advance_time(100)  # only the turn timer can move now
            return
        choice = self.strategy.choose(game.view(str(user_id)), offered, self.rng)
        steps = paths[str(choice)]
        assert steps is not None
        await self.click_through(member, hand, steps)
        self.counts.actions += 1

    async def click_through(self, member: Any, hand: Any, steps: list[Step]) -> None:
        for step in steps:
            message = hand.response
            kind, *rest = step
            if kind == "form":
                shown = await member.click(message, custom_id=_control(message, "downedit"))
                assert shown.modal is not None, "the melds form did not open"
                done = await member.submit_modal(shown, {"melds": rest[0]})
            elif kind == "button":
                done = await member.click(message, custom_id=_control(message, rest[0]))
            else:
                verb, values = rest
                custom_id = _control(message, verb, values)
                assert custom_id is not None, f"no {verb} select offering {values}"
                done = await member.select(message, values, custom_id=custom_id)
            assert done.acknowledged
            self.counts.clicks += 1


async def play_game(
    env: simcord.Env,
    preset: str,
    *,
    people: int = 3,
    deals: int | None = None,
    seed: int = 0,
    full: bool = False,
) -> Counts:
    """One game of ``preset`` through the hands: ``deals`` shortens a Shanghai game (and a
    Rummy game's target to 20 points a deal), ``full`` plays Rummy to its 150."""
    return await Table(env, preset, people, seed).play(deals, full=full)
