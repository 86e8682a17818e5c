"""The replay message's "My notes" through simcord: a player of the game gets the expert's
notes on their own decisions, privately, reviewed once off the event loop; a spectator or a
stranger gets a polite refusal; a note names only cards its player could see at that step."""

from __future__ import annotations

import re
import threading
from typing import Any, get_args

import pytest
import simcord

from bot.i18n import LANGUAGES, Language, t
from bot.screens.notes_text import action_words, reason_text
from bot.service.results import record_of_table
from bot.views import replay_notes
from engine.players.review import Note, NoteReason, ReasonCode, review
from engine.replay import replay

from .helpers import World, button_labels, open_table, start
from .test_i18n_audit import english_words
from .test_replay_message import CARD_WORD, DECORATION, cards_in, finished_game
from .test_restart_and_results import play_to_the_end

STEP = re.compile(r"^• (?:Step|Stap|Paso) (\d+):", re.MULTILINE)


async def noted_game(env: simcord.Env) -> tuple[World, int]:
    """A finished two-deal game of two people in which the expert differs from both."""
    world = await open_table(env, 2, deals=2)
    await start(world)
    table_id = world.table.id
    await play_to_the_end(world, env)
    return world, table_id


def note_lines(message: Any) -> list[str]:
    """The bullet lines of a notes answer, every field of its embed."""
    embed = message.embeds[0]
    return [line for field in embed.fields for line in field.value.splitlines()]


def counting_review(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """Count the reviews the bot runs, and the thread each ran in."""
    calls: list[tuple[int, str]] = []

    def counted(record: Any, seat: int, **kwargs: Any) -> list[Note]:
        calls.append((seat, threading.current_thread().name))
        return review(record, seat, **kwargs)

    monkeypatch.setattr(replay_notes, "review", counted)
    return calls


async def opened_replay(world: World, table_id: int) -> Any:
    opened = await world.players[1].slash(world.channel, "shanghai replay", game=table_id)
    simcord.assert_responded(opened, ephemeral=False)
    assert "My notes" in button_labels(opened.response)
    return opened.response


async def test_a_player_gets_their_own_notes_privately_and_once(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, table_id = await noted_game(env)
    alice, bob = world.players
    calls = counting_review(monkeypatch)
    record = await record_of_table(env.bot.store, table_id)  # type: ignore[attr-defined]
    expected = review(record, 0)
    assert expected, "the test game should give alice something to read"
    message = await opened_replay(world, table_id)

    mine = await alice.click(message, label="My notes")
    simcord.assert_responded(mine, ephemeral=True)
    embed = mine.response.embeds[0]
    assert embed.title == f"📝 Expert's notes: game #{table_id}, alice"
    lines = note_lines(mine.response)
    assert [int(step) for step in STEP.findall("\n".join(lines))] == [n.step for n in expected]
    for deal in {note.deal for note in expected}:
        assert sum(1 for n in expected if n.deal == deal) <= 3
        assert f"Deal {deal}" in [field.name for field in embed.fields]
    first = expected[0]
    assert action_words(first.played, "en", done=True) in lines[0]
    assert action_words(first.expert, "en", done=False) in lines[0]
    assert reason_text(first.reason, "en") in lines[0]
    # Reviewed in a worker thread, never on the event loop's.
    assert calls == [(0, calls[0][1])] and calls[0][1] != threading.main_thread().name

    again = await alice.click(message, label="My notes")
    simcord.assert_responded(again, ephemeral=True)
    assert note_lines(again.response) == lines
    assert len(calls) == 1  # the second ask answered from what was reviewed
    theirs = await bob.click(message, label="My notes")
    simcord.assert_responded(theirs, ephemeral=True)
    assert theirs.response.embeds[0].title.endswith(", bob")
    assert [seat for seat, _ in calls] == [0, 1]


async def test_notes_never_name_a_card_their_player_could_not_see(env: simcord.Env) -> None:
    world, table_id = await noted_game(env)
    alice, bob = world.players
    record = await record_of_table(env.bot.store, table_id)  # type: ignore[attr-defined]
    steps = list(replay(record))
    message = await opened_replay(world, table_id)
    for player, other in ((alice, bob), (bob, alice)):
        answer = await player.click(message, label="My notes")
        lines = note_lines(answer.response)
        assert lines
        for line in lines:
            found = STEP.match(line)
            assert found, line
            index = int(found.group(1))
            seen = {card.pretty() for card in cards_in(steps[index].view(str(player.id)))}
            named = set(CARD_WORD.findall(DECORATION.sub("", line)))
            assert named <= seen, (line, named - seen)
            theirs = steps[index].view(str(other.id)).hand or ()
            only_theirs = {card.pretty() for card in theirs} - seen
            assert not named & only_theirs, line


async def test_a_spectator_or_a_stranger_gets_a_polite_refusal(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = counting_review(monkeypatch)
    world, table_id = await finished_game(env)
    message = await opened_replay(world, table_id)
    spectator = world.guild.add_member(env.create_user("watcher"))
    stranger = world.guild.add_member(env.create_user("mallory"))
    for person in (spectator, stranger):
        refused = await person.click(message, label="My notes")
        simcord.assert_responded(refused, contains="You did not play game", ephemeral=True)
        assert not refused.response.embeds
    assert calls == []  # nothing reviewed, nothing kept
    assert env.bot.notes_cache.known((table_id, 0)) is None


async def test_a_review_that_fails_is_answered_privately_and_changes_nothing(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, table_id = await finished_game(env)
    message = await opened_replay(world, table_id)

    def broken(record: Any, seat: int) -> list[Note]:
        raise ValueError("does not replay")

    monkeypatch.setattr(replay_notes, "review", broken)
    refused = await world.players[0].click(message, label="My notes")
    simcord.assert_responded(refused, contains="cannot be replayed", ephemeral=True)
    assert env.bot.notes_cache.known((table_id, 0)) is None
    monkeypatch.setattr(replay_notes, "review", review)
    mine = await world.players[0].click(message, label="My notes")
    simcord.assert_responded(mine, ephemeral=True)
    assert mine.response.embeds[0].title.startswith("📝")


#: Example params for every reason code, as the reviewer writes them (card codes, numbers).
PARAMS = {"card": "7H", "thrown": "JK", "points": 25, "cards": 3, "short": 2, "left": 1}
PARAMS |= {"penalty": 1, "gain": 2, "needs": 4}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_reason_and_action_has_a_wording_in_every_language(language: Language) -> None:
    actions = ["draw", "take", "buy-in-turn", "buy", "pass", "discard 7H", "layoff 7H>1"]
    texts = [action_words(a, language, done=done) for a in actions for done in (True, False)]
    for code in get_args(ReasonCode):
        texts.append(reason_text(NoteReason(code, PARAMS), language))
    for text in texts:
        assert "{" not in text and "notes." not in text, text
        assert "7H" not in text and "JK" not in text, text  # cards as the screens print them
        if language != "en":
            assert english_words(text, set()) == [], text
    if language != "en":  # translated, not the English fallen back to
        english = t("notes.line", "en", step=1, did="x", would="y", reason="z")
        assert t("notes.line", language, step=1, did="x", would="y", reason="z") != english
