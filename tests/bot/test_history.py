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
from engine import Rules
from engine.cards import Card
from engine.game import Game
from engine.players.random_play import random_step
from engine.view import PublicMove

from .discord_locales import speaking
from .helpers import button_labels, discard_id, open_hand, open_table, start

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
    text = shown.response.content
    assert f"Eerste open kaart: {upcard.pretty()}" in text
    assert "**alice**: nog niets" in text and "**bob**: nog niets" in text
    assert "blijven verborgen" in text
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
    bought = await buyer.click(world.message(), label=f"Buy {upcard.pretty()}")
    simcord.assert_responded(bought, contains="Buy request for", ephemeral=True)
    assert (await passer.click(world.message(), label="Pass")).acknowledged
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
        text = shown.response.content
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
    table_message = [m for m in channel.history() if m.embeds][-1]
    assert (await alice.click(table_message, label="Start")).acknowledged
    table_message = [m for m in channel.history() if m.embeds][-1]
    shown = await bob.click(table_message, label="History")
    simcord.assert_responded(shown, contains="First upcard:", ephemeral=True)


# -- the wording, directly ---------------------------------------------------------------------


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
def test_only_cards_of_the_public_history_are_ever_shown(seed: int) -> None:
    game = a_deal_played_randomly(seed, 40 + 7 * seed)
    names = ["a", "b", "c", "d"]
    for viewer in (None, *names):  # the reader's own hand never leaks in either
        view = game.view(viewer)
        text = history_text(view, names, "en")
        shown = Counter(CARD_TOKEN.findall(text))
        public = Counter(m.card.pretty() for m in view.history)
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
