"""Game records and replays: a random game exported and replayed reproduces every deal's
final hands and every score (property test over the presets and Rummy, with and without
the checkable shuffle); no replay step shows a viewer a card the engine would not show it;
records read back as written and refuse what is not a record."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Card, Game, Rules
from engine.actions import Action, Discard, parse_action
from engine.events import DealEnded, Event
from engine.players.random_play import random_step
from engine.record import (
    GameRecord,
    read_record,
    record_from_stored,
    record_game,
    write_record,
)
from engine.replay import ReplayError, ReplayStep, replay
from engine.view import PlayerView

RULES: dict[str, Rules] = {
    "standard": Rules.preset("standard"),
    "preset_000": Rules.preset("preset_000"),
    "preset_004": Rules.preset("preset_004"),
    "rummy": Rules.preset("rummy").with_options(win_condition="fixed_hands"),
    "void_deals": Rules.preset("standard").with_options(on_exhaustion="void_deal"),
}


@dataclass
class Played:
    game: Game
    actions: list[tuple[int, Action]]
    #: Per scored deal, (deal, hands as scored, scores), seen as the game was played.
    ends: list[tuple[int, tuple[tuple[Card, ...], ...], tuple[int, ...]]]


def play(rules: Rules, players: int, seed: int, secret: bytes | None) -> Played:
    game = Game.new([f"p{i}" for i in range(players)], rules, seed, secret=secret)
    rng = random.Random(seed)
    actions: list[tuple[int, Action]] = []
    ends = []
    while not game.is_over:
        player, action = random_step(game, rng)
        for event in game.apply(player, action):
            if isinstance(event, DealEnded) and event.reason != "void":
                ends.append((event.deal, event.hands, event.scores))
        actions.append((game.seat_of(player), action))
    return Played(game, actions, ends)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(sorted(RULES)),
    players=st.integers(2, 5),
    deals=st.integers(1, 3),
    seed=st.integers(0, 2**62),
    checkable=st.booleans(),
)
def test_an_exported_game_replays_to_the_same_hands_and_scores(
    preset: str, players: int, deals: int, seed: int, checkable: bool
) -> None:
    rules = RULES[preset].with_options(num_deals=deals)
    players = min(max(players, rules.players[0]), rules.players[1])
    secret = random.Random(seed).randbytes(32) if checkable else None
    played = play(rules, players, seed, secret)
    text = write_record(record_game(played.game, played.actions))
    record = read_record(text)
    assert bool(record.deal_seeds) == checkable
    ends = []
    steps = list(replay(record))
    for step in steps:
        for event in step.events:
            if isinstance(event, DealEnded) and event.reason != "void":
                assert step.revealed == event.hands and step.revealed_deal == event.deal
                ends.append((event.deal, step.revealed, event.scores))
    assert ends == played.ends
    assert len(ends) == deals
    final = steps[-1]
    assert final.index == len(played.actions)
    for viewer in (None, *played.game.players):
        assert final.view(viewer) == played.game.view(viewer)
    assert final.view(None).score_sheet == tuple(map(tuple, played.game.score_sheet))
    assert final.view(None).deal_seeds == played.game.revealed_seeds


# -- peeking ---------------------------------------------------------------------------------

#: A card named in text; not what a wild stands for (the ``6H`` of ``JK=6H``), which is no card.
CARD = re.compile(r"(?<![\w>=])(?:10|[2-9AJQK])[CDHS]\b|\bJK\b")


def view_cards(view: PlayerView) -> set[Card]:
    """Every card ``view`` shows."""
    cards = set(view.hand or ())
    for table_meld in view.melds:
        cards.update(mc.card for mc in table_meld.meld.cards)
        cards.update(card for _, card in table_meld.laid_off)
    for move in view.history:
        cards.update(c for c in (move.card, move.wild) if c is not None)
        for meld in move.melds:
            cards.update(mc.card for mc in meld.cards)
    cards.update(c for c in (view.upcard, view.taken_upcard) if c is not None)
    return cards


def event_cards(events: tuple[Event, ...] | list[Event]) -> set[Card]:
    """The cards the events (public by the engine's rule) name; a deal's scored hands too."""
    cards: set[Card] = set()
    for event in events:
        for name in ("card", "wild", "upcard"):
            value = getattr(event, name, None)
            if isinstance(value, Card):
                cards.add(value)
        for meld in getattr(event, "melds", ()):
            cards.update(mc.card for mc in meld.cards)
        for hand in getattr(event, "hands", ()):
            cards.update(hand)
    return cards


def shown(step: ReplayStep, viewer: str | None) -> set[Card]:
    """Every card the step's material for ``viewer`` names: its view, its action, its
    description line and the hands it lays open."""
    texts = [step.line.text(), "" if step.action is None else str(step.action)]
    named = {Card.parse(match) for text in texts for match in CARD.findall(text)}
    revealed = {card for hand in step.revealed for card in hand}
    return view_cards(step.view(viewer)) | named | revealed


@pytest.mark.parametrize(
    ("preset", "players", "seed"),
    [("standard", 4, 11), ("preset_004", 3, 12), ("rummy", 2, 13), ("void_deals", 6, 14)],
)
def test_no_replay_step_shows_a_viewer_more_than_the_engine_would(
    preset: str, players: int, seed: int
) -> None:
    rules = RULES[preset].with_options(num_deals=2)
    played = play(rules, players, seed, random.Random(seed).randbytes(32))
    record = record_game(played.game, played.actions)
    # A second game played alongside: what the engine itself shows each viewer at each step.
    mirror = record.new_game()
    viewers = (None, *mirror.players)
    before = {viewer: mirror.view(viewer) for viewer in viewers}
    steps = replay(record)
    first = next(steps)
    for viewer in viewers:
        assert first.view(viewer) == before[viewer] and first.revealed == ()
    for step in steps:
        seat, action = played.actions[step.index - 1]
        events = mirror.apply(mirror.players[seat], action)
        scored = [e for e in events if isinstance(e, DealEnded) and e.reason != "void"]
        assert step.revealed == (scored[0].hands if scored else ())
        for viewer in viewers:
            after = mirror.view(viewer)
            assert step.view(viewer) == after
            hand = step.view(viewer).hand
            assert hand == (None if viewer is None else mirror.hand_of(viewer))
            allowed = view_cards(before[viewer]) | view_cards(after) | event_cards(events)
            leaked = shown(step, viewer) - allowed
            assert not leaked, f"step {step.index} shows {viewer!r} {sorted(map(str, leaked))}"
            before[viewer] = after


# -- records -----------------------------------------------------------------------------------


def finished(seed: int = 3, secret: bytes | None = bytes(range(32))) -> Played:
    return play(RULES["standard"].with_options(num_deals=1), 3, seed, secret)


def test_a_record_is_built_alike_from_the_stored_state_and_action_log() -> None:
    played = finished()
    log = [(played.game.players[seat], str(action)) for seat, action in played.actions]
    assert record_from_stored(played.game.to_json(), log) == record_game(
        played.game, played.actions
    )
    with pytest.raises(ValueError, match="no seat"):
        record_from_stored(played.game.to_json(), [("stranger", "draw")])


def test_a_game_in_play_cannot_be_recorded() -> None:
    game = Game.new(["a", "b"], RULES["standard"], 1, secret=bytes(32))
    with pytest.raises(ValueError, match="over"):
        record_game(game, [])


def test_a_record_without_seeds_replays_a_game_from_before_the_checkable_shuffle() -> None:
    played = finished(secret=None)
    record = record_game(played.game, played.actions)
    assert record.deal_seeds == ()
    assert list(replay(read_record(write_record(record))))[-1].view(None).is_over


def _document(played: Played) -> dict[str, object]:
    return json.loads(write_record(record_game(played.game, played.actions)))  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=2), "Unknown record version"),
        (lambda d: d.update(format="other"), "Not a Shanghai game record"),
        (lambda d: d.update(deal_seeds=["ab"]), "deal_seeds"),
        (lambda d: d["actions"].append({"seat": 9, "action": "draw"}), "beyond the table"),
        (lambda d: d["actions"].append({"seat": 0, "action": "fly"}), "actions"),
        (lambda d: d["rules"].update(num_deals=99), "rules.num_deals"),
    ],
)
def test_bad_records_are_refused_with_the_field_named(change: object, message: str) -> None:
    data = _document(finished())
    change(data)  # type: ignore[operator]
    with pytest.raises(ValueError, match=message):
        read_record(json.dumps(data))
    with pytest.raises(ValueError, match="Not JSON"):
        read_record("{")


def test_a_tampered_record_does_not_replay() -> None:
    played = finished()
    record = record_game(played.game, played.actions)
    # A discard changed to a card the seat does not hold is refused by the engine.
    index = next(i for i, (_, a) in enumerate(played.actions) if isinstance(a, Discard))
    seat = played.actions[index][0]
    data = json.loads(write_record(record))
    data["actions"][index]["action"] = (
        "discard JK"
        if Card.parse("JK") not in (list(_hand_before(record, index, seat)))
        else "discard 2C"
    )
    with pytest.raises(ReplayError, match=f"action {index + 1}"):
        list(replay(read_record(json.dumps(data))))
    # A result that differs from the replay's is caught after the last action.
    data = json.loads(write_record(record))
    data["result"]["totals"] = [total + 1 for total in data["result"]["totals"]]
    with pytest.raises(ReplayError, match="totals"):
        list(replay(read_record(json.dumps(data))))
    # A seed too many: every seed given must have dealt.
    extra = record.model_copy(update={"deal_seeds": (*record.deal_seeds, "0" * 64)})
    with pytest.raises(ReplayError, match="deal seeds"):
        list(replay(extra))
    # A record cut short ends mid-game.
    short = record.model_copy(update={"actions": record.actions[:-1]})
    with pytest.raises(ReplayError, match="mid-game"):
        list(replay(short))


def _hand_before(record: GameRecord, index: int, seat: int) -> tuple[Card, ...]:
    game = record.new_game()
    for entry in record.actions[:index]:
        game.apply(game.players[entry.seat], parse_action(entry.action))
    return game.hand_of(game.players[seat])
