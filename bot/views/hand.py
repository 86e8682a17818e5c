"""The private hand: one ephemeral message per player, edited in place by its own controls.

Every control is a ``DynamicItem`` whose custom_id carries the table, a *state tag* (the
snapshot's fingerprint of what this seat's controls depend on), the sort order and the verb
(the custom ids below), so the controls work after a restart and need no memory.

One click, one trip: the control becomes an engine action (``bot.views.hand_choices`` says
which), ``TableService.play`` applies it and answers with the seat's ``SeatSnapshot``, and
the message is drawn from that snapshot alone, as a Components V2 layout (``hand_layout``),
with its picture and notes (below). A hand that is merely out of date still does what
the button says when that is legal now; a refusal redraws the hand with the reason. Lay-offs
go through a picker (cards, then a place for a card with several), every select is split
into pages of at most 25 options, the melds a player writes come through the form of
``bot.views.melds_form``, and ``bot.channel.hand_follower`` keeps the message up to date
when something changes for its player.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import AsyncIterator, Hashable
from typing import TYPE_CHECKING, Any

import discord

from bot.ground.errors import StaleControl, UserError
from bot.i18n import DEFAULT_LANGUAGE, Language, interaction_language, t
from bot.i18n.refusals import refusal_text
from bot.i18n.terms import melds_for_form, melds_from_form
from bot.interactions import answers, guards
from bot.interactions.controls import Control
from bot.interactions.handler import guard
from bot.interactions.ids import parse_id, usable
from bot.screens.attachments import hand_picture_for
from bot.screens.card_words import SortMode
from bot.screens.hand_controls import Button, HandText, Mode
from bot.screens.hand_screen import hand_screen
from bot.screens.hand_text import buy_answer_text, hint_note, no_hand_text, result_note
from bot.views.hand_choices import first_ambiguous, lays_down, one_value, resolver
from bot.views.hand_layout import STYLES, hand_layout, text_layout
from bot.views.melds_form import MELDS_MODAL_PREFIX, MeldsModal, modal_fields, open_melds_form
from engine.actions import Action, GoDown, LayOffItem, parse_action
from engine.cards import Card

if TYPE_CHECKING:
    from bot.service import SeatSnapshot, TableService
    from bot.service.buy_window import BuyPref
    from bot.service.snapshot import Resolver
    from bot.service.tables import BuyChoice

log = logging.getLogger(__name__)


# -- the controls' custom ids ----------------------------------------------------------------------
#
#     sh:h:<table>:<tag>:<s|r>:<verb>              buttons
#     sh:hs:<table>:<tag>:<s|r>:<verb>[:<page>]    selects (discard, lay off, place, swap, meld)
#
# The templates read the table, the state tag and the sort order back from a click. A verb
# that is not listed here never matches, so a forged custom id reaches no handler.

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
    "opts",
    "bask",
    "bhelp",
    "bnever",
    "ndm",
    "nthr",
    "lim0",
    "lim1",
    "lim2",
    "buy",
    "pass",
    "unbuy",
)
SELECT_VERBS = (
    "discard",
    "layoff",
    "swap",
    "meld",
    "place",
    "laybatch",
    "finish",
    "downpick",
    "takethrow",
    "laystart",
)

_PREFIX = r"(?P<table>[0-9]{1,19}):(?P<tag>[0-9a-f]{8}):(?P<sort>[sr]):"
HAND_BUTTON_TEMPLATE = r"sh:h:" + _PREFIX + r"(?P<verb>" + "|".join(BUTTON_VERBS) + r")"
HAND_SELECT_TEMPLATE = (
    r"sh:hs:"
    + _PREFIX
    + r"(?P<verb>"
    + "|".join(SELECT_VERBS)
    + r")(?::(?P<arg>[0-9A-Za-z]{1,4}))?"
)


class HandButton(Control[discord.ui.Button[Any]], template=HAND_BUTTON_TEMPLATE):
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
    def from_match(cls, match: re.Match[str]) -> HandButton:
        sort: SortMode = "r" if match["sort"] == "r" else "s"
        return cls(parse_id(match["table"]), match["tag"], sort, match["verb"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        if await answer_hand_on_public(interaction, self.table_id):
            return
        modal = self.verb == "downedit"
        async with answers.for_click(interaction, self.table_id, fresh=False, modal=modal):
            await hand_click(interaction, self.table_id, self.tag, self.sort, self.verb, None)


class HandSelect(Control[discord.ui.Select[Any]], template=HAND_SELECT_TEMPLATE):
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
    def from_match(cls, match: re.Match[str]) -> HandSelect:
        sort: SortMode = "r" if match["sort"] == "r" else "s"
        return cls(
            parse_id(match["table"]), match["tag"], sort, match["verb"], arg=match["arg"] or ""
        )

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        if await answer_hand_on_public(interaction, self.table_id):
            return
        values = [str(value) for value in self.item.values]
        async with answers.for_click(interaction, self.table_id, fresh=False):
            await hand_click(interaction, self.table_id, self.tag, self.sort, self.verb, values)


async def answer_hand_on_public(interaction: discord.Interaction[Any], table_id: int) -> bool:
    """Check a hand control's table; on a public message (where a hand control never is),
    answer with the clicker's private hand instead. ``True``: answered, do nothing more."""
    guards.table_here(interaction, table_id)
    if not guards.is_public(interaction):
        return False
    await open_hand(interaction, table_id)
    return True


