"""The table's History button: the deal's public moves, privately, to anyone who asks.

Clicked like players through simcord (a seated player, a member who is not seated, after a
buy, at a Rummy table), and the wording checked directly: only cards of the public history
ever appear, and a long deal keeps its newest moves within Discord's 2,000 characters.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from typing import Any

import pytest
import simcord

from bot.screens.history_text import history_text
from bot.screens.text import meld_card_text
from engine import Rules
from engine.cards import Card
from engine.game import Game
from engine.melds import Meld
from engine.players.random_play import random_step
from engine.view import PublicMove

from .discord_locales import speaking
from .helpers import (
    button_labels,
    decide_in_hand,
    discard_id,
    open_hand,
    open_table,
    start,
    text_of,
)

#: A card as the text prints it: ``10♥``, ``K♠``, ``🃏``.
CARD_TOKEN = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]|🃏")


def seat_after(world: Any, steps: int) -> Any:
    game = world.table.game
    return world.player(int(game.players[(game.current + steps) % len(game.players)]))


async def test_a_member_who_is_not_seated_reads_the_history_in_their_language(
    env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = await open_table(env, 2)
    await start(world)
    zoe = world.guild.add_member(env.create_user("zoe"))
    speaking(monkeypatch, {zoe.id: "nl"})
    table = world.message()
    assert "History" in button_labels(table)
    upcard = world.table.game.view(None).upcard
    shown = await zoe.click(table, label="History")
    simcord.assert_responded(shown, contains="Ronde 1: de zetten die iedereen zag", ephemeral=True)
    text = text_of(shown.response)
    assert f"Eerste open kaart: {upcard.pretty()}" in text
    assert "blijven verborgen" in text
    assert len(text.splitlines()) == 3  # the title, the first upcard, the hidden cards' note
    assert world.table.seat_of(zoe.id) is None  # asking seats nobody


async def test_after_a_buy_the_history_shows_the_buy_and_the_discard_and_nothing_hidden(
    env: Any,
) -> None:
    world = await open_table(env, 3)
    await start(world)
    game = world.table.game
    current, buyer, passer = world.current(), seat_after(world, 1), seat_after(world, 2)
    upcard = game.view(None).upcard
    # The next two stock cards: the current player's draw and the buyer's penalty card. Cards
    # that appear nowhere public, so seeing either would be a leak.
    public = {upcard}
    hidden = [c for c in map(Card.parse, ("QS", "4C", "JD", "7H")) if c not in public][:2]
    game.stock[-1], game.stock[-2] = hidden
    buyer_hand, bought = await decide_in_hand(world, buyer)
    assert bought.acknowledged and "Buy request for" in text_of(buyer_hand.response)
    assert (await decide_in_hand(world, passer, "pass"))[1].acknowledged
    hand = await open_hand(world, current)
    assert (await current.click(hand.response, label="Draw from stock")).acknowledged
    assert upcard in game.hand_of(str(buyer.id))
    assert set(hidden) <= set(game.hand_of(str(current.id))) | set(game.hand_of(str(buyer.id)))
    thrown = next(c for c in game.hand_of(str(current.id)) if c not in hidden and c != upcard)
    discarded = await current.select(
        hand.response, [str(thrown)], custom_id=discard_id(hand.response)
    )
    assert discarded.acknowledged and game.view(None).upcard == thrown

    for who in (buyer, current):  # a seated player reads exactly what the table saw
        shown = await who.click(world.message(), label="History")
        simcord.assert_responded(shown, contains="Deal 1: the moves everyone saw", ephemeral=True)
        text = text_of(shown.response)
        assert f"**{buyer.name}**: bought {upcard.pretty()}" in text
        assert f"**{current.name}**: discarded {thrown.pretty()}" in text
        assert f"First upcard: {upcard.pretty()}" in text
        for card in hidden:
            assert card.pretty() not in text, f"{card} (stock draw or penalty card) shown"


async def test_rummy_tables_have_the_history_too(env: Any) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    alice, bob = (guild.add_member(env.create_user(name)) for name in ("alice", "bob"))
    opened = await alice.slash(channel, "rummy new")
    assert (await bob.click(opened.response.message, label="Join")).acknowledged
    table_message = [m for m in channel.history() if "Start" in button_labels(m)][-1]
    assert (await alice.click(table_message, label="Start")).acknowledged
    table_message = [m for m in channel.history() if "My hand" in button_labels(m)][-1]
    shown = await bob.click(table_message, label="History")
    simcord.assert_responded(shown, contains="First upcard:", ephemeral=True)


# -- the wording, directly ---------------------------------------------------------------------


def public_tokens(move: PublicMove) -> list[str]:
    """The card tokens a move may show: its card, the joker it freed, its melds' cards (a
    wild in a meld shows what it plays as, ``🃏=5♥``)."""
    tokens = [c.pretty() for c in (move.card, move.wild) if c is not None]
    for meld in move.melds:
        tokens += [t for placed in meld.cards for t in CARD_TOKEN.findall(meld_card_text(placed))]
    return tokens


def a_deal_played_to_its_last_turn(seed: int) -> Game:
    """A four-player standard game just before the action that ends its first deal."""
    game = Game.new(["a", "b", "c", "d"], Rules.preset("standard"), seed)
    rng = random.Random(seed)
    while True:
        before = game.copy()
        game.apply(*random_step(game, rng, buy_chance=0.6))
        if game.deal != 1:
            return before


def a_deal_played_randomly(seed: int, actions: int) -> Game:
    """A four-player standard game after up to ``actions`` random actions of its first deal."""
    game = Game.new(["a", "b", "c", "d"], Rules.preset("standard"), seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.is_over or game.deal != 1:
            break
        player, action = random_step(game, rng, buy_chance=0.6)
        game.apply(player, action)
    return game


@pytest.mark.parametrize("seed", range(12))
def test_every_move_of_the_deal_is_listed_in_the_order_it_happened(seed: int) -> None:
    """One line per run of one player's moves, in the history's order: the line's moves are
    the run's, lay-downs and lay-offs included."""
    view = a_deal_played_to_its_last_turn(seed).view(None)
    text = history_text(view, ["a", "b", "c", "d"], "en", limit=100_000)
    lines = text.splitlines()[2:-1]  # between the first upcard's line and the hidden note
    said = [(line[2], part.split(" ")[0]) for line in lines for part in line[7:].split(" · ")]
    verbs = {
        "took": "took",
        "bought": "bought",
        "discarded": "discarded",
        "went_down": "went",
        "laid_off": "laid",
        "swapped": "swapped",
        "went_out": "went",
    }
    moves = [m for m in view.history if m.kind != "turned"]
    expected: list[tuple[str, str]] = []
    previous: PublicMove | None = None
    for move in moves:  # a string of lay-offs on one meld is said once
        pair = ("abcd"[move.seat], verbs[move.kind])
        same_meld = expected and expected[-1] == pair and move.kind == "laid_off"
        if not (same_meld and previous is not None and previous.meld == move.meld):
            expected.append(pair)
        previous = move if move.kind == "laid_off" else None
    assert said == expected
    assert {"took", "discarded", "went_down"} <= {m.kind for m in moves}


