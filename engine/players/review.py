"""Notes from the expert: a recorded game's decisions of one seat, set beside what the expert
computer player would have done at each.

``review(record, seat)`` replays the record (``engine.replay``) and, at every decision of the
seat (a buy or a pass, the upcard or the stock, going down or waiting, laying off, the
discard), asks ``ExpertStrategy`` what it would do. Where the answers differ it writes a
``Note``: which deal and step, what the player did, what the expert would do, and why, as a
``NoteReason`` code with numbers and card names for the bot to word in each language.

The expert is handed exactly what the player saw and nothing else: the seat's own
``PlayerView`` at that step. The legal actions it chooses from are those of a game
determinized from that view (``determinize.sample_game``), since a seat's legal actions
follow from its own hand and the table alone. Nothing else of a step is read (no other
seat's view, no revealed hand, no event), so a note can never lean on a card the player could
not see. Off-turn steps show a seat only whether a buy window is open; the seat's own buy
requests, which it knows, give its answer.

At most ``NOTES_PER_DEAL`` notes a deal, the most important first chosen: going down or
waiting, then buys, then the upcard, then lay-offs and discards; within a kind, the larger
``stake`` (cards of the contract, or points, that the difference is about). The review holds
no state between calls (a fresh expert each time), so threads may run reviews side by side.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from engine.actions import (
    Action,
    BuyInTurn,
    CancelBuy,
    Discard,
    GoDown,
    LayOff,
    RequestBuy,
    TakeUpcard,
)
from engine.cards import Card
from engine.errors import Param
from engine.record import GameRecord
from engine.replay import ReplayStep, replay
from engine.view import PlayerView

from .determinize import sample_game
from .expert import ExpertStrategy, SearchBudget
from .hints import card_links, deficiency, extends_plan, fits_table, plan_contract
from .strategy import cards_short

#: The most notes one deal gets: a player reads a few, not a list.
NOTES_PER_DEAL = 3

NoteKind = Literal["down", "buy", "take", "layoff", "discard"]
#: Which kind of note wins a place first.
PRIORITY: dict[str, int] = {"down": 5, "buy": 4, "take": 3, "layoff": 2, "discard": 1}

#: Why the expert differs; the bot words each code (params in brackets).
ReasonCode = Literal[
    "go_down_now",  # going down now would have left [points] points in [cards] cards
    "go_out_now",  # going down now would have emptied the hand
    "hold_for_out_in_one",  # waiting might go out in one turn; down leaves [cards] cards
    "wait",  # the expert waits to go down
    "buy_needed",  # the hand is [short] cards too small without buying [card]
    "buy_close",  # buying [card] brings going down within [left] cards
    "buy_no_help",  # [card] brings the contract no closer; [penalty] extra cards
    "buy_too_costly",  # [card] helps, but [penalty] extra cards cost more than it gains
    "upcard_completes",  # [card] completes the contract
    "upcard_shortens",  # [card] brings the contract [gain] cards closer
    "upcard_lays_off",  # down: [card] can be laid off at once
    "upcard_lengthens",  # [card] lengthens a meld and a spare card can go instead
    "upcard_cheap",  # [card] is worth only [points] points
    "upcard_no_help",  # [card] brings the contract no closer
    "draw_instead",  # the expert draws from the stock instead of taking [card]
    "lay_off_first",  # [card] could be laid off on the table
    "threw_wild",  # [card] is a wild
    "threw_needed",  # [card] was part of the contract, which now needs [needs] cards
    "kept_dead_card",  # [card] ([points] points) completes nothing
    "fed_next",  # [card] fits the table and the next player is down
    "shed_points",  # an opponent is close to going out: [card] costs [points] points
    "threw_link",  # [thrown] worked with more of the hand than [card]
    "dearer_card",  # [card] is worth [points] points and helps no more than [thrown]
    "expert_discard",  # the expert throws [card]
]

_ENGLISH: dict[str, str] = {
    "go_down_now": "going down now would have left {points} points in {cards} cards",
    "go_out_now": "going down now would have emptied the hand",
    "hold_for_out_in_one": (
        "waiting could go out in one turn; going down left {cards} cards to play"
    ),
    "wait": "the expert would wait before going down",
    "buy_needed": "without buying {card} the hand is {short} cards too small for the contract",
    "buy_close": "buying {card} brings going down within {left} cards",
    "buy_no_help": "{card} brings the contract no closer, and a buy adds {penalty} cards",
    "buy_too_costly": "{card} helps, but the {penalty} extra cards are likely to be caught",
    "upcard_completes": "the upcard {card} completes the contract",
    "upcard_shortens": "the upcard {card} brings the contract {gain} card(s) closer",
    "upcard_lays_off": "the upcard {card} can be laid off at once",
    "upcard_lengthens": "the upcard {card} lengthens a meld and a useless card can go instead",
    "upcard_cheap": "the upcard {card} is worth only {points} points",
    "upcard_no_help": "the upcard {card} brings the contract no closer",
    "draw_instead": "the expert would leave {card} and draw from the stock",
    "lay_off_first": "{card} could be laid off on the table",
    "threw_wild": "{card} is a wild: it fits any meld",
    "threw_needed": "{card} was part of the contract, which now needs {needs} card(s)",
    "kept_dead_card": "kept {card} ({points} points), which completes nothing",
    "fed_next": "{card} fits the table and the next player is down",
    "shed_points": "an opponent is close to going out and {card} costs {points} points",
    "threw_link": "{thrown} worked with more of the hand than {card}",
    "dearer_card": "{card} is worth {points} points and helps no more than {thrown}",
    "expert_discard": "the expert would throw {card}",
}


@dataclass(frozen=True, slots=True)
class NoteReason:
    """Why the expert differs, free of any language: a code and its params (numbers and card
    texts such as ``7H``), like the engine's refusals and the hints' reasons."""

    code: ReasonCode
    params: Mapping[str, Param] = field(default_factory=dict)

    def __str__(self) -> str:
        """English, for tests and the command line; players read the bot's wording."""
        return _ENGLISH[self.code].format(**self.params)