# -- drawing the message --------------------------------------------------------------------------


#: The buy preference each Options button sets.
BUY_PREF_VERBS: dict[str, BuyPref] = {"bask": "ask", "bhelp": "helps", "bnever": "never"}


def render_hand(
    snap: SeatSnapshot,
    sort: SortMode,
    *,
    mode: Mode = "main",
    note: str | None = None,
    picked: Card | LayOffItem | None = None,
    language: Language = DEFAULT_LANGUAGE,
) -> discord.ui.LayoutView:
    """The hand message of ``snap``: the screen ``hand_screen`` words, as a Components V2
    layout (``hand_layout``) whose controls' custom ids carry the table, the snapshot's tag
    and the sort order. Its picture is named, not sent: ``hand_files`` gives it when due."""
    screen = hand_screen(snap, sort, mode=mode, note=note, picked=picked, language=language)
    tid, tag = snap.table_id, snap.tag
    rows: dict[int, list[discord.ui.Item[Any]]] = {}
    for control in screen.controls:
        if isinstance(control, Button):
            style = STYLES[control.style]
            item: discord.ui.Item[Any] = HandButton(
                tid, tag, sort, control.verb, label=control.label, style=style
            )
        else:
            options = [discord.SelectOption(label=o.label, value=o.value) for o in control.options]
            item = HandSelect(
                tid,
                tag,
                sort,
                control.verb,
                arg=control.arg,
                options=options,
                placeholder=control.placeholder,
                min_values=control.min_values,
                max_values=control.max_values,
            )
        rows.setdefault(control.row, []).append(item)
    parts = screen.parts or HandText("", "", screen.content, "")
    view = snap.view
    turn = view.current == view.seat and not view.is_over and not snap.pending
    alt = t("picture.alt_hand", language)
    return hand_layout(parts, [rows[row] for row in sorted(rows)], alt=alt, turn=turn)


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


