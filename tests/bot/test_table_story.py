"""The table's story at the top of a hand (``bot/screens/table_story.py``): what the others
did since the player's last discard, in their language, in two lines at most, and never a
card the history does not show."""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from typing import Any

import pytest
import simcord

from bot.screens.table_story import STORY_LIMIT, table_story
from engine import Rules
from engine.cards import Card
from engine.game import Game
from engine.melds import Meld
from engine.players.random_play import random_step
from engine.view import PlayerView, PublicMove

from .helpers import World, custom_ids, open_hand, open_table, start, text_of

NAMES = ["ann", "bea", "cas", "dirk"]
CARD_TOKEN = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]|🃏")


def c(text: str) -> Card:
    return Card.parse(text)


def view_with(history: tuple[PublicMove, ...], seat: int | None = 0) -> PlayerView:
    view = Game.new(NAMES, Rules.preset("standard"), 1).view(None if seat is None else NAMES[seat])
    return dataclasses.replace(view, history=history)


#: A lap after ann's discard: bea takes it, cas throws, dirk buys that, ann buys nothing.
LAP = (
    PublicMove(0, "turned", c("5S")),
    PublicMove(1, "took", c("5S")),
    PublicMove(1, "discarded", c("9C")),
    PublicMove(2, "discarded", c("4D")),
    PublicMove(3, "discarded", c("8S")),
    PublicMove(0, "took", c("8S")),
    PublicMove(0, "discarded", c("7H")),
    PublicMove(1, "took", c("7H")),
    PublicMove(1, "discarded", c("KD")),
    PublicMove(3, "bought", c("KD")),
    PublicMove(2, "discarded", c("2C")),
)


def test_the_story_names_who_threw_took_and_bought_since_your_last_discard() -> None:
    story = table_story(view_with(LAP), NAMES, "en")
    assert story == (
        "🗒️ Since your last turn: **bea** took 7♥, threw K♦ · **dirk** bought K♦ · **cas** threw 2♣"
    )


def test_it_reads_in_dutch_and_spanish() -> None:
    assert table_story(view_with(LAP), NAMES, "nl") == (
        "🗒️ Sinds je vorige beurt: **bea** pakte 7♥, legde K♦ af · **dirk** kocht K♦ · "
        "**cas** legde 2♣ af"
    )
    assert table_story(view_with(LAP), NAMES, "es") == (
        "🗒️ Desde tu último turno: **bea** tomó 7♥, descartó K♦ · **dirk** compró K♦ · "
        "**cas** descartó 2♣"
    )


def test_lay_downs_lay_offs_and_swaps_are_told_in_few_words() -> None:
    history = (
        *LAP[:7],
        PublicMove(1, "took", c("7H")),
        PublicMove(1, "went_down", melds=(Meld.parse("set: 7H 7S 7C"),)),
        PublicMove(1, "discarded", c("KD")),
        PublicMove(2, "swapped", c("6H"), meld=0, wild=c("JK")),
        PublicMove(2, "laid_off", c("7D"), meld=0),
        PublicMove(2, "laid_off", c("JK"), meld=0),
        PublicMove(2, "discarded", c("2C")),
    )
    assert table_story(view_with(history), NAMES, "en") == (
        "🗒️ Since your last turn: **bea** took 7♥, went down, threw K♦ · "
        "**cas** swapped 6♥ for 🃏, laid off 7♦ 🃏, threw 2♣"
    )


def test_your_own_moves_are_left_out() -> None:
    history = (*LAP[:9], PublicMove(0, "bought", c("KD")), LAP[10])  # ann bought, not dirk
    assert table_story(view_with(history), NAMES, "en") == (
        "🗒️ Since your last turn: **bea** took 7♥, threw K♦ · **cas** threw 2♣"
    )


def test_before_your_first_discard_the_deal_is_told_from_its_first_upcard() -> None:
    story = table_story(view_with(LAP[:5], seat=0), NAMES, "en")
    assert story == (
        "🗒️ This deal so far: first upcard 5♠ · **bea** took 5♠, threw 9♣ · **cas** threw 4♦ · "
        "**dirk** threw 8♠"
    )