@dataclass(frozen=True, slots=True)
class Note:
    """One decision where the expert would have done otherwise.

    ``step`` is the replay step (``ReplayStep.index``) the decision was made from: the
    position the player saw; its action is the next step's. ``played`` and ``expert`` are
    action texts (``take``, ``discard 7H``, ``down ...``), or ``buy`` / ``pass`` for a buy
    window. ``stake`` ranks notes of one kind: cards of the contract or points at stake.
    """

    deal: int
    step: int
    seat: int
    kind: NoteKind
    played: str
    expert: str
    reason: NoteReason
    stake: int = 0

    def __str__(self) -> str:
        return (
            f"deal {self.deal}, step {self.step}: you {self.played}; "
            f"the expert would {self.expert}: {self.reason}"
        )


@dataclass(frozen=True, slots=True)
class Decision:
    """What the seat saw (``view``, at replay step ``step``) and what it did: a turn's
    action, or for a buy window whether it asked to buy (``action`` None)."""

    step: int
    view: PlayerView
    action: Action | None
    bought: bool = False


def review(record: GameRecord, seat: int, *, budget: SearchBudget | None = None) -> list[Note]:
    """The notes for ``seat`` over the whole recorded game, in game order. Raises
    ``ReplayError`` if the record does not replay, ``ValueError`` for a seat not at it."""
    if not 0 <= seat < len(record.seats):
        raise ValueError(f"seat {seat} is not at this game ({len(record.seats)} seats)")
    return review_decisions(decisions(replay(record), seat, record.seats[seat]), budget)


def decisions(steps: Iterable[ReplayStep], seat: int, player: str) -> Iterator[Decision]:
    """The seat's decisions, read from its own view at each step and its own actions only."""
    before: PlayerView | None = None
    before_index = 0
    window: Decision | None = None
    window_key: tuple[int, int] | None = None
    for step in steps:
        view = step.view(player)
        action = step.action if step.seat == seat else None
        if action is not None and before is not None:
            if isinstance(action, RequestBuy | CancelBuy):
                if window is not None:
                    window = Decision(
                        window.step, window.view, None, isinstance(action, RequestBuy)
                    )
            elif before.current == seat:
                yield Decision(before_index, before, action)
        key = (view.deal, len(view.history)) if _window_open(view, seat) else None
        if window_key is not None and key != window_key:
            if window is not None:
                yield window
            window_key, window = None, None
        if key is not None and window_key is None:
            window_key = key
            legal = _legal(view)
            window = Decision(step.index, view, None) if RequestBuy() in legal else None
        before, before_index = view, step.index
    if window is not None:
        yield window


def review_decisions(seen: Iterable[Decision], budget: SearchBudget | None = None) -> list[Note]:
    """The notes for the decisions ``seen``, at most ``NOTES_PER_DEAL`` a deal."""
    expert = ExpertStrategy(budget)
    by_deal: dict[int, list[Note]] = {}
    for decision in seen:
        note = _judge(expert, decision)
        if note is not None:
            by_deal.setdefault(note.deal, []).append(note)
    notes: list[Note] = []
    for deal in sorted(by_deal):
        ranked = sorted(by_deal[deal], key=lambda n: (-PRIORITY[n.kind], -n.stake, n.step))
        notes += sorted(ranked[:NOTES_PER_DEAL], key=lambda n: n.step)
    return notes