async def melds_form_submitted(interaction: discord.Interaction[Any]) -> None:
    """Every melds form is answered here, from the submission itself: a form opened before the
    bot restarted has no ``MeldsModal`` behind it, and a form opened since has none either
    (``open_melds_form`` stops it once sent), so there is one path and no private lookup."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    if interaction.type != discord.InteractionType.modal_submit:
        return
    if not custom_id.startswith(MELDS_MODAL_PREFIX):
        return
    table, _, sort = custom_id.removeprefix(MELDS_MODAL_PREFIX).partition(":")
    text = next(
        (
            str(item.get("value", ""))
            for item in modal_fields(data.get("components", []))
            if item.get("custom_id") == "melds"
        ),
        "",
    )
    async with guard(interaction):
        if not usable(parse_id(table)):
            raise UserError(
                "That form is not valid any more; open your hand again.", code="stale_form"
            )
        guards.table_here(interaction, int(table))  # as every other control of the hand
        async with (
            answers.for_click(interaction, int(table), fresh=False),
            answering_hand(interaction, int(table)),  # as a click on the hand is answered
        ):
            await submit_melds(interaction, int(table), "r" if sort == "r" else "s", text)


async def show_snapshot(
    interaction: discord.Interaction[Any],
    snap: SeatSnapshot,
    sort: SortMode,
    *,
    mode: Mode = "main",
    note: str | None = None,
    picked: Card | LayOffItem | None = None,
    fresh: bool = False,
) -> None:
    """Answer a hand interaction with ``snap`` drawn, and let the hand follow its player;
    once answered, the click is offered to the table's courier (``bot.channel.courier``),
    whose token may then carry the table message instead of the bot's.

    The follower learns what this message shows before anything is awaited, so a push that
    the same change scheduled never overwrites this answer."""
    follower = getattr(interaction.client, "hands", None)
    language = interaction_language(interaction)
    kept = following(interaction, follower, snap, sort, mode, fresh=fresh)
    if snap.over or snap.paused_until is not None:  # the end, or a deal's recap alone
        text = (note + "\n\n" if note and snap.over else "") + no_hand_text(snap, language)
        if fresh:
            await answers.show(interaction, None, view=text_layout(text))
        else:
            await answers.update(interaction, None, view=text_layout(text), attachments=[])
        if follower is not None and not snap.over:
            follower.answered(snap.table_id, snap.user_id)
        return
    ui = render_hand(snap, sort, mode=mode, note=note, picked=picked, language=language)
    files = [] if kept else await hand_files(snap, sort, mode, language)
    if fresh:
        placed = await answers.show(interaction, None, view=ui, files=files)
        if follower is not None and placed is not None:
            follower.placed(interaction, snap.user_id, placed)
    else:
        await answers.update(interaction, None, view=ui, attachments=None if kept else files)
    if follower is not None and not snap.over:
        follower.answered(snap.table_id, snap.user_id)
    courier = getattr(interaction.client, "courier", None)
    if courier is not None:  # answered: its token may carry the table message a while
        courier.offer(snap.table_id, interaction)


async def play_and_show(
    interaction: discord.Interaction[Any],
    table_id: int,
    action: Action | Resolver | None,
    sort: SortMode,
    *,
    shown: str | None = None,
) -> SeatSnapshot:
    """One click, one trip: the service applies ``action`` (or what ``action`` resolves to on
    the screen as it is now) and answers with the screen, drawn here. A refusal of a control
    drawn on an older screen is explained above the hand as it is now."""
    service: TableService = interaction.client.service
    snap = await service.play(table_id, interaction.user.id, action, shown=shown)
    language = interaction_language(interaction)
    if snap.refusal is not None:
        note = t(
            "hand.stale_refused",
            language,
            stale=refusal_text(StaleControl(), language),
            reason=refusal_text(snap.refusal, language).rstrip(".") + ".",
        )
        await show_snapshot(interaction, snap, sort, note=note)
    elif snap.action is not None:
        await show_snapshot(interaction, snap, sort, note=result_note(snap, language))
    return snap


# -- handling a click ---------------------------------------------------------------------------


async def open_hand(interaction: discord.Interaction[Any], table_id: int) -> None:
    """``My hand`` on the table message: a fresh ephemeral hand message."""
    service: TableService = interaction.client.service
    async with answers.for_click(interaction, table_id, fresh=True):
        snap = await service.play(table_id, interaction.user.id)
        await show_snapshot(interaction, snap, "s", fresh=True)


async def hand_click(
    interaction: discord.Interaction[Any],
    table_id: int,
    tag: str,
    sort: SortMode,
    verb: str,
    values: list[str] | None,
) -> None:
    """A click on a hand control: one service call, then the answer drawn from its snapshot.
    A hand that is merely out of date still does what the button says when that is legal
    now; only a refusal is explained, with the hand redrawn."""
    async with answering_hand(interaction, table_id):
        await _hand_click(interaction, table_id, tag, sort, verb, values)


async def _hand_click(
    interaction: discord.Interaction[Any],
    table_id: int,
    tag: str,
    sort: SortMode,
    verb: str,
    values: list[str] | None,
) -> None:
    service: TableService = interaction.client.service
    user_id = interaction.user.id
    language = interaction_language(interaction)
    if verb == "hint":
        snap, advice = await service.hint(table_id, user_id)
        note = hint_note(advice, snap.view, language, snap.legal)
        await show_snapshot(interaction, snap, sort, note=note)
        return
    if verb == "leaveok":
        follower = getattr(interaction.client, "hands", None)
        if follower is not None:  # no push may redraw the hand over the goodbye
            follower.forget(table_id, user_id)
        await service.leave_game(table_id, user_id)
        goodbye = text_layout(t("hand.left_game", language))
        await answers.update(interaction, None, view=goodbye, attachments=[])
        return
    if verb in ("lim0", "lim1", "lim2"):
        limit = int(verb[-1]) or None
        snap = await service.set_buy_limit(table_id, user_id, limit)
        await show_snapshot(interaction, snap, sort, mode="options")
        return
    if verb in ("ndm", "nthr"):
        snap = await service.set_notice_by_dm(table_id, user_id, verb == "ndm")
        await show_snapshot(interaction, snap, sort, mode="options")
        return
    if verb in BUY_PREF_VERBS:
        snap = await service.set_buy_preference(table_id, user_id, BUY_PREF_VERBS[verb])
        await show_snapshot(interaction, snap, sort, mode="options")
        return
    if verb in ("buy", "pass", "unbuy"):
        choice: BuyChoice = "buy" if verb == "buy" else "pass" if verb == "pass" else "unbuy"
        snap = await service.decide_buy(table_id, user_id, choice, shown=tag)
        if snap.refusal is not None:
            note = "⚠️ " + refusal_text(snap.refusal, language)
        else:
            note = buy_answer_text(snap, choice, language)
        await show_snapshot(interaction, snap, sort, note=note)
        return
    snap = await play_and_show(interaction, table_id, resolver(verb, values), sort, shown=tag)
    if snap.refusal is not None or snap.action is not None:
        return  # play_and_show answered
    if verb == "sort":
        await show_snapshot(interaction, snap, "r" if sort == "s" else "s")
    elif verb == "leave":
        follower = getattr(interaction.client, "hands", None)
        if follower is not None:  # the question shows no picture: a push must send it again
            follower.pictureless(table_id, user_id)
        await answers.update(
            interaction,
            None,
            view=leave_confirmation(table_id, snap.tag, sort, language),
            attachments=[],
        )
    elif verb in ("down", "swap"):
        await show_snapshot(interaction, snap, sort, mode=verb)  # type: ignore[arg-type]
    elif verb == "opts":
        await show_snapshot(interaction, snap, sort, mode="options")
    elif verb in ("take", "takethrow", "buyin"):  # drawn on an older screen: nothing taken
        await show_snapshot(interaction, snap, sort, note=stale_note("hand.stale_take", language))
    elif verb == "downok" or (verb == "finish" and snap.stale and lays_down(values)):
        # Lay down (then discard) on an older screen: the proposal as it is now, first.
        note = stale_note("hand.stale_down", language)
        await show_snapshot(interaction, snap, sort, mode="down", note=note)
    elif verb in ("finish", "layall") and snap.stale:  # older lay-offs or melds: as they are now
        await show_snapshot(interaction, snap, sort, note=stale_note("hand.stale_hand", language))
    elif verb == "downedit":
        proposal = next((a for a in snap.legal if isinstance(a, GoDown)), None)
        text = melds_for_form(proposal.melds, language) if proposal else ""
        await open_melds_form(interaction, MeldsModal(table_id, sort, text, language))
    elif verb == "layoff":
        picked = first_ambiguous(snap, values)
        await show_snapshot(interaction, snap, sort, mode="layoff", picked=picked)
    elif verb == "laystart":  # the first place of lay-offs allowed only together
        first = LayOffItem.parse(one_value(values))
        await show_snapshot(interaction, snap, sort, mode="layoff", picked=first)
    else:  # refresh, back
        await show_snapshot(interaction, snap, sort)


def leave_confirmation(
    table_id: int, tag: str, sort: SortMode, language: Language
) -> discord.ui.LayoutView:
    """Yes, leave / Keep playing: leaving ends one's game, so it is never one click."""
    yes = HandButton(
        table_id,
        tag,
        sort,
        "leaveok",
        label=t("button.yes_leave", language),
        style=discord.ButtonStyle.danger,
    )
    keep = HandButton(table_id, tag, sort, "back", label=t("button.keep_playing", language))
    return text_layout(t("hand.leave_confirm", language), [[yes, keep]])