def test_nothing_to_tell_and_spectators_get_none() -> None:
    assert table_story(view_with(LAP[:7]), NAMES, "en") is None  # ann just discarded
    assert table_story(view_with(LAP, seat=None), NAMES, "en") is None
    assert table_story(view_with(()), NAMES, "en") is None
    assert table_story(view_with(LAP[:1]), NAMES, "en") is None  # the table shows the upcard
    assert table_story(view_with(LAP[:2]), NAMES, "en") == (
        "🗒️ This deal so far: first upcard 5♠ · **bea** took 5♠"
    )


def test_a_long_story_drops_its_oldest_runs_first_and_keeps_two_lines() -> None:
    names = [f"player-with-a-long-name-{i}" for i in range(4)]
    history = LAP[:7] + tuple(
        PublicMove(1 + i % 3, "discarded", c(("10H", "QS", "KD")[i % 3])) for i in range(12)
    )
    story = table_story(view_with(history), names, "en")
    assert story is not None and len(story) <= STORY_LIMIT
    assert story.startswith("🗒️ Since your last turn: … · ")
    assert story.endswith(f"**{names[3]}** threw K♦")  # the newest move, the upcard, is kept
    assert len(story) > STORY_LIMIT - 60  # as much as fits, not just the last run


@pytest.mark.parametrize("seed", range(6))
def test_the_story_only_ever_shows_cards_of_the_public_history(seed: int) -> None:
    """Over random play, each seat's story shows only cards that its history since its last
    discard holds (never its own hand, a stock draw or a penalty card)."""
    game = Game.new(NAMES, Rules.preset("standard").with_options(num_deals=2), seed)
    rng = random.Random(seed)
    told = 0
    while not game.is_over:
        game.apply(*random_step(game, rng, buy_chance=0.5))
        for name in NAMES:
            view = game.view(name)
            story = table_story(view, NAMES, "en", limit=10_000)
            if story is None:
                continue
            told += 1
            public = Counter()  # type: Counter[str]
            for move in view.history:
                public.update(c.pretty() for c in (move.card, move.wild) if c is not None)
            shown = Counter(CARD_TOKEN.findall(story))
            assert shown <= public, f"shown but not public: {shown - public}"
    assert told > 100


# -- in the hand, clicked like people through simcord -------------------------------------------


async def take_a_turn(world: World, hands: dict[int, Any], env: simcord.Env) -> Card:
    """The in-turn person draws from the stock and throws the card drawn; the card thrown."""
    p = world.current()
    hand = hands[p.id]
    assert (await p.click(hand.response, label="Draw from stock")).acknowledged
    await env.advance_time(9)  # a buy window holds the draw until it closes
    card = world.table.game.hand_of(str(p.id))[-1]
    cid = next(cid for cid in custom_ids(hand.response) if ":discard" in cid)
    assert (await p.select(hand.response, [str(card)], custom_id=cid)).acknowledged
    return card


async def test_a_waiting_players_hand_tells_who_threw_the_upcard_and_who_bought_it(
    env: simcord.Env,
) -> None:
    world = await open_table(env, 4)
    await start(world)
    await env.advance_time(9)
    hands = {p.id: await open_hand(world, p) for p in world.players}
    await take_a_turn(world, hands, env)
    watcher = world.current()
    bought = await take_a_turn(world, hands, env)  # the watcher's turn ends with this discard
    thrower = world.current()
    game = world.table.game
    buyer = world.player(int(game.players[(game.current + 1) % 4]))
    assert game.view(None).upcard == bought
    asked = await buyer.click(hands[buyer.id].response, label=f"Buy {bought.pretty()}")
    assert asked.acknowledged
    thrown = await take_a_turn(world, hands, env)  # the thrower draws; the buyer gets the card
    assert bought in game.hand_of(str(buyer.id)) and game.view(None).upcard == thrown
    assert world.table.game.current_player == str(buyer.id)  # the watcher waits
    text = text_of(hands[watcher.id].response)
    prompt, story = text.splitlines()[:2]  # the story comes first after the turn's prompt
    assert prompt.startswith("Waiting for"), text
    assert story == (
        f"🗒️ Since your last turn: **{buyer.name}** bought {bought.pretty()} · "
        f"**{thrower.name}** threw {thrown.pretty()}"
    ), text
