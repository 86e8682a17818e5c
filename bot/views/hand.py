"""The private hand: one ephemeral message per player, edited in place by its own controls.

Every control is a ``DynamicItem`` whose custom_id carries the table, a *state tag* (a CRC of
what this player could see when the message was drawn: deal, turn, step, hand, melds), the
sort order and the verb, so the controls work after a restart and need no memory:

    sh:h:<table>:<tag>:<s|r>:<verb>        buttons
    sh:hs:<table>:<tag>:<s|r>:<verb>       selects (discard, layoff, swap)

A click whose tag no longer matches the game is from an earlier state: nothing is done and
the message is redrawn with an explanation. Everything else is checked by the service and the
engine, which raise ``ValueError``s the guard turns into polite replies.
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from collections import Counter
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot import guards
from bot.errors import StaleControl, UserError
from bot.interactions import guard
from bot.pictures import hand_picture_for
from bot.rendering import (
    SortMode,
    action_text,
    card_text,
    cards_text,
    countdown,
    hand_text,
    meld_text,
)
from engine.actions import (
    Action,
    BuyInTurn,
    Discard,
    DrawStock,
    GoDown,
    LayMelds,
    LayOff,
    SwapJoker,
    TakeUpcard,
    parse_action,
)
from engine.cards import Card
from engine.melds import Meld
from engine.view import PlayerView

if TYPE_CHECKING:
    from bot.service import ActResult, LiveTable, TableService

log = logging.getLogger(__name__)

Mode = Literal["main", "down", "layoff", "swap"]
BUTTON_VERBS = (
    "draw",
    "take",
    "buyin",
    "down",
    "downok",
    "downedit",
    "layoff",
    "swap",
    "sort",
    "refresh",
    "back",
    "hint",
)
SELECT_VERBS = ("discard", "layoff", "swap", "meld")
MAX_OPTIONS = 25

_PREFIX = r"(?P<table>[0-9]{1,19}):(?P<tag>[0-9a-f]{8}):(?P<sort>[sr]):"
HAND_BUTTON_TEMPLATE = r"sh:h:" + _PREFIX + r"(?P<verb>" + "|".join(BUTTON_VERBS) + r")"
HAND_SELECT_TEMPLATE = r"sh:hs:" + _PREFIX + r"(?P<verb>" + "|".join(SELECT_VERBS) + r")"


def hand_tag(view: PlayerView) -> str:
    """A short fingerprint of what this player's controls depend on."""
    hand = sorted(str(c) for c in view.hand or ())
    key = (
        f"{view.deal}|{view.current}|{view.step}|{' '.join(hand)}|"
        f"{view.seats[view.seat].is_down if view.seat is not None else '-'}|{len(view.melds)}|"
        f"{view.upcard_live}|{view.went_down_this_turn}|{view.is_over}"
    )
    return f"{zlib.crc32(key.encode()):08x}"


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HAND_BUTTON_TEMPLATE):
    """A button of the private hand."""

    def __init__(
        self,
        table_id: int,
        tag: str,
        sort: SortMode,
        verb: str,
        *,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, row=row, custom_id=f"sh:h:{table_id}:{tag}:{sort}:{verb}"
            )
        )
        self.table_id, self.tag, self.sort, self.verb = table_id, tag, sort, verb

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
    ) -> HandButton:
        sort: SortMode = "r" if match["sort"] == "r" else "s"
        return cls(int(match["table"]), match["tag"], sort, match["verb"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with guard(interaction):
            if await guards.answer_hand_on_public(interaction, self.table_id):
                return
            await hand_click(interaction, self.table_id, self.tag, self.sort, self.verb, None)


class HandSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=HAND_SELECT_TEMPLATE):
    """A select menu of the private hand (discard, lay off, swap)."""

    def __init__(
        self,
        table_id: int,
        tag: str,
        sort: SortMode,
        verb: str,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
        min_values: int = 1,
        max_values: int = 1,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"sh:hs:{table_id}:{tag}:{sort}:{verb}",
                options=options or [discord.SelectOption(label="…", value="-")],
                placeholder=placeholder,
                row=row,
                min_values=min_values,
                max_values=max_values,
            )
        )
        self.table_id, self.tag, self.sort, self.verb = table_id, tag, sort, verb

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
    ) -> HandSelect:
        sort: SortMode = "r" if match["sort"] == "r" else "s"
        return cls(int(match["table"]), match["tag"], sort, match["verb"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with guard(interaction):
            if await guards.answer_hand_on_public(interaction, self.table_id):
                return
            values = [str(value) for value in self.item.values]
            await hand_click(interaction, self.table_id, self.tag, self.sort, self.verb, values)


# -- drawing the message --------------------------------------------------------------------------


def render_hand(
    service: TableService,
    table: LiveTable,
    user_id: int,
    sort: SortMode,
    *,
    mode: Mode = "main",
    note: str | None = None,
    pending: bool = False,
) -> tuple[str, discord.ui.View]:
    """The content and controls of ``user_id``'s private message."""
    game = service._playing(table)
    service._seat(table, user_id)
    player = str(user_id)
    view = game.view(player)
    tag = hand_tag(view)
    legal = game.legal_actions(player) if view.current == view.seat and not view.is_over else []
    ui = discord.ui.View(timeout=None)
    tid = table.id
    pending_text = None
    if pending:
        pending_text = (
            "⏳ You will draw from the stock when the buy window closes "
            f"{countdown(table.buy_deadline)}: others may still buy the upcard."
        )
    extra: list[str] = []

    def button(verb: str, label: str, style: discord.ButtonStyle, row: int) -> None:
        ui.add_item(HandButton(tid, tag, sort, verb, label=label, style=style, row=row))

    if mode == "down":
        proposal = next((a for a in legal if isinstance(a, GoDown)), None)
        if proposal is None:
            mode, note = "main", "Your hand can't meet this deal's contract yet."
        else:
            extra.append("**Lay down these melds?**")
            extra.extend(f"• {meld_text(m)}" for m in proposal.melds)
            left = Counter(view.hand or ())
            for meld in proposal.melds:
                left.subtract(meld.plain_cards)
            extra.append(f"Left in hand: {cards_text(sorted(left.elements(), key=Card.sort_key))}")
            button("downok", "Confirm lay down", discord.ButtonStyle.success, 0)
            button("downedit", "Choose my own melds", discord.ButtonStyle.secondary, 0)
            button("back", "Back", discord.ButtonStyle.secondary, 0)
    if mode in ("layoff", "swap"):
        kind = LayOff if mode == "layoff" else SwapJoker
        actions = [a for a in legal if isinstance(a, kind)]
        if not actions:
            mode, note = "main", "Nothing to " + ("lay off" if kind is LayOff else "swap") + " now."
        else:
            if len(actions) > MAX_OPTIONS:
                extra.append(f"Showing the first {MAX_OPTIONS} of {len(actions)} options.")
            options = [
                discord.SelectOption(label=action_text(a)[:100], value=str(a)[:100])
                for a in actions[:MAX_OPTIONS]
            ]
            placeholder = "Choose a lay-off" if mode == "layoff" else "Choose a swap"
            ui.add_item(
                HandSelect(tid, tag, sort, mode, options=options, placeholder=placeholder, row=0)
            )
            button("back", "Back", discord.ButtonStyle.secondary, 1)
    if mode == "main":
        if not pending:
            if any(isinstance(a, DrawStock) for a in legal):
                button("draw", "Draw from stock", discord.ButtonStyle.primary, 0)
            if any(isinstance(a, TakeUpcard) for a in legal):
                label = f"Take {card_text(view.upcard)}" if view.upcard else "Take upcard"
                button("take", label, discord.ButtonStyle.primary, 0)
            if any(isinstance(a, BuyInTurn) for a in legal):
                button("buyin", "Buy in turn", discord.ButtonStyle.success, 0)
        if any(isinstance(a, GoDown) for a in legal):
            button("down", "Lay down", discord.ButtonStyle.success, 1)
        if any(isinstance(a, LayOff) for a in legal):
            button("layoff", "Lay off", discord.ButtonStyle.secondary, 1)
        if any(isinstance(a, SwapJoker) for a in legal):
            button("swap", "Swap joker", discord.ButtonStyle.secondary, 1)
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            cards = sorted({a.card for a in discards}, key=Card.sort_key)[:MAX_OPTIONS]
            options = [
                discord.SelectOption(label=f"Discard {card_text(c)}", value=str(c)) for c in cards
            ]
            ui.add_item(
                HandSelect(
                    tid, tag, sort, "discard", options=options, placeholder="Discard…", row=2
                )
            )
        other = "by rank" if sort == "s" else "by suit"
        button("sort", f"Sort {other}", discord.ButtonStyle.secondary, 3)
        button("refresh", "Refresh", discord.ButtonStyle.secondary, 3)
        if not view.is_over:
            button("hint", "Hint", discord.ButtonStyle.secondary, 3)
        rummy_turn = view.rules.game == "rummy" and view.current == view.seat
        if rummy_turn and view.step == "play" and len(view.hand or ()) >= 3:
            cards = sorted(set(view.hand or ()), key=Card.sort_key)[:MAX_OPTIONS]
            options = [discord.SelectOption(label=card_text(c), value=str(c)) for c in cards]
            ui.add_item(
                HandSelect(
                    tid,
                    tag,
                    sort,
                    "meld",
                    options=options,
                    placeholder="Lay a new meld: choose its cards…",
                    row=4,
                    min_values=min(3, len(cards)),
                    max_values=len(cards),
                )
            )
    content = hand_text(view, table.names, sort, note=note, pending=pending_text)
    if extra:
        content += "\n\n" + "\n".join(extra)
    return content[:2000], ui


class MeldsModal(discord.ui.Modal, title="Lay down your melds"):
    """The player writes the melds: ``set: 8H 8S 8C | run: 3H 4H JK=5H 6H``."""

    melds: discord.ui.TextInput[MeldsModal] = discord.ui.TextInput(
        label="Melds, separated by |",
        custom_id="melds",
        style=discord.TextStyle.paragraph,
        max_length=400,
        placeholder="set: 8H 8S 8C | run: 3H 4H JK=5H 6H",
    )

    def __init__(self, table_id: int, sort: SortMode, proposal: str) -> None:
        super().__init__(timeout=600)
        self.table_id, self.sort = table_id, sort
        self.melds.default = proposal

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        async with guard(interaction):
            service: TableService = interaction.client.service
            try:
                action = parse_action("down " + self.melds.value.strip())
            except ValueError as error:
                raise UserError(f"I couldn't read those melds: {error}") from None
            table = service.get(self.table_id)
            await service.act(table.id, interaction.user.id, action)
            content, ui = (
                render_hand(service, table, interaction.user.id, self.sort, note="You went down!")
                if not table.closed and table.game is not None and not table.game.is_over
                else ("You went out. The game is over.", discord.ui.View())
            )
            await interaction.response.edit_message(content=content, view=ui)


async def hand_files(
    service: TableService, table: LiveTable, user_id: int, sort: SortMode, mode: Mode = "main"
) -> list[discord.File]:
    """The picture of the hand (issue 6), the proposed lay-down's cards raised in ``down``."""
    if table.closed or table.game is None or table.game.is_over:
        return []
    hand = table.game.view(str(user_id)).hand or ()
    proposal: tuple[Card, ...] = ()
    if mode == "down":
        legal = service.legal_actions(table.id, user_id)
        down = next((a for a in legal if isinstance(a, GoDown)), None)
        if down is not None:
            proposal = tuple(c.card for m in down.melds for c in m.cards)
    return [await hand_picture_for(hand, proposal, by_rank=sort == "r")]


# -- handling a click ---------------------------------------------------------------------------


async def open_hand(interaction: discord.Interaction[Any], table_id: int) -> None:
    """``My hand`` on the table message: a fresh ephemeral hand message."""
    service: TableService = interaction.client.service
    table = service.get(table_id)
    await service.mark_present(table.id, interaction.user.id)
    pending = table.pending is not None and table.seat_of(interaction.user.id) == (
        table.pending.seat
    )
    content, ui = render_hand(service, table, interaction.user.id, "s", pending=pending)
    files = await hand_files(service, table, interaction.user.id, "s")
    await interaction.response.send_message(content, view=ui, ephemeral=True, files=files)
    if pending and table.pending is not None:
        _follow_pending(interaction, service, table, "s", table.pending.future)


async def hand_click(
    interaction: discord.Interaction[Any],
    table_id: int,
    tag: str,
    sort: SortMode,
    verb: str,
    values: list[str] | None,
) -> None:
    service: TableService = interaction.client.service
    table = service.get(table_id)
    user_id = interaction.user.id
    game = service._playing(table)
    service._seat(table, user_id)
    await service.mark_present(table.id, user_id)
    view = game.view(str(user_id))

    async def show(
        mode: Mode = "main", note: str | None = None, *, new_sort: SortMode = sort
    ) -> None:
        if table.closed or game.is_over:
            await interaction.response.edit_message(
                content=(note + "\n\n" if note else "") + "The game is over.", view=None
            )
            return
        content, ui = render_hand(service, table, user_id, new_sort, mode=mode, note=note)
        files = await hand_files(service, table, user_id, new_sort, mode)
        await interaction.response.edit_message(content=content, view=ui, attachments=files)

    if hand_tag(view) != tag:
        await show(note=f"⚠️ {StaleControl()} Here is your hand now.")
        return
    if verb == "sort":
        await show(new_sort="r" if sort == "s" else "s")
        return
    if verb in ("refresh", "back"):
        await show()
        return
    if verb == "hint":
        await show(note=hint_note(view))
        return
    if verb in ("down", "layoff", "swap") and values is None:
        await show(mode=verb)  # type: ignore[arg-type]
        return
    if verb == "downedit":
        legal = service.legal_actions(table.id, user_id)
        proposal = next((a for a in legal if isinstance(a, GoDown)), None)
        text = " | ".join(str(m) for m in proposal.melds) if proposal else ""
        await interaction.response.send_modal(MeldsModal(table.id, sort, text))
        return
    before = Counter(view.hand or ())
    action: Action
    if verb == "draw":
        action = DrawStock()
    elif verb == "take":
        action = TakeUpcard()
    elif verb == "buyin":
        action = BuyInTurn()
    elif verb == "downok":
        legal = service.legal_actions(table.id, user_id)
        proposal = next((a for a in legal if isinstance(a, GoDown)), None)
        if proposal is None:
            raise UserError("Your hand can't meet this deal's contract now.")
        action = proposal
    elif verb == "discard":
        action = Discard(Card.parse(_one(values)))
    elif verb == "meld":
        chosen = [Card.parse(value) for value in values or ()]
        action = LayMelds((meld_from_cards(chosen, game.rules),))
    elif verb in ("layoff", "swap"):
        action = parse_action(_one(values))
        if not isinstance(action, LayOff if verb == "layoff" else SwapJoker):
            raise UserError("That choice is not a " + verb)
    else:  # pragma: no cover - the template admits only the verbs above
        raise UserError("Unknown control")
    result = await service.act(table.id, user_id, action)
    if result.pending is not None:
        content, ui = render_hand(service, table, user_id, sort, pending=True)
        files = await hand_files(service, table, user_id, sort)
        await interaction.response.edit_message(content=content, view=ui, attachments=files)
        _follow_pending(interaction, service, table, sort, result.pending)
        return
    await show(note=_note_for(action, before, table, service, user_id, result))


def meld_from_cards(cards: list[Card], rules: Any) -> Meld:
    """The set or run these cards make (Rummy's free melds); a ``UserError`` if none."""
    try:
        return Meld.from_naturals(cards, rules)
    except ValueError as error:
        raise UserError(f"{cards_text(cards)}: {error}.") from None


def hint_note(view: PlayerView) -> str:
    """The engine's advice for this player's hand, as a note above the hand."""
    from engine.hints import hint

    advice = hint(
        list(view.hand or ()),
        view.deal,
        view.rules,
        players=len(view.seats),
        table=[placed.meld for placed in view.melds],
    )
    text = str(advice).strip() or "No advice for this hand."
    return "💡 **Hint**\n" + text


def _one(values: list[str] | None) -> str:
    if not values or len(values) != 1:
        raise UserError("Choose one option.")
    return values[0]


def _note_for(
    action: Action,
    before: Counter[Card],
    table: LiveTable,
    service: TableService,
    user_id: int,
    result: ActResult,
) -> str | None:
    game = table.game
    if game is None or table.closed:
        return None
    after = Counter(game.hand_of(str(user_id))) if not game.is_over else Counter()
    gained = sorted((after - before).elements(), key=Card.sort_key)
    if isinstance(action, (DrawStock, TakeUpcard, BuyInTurn)) and gained:
        return f"You got {cards_text(gained)}."
    if isinstance(action, Discard):
        return f"You discarded {card_text(action.card)}."
    if isinstance(action, GoDown):
        return "You went down!"
    if isinstance(action, LayMelds):
        return "You laid " + " and ".join(meld_text(m) for m in action.melds) + "."
    if isinstance(action, (LayOff, SwapJoker)):
        return f"Done: {action_text(action)}."
    return None


def _follow_pending(
    interaction: discord.Interaction[Any],
    service: TableService,
    table: LiveTable,
    sort: SortMode,
    future: asyncio.Future[ActResult],
) -> None:
    """When the held draw happens, redraw this hand message (its token lasts 15 minutes)."""

    async def refresh() -> None:
        try:
            if table.closed or table.game is None or table.game.is_over:
                return
            content, ui = render_hand(service, table, interaction.user.id, sort)
            await interaction.edit_original_response(content=content, view=ui)
        except (discord.HTTPException, ValueError):
            log.info("could not refresh a hand after a held draw (table %s)", table.id)

    def done(finished: asyncio.Future[ActResult]) -> None:
        # A callback, not a task awaiting the future: nothing waits while the window runs.
        if finished.cancelled() or finished.exception() is not None:
            return
        task = asyncio.get_running_loop().create_task(refresh())
        _background.add(task)
        task.add_done_callback(_background.discard)

    future.add_done_callback(done)


_background: set[asyncio.Task[None]] = set()
