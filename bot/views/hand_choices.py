"""What a click on the hand asks for: each control's verb and values, turned into the engine
action (or compound play) it means on the screen it lands on.

``resolver`` is the one place a hand control gets its meaning. The service calls the function
it returns under the table's lock with the seat's snapshot as it is *now*, so a control drawn
on an older screen still does what it says when that is legal now, and does nothing (the
screen is redrawn) when the play it offered is gone. ``tools.reachable`` reads the same
function, so what it finds reachable is what a player can click.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.ground.errors import UserError
from bot.screens.card_words import cards_text
from bot.screens.hand_controls import go_down_key, layoff_cards, other_go_downs
from bot.service.snapshot import Named
from engine.actions import (
    Action,
    BuyInTurn,
    Discard,
    DrawStock,
    GoDown,
    LayMelds,
    LayOff,
    LayOffItem,
    SwapJoker,
    TakeUpcard,
    parse_action,
)
from engine.cards import Card
from engine.melds import Meld

if TYPE_CHECKING:
    from bot.service import SeatSnapshot
    from bot.service.shortcuts import Plays
    from bot.service.snapshot import Resolver


#: Controls whose play the screen worked out rather than named: Take names no card, Lay down
#: no melds, "Lay off all that fits" no cards, and "…, then discard 3♣" only the card thrown.
#: On an out-of-date screen such a control does nothing (the hand is redrawn as it is now,
#: with a note), since on the hand now it would play what the player never saw: the upcard
#: of a later turn, other melds, another count of cards.
SCREEN_WORKED_OUT = frozenset({"take", "buyin", "takethrow", "downok", "finish", "layall"})


def resolver(verb: str, values: list[str] | None) -> Resolver | None:
    """What a click asks for, as a function of the screen it lands on (the service calls it
    under the table's lock with the seat's snapshot now), or None for a control that only
    redraws."""
    meaning = _meaning(verb, values)
    if meaning is None or verb not in SCREEN_WORKED_OUT:
        return meaning
    if isinstance(meaning, Named):
        return replace(meaning, not_when_stale=True)
    worked_out = meaning
    return lambda snap: None if snap.stale else worked_out(snap)


def _meaning(verb: str, values: list[str] | None) -> Resolver | None:
    """``resolver``'s answer, before the out-of-date check of ``SCREEN_WORKED_OUT``."""
    if verb == "draw":
        return Named(DrawStock())
    if verb == "take":
        return Named(TakeUpcard())
    if verb == "buyin":
        return Named(BuyInTurn())
    if verb == "downok":
        return _proposal
    if verb == "discard":
        return Named(Discard(Card.parse(one_value(values))))
    if verb == "meld":
        chosen = [Card.parse(value) for value in values or ()]
        return lambda snap: LayMelds((meld_from_cards(chosen, snap.view.rules),))
    if verb == "layall":
        return _everything
    if verb == "place":
        return Named(LayOff((LayOffItem.parse(one_value(values)),)))
    if verb == "swap" and values is not None:
        swap_text, _, place_text = one_value(values).partition("|")
        swap = parse_action(swap_text)
        if not isinstance(swap, SwapJoker):
            raise UserError("That choice is not a swap.", code="not_a_swap")
        if place_text:
            place = LayOffItem.parse(place_text)
            return lambda snap: _swap_and_place(snap, swap, place)
        return Named(swap)
    if verb == "downpick":
        key = one_value(values)
        return lambda snap: _go_down_by_key(snap, key)
    if verb == "finish":
        kind, _, card_text_ = one_value(values).partition(":")
        card = Card.parse(card_text_)
        return lambda snap: _then_discard(snap, kind, card)
    if verb == "takethrow":
        thrown = Card.parse(one_value(values))
        return lambda snap: _take_then_discard(snap, thrown)
    if verb == "laybatch":
        batch = parse_action(one_value(values))
        if not isinstance(batch, LayOff):
            raise UserError("That choice is not a lay-off.", code="not_a_layoff")
        return Named(batch)
    if verb == "layoff" and values is not None:
        picks = [card_or_place(value) for value in values]
        return lambda snap: layoff_choice(snap, picks)
    return None


def _proposal(snap: SeatSnapshot) -> Action | None:
    """The proposed lay-down (on an out-of-date screen nothing: it is shown again first)."""
    proposal = next((a for a in snap.legal if isinstance(a, GoDown)), None)
    if proposal is None:
        raise UserError(
            "Your hand can't meet this deal's contract now.", code="cannot_meet_contract_now"
        )
    return proposal


def _go_down_by_key(snap: SeatSnapshot, key: str) -> Action:
    """The go-down the Lay down screen's choice names (``go_down_key``), as legal now."""
    chosen = next((a for a in other_go_downs(snap.legal) if go_down_key(a) == key), None)
    if chosen is None:
        raise UserError(
            "Your hand can't meet this deal's contract now.", code="cannot_meet_contract_now"
        )
    return chosen