# -- reading a view ----------------------------------------------------------------------------


def _window_open(view: PlayerView, seat: int) -> bool:
    return (
        view.rules.game == "shanghai"
        and view.step == "draw"
        and view.current != seat
        and view.upcard_live
        and view.upcard is not None
    )


def _legal(view: PlayerView) -> list[Action]:
    """The seat's legal actions, from a game built out of its view alone (the hidden cards
    dealt at random do not change what this seat may do)."""
    assert view.player is not None
    return sample_game(view, random.Random(0)).legal_actions(view.player)


def _rng(view: PlayerView) -> random.Random:
    return random.Random(f"review:{view.deal}:{len(view.history)}:{view.step}")


def _hand(view: PlayerView) -> list[Card]:
    assert view.hand is not None
    return list(view.hand)


def _deficiency(cards: Sequence[Card], view: PlayerView) -> int:
    return deficiency(cards, view.contract, view.rules, len(view.seats))


def _down(view: PlayerView) -> bool:
    assert view.seat is not None
    return view.seats[view.seat].is_down


def _next_is_down(view: PlayerView) -> bool:
    assert view.seat is not None
    return view.seats[(view.seat + 1) % len(view.seats)].is_down


def _kind(action: Action) -> str:
    if isinstance(action, GoDown):
        return "down"
    if isinstance(action, LayOff):
        return "layoff"
    if isinstance(action, Discard):
        return "discard"
    return action.name


# -- judging one decision ----------------------------------------------------------------------


def _judge(expert: ExpertStrategy, decision: Decision) -> Note | None:
    view = decision.view
    if view.hand is None or view.seat is None or view.step == "over":
        return None
    if decision.action is None:
        return _judge_buy(expert, decision)
    legal = _legal(view)
    if len(legal) <= 1:
        return None
    advice = expert.choose(view, legal, _rng(view))
    played = decision.action
    if view.step == "draw":
        if _kind(played) == _kind(advice):
            return None
        reason, stake = _take_reason(view, played, advice)
        return _note(decision, "take", str(played), str(advice), reason, stake)
    mine, theirs = _kind(played), _kind(advice)
    if mine == theirs and (mine != "discard" or played == advice):
        return None
    if "down" in (mine, theirs) and {mine, theirs} <= {"down", "discard", "layoff"}:
        reason, stake = _down_reason(view, played, advice)
        return _note(decision, "down", str(played), str(advice), reason, stake)
    if mine == "discard" and theirs == "layoff":
        assert isinstance(advice, LayOff)
        card = advice.items[0].card
        reason = NoteReason("lay_off_first", {"card": str(card)})
        points = sum(view.rules.card_value(item.card) for item in advice.items)
        return _note(decision, "layoff", str(played), str(advice), reason, points)
    if mine == theirs == "discard":
        assert isinstance(played, Discard) and isinstance(advice, Discard)
        reason, stake = _discard_reason(expert, view, played.card, advice.card)
        return _note(decision, "discard", str(played), str(advice), reason, stake)
    return None


def _note(
    decision: Decision,
    kind: NoteKind,
    played: str,
    advice: str,
    reason: NoteReason,
    stake: int,
) -> Note:
    view = decision.view
    assert view.seat is not None
    return Note(view.deal, decision.step, view.seat, kind, played, advice, reason, stake)


def _judge_buy(expert: ExpertStrategy, decision: Decision) -> Note | None:
    view = decision.view
    upcard = view.upcard
    if upcard is None:
        return None
    wants = expert.wants_buy(view, _rng(view))
    if wants == decision.bought:
        return None
    hand = _hand(view)
    before = _deficiency(hand, view)
    after = _deficiency([*hand, upcard], view)
    gain = before - after
    card = str(upcard)
    penalty = view.rules.buy_penalty_cards
    if wants:
        short = cards_short(view)
        if short > 0:
            reason = NoteReason("buy_needed", {"card": card, "short": short})
        else:
            reason = NoteReason("buy_close", {"card": card, "left": after})
    elif gain <= 0:
        reason = NoteReason("buy_no_help", {"card": card, "penalty": penalty})
    else:
        reason = NoteReason("buy_too_costly", {"card": card, "penalty": penalty})
    words = ("buy", "pass") if decision.bought else ("pass", "buy")
    return _note(decision, "buy", words[0], words[1], reason, max(gain, 0))


