"""bot.screens.attachments: the hand picture, with the proposed lay-down highlighted (issue 6)."""

from __future__ import annotations

from bot.screens.attachments import hand_picture_for
from engine import parse_cards


async def test_proposed_lay_down_changes_the_hand_picture() -> None:
    hand = parse_cards("8H 8S 8C KD KC KS 3D 5C 7S 9H JD 8H")
    plain = (await hand_picture_for(hand)).fp.read()
    proposal = parse_cards("8H 8S 8C KD KC KS")
    highlighted = (await hand_picture_for(hand, proposal)).fp.read()
    again = (await hand_picture_for(hand, proposal)).fp.read()
    assert plain.startswith(b"\x89PNG") and highlighted != plain and highlighted == again
