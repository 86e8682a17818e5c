"""The public history in every view: the deal's first upcard, then every public move in
order (takes, buys, discards, lay-downs, lay-offs, joker swaps, going out), the same for every
seat, never a hidden card, and kept across a save, also from states saved before the table
moves were kept."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import (
    Card,
    Discard,
    DrawStock,
    Game,
    Meld,
    PublicMove,
    RequestBuy,
    Rules,
    SwapJoker,
    TakeUpcard,
    parse_action,
    parse_cards,
)
from engine.actions import Swap
from engine.events import (
    BuyAwarded,
    DealStarted,
    Discarded,
    Event,
    JokerSwapped,
    LaidOff,
    TookUpcard,
    WentDown,
    WentOut,
)
from engine.players.random_play import random_step
from engine.view import PILE_KINDS

from .positions import position


def test_take_buy_and_discard_are_recorded_in_order_for_everyone() -> None:
    game = position(
        hands={1: "3H 4H 5H 9C KD", 2: "7S 7D 2C 8C 9D", 3: "JH JS QC 4D 6S"},
        stock="2D 3D 4C 5S 6H 8H",
        pile="7H",
        current=1,
        discarder=0,
    )
    game.history = []
    game.apply("p1", TakeUpcard())
    game.apply("p1", Discard(parse_cards("KD")[0]))
    game.apply("p3", RequestBuy())  # p3 buys the king; p2 then draws from the stock
    game.apply("p2", DrawStock())
    game.apply("p2", Discard(parse_cards("2C")[0]))
    expected = (
        PublicMove(1, "took", parse_cards("7H")[0]),
        PublicMove(1, "discarded", parse_cards("KD")[0]),
        PublicMove(3, "bought", parse_cards("KD")[0]),
        PublicMove(2, "discarded", parse_cards("2C")[0]),
    )
    assert [game.view(p).history for p in (*game.players, None)] == [expected] * 5


def _moves_of(event: Event) -> list[PublicMove]:
    """The history entry an event stands for (none for private or bookkeeping events)."""
    if isinstance(event, TookUpcard):
        return [PublicMove(event.player, "took", event.card)]
    if isinstance(event, BuyAwarded):
        return [PublicMove(event.player, "bought", event.card)]
    if isinstance(event, Discarded):
        return [PublicMove(event.player, "discarded", event.card)]
    if isinstance(event, WentDown):
        return [PublicMove(event.player, "went_down", melds=event.melds)]
    if isinstance(event, LaidOff):
        return [PublicMove(event.player, "laid_off", event.card, meld=event.meld)]
    if isinstance(event, JokerSwapped):
        return [PublicMove(event.player, "swapped", event.card, meld=event.meld, wild=event.wild)]
    if isinstance(event, WentOut):
        return [PublicMove(event.player, "went_out")]
    return []


def test_table_moves_are_recorded_in_order_up_to_going_out() -> None:
    rules = Rules.preset("standard").with_options(num_deals=1)
    game = position(
        rules=rules,
        hands={1: "8H 8S 8C 9H 9S KD 4C", 2: "7S 7D 2C 8D 9D"},
        stock="2D 3D 4C 5S 6H 8C",
        pile="9C",
        current=1,
        discarder=0,
        melds=[(3, "run: 5H JK=6H 7H 8H")],
        down=(3,),
    )
    game.history = []
    game.apply("p1", TakeUpcard())
    game.apply("p1", parse_action("down set: 8H 8S 8C | set: 9H 9S 9C"))
    game.apply("p1", Discard(Card.parse("KD")))
    game.current, game.step = 1, "play"  # p1's next turn, its hand made to go out
    game._reset_turn_flags()
    game.hands[1] = parse_cards("6H 10H 5D")
    game.apply("p1", SwapJoker(Swap(Card.parse("6H"), 0, 1)))
    game.apply("p1", parse_action("layoff JK>0:high, 10H>0:high"))
    game.apply("p1", Discard(Card.parse("5D")))
    assert game.is_over
    expected = (
        PublicMove(1, "took", Card.parse("9C")),
        PublicMove(
            1, "went_down", melds=(Meld.parse("set: 8H 8S 8C"), Meld.parse("set: 9H 9S 9C"))
        ),
        PublicMove(1, "discarded", Card.parse("KD")),
        PublicMove(1, "swapped", Card.parse("6H"), meld=0, wild=Card.parse("JK")),
        PublicMove(1, "laid_off", Card.parse("JK"), meld=0),
        PublicMove(1, "laid_off", Card.parse("10H"), meld=0),
        PublicMove(1, "discarded", Card.parse("5D")),
        PublicMove(1, "went_out"),
    )
    assert [game.view(p).history for p in (*game.players, None)] == [expected] * 5
    assert Game.from_json(game.to_json()).view(None).history == expected


def _public_before(game: Game) -> set[Card]:
    """The cards every seat can see now: the upcard and the table's melds."""
    seen = {placed.card for table_meld in game.melds for placed in table_meld.meld.cards}
    return seen | set(game.pile[-1:])