# -- the answer's picture, its note and the follower -----------------------------------------------
#
# How a hand message is answered besides its controls: the picture beside its text, the note
# above a hand redrawn after a click on an older screen, and the hand's follower held off while
# the answer goes out.


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
    proposal = _proposal(snap, mode)
    return [
        await hand_picture_for(
            snap.view.hand or (),
            proposal,
            by_rank=sort == "r",
            language=language,
            four_colour=snap.four_colour,
        )
    ]


def _proposal(snap: SeatSnapshot, mode: Mode) -> tuple[Card, ...]:
    """The cards of the proposed lay-down, raised in the picture of ``mode``."""
    if mode not in ("down", "main"):
        return ()
    down = next((a for a in snap.legal if isinstance(a, GoDown)), None)
    return () if down is None else tuple(c.card for m in down.melds for c in m.cards)


def picture_key(
    snap: SeatSnapshot, sort: SortMode, mode: Mode = "main", language: Language = DEFAULT_LANGUAGE
) -> Hashable:
    """Everything the picture of ``hand_files`` depends on: two screens with the same key
    show the same picture, so a message that shows it already keeps it (no upload)."""
    proposal = tuple(sorted(str(c) for c in _proposal(snap, mode)))
    hand = tuple(str(c) for c in snap.view.hand or ())
    return (hand, proposal, sort, language, snap.four_colour)


