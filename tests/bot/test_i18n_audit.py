"""The English audit (issue 14): a Dutch and a Spanish table played through a deal's worth of
typical clicks, failing on any English word a player was shown.

Everything the bot sent Discord is read from its requests (``env.http_requests``), so the
screens a player saw only for a moment (an ephemeral hand edited a moment later, a form, a
refusal) are checked too: message text, embeds, button labels, select placeholders, option
labels and descriptions, form titles, labels and texts, pictures' alt texts and direct
messages. Player names, mentions and card codes are left out; what remains may not hold a
word from ``ENGLISH_ONLY``, a list of common English words that are neither Dutch nor Spanish.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import simcord

from bot.i18n import Language, t
from engine.cards import Card, parse_cards

from .discord_locales import speaking
from .helpers import custom_ids, discard_id
from .test_languages import a_table, flush_outboxes

#: Common English words of the game's screens that are no Dutch or Spanish word ("open",
#: "over", "total", "has" and "sorry" are Dutch or Spanish too, so they are not in it).
_WORDS = """
    the your you yours turn turns discard discards discarded draw draws drew drawn meld melds
    card cards stock buy buys bought deal deals dealt player players score scores scored
    join joined leave left waiting went lay laid off with and or not can't don't won't isn't
    upcard wild pile penalty points rules rule house only game what who there here
    this that these those have will would should must first next last again seat seats
    table tables sheet totals winner wins round choose pick take took from
    into onto back new opened nothing please try minute restarting preset easy
"""
ENGLISH_ONLY = frozenset(_WORDS.split())

_NOT_WORDS = re.compile(
    r"<[@#!&:a-z]*[0-9]+>"  # mentions, channels, timestamps
    r"|https?://\S+"
    r"|`/[^`]*`"  # a slash command to type (command names stay English)
    r"|`[\w/-]+\.md`"  # a file of the repository, named as it is (docs/RULES.md)
    r"|\b(?:10|[2-9AJQKT])[HDSC]\b|\bJK\b"  # card codes, as typed and printed
    r"|sh:[\w:=\"-]+"  # custom ids (never shown)
)


def shown_texts(payload: Any, under: str = "") -> Iterator[str]:
    """Every piece of text a player can read in one request's JSON, wherever it sits."""
    if isinstance(payload, list):
        for item in payload:
            yield from shown_texts(item, under)
        return
    if not isinstance(payload, dict):
        return
    for key in ("content", "title", "description", "label", "placeholder"):
        if isinstance(payload.get(key), str):
            yield payload[key]
    if under in ("footer", "author") and isinstance(
        payload.get("text" if under == "footer" else "name"), str
    ):
        yield payload["text" if under == "footer" else "name"]
    if under == "fields" or payload.get("type") == 4:  # an embed field, a form's text input
        for key in ("name", "value"):
            if isinstance(payload.get(key), str):
                yield payload[key]
    for key, value in payload.items():
        if isinstance(value, (dict, list)):
            yield from shown_texts(value, key)


def english_words(text: str, names: set[str]) -> list[str]:
    words = re.findall(r"[A-Za-zÀ-ÿ']+", _NOT_WORDS.sub(" ", text))
    return [w for w in words if w.lower() in ENGLISH_ONLY and w.lower() not in names]


def localised(payload: Any, language: Language) -> Iterator[str]:
    """The command tree's descriptions and choice names in ``language`` (names stay English)."""
    if isinstance(payload, list):
        for item in payload:
            yield from localised(item, language)
    elif isinstance(payload, dict):
        for key in ("description_localizations", "name_localizations"):
            for locale, text in (payload.get(key) or {}).items():
                # descriptions, and the names of choices (commands' names stay English)
                described = key == "description_localizations" or "value" in payload
                if locale.split("-")[0] == language and described:
                    yield text
        for value in payload.values():
            if isinstance(value, (dict, list)):
                yield from localised(value, language)