@pytest.mark.parametrize(
    ("preset", "players", "seed"), [("standard", 4, 11), ("preset_004", 5, 12), ("rummy", 3, 13)]
)
def test_the_history_is_the_deals_public_events_and_never_a_hidden_card(
    preset: str, players: int, seed: int
) -> None:
    """Over random games: each view's history equals the public events of the current deal
    (the same for every seat and a spectator, and across to_json / from_json); every card a
    new entry names was on the table or the pile's top, before or after the action (so never
    a stock draw or a penalty card); and a plain stock draw adds no entry."""
    rules = Rules.preset(preset).with_options(num_deals=3)
    game = Game.new([f"p{i}" for i in range(players)], rules, seed)
    rng = random.Random(seed)
    expected = list(game.view("p0").history)
    assert [m.kind for m in expected] == ["turned"]
    kinds: set[str] = set()
    steps = 0
    while not game.is_over:
        player, action = random_step(game, rng)
        before, seen = len(game.history), _public_before(game)
        events = game.apply(player, action)
        for event in events:
            if isinstance(event, DealStarted):
                expected = [PublicMove(event.dealer, "turned", event.upcard)]
            else:
                expected.extend(_moves_of(event))
        seen |= _public_before(game)
        if not any(isinstance(e, DealStarted) for e in events):
            added = game.history[before:]
            kinds.update(m.kind for m in added)
            for move in added:
                named = {c for c in (move.card, move.wild) if c is not None}
                named |= {p.card for meld in move.melds for p in meld.cards}
                assert named <= seen, (move, "names a card nobody saw")
            if isinstance(action, DrawStock) and len(events) == 1:
                assert added == []
        assert game.view("p0").history == tuple(expected)
        assert {game.view(p).history for p in (*game.players, None)} == {tuple(expected)}
        steps += 1
        if steps % 25 == 0 or game.is_over:
            restored = Game.from_json(game.to_json())
            assert restored.view(None) == game.view(None)
    assert kinds >= {"took", "bought", "discarded", "went_down", "laid_off"} - (
        {"bought"} if preset == "rummy" else set()
    )
    assert steps > 100


def test_a_state_saved_before_the_history_existed_restores_with_an_empty_one() -> None:
    game = Game.new(["a", "b", "c"], Rules(), seed=3)
    player = game.current_player
    game.apply(player, DrawStock())
    game.apply(player, Discard(game.hands[game.current][0]))
    data = json.loads(game.to_json())
    del data["history"]
    restored = Game.from_json(json.dumps(data))
    assert restored.view("a").history == ()
    assert game.view("a").history[-1].kind == "discarded"


OLD_STATE = Path(__file__).parent / "fixtures" / "state_before_table_moves.json"


def test_a_state_saved_before_table_moves_were_kept_loads_and_plays_on() -> None:
    """``state_before_table_moves.json`` was saved by the engine of commit 9d02c7b (3 players,
    standard, seed 5, random play to the first draw after a lay-off): its history holds only
    the pile moves. It loads with them; replaying the same game now gives the same state plus
    the table moves, and the state without its ``plays`` is the old text exactly."""
    text = OLD_STATE.read_text()
    old = Game.from_json(text)
    assert [m.kind for m in old.history][:1] == ["turned"]
    assert {m.kind for m in old.history} <= PILE_KINDS and len(old.history) == 26
    game = Game.new(["ann", "bea", "cas"], Rules.preset("standard"), 5)
    rng = random.Random(5)
    while not any(m.kind == "laid_off" for m in game.history) or game.step != "draw":
        game.apply(*random_step(game, rng))
    assert [m for m in game.history if m.kind in PILE_KINDS] == old.history
    assert [m.kind for m in game.history if m.kind not in PILE_KINDS] == ["went_down", "laid_off"]
    data = json.loads(game.to_json())
    assert len(data.pop("plays")) == 2
    assert json.dumps(data, separators=(",", ":")) == text
    old.apply(*random_step(old, random.Random(1)))  # and it plays on


def test_a_saved_table_move_out_of_place_is_refused() -> None:
    data = json.loads(OLD_STATE.read_text())
    data["plays"] = [[99, 0, "went_out", None, [], None, None]]
    with pytest.raises(ValueError):
        Game.from_json(json.dumps(data))
    data["plays"] = [[3, 0, "discarded", "5D", [], None, None]]
    with pytest.raises(ValueError):
        Game.from_json(json.dumps(data))