def test_a_lay_down_a_lay_off_and_a_swap_read_in_each_language() -> None:
    view = a_deal_played_randomly(0, 0).view(None)
    moves = (
        PublicMove(0, "turned", Card.parse("7H")),
        PublicMove(1, "took", Card.parse("7H")),
        PublicMove(1, "went_down", melds=(Meld.parse("set: 7H 7S JK=7C"),)),
        PublicMove(1, "discarded", Card.parse("KD")),
        PublicMove(3, "bought", Card.parse("KD")),
        PublicMove(2, "swapped", Card.parse("7C"), meld=0, wild=Card.parse("JK")),
        PublicMove(2, "laid_off", Card.parse("7D"), meld=0),
        PublicMove(2, "laid_off", Card.parse("JK"), meld=0),
        PublicMove(2, "discarded", Card.parse("2C")),
    )
    shown = dataclasses.replace(view, history=moves)
    names = ["ann", "bea", "cas", "dirk"]
    assert history_text(shown, names, "en").splitlines()[1:-1] == [
        "First upcard: 7♥",
        "**bea**: took 7♥ · went down: set 7♥ 7♠ 🃏=7♣ · discarded K♦",
        "**dirk**: bought K♦",
        "**cas**: swapped 7♣ for 🃏 on #1 · laid off 7♦ 🃏 on #1 · discarded 2♣",
    ]
    assert history_text(shown, names, "nl").splitlines()[2:4] == [
        "**bea**: pakte 7♥ · legde uit: set 7♥ 7♠ 🃏=7♣ · legde af: K♦",
        "**dirk**: kocht K♦",
    ]
    assert "**cas**: cambió 7♣ por 🃏 en #1 · colocó 7♦ 🃏 en #1" in history_text(
        shown, names, "es"
    )


@pytest.mark.parametrize("seed", range(12))
def test_only_cards_of_the_public_history_are_ever_shown(seed: int) -> None:
    # Early in a deal (mostly pile moves), and a whole deal (lay-downs, lay-offs, swaps).
    game = (
        a_deal_played_randomly(seed, 40 + 7 * seed)
        if seed % 2
        else (a_deal_played_to_its_last_turn(seed))
    )
    names = ["a", "b", "c", "d"]
    for viewer in (None, *names):  # the reader's own hand never leaks in either
        view = game.view(viewer)
        text = history_text(view, names, "en", limit=100_000)
        shown = Counter(CARD_TOKEN.findall(text))
        public = Counter(token for move in view.history for token in public_tokens(move))
        assert shown <= public, f"shown but not public: {shown - public}"
        assert shown == public  # and nothing of the history is lost when it fits


def test_a_long_deal_leaves_out_its_oldest_moves_and_fits() -> None:
    game = a_deal_played_randomly(3, 60)
    view = game.view(None)
    cards = [Card.parse(c) for c in ("10H", "QS", "KD", "JC")]
    moves = tuple(PublicMove(i % 4, "discarded", cards[i % 4]) for i in range(800))
    long_view = dataclasses.replace(view, history=moves)
    text = history_text(long_view, ["a" * 30, "b", "c", "d"], "es")
    assert len(text) <= 2000
    left_out = int(re.search(r"se omiten (\d+) jugadas anteriores", text).group(1))
    assert 0 < left_out < 800
    kept = Counter(CARD_TOKEN.findall(text))
    assert sum(kept.values()) == 800 - left_out  # exactly the newest moves remain
    assert len(history_text(long_view, ["a", "b", "c", "d"], "en", limit=4000)) <= 4000


def test_a_deal_without_recorded_moves_gets_a_polite_message() -> None:
    view = dataclasses.replace(a_deal_played_randomly(1, 0).view(None), history=())
    text = history_text(view, ["a", "b", "c", "d"], "es")
    assert text == "📜 **Ronda 1: las jugadas que todos vieron**\n" + (
        "Todavía no hay jugadas que mostrar en esta ronda."
    )
