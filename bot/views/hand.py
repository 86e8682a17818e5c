"""The private hand: one ephemeral message per player, edited in place by its own controls.

Every control is a ``DynamicItem`` whose custom_id carries the table, a *state tag* (the
snapshot's fingerprint of what this seat's controls depend on), the sort order and the verb,
so the controls work after a restart and need no memory:

    sh:h:<table>:<tag>:<s|r>:<verb>              buttons
    sh:hs:<table>:<tag>:<s|r>:<verb>[:<page>]    selects (discard, lay off, place, swap, meld)

One click, one trip: the control becomes an engine action, ``TableService.play`` applies it
and answers with the seat's ``SeatSnapshot``, and the message is drawn from that snapshot
alone. A hand that is merely out of date still does what the button says when that is legal
now; a refusal redraws the hand with the reason. Lay-offs go through a picker (cards, then a
place for a card with several), every select is split into pages of at most 25 options, and
``bot.hand_follower`` keeps the message up to date when something changes for its player.
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot import guards
from bot.errors import StaleControl, UserError
from bot.i18n import DEFAULT_LANGUAGE, Language, interaction_language, t
from bot.i18n.refusals import refusal_text
from bot.i18n.terms import melds_for_form, melds_from_form
from bot.interactions import guard
from bot.screens.attachments import hand_picture_for
from bot.screens.text import (
    SortMode,
    action_text,
    card_text,
    cards_text,
    countdown,
    hand_text,
    layoff_item_text,
    meld_text,
)
from engine.actions import (
    Action,
    BuyInTurn,
    CancelBuy,
    Discard,
    DrawStock,
    GoDown,
    LayMelds,
    LayOff,
    LayOffItem,
    RequestBuy,
    SwapJoker,
    TakeUpcard,
    parse_action,
)
from engine.cards import Card
from engine.melds import Meld
from engine.players.hints import Hint
from engine.view import PlayerView

if TYPE_CHECKING:
    from bot.service import SeatSnapshot, TableService

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
    "layall",
    "leave",
    "leaveok",
    "buy",
    "pass",
    "unbuy",
)
SELECT_VERBS = ("discard", "layoff", "swap", "meld", "place")
MAX_OPTIONS = 25

_PREFIX = r"(?P<table>[0-9]{1,19}):(?P<tag>[0-9a-f]{8}):(?P<sort>[sr]):"
HAND_BUTTON_TEMPLATE = r"sh:h:" + _PREFIX + r"(?P<verb>" + "|".join(BUTTON_VERBS) + r")"
HAND_SELECT_TEMPLATE = (
    r"sh:hs:"
    + _PREFIX
    + r"(?P<verb>"
    + "|".join(SELECT_VERBS)
    + r")(?::(?P<arg>[0-9A-Za-z]{1,4}))?"
)


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
        arg: str = "",
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
        min_values: int = 1,
        max_values: int = 1,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"sh:hs:{table_id}:{tag}:{sort}:{verb}" + (f":{arg}" if arg else ""),
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
        return cls(int(match["table"]), match["tag"], sort, match["verb"], arg=match["arg"] or "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with guard(interaction):
            if await guards.answer_hand_on_public(interaction, self.table_id):
                return
            values = [str(value) for value in self.item.values]
            await hand_click(interaction, self.table_id, self.tag, self.sort, self.verb, values)


# -- drawing the message --------------------------------------------------------------------------


def chunks(options: list[discord.SelectOption]) -> list[list[discord.SelectOption]]:
    """Options in selects of at most 25 (Discord's limit), so no choice is ever cut off."""
    return [options[i : i + MAX_OPTIONS] for i in range(0, len(options), MAX_OPTIONS)]


def layoff_cards(legal: tuple[Action, ...]) -> dict[Card, list[LayOffItem]]:
    """Each card that can be laid off now, with every place it fits."""
    places: dict[Card, list[LayOffItem]] = {}
    for action in legal:
        if isinstance(action, LayOff) and len(action.items) == 1:
            item = action.items[0]
            places.setdefault(item.card, []).append(item)
    return places


def everything_that_fits(legal: tuple[Action, ...]) -> LayOff | None:
    """One batch of every card whose place is unambiguous, no two on the same spot; None
    when fewer than two cards would go."""
    items: list[LayOffItem] = []
    spots: set[tuple[int, str | None, str | None]] = set()
    for card, places in sorted(layoff_cards(legal).items(), key=lambda kv: Card.sort_key(kv[0])):
        if len(places) != 1 or card.is_joker:
            continue
        item = places[0]
        spot = (item.meld, item.end, item.suit if item.end is None else None)
        if spot in spots:
            continue
        spots.add(spot)
        items.append(item)
    return LayOff(tuple(items)) if len(items) >= 2 else None


def layoff_options(
    places: dict[Card, list[LayOffItem]], language: Language = DEFAULT_LANGUAGE
) -> list[discord.SelectOption]:
    """One option per card: where it goes when that is unambiguous, else how many places."""
    options = []
    for card, items in sorted(places.items(), key=lambda kv: Card.sort_key(kv[0])):
        if len(items) == 1:
            label = layoff_item_text(items[0], language)
        else:
            label = t("hand.places_choose", language, card=card_text(card), count=len(items))
        options.append(discord.SelectOption(label=label[:100], value=str(card)))
    return options


def render_hand(
    snap: SeatSnapshot,
    sort: SortMode,
    *,
    mode: Mode = "main",
    note: str | None = None,
    picked: Card | None = None,
    language: Language = DEFAULT_LANGUAGE,
) -> tuple[str, discord.ui.View]:
    """The content and controls of a seat's private message, from its snapshot alone, in the
    player's own language."""
    view = snap.view
    tag = snap.tag
    legal = snap.legal
    ui = discord.ui.View(timeout=None)
    tid = snap.table_id
    pending_text = None
    if snap.pending:
        pending_text = t("hand.pending", language, countdown=countdown(snap.buy_deadline))
    extra: list[str] = []
    notes = [n for n in (note, *snap.notes) if n]

    def button(verb: str, key: str, style: discord.ButtonStyle, row: int, **params: Any) -> None:
        label = t(key, language, **params)
        ui.add_item(HandButton(tid, tag, sort, verb, label=label, style=style, row=row))

    def selects(
        verb: str,
        options: list[discord.SelectOption],
        placeholder: str,
        first_row: int,
        *,
        arg: str = "",
        many: bool = False,
    ) -> None:
        for page, part in enumerate(chunks(options)[: 5 - first_row]):
            ui.add_item(
                HandSelect(
                    tid,
                    tag,
                    sort,
                    verb,
                    arg=f"{arg}{page}" if arg or page else "",
                    options=part,
                    placeholder=placeholder
                    if page == 0
                    else t("hand.more", language, placeholder=placeholder),
                    row=first_row + page,
                    max_values=len(part) if many else 1,
                )
            )

    if mode == "down":
        proposal = next((a for a in legal if isinstance(a, GoDown)), None)
        if proposal is None:
            mode, notes = "main", [*notes, t("hand.cannot_meet_contract", language)]
        else:
            extra.append(t("hand.lay_down_these", language))
            lines, left = go_down_lines(proposal, view, language)
            extra.extend(lines)
            left_cards = cards_text(sorted(left.elements(), key=Card.sort_key))
            extra.append(t("hand.left_in_hand", language, cards=left_cards))
            button("downok", "button.confirm_down", discord.ButtonStyle.success, 0)
            button("downedit", "button.own_melds", discord.ButtonStyle.secondary, 0)
            button("back", "button.back", discord.ButtonStyle.secondary, 0)
    if mode == "layoff":
        places = layoff_cards(legal)
        if not places:
            mode, notes = "main", [*notes, t("hand.nothing_to_lay_off", language)]
        elif picked is not None and picked in places:
            extra.append(t("hand.where_goes", language, card=card_text(picked)))
            options = [
                discord.SelectOption(label=layoff_item_text(item, language)[:100], value=str(item))
                for item in places[picked]
            ]
            placeholder = t("hand.lay_off_on", language, card=card_text(picked))
            selects("place", options, placeholder, 0, arg="p")
            button("layoff", "button.back_to_cards", discord.ButtonStyle.secondary, 4)
        else:
            extra.append(t("hand.lay_off_help", language))
            options = layoff_options(places, language)
            selects("layoff", options, t("hand.cards_to_lay_off", language), 0, many=True)
            button("back", "button.back", discord.ButtonStyle.secondary, 4)
    if mode == "swap":
        swaps = [a for a in legal if isinstance(a, SwapJoker)]
        if not swaps:
            mode, notes = "main", [*notes, t("hand.nothing_to_swap", language)]
        else:
            options = [
                discord.SelectOption(label=action_text(a, language)[:100], value=str(a)[:100])
                for a in swaps
            ]
            selects("swap", options, t("hand.choose_swap", language), 0)
            button("back", "button.back", discord.ButtonStyle.secondary, 4)
    if mode == "main":
        # Everything a turn needs is on this one screen, so most turns take two clicks.
        if not snap.pending:
            if any(isinstance(a, DrawStock) for a in legal):
                button("draw", "button.draw_stock", discord.ButtonStyle.primary, 0)
            if any(isinstance(a, TakeUpcard) for a in legal):
                if view.upcard:
                    upcard = card_text(view.upcard)
                    button("take", "button.take", discord.ButtonStyle.primary, 0, card=upcard)
                else:
                    button("take", "button.take_upcard", discord.ButtonStyle.primary, 0)
            if any(isinstance(a, BuyInTurn) for a in legal):
                button("buyin", "button.buy_in_turn", discord.ButtonStyle.success, 0)
        if snap.buy_offer is not None and view.upcard is not None:
            # Off turn, the upcard's window is decided here: the table message needn't change.
            upcard = card_text(view.upcard)
            button("buy", "button.buy", discord.ButtonStyle.success, 0, card=upcard)
            button("pass", "button.pass", discord.ButtonStyle.secondary, 0)
        if snap.buy_requested:
            button("unbuy", "buy.take_back", discord.ButtonStyle.secondary, 0)
        proposal = next((a for a in legal if isinstance(a, GoDown)), None)
        if proposal is not None:
            extra.append(t("hand.can_lay_down", language))
            extra.extend(go_down_lines(proposal, view, language)[0])
            button("downok", "button.lay_down_these", discord.ButtonStyle.success, 1)
            button("downedit", "button.own_melds", discord.ButtonStyle.secondary, 1)
        places = layoff_cards(legal)
        batch = everything_that_fits(legal)
        if batch is not None:
            count = len(batch.items)
            button("layall", "button.lay_all", discord.ButtonStyle.success, 1, count=count)
        if any(isinstance(a, SwapJoker) for a in legal):
            button("swap", "button.swap_joker", discord.ButtonStyle.secondary, 1)
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            cards = sorted({a.card for a in discards}, key=Card.sort_key)
            options = [
                discord.SelectOption(
                    label=t("hand.discard_option", language, card=card_text(c)), value=str(c)
                )
                for c in cards
            ]
            selects("discard", options, t("hand.discard", language), 2)
        row3_free = len(discards) <= MAX_OPTIONS
        rummy_turn = view.rules.game == "rummy" and view.current == view.seat
        wants_meld = rummy_turn and view.step == "play" and len(view.hand or ()) >= 3
        if places and row3_free and not wants_meld and len(places) <= MAX_OPTIONS:
            ui.add_item(
                HandSelect(
                    tid,
                    tag,
                    sort,
                    "layoff",
                    options=layoff_options(places, language),
                    placeholder=t("hand.lay_off_pick", language),
                    row=3,
                    max_values=len(places),
                )
            )
        elif places:
            button("layoff", "button.lay_off", discord.ButtonStyle.secondary, 4)
        if wants_meld and row3_free:
            cards = sorted(set(view.hand or ()), key=Card.sort_key)[:MAX_OPTIONS]
            options = [discord.SelectOption(label=card_text(c), value=str(c)) for c in cards]
            ui.add_item(
                HandSelect(
                    tid,
                    tag,
                    sort,
                    "meld",
                    options=options,
                    placeholder=t("hand.new_meld", language),
                    row=3,
                    min_values=min(3, len(cards)),
                    max_values=len(cards),
                )
            )
        sort_key = "button.sort_by_rank" if sort == "s" else "button.sort_by_suit"
        button("sort", sort_key, discord.ButtonStyle.secondary, 4)
        button("refresh", "button.refresh", discord.ButtonStyle.secondary, 4)
        if not view.is_over:
            button("hint", "button.hint", discord.ButtonStyle.secondary, 4)
            button("leave", "button.leave_game", discord.ButtonStyle.danger, 4)
    note_text = "\n".join(notes) if notes else None
    content = hand_text(
        view, list(snap.names), sort, note=note_text, pending=pending_text, language=language
    )
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

    def __init__(
        self,
        table_id: int,
        sort: SortMode,
        proposal: str,
        language: Language = DEFAULT_LANGUAGE,
    ) -> None:
        # A stable id, so a form opened before a restart is still understood after it.
        super().__init__(
            timeout=600,
            custom_id=f"{MELDS_MODAL_PREFIX}{table_id}:{sort}",
            title=t("modal.title", language),
        )
        self.table_id, self.sort = table_id, sort
        self.melds.default = proposal
        self.melds.label = t("modal.label", language)
        self.melds.placeholder = t("modal.placeholder", language)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        async with guard(interaction):
            await submit_melds(interaction, self.table_id, self.sort, self.melds.value)

    async def on_timeout(self) -> None:  # pragma: no cover - Discord closes the modal itself
        log.info("table %s: a melds modal expired (its guild is not known here)", self.table_id)


def go_down_lines(
    proposal: GoDown, view: PlayerView, language: Language = DEFAULT_LANGUAGE
) -> tuple[list[str], Counter[Card]]:
    """The lines of a proposed go-down, with the swaps made first and the lay-offs that
    follow in the same play (issue 11), and the cards it leaves in hand."""
    lines: list[str] = []
    left = Counter(view.hand or ())
    for swap in proposal.swaps:  # preset_004: swaps made as part of going down
        swap_text = action_text(SwapJoker(swap), language)
        swap_text = swap_text[:1].lower() + swap_text[1:]
        lines.append(t("hand.first_swap", language, action=swap_text))
        left[swap.card] -= 1
        left[view.melds[swap.meld].meld.cards[swap.position].card] += 1
    lines.extend(f"• {meld_text(m, language)}" for m in proposal.melds)
    for meld in proposal.melds:
        left.subtract(meld.plain_cards)
    for item in proposal.layoffs:  # S37: the last cards laid off in the same play
        lines.append(t("hand.then_lay_off", language, item=layoff_item_text(item, language)))
        left[item.card] -= 1
    return lines, +left


MELDS_MODAL_PREFIX = "sh:melds:"


async def submit_melds(
    interaction: discord.Interaction[Any], table_id: int, sort: SortMode, text: str
) -> None:
    """The melds the player wrote, laid down like the proposal's button would."""
    try:
        action = parse_action("down " + melds_from_form(text.strip()))
    except ValueError as error:
        # The engine's coded reason (``Unreadable``) is worded as this refusal's ``reason``.
        raise UserError(f"I couldn't read those melds: {error}", code="unreadable_melds") from error
    await play_and_show(interaction, table_id, action, sort)


async def orphan_melds_form(interaction: discord.Interaction[Any]) -> None:
    """A melds form opened before the bot restarted has no ``MeldsModal`` behind it any more:
    read its text from the submission itself, so the player's lay-down still works."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    if interaction.type != discord.InteractionType.modal_submit:
        return
    if not custom_id.startswith(MELDS_MODAL_PREFIX):
        return
    store = getattr(getattr(interaction.client, "_connection", None), "_view_store", None)
    if custom_id in getattr(store, "_modals", {}):
        return  # the live form answers itself
    table, _, sort = custom_id.removeprefix(MELDS_MODAL_PREFIX).partition(":")
    text = next(
        (
            str(item.get("value", ""))
            for row in data.get("components", [])
            for item in row.get("components", [])
            if item.get("custom_id") == "melds"
        ),
        "",
    )
    async with guard(interaction):
        if not table.isdigit():
            raise UserError(
                "That form is not valid any more; open your hand again.", code="stale_form"
            )
        await submit_melds(interaction, int(table), "r" if sort == "r" else "s", text)


async def hand_files(
    snap: SeatSnapshot,
    sort: SortMode,
    mode: Mode = "main",
    language: Language = DEFAULT_LANGUAGE,
) -> list[discord.File]:
    """The picture of the hand, the proposed lay-down's cards raised in ``down``; text and
    picture always show the same hand, because both come from the same snapshot."""
    if snap.over:
        return []
    hand = snap.view.hand or ()
    proposal: tuple[Card, ...] = ()
    if mode in ("down", "main"):
        down = next((a for a in snap.legal if isinstance(a, GoDown)), None)
        if down is not None:
            proposal = tuple(c.card for m in down.melds for c in m.cards)
    return [await hand_picture_for(hand, proposal, by_rank=sort == "r", language=language)]


def result_note(snap: SeatSnapshot, language: Language = DEFAULT_LANGUAGE) -> str | None:
    """What the player's own click did, in one line above the hand."""
    action = snap.action
    gained = list(snap.gained)
    if isinstance(action, (DrawStock, TakeUpcard, BuyInTurn)) and gained:
        return t("hand.you_got", language, cards=cards_text(gained))
    if isinstance(action, Discard):
        return t("hand.you_discarded", language, card=card_text(action.card))
    if isinstance(action, GoDown):
        return t("hand.you_went_down", language)
    if isinstance(action, LayMelds):
        melds = t("hand.and", language).join(meld_text(m, language) for m in action.melds)
        return t("hand.you_laid", language, melds=melds)
    if isinstance(action, (LayOff, SwapJoker)):
        return t("hand.done", language, action=action_text(action, language))
    return None


async def show_snapshot(
    interaction: discord.Interaction[Any],
    snap: SeatSnapshot,
    sort: SortMode,
    *,
    mode: Mode = "main",
    note: str | None = None,
    picked: Card | None = None,
    fresh: bool = False,
) -> None:
    """Answer a hand interaction with ``snap`` drawn, and let the hand follow its player.

    The follower learns what this message shows before anything is awaited, so a push that
    the same change scheduled never overwrites this answer."""
    follower = getattr(interaction.client, "hands", None)
    if follower is not None and not snap.over:
        follower.shown(interaction, snap, sort)
    language = interaction_language(interaction)
    if snap.over:
        text = (note + "\n\n" if note else "") + t("hand.game_over", language)
        if fresh:
            await interaction.response.send_message(text, ephemeral=True)
        else:
            await interaction.response.edit_message(content=text, view=None, attachments=[])
        return
    content, ui = render_hand(snap, sort, mode=mode, note=note, picked=picked, language=language)
    files = await hand_files(snap, sort, mode, language)
    if fresh:
        await interaction.response.send_message(content, view=ui, ephemeral=True, files=files)
    else:
        await interaction.response.edit_message(content=content, view=ui, attachments=files)
    if follower is not None and not snap.over:
        follower.answered(snap.table_id, snap.user_id)


async def play_and_show(
    interaction: discord.Interaction[Any], table_id: int, action: Action, sort: SortMode
) -> None:
    """One click, one trip: the service applies ``action`` and answers with the screen."""
    service: TableService = interaction.client.service
    snap = await service.play(table_id, interaction.user.id, action)
    note = result_note(snap, interaction_language(interaction))
    await show_snapshot(interaction, snap, sort, note=note)


# -- handling a click ---------------------------------------------------------------------------


async def open_hand(interaction: discord.Interaction[Any], table_id: int) -> None:
    """``My hand`` on the table message: a fresh ephemeral hand message."""
    service: TableService = interaction.client.service
    await service.mark_present(table_id, interaction.user.id)
    snap = service.snapshot(table_id, interaction.user.id)
    await show_snapshot(interaction, snap, "s", fresh=True)


def action_for(verb: str, values: list[str] | None, snap: SeatSnapshot) -> Action | None:
    """The engine action a click asks for, or None for a control that only redraws."""
    if verb == "draw":
        return DrawStock()
    if verb == "take":
        return TakeUpcard()
    if verb == "buyin":
        return BuyInTurn()
    if verb == "downok":
        proposal = next((a for a in snap.legal if isinstance(a, GoDown)), None)
        if proposal is None:
            raise UserError(
                "Your hand can't meet this deal's contract now.", code="cannot_meet_contract_now"
            )
        return proposal
    if verb == "discard":
        return Discard(Card.parse(_one(values)))
    if verb == "meld":
        chosen = [Card.parse(value) for value in values or ()]
        return LayMelds((meld_from_cards(chosen, snap.view.rules),))
    if verb == "layall":
        batch = everything_that_fits(snap.legal)
        if batch is None:
            raise UserError("No cards fit the table unambiguously now.", code="nothing_fits")
        return batch
    if verb == "place":
        return LayOff((LayOffItem.parse(_one(values)),))
    if verb == "swap" and values is not None:
        action = parse_action(_one(values))
        if not isinstance(action, SwapJoker):
            raise UserError("That choice is not a swap.", code="not_a_swap")
        return action
    return None


async def hand_click(
    interaction: discord.Interaction[Any],
    table_id: int,
    tag: str,
    sort: SortMode,
    verb: str,
    values: list[str] | None,
) -> None:
    """A click on a hand control. A hand that is merely out of date still does what the
    button says when that is legal now; only a refusal is explained, with the hand redrawn."""
    service: TableService = interaction.client.service
    user_id = interaction.user.id
    await service.mark_present(table_id, user_id)
    snap = service.snapshot(table_id, user_id)
    stale = snap.tag != tag
    if verb == "sort":
        await show_snapshot(interaction, snap, "r" if sort == "s" else "s")
        return
    if verb in ("refresh", "back"):
        await show_snapshot(interaction, snap, sort)
        return
    if verb == "hint":
        from bot.service.hints import advice_for, plain_hint

        language = interaction_language(interaction)
        advice = await advice_for(snap.view, snap.legal, seeded=service.seed is not None)
        now = service.snapshot(table_id, user_id)
        if now.tag != snap.tag:  # the table moved on while the expert thought
            advice = plain_hint(now.view)
        await show_snapshot(interaction, now, sort, note=hint_note(advice, now.view, language))
        return
    if verb == "leave":
        language = interaction_language(interaction)
        ui = discord.ui.View(timeout=None)
        ui.add_item(
            HandButton(
                table_id,
                snap.tag,
                sort,
                "leaveok",
                label=t("button.yes_leave", language),
                style=discord.ButtonStyle.danger,
            )
        )
        keep = t("button.keep_playing", language)
        ui.add_item(HandButton(table_id, snap.tag, sort, "back", label=keep))
        await interaction.response.edit_message(
            content=t("hand.leave_confirm", language),
            view=ui,
            attachments=[],
        )
        return
    if verb == "leaveok":
        follower = getattr(interaction.client, "hands", None)
        if follower is not None:  # no push may redraw the hand over the goodbye
            follower.forget(table_id, user_id)
        await service.leave_game(table_id, user_id)
        await interaction.response.edit_message(
            content=t("hand.left_game", interaction_language(interaction)),
            view=None,
            attachments=[],
        )
        return
    if verb in ("down", "swap") and values is None:
        await show_snapshot(interaction, snap, sort, mode=verb)  # type: ignore[arg-type]
        return
    if verb == "downok" and stale:
        language = interaction_language(interaction)
        stale_text = refusal_text(StaleControl(), language)
        note = t("hand.stale_down", language, stale=stale_text)
        await show_snapshot(interaction, snap, sort, mode="down", note=note)
        return
    if verb == "downedit":
        proposal = next((a for a in snap.legal if isinstance(a, GoDown)), None)
        language = interaction_language(interaction)
        text = melds_for_form(proposal.melds, language) if proposal else ""
        await interaction.response.send_modal(MeldsModal(table_id, sort, text, language))
        return
    if verb == "layoff":
        await layoff_click(interaction, snap, sort, values)
        return
    if verb in ("buy", "pass", "unbuy"):
        await buy_from_hand(interaction, snap, sort, verb, stale)
        return
    try:
        action = action_for(verb, values, snap)
        if action is None:  # pragma: no cover - the template admits only the verbs above
            raise UserError("Unknown control", code="unknown_control")
        await play_and_show(interaction, table_id, action, sort)
    except ValueError as error:
        if not stale or interaction.response.is_done():
            raise
        language = interaction_language(interaction)
        note = t(
            "hand.stale_refused",
            language,
            stale=refusal_text(StaleControl(), language),
            reason=refusal_text(error, language).rstrip(".") + ".",
        )
        await show_snapshot(interaction, service.snapshot(table_id, user_id), sort, note=note)


def buy_recorded_text(view: PlayerView, card: str, language: Language) -> str:
    """The reply to a buy request: the seat-order rule and what the buy leaves of the limit, so
    a player knows before the window closes what winning the card would cost them."""
    limit = view.buy_limit
    used = view.seats[view.seat or 0].buys_used
    left = (
        t("buy.unlimited", language)
        if limit is None
        else t("buy.left", language, count=limit - used - 1, limit=limit)
    )
    return t("buy.recorded", language, card=card, left=left)


async def buy_from_hand(
    interaction: discord.Interaction[Any],
    snap: SeatSnapshot,
    sort: SortMode,
    verb: str,
    stale: bool,
) -> None:
    """Buy or Pass from the hand, for the window the hand showed (its tag names it): a click
    on the buttons of a window that has closed is refused with the hand as it is now."""
    service: TableService = interaction.client.service
    open_now = snap.buy_requested if verb == "unbuy" else snap.buy_offer is not None
    language = interaction_language(interaction)
    if stale or not open_now:
        note = "⚠️ " + t("error.buy_window_closed", language)
        await show_snapshot(interaction, snap, sort, note=note)
        return
    card = card_text(snap.view.upcard) if snap.view.upcard else t("buy.the_upcard", language)
    if verb == "unbuy":
        await service.act(snap.table_id, snap.user_id, CancelBuy())
        note = t("buy.withdrawn", language, card=card)
    elif verb == "pass":
        await service.pass_buy(snap.table_id, snap.user_id)
        note = t("buy.passed", language, card=card)
    else:
        await service.act(snap.table_id, snap.user_id, RequestBuy())
        note = buy_recorded_text(snap.view, card, language)
    await show_snapshot(interaction, service.snapshot(snap.table_id, snap.user_id), sort, note=note)


async def layoff_click(
    interaction: discord.Interaction[Any],
    snap: SeatSnapshot,
    sort: SortMode,
    values: list[str] | None,
) -> None:
    """The lay-off picker: cards first (several at once), then a place for a card that has
    more than one."""
    if values is None:
        await show_snapshot(interaction, snap, sort, mode="layoff")
        return
    places = layoff_cards(snap.legal)
    chosen = [Card.parse(value) for value in values]
    unknown = [c for c in chosen if c not in places]
    if unknown:
        raise UserError(
            f"{cards_text(unknown)} can't be laid off now.",
            code="cannot_lay_off",
            cards=cards_text(unknown),
        )
    ambiguous = [c for c in chosen if len(places[c]) > 1]
    if ambiguous:
        if len(chosen) == 1:
            await show_snapshot(interaction, snap, sort, mode="layoff", picked=ambiguous[0])
            return
        sure = [places[c][0] for c in chosen if len(places[c]) == 1]
        if not sure:
            await show_snapshot(interaction, snap, sort, mode="layoff", picked=ambiguous[0])
            return
        await play_and_show(interaction, snap.table_id, LayOff(tuple(sure)), sort)
        return
    await play_and_show(
        interaction, snap.table_id, LayOff(tuple(places[c][0] for c in chosen)), sort
    )


def meld_from_cards(cards: list[Card], rules: Any) -> Meld:
    """The set or run these cards make (Rummy's free melds); a ``UserError`` if none."""
    try:
        return Meld.from_naturals(cards, rules)
    except ValueError as error:
        raise UserError(
            f"{cards_text(cards)}: {error}.", code="cards_refused", cards=cards_text(cards)
        ) from error


def hint_note(advice: Hint, view: PlayerView, language: Language = DEFAULT_LANGUAGE) -> str:
    """The advice for this player's hand (``bot/service/hints.py``), as a note above the
    hand, in ``language``."""
    from bot.screens.hint_text import hint_text

    text = hint_text(advice, view.rules, language).strip() or t("hint.none", language)
    return t("hand.hint", language) + "\n" + text


def _one(values: list[str] | None) -> str:
    if not values or len(values) != 1:
        raise UserError("Choose one option.", code="choose_one")
    return values[0]