def following(
    interaction: discord.Interaction[Any],
    follower: Any,
    snap: SeatSnapshot,
    sort: SortMode,
    mode: Mode,
    *,
    fresh: bool,
) -> bool:
    """Tell the ``follower`` (if any) what the answer to ``interaction`` shows, before anything
    is awaited; ``True`` when the message answered (``fresh``: a new one) shows the same
    picture already, as the follower knows: the answer's layout names it, nothing is sent."""
    if follower is None:
        return False
    picture = picture_key(snap, sort, mode, interaction_language(interaction))
    message_id = None if fresh or interaction.message is None else interaction.message.id
    kept = message_id is not None and bool(
        follower.shows(snap.table_id, snap.user_id, message_id, picture)
    )
    if not snap.over:
        follower.shown(interaction, snap, sort, message_id=message_id, picture=picture)
    return kept


@contextlib.asynccontextmanager
async def answering_hand(
    interaction: discord.Interaction[Any], table_id: int
) -> AsyncIterator[None]:
    """While a click or a submitted form on this player's hand is answered, no push redraws
    that hand (one already on its way lands first): a push of the change the answer made
    could otherwise land after the answer and wipe its note ("You went down!")."""
    follower = getattr(interaction.client, "hands", None)
    if follower is None:
        yield
        return
    await follower.answering(table_id, interaction.user.id)
    try:
        yield
    finally:
        follower.answered(table_id, interaction.user.id, click=True)


def stale_note(key: str, language: Language) -> str:
    """The note above a hand redrawn because the control clicked was on an older screen."""
    return t(key, language, stale=refusal_text(StaleControl(), language))


__all__ = [
    "BUY_PREF_VERBS",
    "HandButton",
    "HandSelect",
    "answer_hand_on_public",
    "hand_click",
    "hand_files",
    "leave_confirmation",
    "melds_form_submitted",
    "open_hand",
    "picture_key",
    "play_and_show",
    "render_hand",
    "show_snapshot",
    "submit_melds",
]