def audit(env: simcord.Env, language: Language, names: set[str]) -> list[tuple[str, str]]:
    """(word, where) for each English word in what the bot sent, the command tree included."""
    found: list[tuple[str, str]] = []
    for request in env.http_requests:
        commands = request.method == "PUT" and request.path.endswith("/commands")
        texts = localised(request.json, language) if commands else shown_texts(request.json)
        for text in texts:
            for word in english_words(text, names):
                found.append((word, text[:160]))
    return found


def label(key: str, language: Language, **params: object) -> str:
    return t(key, language, **params)


async def play_a_deal(
    language: Language, locale: str, env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lobby, house rules, a refusal, a typed meld refused then laid, a discard, a buy, a
    go-down from the proposal, going out, the score sheet and the rules."""
    world = await a_table(env, monkeypatch, locale, [locale] * 3)
    anna, bram, cor = world.players
    tid = world.table.id

    panel = await anna.click(world.message(), label=label("button.house_rules", language))
    assert panel.acknowledged and panel.ephemeral
    chosen = await anna.select(
        panel.response, ['tie_break="most_deals_out"'], custom_id=f"sh:hr:{tid}:table"
    )
    assert chosen.acknowledged
    layoff_rule = "layoff_on_going_down_turn=true"
    chosen = await anna.select(panel.response, [layoff_rule], custom_id=f"sh:hr:{tid}:out")
    assert chosen.acknowledged
    added = await anna.click(world.message(), label=label("button.add_normal", language))
    assert added.acknowledged and len(world.table.record.seats) == 2
    removed = await anna.click(world.message(), label=label("button.remove_computer", language))
    assert removed.acknowledged and len(world.table.record.seats) == 1
    for member in (bram, cor):
        assert (
            await member.click(world.message(), label=label("button.join", language))
        ).acknowledged
    refused = await bram.click(world.message(), label=label("button.start", language))
    simcord.assert_responded(refused, ephemeral=True)
    assert (await anna.click(world.message(), label=label("button.start", language))).acknowledged
    await env.advance_time(9)

    # The first player draws, types melds (one unreadable card first) and discards.
    game = world.table.game
    first = world.current()
    game.hands[game.current] = parse_cards("8H 8S 8C 5H 5S 5C 8D KD QS 9D 3C")
    hand = await first.click(world.message(), label=label("button.my_hand", language))
    hint = await first.click(hand.response, label=label("button.hint", language))
    assert hint.acknowledged
    assert (
        await first.click(hand.response, label=label("button.draw_stock", language))
    ).acknowledged
    await env.advance_time(8)
    form = await first.click(hand.response, label=label("button.own_melds", language))
    assert form.modal is not None
    run, set_ = t("term.run", language), t("term.set", language)
    bad = await first.submit_modal(form, {"melds": f"{set_}: 8H 8S 8X | {set_}: 5H 5S 5C"})
    simcord.assert_responded(bad, contains="8X", ephemeral=True)
    for wrong in (f"{set_}: 8H 8S 9C | {set_}: 5H 5S 5C", f"{run}: 8H 8S 8C | {set_}: 5H 5S 5C"):
        form = await first.click(hand.response, label=label("button.own_melds", language))
        refused = await first.submit_modal(form, {"melds": wrong})
        simcord.assert_responded(refused, ephemeral=True)
        assert not game.down[game.current]
    form = await first.click(hand.response, label=label("button.own_melds", language))
    good = await first.submit_modal(form, {"melds": f"{set_}: 8H 8S 8C | {set_}: 5H 5S 5C"})
    assert good.acknowledged and game.down[game.current]
    lay_off = next(cid for cid in custom_ids(hand.response) if ":layoff" in cid)
    assert (await first.select(hand.response, ["8D"], custom_id=lay_off)).acknowledged
    assert len(game.melds[0].meld.cards) == 4, "8D was not laid off"
    discard = next(cid for cid in custom_ids(hand.response) if ":discard" in cid)
    assert (await first.select(hand.response, ["KD"], custom_id=discard)).acknowledged

    # Someone out of turn buys the discard; the next player goes down and goes out.
    await env.advance_time(1)
    buyer = next(p for p in world.players if p not in (first, world.current()))
    buy_label = label("button.buy", language, card=Card.parse("KD").pretty())
    buyer_hand = await buyer.click(world.message(), label=label("button.my_hand", language))
    assert (await buyer.click(buyer_hand.response, label=buy_label)).acknowledged
    second = world.current()
    game.hands[game.current] = parse_cards("9H 9S 9C 4H 4S 4C")
    hand = await second.click(world.message(), label=label("button.my_hand", language))
    assert (
        await second.click(hand.response, label=label("button.draw_stock", language))
    ).acknowledged
    await env.advance_time(9)
    laid = await second.click(hand.response, label=label("button.lay_down_these", language))
    assert laid.acknowledged
    (last,) = game.hand_of(str(second.id))
    assert (
        await second.select(hand.response, [str(last)], custom_id=discard_id(hand.response))
    ).acknowledged
    assert game.is_over
    await flush_outboxes(env)

    rules = await cor.slash(world.channel, "shanghai rules")
    simcord.assert_responded(rules, ephemeral=True)


@pytest.mark.parametrize(("language", "locale"), [("nl", "nl"), ("es", "es-ES")])
async def test_a_dutch_or_spanish_table_shows_no_english(
    language: Language, locale: str, env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    await play_a_deal(language, locale, env, monkeypatch)
    found = audit(env, language, names={"anna", "bram", "cor"})
    assert found == [], "\n".join(f"{word!r} in {where!r}" for word, where in found)


def test_the_audit_finds_english_where_there_is_some() -> None:
    """The checker itself: an English button, option and embed are caught; names, mentions,
    card codes and the Dutch and Spanish words are not."""
    payload = {
        "type": 4,
        "data": {
            "content": "<@123> anna: 8H 8S 8C JK 10D · Je bent aan de beurt",
            "embeds": [{"title": "Tafel", "fields": [{"name": "Score", "value": "the total"}]}],
            "components": [
                {"type": 1, "components": [{"type": 2, "label": "Draw", "custom_id": "sh:x"}]},
                {"type": 1, "components": [{"type": 3, "options": [{"label": "Mi mano"}]}]},
                {  # a Components V2 layout: its text displays and its picture's alt text
                    "type": 17,
                    "components": [
                        {"type": 10, "content": "### Tafel\nthe seats"},
                        {"type": 12, "items": [{"media": {"url": "x"}, "description": "pile"}]},
                    ],
                },
            ],
        },
    }
    words = [w for text in shown_texts(payload) for w in english_words(text, {"anna"})]
    assert sorted(words) == ["Draw", "Score", "pile", "seats", "the", "the"]


@pytest.mark.parametrize("game", ["shanghai", "rummy"])
@pytest.mark.parametrize(("language", "locale"), [("nl", "nl"), ("es", "es-ES")])
async def test_a_game_played_out_by_computers_shows_no_english(
    game: str, language: Language, locale: str, env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One person who stops answering (the bot plays their seat) and two computers: every
    public notice of a whole game (draws, buys, going down, laying off, away), then the
    leaderboard, the stats and /<game> table and end."""
    world = await a_table(env, monkeypatch, locale, [locale] * 3, game=game)
    anna, bram, _ = world.players
    for key in ("button.add_normal", "button.add_easy"):
        assert (await anna.click(world.message(), label=label(key, language))).acknowledged
    simcord.assert_responded(await bram.slash(world.channel, "shanghai rules"), ephemeral=True)
    assert (await anna.click(world.message(), label=label("button.start", language))).acknowledged
    played = world.table.game
    again = await bram.slash(world.channel, "shanghai table")
    assert again.acknowledged
    for _ in range(600):
        if played.is_over:
            break
        await env.advance_time(10)
    assert played.is_over, "the game did not finish"
    await flush_outboxes(env)
    for command in ("leaderboard", "stats"):
        assert (await anna.slash(world.channel, f"{game} {command}")).acknowledged
    assert (await anna.slash(world.channel, "shanghai end")).acknowledged
    found = audit(env, language, names={"anna", "bram", "cor"})
    assert found == [], "\n".join(f"{word!r} in {where!r}" for word, where in found)


@pytest.mark.parametrize(("language", "locale"), [("nl", "nl"), ("es", "es-ES")])
async def test_the_odd_corners_show_no_english(
    language: Language,
    locale: str,
    env: Any,
    monkeypatch: pytest.MonkeyPatch,
    make_bot: Any,
) -> None:
    """What players meet less often: a stranger's click, a second table in the channel, the
    other sort order, a restart mid-game, a kick, leaving the game and ending the table."""
    world = await a_table(env, monkeypatch, locale, [locale] * 3)
    anna, bram, cor = world.players
    stranger = world.guild.add_member(env.create_user("dirk"))
    speaking(monkeypatch, {p.id: locale for p in (*world.players, stranger)})
    assert (await bram.click(world.message(), label=label("button.join", language))).acknowledged
    assert (await cor.click(world.message(), label=label("button.join", language))).acknowledged
    assert (await bram.click(world.message(), label=label("button.leave", language))).acknowledged
    assert (await bram.click(world.message(), label=label("button.join", language))).acknowledged
    second = await bram.slash(world.channel, "shanghai new")
    simcord.assert_responded(second, ephemeral=True)
    assert (await anna.click(world.message(), label=label("button.start", language))).acknowledged
    nosy = await stranger.click(world.message(), label=label("button.my_hand", language))
    simcord.assert_responded(nosy, ephemeral=True)

    player = world.current()
    hand = await player.click(world.message(), label=label("button.my_hand", language))
    by_rank = await player.click(hand.response, label=label("button.sort_by_rank", language))
    assert by_rank.acknowledged
    assert (await player.click(hand.response, label=label("button.refresh", language))).acknowledged
    await env.restart_bot(make_bot())
    await env.advance_time(9)
    hand = await player.click(world.message(), label=label("button.my_hand", language))
    assert hand.acknowledged

    kicked = next(p for p in (bram, cor) if p is not player)
    simcord.assert_responded(await anna.slash(world.channel, "shanghai kick", member=kicked))
    leaver = next(p for p in (bram, cor) if p not in (kicked,))
    hand = await leaver.click(world.message(), label=label("button.my_hand", language))
    await leaver.click(hand.response, label=label("button.options", language))
    leaving = await leaver.click(hand.response, label=label("button.leave_game", language))
    assert leaving.acknowledged
    confirm = leaving.response if leaving.response is not None else hand.response
    assert (await leaver.click(confirm, label=label("button.yes_leave", language))).acknowledged

    refused = await bram.slash(world.channel, "shanghai end")
    simcord.assert_responded(refused, ephemeral=True)
    ending = await anna.slash(world.channel, "shanghai end")
    assert (await anna.click(ending.response, label=label("end.yes", language))).acknowledged
    await flush_outboxes(env)
    found = audit(env, language, names={"anna", "bram", "cor", "dirk"})
    assert found == [], "\n".join(f"{word!r} in {where!r}" for word, where in found)


@pytest.mark.parametrize("language", ["nl", "es"])
def test_no_dutch_or_spanish_catalogue_entry_holds_an_english_word(language: Language) -> None:
    """Every entry, shown in a game above or not (placeholders aside)."""
    from bot.i18n.catalogue import read_catalogue

    found = []
    for message in read_catalogue(language):
        if not message.id:
            continue  # the catalogue's header
        forms = message.string if isinstance(message.string, (tuple, list)) else [message.string]
        for text in forms:
            words = english_words(re.sub(r"\{[^}]*\}", " ", text), set())
            if words:
                found.append((message.id, words))
    assert found == []
