"""The private hand's screen as data: its text and its controls, worded here, drawn by views.

``hand_screen`` decides from a ``SeatSnapshot`` alone what the player's message says and which
buttons and selects it offers (each a ``Button`` or ``Select`` of ``hand_controls``, with its
verb, label, style and row); ``bot/views/hand.py`` only turns them into Discord components
that carry the table, the snapshot's tag and the sort order. Every select is split into pages
of at most 25 options, so no choice is ever cut off, and lay-offs go through a picker (cards,
then a place for a card with several).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.i18n import DEFAULT_LANGUAGE, Language, t
from bot.screens.card_words import SortMode, card_text, cards_text, countdown, meld_text
from bot.screens.hand_controls import (
    BUY_LIMIT_BUTTONS,
    BUY_PREF_BUTTONS,
    MAX_OPTIONS,
    Button,
    Control,
    HandScreen,
    HandText,
    Mode,
    Option,
    Select,
    Style,
    chunks,
    go_down_key,
    go_down_text,
    lay_offs_together,
    layoff_cards,
    layoff_options,
    other_go_downs,
    swap_options,
)
from bot.screens.hand_text import deal_recap_text, go_down_lines
from bot.screens.play_text import action_text, layoff_item_text
from bot.screens.table_story import relaxed_story, table_story
from bot.screens.text import hand_parts, hand_text
from engine.actions import BuyInTurn, Discard, DrawStock, GoDown, LayOffItem, SwapJoker, TakeUpcard
from engine.cards import Card

if TYPE_CHECKING:
    from bot.service.snapshot import SeatSnapshot


def hand_screen(
    snap: SeatSnapshot,
    sort: SortMode,
    *,
    mode: Mode = "main",
    note: str | None = None,
    picked: Card | LayOffItem | None = None,
    language: Language = DEFAULT_LANGUAGE,
) -> HandScreen:
    """The content and controls of a seat's private message, from its snapshot alone, in the
    player's own language. ``picked`` is what the lay-off screen was given: a card (where
    does it go?) or the first place of lay-offs allowed only together (what goes with it?).
    A screen with nothing to offer (no lay-down, lay-off or swap any more) falls back to the
    main screen with a note saying why."""
    view = snap.view
    pending_text = None
    if snap.pending:
        pending_text = t("hand.pending", language, countdown=countdown(snap.buy_deadline))
    screen = _Screen(snap, language)
    # The table since the seat's last turn: a few lines more at a relaxed table.
    story = (relaxed_story if snap.relaxed else table_story)(view, snap.names, language)
    screen.notes = [n for n in (story, note, *snap.notes) if n]
    if mode == "down":
        shown = screen.down()
    elif mode == "layoff":
        shown = screen.layoff(picked)
    elif mode == "swap":
        shown = screen.swap()
    else:
        shown = mode == "main" or screen.options()
    if snap.deal_end is not None:  # the deal just ended: the moment comes first
        screen.notes = [deal_recap_text(snap.deal_end, snap.names, language), *screen.notes]
    if snap.removed:  # nothing left to click: the bot plays the seat for good
        screen.notes.append(t("hand.seat_played_by_bot", language))
    if (mode == "main" or not shown) and not snap.removed:
        screen.main(sort)
    notes = screen.notes
    note_text = "\n".join(notes) if notes else None
    content = hand_text(
        view, list(snap.names), sort, note=note_text, pending=pending_text, language=language
    )
    if screen.extra:
        content += "\n\n" + "\n".join(screen.extra)
    hand, prompt = hand_parts(view, list(snap.names), sort, pending=pending_text, language=language)
    parts = HandText(prompt, note_text or "", hand, "\n".join(screen.extra))
    return HandScreen(content[:2000], tuple(screen.controls), parts)


class _Screen:
    """One hand message being worded: its controls in order, the notes above the hand and
    the lines below it. Each screen (the main one, Lay down, Lay off, Swap, Options) is a
    method; a screen that has nothing to offer adds a note and returns False."""

    def __init__(self, snap: SeatSnapshot, language: Language) -> None:
        self.snap = snap
        self.language = language
        self.controls: list[Control] = []
        self.notes: list[str] = []
        self.extra: list[str] = []

    def t(self, key: str, **params: Any) -> str:
        return t(key, self.language, **params)

    def button(self, verb: str, key: str, style: Style, row: int, **params: Any) -> None:
        self.controls.append(Button(verb, self.t(key, **params), style, row))

    def selects(
        self,
        verb: str,
        options: list[Option],
        placeholder: str,
        first_row: int,
        *,
        arg: str = "",
        many: bool = False,
        last_row: int = 4,
    ) -> None:
        """``options`` in pages of one select a row; a select fills its row, so pages stop
        before a row the screen's buttons hold."""
        for page, part in enumerate(chunks(options)[: last_row + 1 - first_row]):
            more = self.t("hand.more", placeholder=placeholder)
            self.controls.append(
                Select(
                    verb,
                    tuple(part),
                    placeholder if page == 0 else more,
                    first_row + page,
                    arg=f"{arg}{page}" if arg or page else "",
                    max_values=len(part) if many else 1,
                )
            )

    def discard_options(self, cards: tuple[Card, ...] | list[Card], prefix: str) -> list[Option]:
        return [
            Option(self.t("hand.discard_option", card=card_text(c)), f"{prefix}{c}") for c in cards
        ]

    # -- the screens behind a button ----------------------------------------------------------

    def down(self) -> bool:
        legal, view, language = self.snap.legal, self.snap.view, self.language
        proposal = next((a for a in legal if isinstance(a, GoDown)), None)
        if proposal is None:
            self.notes.append(self.t("hand.cannot_meet_contract"))
            return False
        self.extra.append(self.t("hand.lay_down_these"))
        lines, left = go_down_lines(proposal, view, language)
        self.extra.extend(lines)
        left_cards = cards_text(sorted(left.elements(), key=Card.sort_key))
        self.extra.append(self.t("hand.left_in_hand", cards=left_cards))
        self.button("downok", "button.confirm_down", "success", 0)
        self.button("downedit", "button.own_melds", "secondary", 0)
        self.button("back", "button.back", "secondary", 0)
        others = other_go_downs(legal)
        if others:  # with a joker swapped in, or going out: plays of their own
            options = [Option(go_down_text(a, language), go_down_key(a)) for a in others]
            self.selects("downpick", options, self.t("hand.other_go_downs"), 1)
        return True

    def layoff(self, picked: Card | LayOffItem | None) -> bool:
        legal, language = self.snap.legal, self.language
        places = layoff_cards(legal, self.snap.view)
        together = lay_offs_together(legal)
        if not places and together:  # more than the main screen's one select holds
            first = picked if isinstance(picked, LayOffItem) else None
            starting = [a for a in together if first is None or a.items[0] == first]
            if len(starting) <= 4 * MAX_OPTIONS:
                options = [Option(action_text(a, language)[:100], str(a)[:100]) for a in starting]
                placeholder = self.t("hand.lay_off_together")
                self.selects("laybatch", options, placeholder, 0, last_row=3)
            else:  # two wilds on a dozen melds are hundreds of pairs: the first place first
                firsts = list(dict.fromkeys(a.items[0] for a in together))
                options = [Option(layoff_item_text(i, language)[:100], str(i)) for i in firsts]
                self.selects("laystart", options, self.t("hand.lay_off_first"), 0, last_row=3)
            self.button("back", "button.back", "secondary", 4)
        elif not places:
            self.notes.append(self.t("hand.nothing_to_lay_off"))
            return False
        elif isinstance(picked, Card) and picked in places:
            self.extra.append(self.t("hand.where_goes", card=card_text(picked)))
            options = [
                Option(layoff_item_text(item, language)[:100], str(item)) for item in places[picked]
            ]
            placeholder = self.t("hand.lay_off_on", card=card_text(picked))
            self.selects("place", options, placeholder, 0, arg="p", last_row=3)
            self.button("layoff", "button.back_to_cards", "secondary", 4)
        else:
            self.extra.append(self.t("hand.lay_off_help"))
            options = layoff_options(places, language)
            placeholder = self.t("hand.cards_to_lay_off")
            self.selects("layoff", options, placeholder, 0, many=True, last_row=3)
            self.button("back", "button.back", "secondary", 4)
        return True

    def swap(self) -> bool:
        if not any(isinstance(a, SwapJoker) for a in self.snap.legal):
            self.notes.append(self.t("hand.nothing_to_swap"))
            return False
        options = swap_options(self.snap, self.language)
        self.selects("swap", options, self.t("hand.choose_swap"), 0, last_row=3)
        self.button("back", "button.back", "secondary", 4)
        return True

    def options(self) -> bool:
        """The seat's own settings, and leaving the game: out of the turn's rows, so a hurried
        click never ends anyone's game. Rummy has no buying, so its Options offer no buy
        preference, standing order or limit (the service refuses an old click on one)."""
        relaxed = self.snap.relaxed  # a standing order: it answers for the player at once
        buying = self.snap.view.rules.has_buying
        row = 0
        if buying:
            self.extra.append(self.t("hand.order_help" if relaxed else "hand.options_help"))
            for pref, verb, key in BUY_PREF_BUTTONS:
                chosen = self.snap.buy_pref == pref
                label = f"button.order_{pref}" if relaxed else key
                self.button(verb, label, "success" if chosen else "secondary", row)
            row += 1
        if relaxed and buying:  # how many buys the standing order makes a deal
            for limit, verb, key in BUY_LIMIT_BUTTONS:
                chosen = self.snap.buy_limit == limit
                self.button(verb, key, "success" if chosen else "secondary", row)
            row += 1
        if relaxed:  # where the turn's notice goes, beside leaving and going back
            dm = self.snap.notice_dm
            key = "button.notice_thread" if dm else "button.notice_dm"
            self.button("nthr" if dm else "ndm", key, "secondary", row)
        self.button("leave", "button.leave_game", "danger", row)
        self.button("back", "button.back", "secondary", row)
        return True

    # -- the main screen: everything a turn needs, so most turns take two picks ------------

    def main(self, sort: SortMode) -> None:
        snap, view, legal = self.snap, self.snap.view, self.snap.legal
        if not snap.pending:
            self.draw_step()
        if snap.buy_offer is not None and view.upcard is not None:
            # Off turn, the upcard's window is decided here: the table message needn't change.
            upcard = card_text(view.upcard)
            self.button("buy", "button.buy", "success", 0, card=upcard)
            self.button("pass", "button.pass", "secondary", 0)
            why = snap.buy_why
            if why is not None:  # the question says in a few words why the buy is worth it
                self.extra.append(
                    self.t(f"buy.why.{why.code}", card=upcard, count=why.count, hold=why.hold)
                )
        if snap.buy_requested:
            self.button("unbuy", "buy.take_back", "secondary", 0)
        proposal = next((a for a in legal if isinstance(a, GoDown)), None)
        if proposal is not None:
            self.extra.append(self.t("hand.can_lay_down"))
            self.extra.extend(go_down_lines(proposal, view, self.language)[0])
            self.button("downok", "button.lay_down_these", "success", 1)
            self.button("downedit", "button.own_melds", "secondary", 1)
            if other_go_downs(legal):
                self.button("down", "button.more_go_downs", "secondary", 1)
        batch = snap.shortcuts.lay_off_all
        finished = self.finish()
        if batch is not None and len(batch.items) >= 2:
            self.button("layall", "button.lay_all", "success", 1, count=len(batch.items))
        if any(isinstance(a, SwapJoker) for a in legal):
            swapping = swap_options(snap, self.language)
            if not finished and len(swapping) <= MAX_OPTIONS:
                # Row 0 is free: the swaps (each with its joker's place) in one pick there.
                placeholder = self.t("hand.choose_swap")
                self.controls.append(Select("swap", tuple(swapping), placeholder, 0))
            else:
                self.button("swap", "button.swap_joker", "secondary", 1)
        discards = sorted({a.card for a in legal if isinstance(a, Discard)}, key=Card.sort_key)
        if discards:
            options = self.discard_options(discards, "")
            self.selects("discard", options, self.t("hand.discard"), 2)
        self.row_three(row3_free=len(discards) <= MAX_OPTIONS)
        sort_key = "button.sort_by_rank" if sort == "s" else "button.sort_by_suit"
        self.button("sort", sort_key, "secondary", 4)
        self.button("refresh", "button.refresh", "secondary", 4)
        if not view.is_over:
            self.button("hint", "button.hint", "secondary", 4)
            self.button("opts", "button.options", "secondary", 4)

    def draw_step(self) -> None:
        """Draw, take, buy in turn; and take-then-discard in the discard's row, which the
        draw step leaves free."""
        legal, view = self.snap.legal, self.snap.view
        if any(isinstance(a, DrawStock) for a in legal):
            self.button("draw", "button.draw_stock", "primary", 0)
        if any(isinstance(a, TakeUpcard) for a in legal):
            if view.upcard:
                self.button("take", "button.take", "primary", 0, card=card_text(view.upcard))
            else:
                self.button("take", "button.take_upcard", "primary", 0)
        if any(isinstance(a, BuyInTurn) for a in legal):
            self.button("buyin", "button.buy_in_turn", "success", 0)
        took = self.snap.shortcuts.take_then_discard
        if took and view.upcard is not None and len(took) <= MAX_OPTIONS:
            placeholder = self.t("hand.take_then_discard", card=card_text(view.upcard))
            options = self.discard_options(took, "")
            self.controls.append(Select("takethrow", tuple(options), placeholder, 2))

    def finish(self) -> bool:
        """The turn's last plays in one pick (lay down or lay off all, or Rummy's new melds,
        then discard), in row 0, which the play step leaves free."""
        cuts = self.snap.shortcuts
        if cuts.down_lay_all_then_discard and cuts.down_lay_all is not None:
            cards, prefix = cuts.down_lay_all_then_discard, "b"
            count = len(cuts.down_lay_all.items)
            placeholder = self.t("hand.down_lay_all_then_discard", count=count)
        elif cuts.down_then_discard:
            cards, prefix = cuts.down_then_discard, "d"
            placeholder = self.t("hand.down_then_discard")
        elif cuts.melds_then_discard:  # Rummy: the new melds, then the discard
            cards, prefix = cuts.melds_then_discard, "m"
            melds = " + ".join(meld_text(m, self.language) for m in cuts.new_melds)
            placeholder = self.t("hand.melds_then_discard", melds=melds)[:150]
        elif cuts.lay_all_then_discard and cuts.lay_off_all is not None:
            cards, prefix = cuts.lay_all_then_discard, "a"
            items = cuts.lay_off_all.items
            if len(items) == 1:
                one = layoff_item_text(items[0], self.language)
                placeholder = self.t("hand.lay_one_then_discard", item=one)
            else:
                placeholder = self.t("hand.lay_all_then_discard", count=len(items))
        else:
            return False
        if len(cards) > MAX_OPTIONS:
            return False  # a huge hand keeps the plain controls: no choice may be cut off
        options = self.discard_options(cards, f"{prefix}:")
        self.controls.append(Select("finish", tuple(options), placeholder, 0))
        return True

    def row_three(self, *, row3_free: bool) -> None:
        """Row 3: the lay-off select (or, off its room, a Lay off button), lay-offs allowed
        only together, or Rummy's new meld."""
        legal, view, language = self.snap.legal, self.snap.view, self.language
        places = layoff_cards(legal, view)
        rummy_turn = view.rules.game == "rummy" and view.current == view.seat
        wants_meld = rummy_turn and view.step == "play" and len(view.hand or ()) >= 3
        if places and row3_free and not wants_meld and len(places) <= MAX_OPTIONS:
            lay_offs = layoff_options(places, language)
            placeholder = self.t("hand.lay_off_pick")
            self.controls.append(
                Select("layoff", tuple(lay_offs), placeholder, 3, max_values=len(lay_offs))
            )
        elif places:
            self.button("layoff", "button.lay_off", "secondary", 4)
        together = lay_offs_together(legal)
        if together and not places and not wants_meld:
            if not row3_free or len(together) > MAX_OPTIONS:
                self.button("layoff", "button.lay_off", "secondary", 4)  # its screen pages them
            else:
                options = [Option(action_text(a, language)[:100], str(a)[:100]) for a in together]
                placeholder = self.t("hand.lay_off_together")
                self.controls.append(Select("laybatch", tuple(options), placeholder, 3))
        if wants_meld and row3_free:
            cards = sorted(set(view.hand or ()), key=Card.sort_key)[:MAX_OPTIONS]
            options = [Option(card_text(c), str(c)) for c in cards]
            self.controls.append(
                Select(
                    "meld",
                    tuple(options),
                    self.t("hand.new_meld"),
                    3,
                    min_values=min(3, len(cards)),
                    max_values=len(cards),
                )
            )


#: The controls' data, given here too for the screen's readers (``tools.reachable``).
__all__ = [
    "BUY_PREF_BUTTONS",
    "MAX_OPTIONS",
    "Button",
    "Control",
    "HandScreen",
    "HandText",
    "Mode",
    "Option",
    "Select",
    "Style",
    "chunks",
    "go_down_key",
    "go_down_text",
    "hand_screen",
    "lay_offs_together",
    "layoff_cards",
    "layoff_options",
    "other_go_downs",
    "swap_options",
]
