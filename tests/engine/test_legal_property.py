"""Property (issue 11): in random positions of random games under every preset, what a player
could type and ``apply`` accepts is reachable through ``legal_actions`` (or, for go-downs,
through ``GoDownBuilder``), and nothing ``legal_actions`` offers is refused.

*Reachable* means: the typed action has the same effect as an offered action, or splits into
a first part with the effect of an offered action and a rest reachable from there (a lay-off
batch played card by card, Rummy melds one at a time). Effects compare the whole saved state,
with the order of a set's cards and of a hand not counting. Go-downs are checked against the
builder: every accepted go-down is built step by step, each step accepted, and some go-down
is offered whenever one is legal (so the bot shows its *Lay down* button).

The default run is short; ``-m slow`` runs many more positions.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine import (
    BuyInTurn,
    CancelBuy,
    Card,
    Discard,
    DrawStock,
    Game,
    GoDown,
    IllegalAction,
    LayMelds,
    LayOff,
    LayOffItem,
    Meld,
    RequestBuy,
    Rules,
    Swap,
    SwapJoker,
    TakeUpcard,
)
from engine.actions import Action
from engine.builder import GoDownBuilder
from engine.melds import MeldCard
from engine.play_plans import placement
from engine.players.random_play import random_step

CONFIGS: dict[str, Rules] = {
    "standard": Rules.preset("standard"),
    "preset_000": Rules.preset("preset_000"),
    "preset_004": Rules.preset("preset_004"),
    "rummy": Rules.preset("rummy"),
    "rummy_required_high_aces": Rules.preset("rummy").with_options(
        final_discard="required", ace_mode="high_or_low"
    ),
    "forbidden_suits_both_ends": Rules.preset("standard").with_options(
        final_discard="forbidden",
        layoff_on_going_down_turn=True,
        run_ace_both_ends=True,
        joker_limit="none",
        deuces_wild=True,
    ),
}


# -- effects and reachability ---------------------------------------------------------------


def effect(game: Game) -> str:
    """The saved state with the order of hands and of set cards normalised, without the
    history's record of the table moves."""
    data: dict[str, Any] = json.loads(game.to_json())
    # The history's table moves record how a play was typed (a set's card order, the order of
    # a batch of lay-offs), not what it did: the table and the hands say that.
    data.pop("plays", None)
    data["hands"] = [" ".join(sorted(h.split())) for h in data["hands"]]
    melds = []
    for owner, text, *laid in data["melds"]:
        kind, _, body = text.partition(": ")
        if kind == "set":
            text = f"{kind}: " + " ".join(sorted(body.split()))
        melds.append([owner, text, sorted(map(tuple, laid[0])) if laid else []])
    data["melds"] = melds
    return json.dumps(data, sort_keys=True)


def after(game: Game, player: str, action: Action) -> Game | None:
    """A copy of ``game`` after ``action``, or None if ``apply`` refuses it."""
    copy = Game.from_json(game.to_json())
    try:
        copy.apply(player, action)
    except IllegalAction:
        assert copy.to_json() == game.to_json(), "a refused action changed the state"
        return None
    return copy


def offered_effects(game: Game, player: str) -> set[str]:
    effects = set()
    for action in game.legal_actions(player):
        result = after(game, player, action)
        assert result is not None, f"offered but refused: {action}"
        effects.add(effect(result))
    return effects


def reachable(game: Game, player: str, action: LayOff | LayMelds, result: Game) -> bool:
    if effect(result) in offered_effects(game, player):
        return True
    parts: tuple[Any, ...] = action.items if isinstance(action, LayOff) else action.melds
    for cut in range(1, len(parts)):
        head = type(action)(parts[:cut])
        tail = type(action)(parts[cut:])
        middle = after(game, player, head)
        if middle is None or effect(middle) not in offered_effects(game, player):
            continue
        end = after(middle, player, tail)
        if end is not None and reachable(middle, player, tail, end):
            return True
    return False


# -- what a player could type ---------------------------------------------------------------