def _swap_and_place(snap: SeatSnapshot, swap: SwapJoker, place: LayOffItem) -> Plays | None:
    """The swap and the freed joker's lay-off, if both are still open (else the screen as it
    is now, so the player sees why)."""
    if (swap, place) not in snap.shortcuts.swap_and_place:
        return None
    return (swap, LayOff((place,)))


def _then_discard(snap: SeatSnapshot, kind: str, card: Card) -> Plays | None:
    """Lay down (``d``), lay down and lay off all (``b``), lay off all (``a``) or lay Rummy's
    new melds (``m``), then throw ``card``: only as the screen now offers it, else nothing
    but the screen as it is now (and nothing from an out-of-date screen:
    ``SCREEN_WORKED_OUT``)."""
    cuts = snap.shortcuts
    if kind == "d" and card in cuts.down_then_discard:
        proposal = next((a for a in snap.legal if isinstance(a, GoDown)), None)
        if proposal is not None:
            return (proposal, Discard(card))
    if kind == "b" and card in cuts.down_lay_all_then_discard and cuts.down_lay_all is not None:
        proposal = next((a for a in snap.legal if isinstance(a, GoDown)), None)
        if proposal is not None:
            return (proposal, cuts.down_lay_all, Discard(card))
    if kind == "a" and card in cuts.lay_all_then_discard and cuts.lay_off_all is not None:
        return (cuts.lay_off_all, Discard(card))
    if kind == "m" and card in cuts.melds_then_discard:
        return (*(LayMelds((meld,)) for meld in cuts.new_melds), Discard(card))
    return None


def _take_then_discard(snap: SeatSnapshot, card: Card) -> Plays | None:
    """Take the upcard and throw ``card``, only while the screen still offers it (else the
    screen as it is now: the upcard may have been bought, or the turn moved on; nor from an
    out-of-date screen, ``SCREEN_WORKED_OUT``: the screen's tag holds the upcard)."""
    if card not in snap.shortcuts.take_then_discard:
        return None
    return (TakeUpcard(), Discard(card))


def _everything(snap: SeatSnapshot) -> Action:
    batch = snap.shortcuts.lay_off_all
    if batch is None or len(batch.items) < 2:
        raise UserError("No cards fit the table unambiguously now.", code="nothing_fits")
    return batch


def card_or_place(value: str) -> Card | LayOffItem:
    """A lay-off select's value: a card (its one place, or the picker asks) or a place."""
    return LayOffItem.parse(value) if ">" in value else Card.parse(value)


def layoff_choice(snap: SeatSnapshot, chosen: list[Card | LayOffItem]) -> Action | None:
    """The lay-off of what was picked: each card on its one place, each place as picked;
    None when a card has several places and none is sure, so the picker asks where."""
    places = layoff_cards(snap.legal, snap.view)
    unknown = [
        c.card if isinstance(c, LayOffItem) else c
        for c in chosen
        if (c not in places.get(c.card, ()) if isinstance(c, LayOffItem) else c not in places)
    ]
    if unknown:
        raise UserError(
            f"{cards_text(unknown)} can't be laid off now.",
            code="cannot_lay_off",
            cards=cards_text(unknown),
        )
    held = Counter(snap.view.hand or ())
    picked = Counter(c.card if isinstance(c, LayOffItem) else c for c in chosen)
    twice = sorted((c for c in picked if picked[c] > held[c]), key=Card.sort_key)
    if twice:
        raise UserError(
            f"Pick one place for each {cards_text(twice)} you hold.",
            code="one_place_each",
            cards=cards_text(twice),
        )
    sure = [
        c if isinstance(c, LayOffItem) else places[c][0]
        for c in chosen
        if isinstance(c, LayOffItem) or len(places[c]) == 1
    ]
    if len(chosen) == 1 and not sure:
        return None
    return LayOff(tuple(sure)) if sure else None


def meld_from_cards(cards: list[Card], rules: Any) -> Meld:
    """The set or run these cards make (Rummy's free melds); a ``UserError`` if none."""
    try:
        return Meld.from_naturals(cards, rules)
    except ValueError as error:
        raise UserError(
            f"{cards_text(cards)}: {error}.", code="cards_refused", cards=cards_text(cards)
        ) from error


def one_value(values: list[str] | None) -> str:
    """The one value of a single-choice select (anything else is a forged click)."""
    if not values or len(values) != 1:
        raise UserError("Choose one option.", code="choose_one")
    return values[0]


def lays_down(values: list[str] | None) -> bool:
    """Whether a finish pick's value lays down first (``d:…``, ``b:…``; ``resolver``'s kinds)."""
    first = (values or [""])[0]
    return first[:2] in ("d:", "b:")


def first_ambiguous(snap: SeatSnapshot, values: list[str] | None) -> Card | None:
    """The first picked card with several places, for the picker to ask where it goes."""
    places = layoff_cards(snap.legal, snap.view)
    for value in values or ():
        card = card_or_place(value)
        if isinstance(card, Card) and len(places.get(card, ())) > 1:
            return card
    return None