def _take_reason(view: PlayerView, played: Action, advice: Action) -> tuple[NoteReason, int]:
    upcard = view.upcard
    if upcard is None:  # pragma: no cover - a draw step offering a choice has an upcard
        return NoteReason("draw_instead", {"card": "?"}), 0
    card = str(upcard)
    hand = _hand(view)
    value = view.rules.card_value(upcard)
    if _down(view):
        if isinstance(advice, TakeUpcard) and fits_table(
            upcard, [m.meld for m in view.melds], view.rules
        ):
            return NoteReason("upcard_lays_off", {"card": card}), 1
        return NoteReason("draw_instead", {"card": card}), 0
    before = _deficiency(hand, view)
    after = _deficiency([*hand, upcard], view)
    gain = before - after
    if isinstance(advice, TakeUpcard | BuyInTurn):
        if gain > 0 and after == 0:
            return NoteReason("upcard_completes", {"card": card}), gain
        if gain > 0:
            return NoteReason("upcard_shortens", {"card": card, "gain": gain}), gain
        plan = plan_contract(hand, view.contract, view.rules, len(view.seats))
        if extends_plan(upcard, plan):
            return NoteReason("upcard_lengthens", {"card": card}), 0
        return NoteReason("upcard_cheap", {"card": card, "points": value}), 0
    if isinstance(played, TakeUpcard | BuyInTurn) and gain <= 0:
        return NoteReason("upcard_no_help", {"card": card}), 0
    return NoteReason("draw_instead", {"card": card}), 0


def _down_reason(view: PlayerView, played: Action, advice: Action) -> tuple[NoteReason, int]:
    hand = _hand(view)
    value = view.rules.card_value
    if isinstance(advice, GoDown):
        left = Counter(hand)
        left.subtract(placed.card for meld in advice.melds for placed in meld.cards)
        rest = list((+left).elements())
        out = view.rules.final_discard != "forbidden"
        if len(rest) <= (1 if out else 0):
            return NoteReason("go_out_now"), sum(map(value, hand))
        points = sum(map(value, rest))
        return NoteReason("go_down_now", {"points": points, "cards": len(rest)}), sum(
            map(value, hand)
        ) - points
    assert isinstance(played, GoDown)
    left = Counter(hand)
    left.subtract(placed.card for meld in played.melds for placed in meld.cards)
    cards = (+left).total()
    if view.rules.blind_bonus and isinstance(advice, Discard):
        return NoteReason("hold_for_out_in_one", {"cards": cards}), cards
    return NoteReason("wait"), 0


def _discard_reason(
    expert: ExpertStrategy, view: PlayerView, thrown: Card, kept: Card
) -> tuple[NoteReason, int]:
    """Why the expert throws ``kept`` rather than ``thrown``, and the stake."""
    rules = view.rules
    value = rules.card_value
    hand = _hand(view)
    table = [m.meld for m in view.melds]
    if _next_is_down(view) and fits_table(thrown, table, rules):
        return NoteReason("fed_next", {"card": str(thrown)}), value(thrown)
    if _down(view):
        return NoteReason("expert_discard", {"card": str(kept)}), value(kept) - value(thrown)
    if rules.is_wild(thrown) and not rules.is_wild(kept):
        return NoteReason("threw_wild", {"card": str(thrown)}), value(thrown)
    if expert.threat(view) >= 0.8 and value(kept) > value(thrown):
        points = value(kept)
        return NoteReason("shed_points", {"card": str(kept), "points": points}), points
    without_thrown = list(hand)
    without_thrown.remove(thrown)
    without_kept = list(hand)
    without_kept.remove(kept)
    more = _deficiency(without_thrown, view) - _deficiency(without_kept, view)
    if more > 0:
        after = _deficiency(without_thrown, view)
        return NoteReason("threw_needed", {"card": str(thrown), "needs": after}), 10 * more
    plan = plan_contract(hand, view.contract, rules, len(view.seats))
    if kept in plan.spare and card_links(kept, without_kept, view.contract, rules) == 0:
        points = value(kept)
        return NoteReason("kept_dead_card", {"card": str(kept), "points": points}), points // 5
    names = {"card": str(kept), "thrown": str(thrown)}
    if card_links(thrown, without_thrown, view.contract, rules) > card_links(
        kept, without_kept, view.contract, rules
    ):
        return NoteReason("threw_link", names), 1
    if value(kept) > value(thrown):
        return NoteReason("dearer_card", {**names, "points": value(kept)}), 0
    return NoteReason("expert_discard", {"card": str(kept)}), 0


__all__ = [
    "NOTES_PER_DEAL",
    "Decision",
    "Note",
    "NoteReason",
    "decisions",
    "review",
    "review_decisions",
]