def typed_lay_off_items(table: list[Meld], cards: list[Card]) -> list[LayOffItem]:
    """Every card onto every meld, with and without an end, and with each suit a wild might
    declare: what a player can type, legal or not."""
    items = []
    for card in dict.fromkeys(cards):
        for index in range(len(table)):
            for end in (None, "low", "high"):
                items.append(LayOffItem(card, index, end))  # type: ignore[arg-type]
            if card.is_joker or card.rank == 2:
                items.extend(LayOffItem(card, index, None, suit) for suit in "CDHS")
    return items


def typed_batches(game: Game, player: str, rng: random.Random) -> list[LayOff]:
    """Random batches of two or three lay-offs, each typed onto the table as the earlier ones
    leave it (so chains like 9H then 10H occur), whatever the hand size rule says."""
    batches = []
    for _ in range(12):
        table = [m.meld for m in game.melds]
        hand = list(game.hand_of(player))
        items: list[LayOffItem] = []
        for _ in range(rng.choice((2, 3))):
            fitting = []
            for item in typed_lay_off_items(table, hand):
                try:
                    placed, end = placement(game.rules, table[item.meld], item)
                    grown = table[item.meld].add(placed, end)
                    grown.check(game.rules)
                except IllegalAction:
                    continue
                fitting.append((item, grown))
            if not fitting:
                break
            item, grown = rng.choice(fitting)
            table[item.meld] = grown
            items.append(item)
            hand.remove(item.card)
        if len(items) > 1:
            batches.append(LayOff(tuple(items)))
    return batches


def retyped_go_downs(down: GoDown, rng: random.Random) -> list[GoDown]:
    """The same go-down typed differently: runs shuffled, set wilds naming other suits."""
    variants = []
    for _ in range(4):
        melds = []
        for meld in down.melds:
            cards = list(meld.cards)
            if meld.kind == "run":
                rng.shuffle(cards)
                melds.append(Meld.parse("run: " + " ".join(str(c) for c in cards)))
            else:
                melds.append(
                    Meld(
                        "set",
                        tuple(
                            MeldCard(c.card, c.value, rng.choice("CDHS"))
                            if c.suit is not None and c.card.rank != meld.rank
                            else c
                            for c in cards
                        ),
                    )
                )
        variants.append(GoDown(tuple(melds), down.swaps, down.layoffs))
    return variants


def go_down_variants(game: Game, player: str, rng: random.Random) -> list[GoDown]:
    offered = [a for a in game.legal_actions(player) if isinstance(a, GoDown)]
    typed: list[GoDown] = []
    for down in offered:
        typed.extend(retyped_go_downs(down, rng))
        if not down.layoffs:  # the same go-down followed by lay-offs of what is left
            hand = Counter(game.hand_of(player))
            hand.subtract(c.card for m in down.melds for c in m.cards)
            table = [m.meld for m in game.melds] + list(down.melds)
            items = typed_lay_off_items(table, list((+hand).elements()))
            for item in rng.sample(items, min(6, len(items))):
                typed.append(GoDown(down.melds, down.swaps, (item,)))
    return typed


def typed_actions(game: Game, player: str, rng: random.Random) -> list[Action]:
    actions: list[Action] = [DrawStock(), TakeUpcard(), BuyInTurn(), RequestBuy(), CancelBuy()]
    seat = game.seat_of(player)
    if game.step != "play" or seat != game.current:
        return actions
    hand = list(game.hand_of(player))
    table = [m.meld for m in game.melds]
    actions.extend(Discard(card) for card in dict.fromkeys(hand))
    actions.extend(LayOff((item,)) for item in typed_lay_off_items(table, hand))
    actions.extend(typed_batches(game, player, rng))
    for index, meld in enumerate(table):
        for position, placed in enumerate(meld.cards):
            for card in dict.fromkeys(hand):
                if card.rank == placed.rank:
                    actions.append(SwapJoker(Swap(card, index, position)))
    actions.extend(go_down_variants(game, player, rng))
    if not game.is_shanghai:
        for _ in range(10):
            size = rng.choice((3, 4))
            if len(hand) >= size:
                with contextlib.suppress(IllegalAction):
                    actions.append(
                        LayMelds((Meld.from_naturals(rng.sample(hand, size), game.rules),))
                    )
        singles = [a for a in game.legal_actions(player) if isinstance(a, LayMelds)]
        for first in singles:
            for second in singles:
                actions.append(LayMelds(first.melds + second.melds))
    return actions


# -- checking one position ------------------------------------------------------------------


