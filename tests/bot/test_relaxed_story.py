"""At a relaxed table the hand opens with a few lines of what happened since the player's last
turn: the last deal's end when a new deal began since, then the others' moves, with more room
than a live table's two lines."""

from __future__ import annotations

import dataclasses

from bot.screens.table_story import STORY_LIMIT, relaxed_story, table_story
from engine import Rules
from engine.cards import Card
from engine.game import Game
from engine.view import PublicMove

NAMES = ["ann", "bea", "cas", "dirk"]


def c(text: str) -> Card:
    return Card.parse(text)


def test_a_new_deal_since_my_last_turn_says_how_the_last_one_ended() -> None:
    view = Game.new(NAMES, Rules.preset("standard"), 1).view("cas")
    history = (
        PublicMove(0, "turned", c("5S")),
        PublicMove(0, "took", c("5S")),
        PublicMove(0, "discarded", c("9C")),
        PublicMove(1, "discarded", c("4D")),
    )
    later = dataclasses.replace(view, deal=2, score_sheet=((0, 35, 12, 80),), history=history)
    story = relaxed_story(later, NAMES, "en")
    assert story is not None
    first, second = story.splitlines()
    assert first == "🗒️ Deal 1 ended: ann went out; you scored 12."
    assert second == table_story(later, NAMES, "en")
    assert "**bea** threw 4♦" in second
    # once the player has played in this deal, the last deal's end is old news
    played = dataclasses.replace(later, history=(*history, PublicMove(2, "discarded", c("7H"))))
    assert "Deal 1 ended" not in (relaxed_story(played, NAMES, "en") or "")


def test_a_relaxed_story_has_room_for_more_than_two_lines() -> None:
    view = Game.new(NAMES, Rules.preset("standard"), 1).view("ann")
    moves = [PublicMove(0, "discarded", c("2C"))]
    for card in ("3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD"):
        moves.append(PublicMove(1 + len(moves) % 3, "discarded", c(card)))
    long = dataclasses.replace(view, history=tuple(moves))
    live = table_story(long, NAMES, "en")
    relaxed = relaxed_story(long, NAMES, "en")
    assert live is not None and relaxed is not None
    assert len(live) <= STORY_LIMIT < len(relaxed)
    assert relaxed.count("threw") > live.count("threw")