def same_meld(meld: Meld) -> str:
    """A meld's text with a set's cards in a fixed order (the order of a set is not a play)."""
    if meld.kind == "set":
        return "set: " + " ".join(sorted(str(c) for c in meld.cards))
    return str(meld)


def build(game: Game, player: str, down: GoDown) -> GoDownBuilder:
    builder = GoDownBuilder.start(game, player)
    for swap in down.swaps:
        builder = builder.with_swap(swap)
    for meld in down.melds:
        readings = builder.meld_readings([c.card for c in meld.cards], meld.kind)
        assert same_meld(meld) in {same_meld(m) for m in readings}
        builder = builder.with_meld(meld)
    for item in down.layoffs:
        builder = builder.with_layoff(item)
    builder.check()
    return builder


def check_position(game: Game, rng: random.Random) -> None:
    for player in game.players:
        offers = game.legal_actions(player)
        offered_effects(game, player)  # asserts nothing offered is refused
        for action in typed_actions(game, player, rng):
            result = after(game, player, action)
            if result is None:
                continue
            if isinstance(action, GoDown):
                assert any(isinstance(a, GoDown) for a in offers), f"no go-down offered: {action}"
                build(game, player, action)
            elif isinstance(action, LayOff | LayMelds):
                assert reachable(game, player, action, result), f"not reachable: {action}"
            else:
                assert effect(result) in offered_effects(game, player), f"not offered: {action}"


def random_position(rules: Rules, players: int, seed: int, steps: int) -> Game:
    game = Game.new([f"p{i}" for i in range(players)], rules, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(*random_step(game, rng))
    return game


positions = st.tuples(
    st.sampled_from(sorted(CONFIGS)),
    st.integers(2, 5),
    st.integers(0, 2**32),
    st.integers(0, 600),
)


def run_position(config: str, players: int, seed: int, steps: int) -> None:
    rules = CONFIGS[config]
    low, high = rules.players
    game = random_position(rules, min(max(players, low), high), seed, steps)
    if not game.is_over:
        check_position(game, random.Random(seed + 1))


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(position=positions)
# Two different wild 2s in a set may swap the suits they declare (found by the long run).
@example(position=("forbidden_suits_both_ends", 4, 1956, 4))
def test_typed_and_offered_actions_agree(position: tuple[str, int, int, int]) -> None:
    run_position(*position)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions)
def test_typed_and_offered_actions_agree_long(position: tuple[str, int, int, int]) -> None:
    run_position(*position)


def interesting(game: Game) -> str | None:
    """The kinds of position random sampling rarely stops at: the player in turn can go down
    (or lay Rummy melds), or holds two cards that can both be laid off."""
    if game.step != "play":
        return None
    player = game.current_player
    if any(isinstance(a, GoDown | LayMelds) for a in game.legal_actions(player)):
        return "down"
    seat = game.current
    down = game.down[seat] if game.is_shanghai else True
    two_cards = down and game.melds and len(game.hands[seat]) == 2
    if two_cards and typed_batches(game, player, random.Random(0)):
        return "last cards"
    return None


def walk_to_interesting_positions(config: str, seeds: int, deals: int) -> Counter[str]:
    """Walk games to the positions ``interesting`` names and check two of each kind."""
    rules = CONFIGS[config]
    low, _ = rules.players
    checked: Counter[str] = Counter()
    for seed in range(seeds):
        game = Game.new([f"p{i}" for i in range(max(low, 3))], rules, seed)
        rng = random.Random(seed)
        while not game.is_over and game.deal <= deals:
            kind = interesting(game)
            if kind is not None and checked[kind] < 2:
                check_position(game, random.Random(seed))
                checked[kind] += 1
            game.apply(*random_step(game, rng))
        if checked["down"] >= 2 and checked["last cards"] >= 2:
            break
    return checked


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_go_down_and_last_card_positions_under_every_config(config: str) -> None:
    checked = walk_to_interesting_positions(config, seeds=6, deals=2)
    assert checked["down"] >= 1


@pytest.mark.slow
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_go_down_and_last_card_positions_long(config: str) -> None:
    checked = walk_to_interesting_positions(config, seeds=30, deals=6)
    assert checked["down"] >= 1 and checked["last cards"] >= 1
