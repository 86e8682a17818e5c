"""The catalogues: complete in every language, placeholders alike, the command tree localised.

These fail on a gap: a key missing from one language, a placeholder renamed in a translation,
a command description changed in the code without its Dutch and Spanish, or a refusal family
the bot cannot word.
"""

from __future__ import annotations

import string
from typing import Any

import discord
import pytest
import simcord
from babel.messages.catalog import Catalog, Message
from discord import app_commands
from discord.app_commands import TranslationContext
from discord.app_commands import TranslationContextLocation as Where

import bot.ground.errors
import engine.errors
from bot import Settings, create_bot
from bot.i18n import LANGUAGES, command_text, resolve_language, t
from bot.i18n.catalogue import COMMAND_CONTEXT, read_catalogue
from bot.i18n.refusals import refusal_text
from bot.i18n.translator import CatalogueTranslator

from .conftest import TOKEN
from .discord_locales import speaking


def placeholders(text: str) -> frozenset[str]:
    return frozenset(field for _, field, _, _ in string.Formatter().parse(text) if field)


def forms(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple | list) else [message.string]


def entries(catalog: Catalog) -> dict[tuple[str | None, str], Message]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in catalog if m.id}


CATALOGUES = {language: entries(read_catalogue(language)) for language in LANGUAGES}


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_key_exists_in_every_language(language: str) -> None:
    english, other = set(CATALOGUES["en"]), set(CATALOGUES[language])  # type: ignore[index]
    assert english - other == set(), f"missing in {language}"
    assert other - english == set(), f"only in {language}, not in English"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_with_the_english_placeholders(language: str) -> None:
    catalog = read_catalogue(language)
    for key, message in CATALOGUES[language].items():
        english = CATALOGUES["en"][key]
        wanted = set().union(*(placeholders(f) for f in forms(english)))
        assert not message.fuzzy, f"{key} is fuzzy in {language}"
        if message.pluralizable:
            assert len(forms(message)) == catalog.num_plurals, f"{key}: plural forms"
        for text in forms(message):
            assert text.strip(), f"{key} is empty in {language}"
            assert placeholders(text) == wanted, f"{key} in {language}: {text!r}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_babel_finds_no_format_errors(language: str) -> None:
    problems = list(read_catalogue(language).check())
    assert problems == []


def test_plural_forms_follow_each_language() -> None:
    assert t("refusal.buy.limit_used", "en", count=1) == "You have used your 1 buy for this deal."
    assert "3 buys" in t("refusal.buy.limit_used", "en", count=3)
    assert "3 compras" in t("refusal.buy.limit_used", "es", count=3)
    assert "1 compra " in t("refusal.buy.limit_used", "es", count=1)


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        (discord.Locale.american_english, "en"),
        (discord.Locale.british_english, "en"),
        (discord.Locale.dutch, "nl"),
        (discord.Locale.spain_spanish, "es"),
        (discord.Locale.latin_american_spanish, "es"),
        (discord.Locale.french, "en"),
        ("es_ES", "es"),
        (None, "en"),
    ],
)
def test_a_discord_locale_resolves_to_a_language(locale: Any, language: str) -> None:
    assert resolve_language(locale) == language


# -- refusals ----------------------------------------------------------------------------------


def _subclasses(base: type) -> list[type]:
    found = [base]
    for sub in base.__subclasses__():
        found.extend(_subclasses(sub))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_family_has_a_wording_without_parameters(language: str) -> None:
    families = [("refusal", c) for c in _subclasses(engine.errors.IllegalAction)] + [
        ("error", c)
        for c in _subclasses(bot.ground.errors.UserError)
        if c is not bot.ground.errors.UserError
    ]
    for prefix, cls in families:
        key = (None, f"{prefix}.{cls.code}")
        assert key in CATALOGUES[language], f"{cls.__name__} ({key[1]}) has no wording"
        assert placeholders(forms(CATALOGUES[language][key])[0]) == frozenset(), key


def test_a_coded_refusal_is_worded_in_the_readers_language() -> None:
    error = engine.errors.BuyRefused("You can't buy back your own discard", code="buy.own_discard")
    assert refusal_text(error, "en") == "You can't buy back your own discard."
    assert refusal_text(error, "nl") == "Je kunt je eigen afgelegde kaart niet terugkopen."
    assert refusal_text(error, "es") == "No puedes comprar tu propio descarte."


def test_refusal_parameters_in_engine_words_are_translated() -> None:
    error = engine.errors.IllegalMeld(
        "8♥ does not fit the low end of 9♥ 10♥ J♥",
        code="layoff.wrong_end",
        card="8♥",
        end="low",
        number=2,
    )
    assert refusal_text(error, "es") == "8♥ no encaja por la punta baja de la combinación #2."
    assert refusal_text(error, "nl") == "8♥ past niet aan de lage kant van combinatie #2."


def test_an_uncoded_refusal_keeps_its_exact_english_and_its_familys_wording_elsewhere() -> None:
    error = engine.errors.IllegalMeld("The run 8♥ 10♥ J♥ is not consecutive")
    assert refusal_text(error, "en") == "The run 8♥ 10♥ J♥ is not consecutive"
    assert refusal_text(error, "nl") == "Die kaarten vormen geen geldige combinatie."


def test_a_bug_gets_the_apology_in_the_readers_language() -> None:
    assert refusal_text(KeyError("x"), "nl").startswith("Sorry, er ging iets mis")
    assert refusal_text(KeyError("x"), "es").startswith("Lo siento")


# -- the command tree --------------------------------------------------------------------------


async def _tree() -> app_commands.CommandTree[Any]:
    client = create_bot(Settings(discord_token=TOKEN))
    await client.load_commands()
    return client.tree


def _localisable(tree: app_commands.CommandTree[Any]) -> list[tuple[Where, Any, str]]:
    found: list[tuple[Where, Any, str]] = []
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Group):
            found.append((Where.group_description, command, command.description))
            continue
        found.append((Where.command_description, command, command.description))
        for parameter in command.parameters:
            found.append((Where.parameter_description, parameter, parameter.description))
            found.extend((Where.choice_name, choice, choice.name) for choice in parameter.choices)
    return found


async def test_every_command_text_has_dutch_and_spanish() -> None:
    texts = _localisable(await _tree())
    assert len(texts) > 40
    for _, _, english in texts:
        assert english != "…", "an option without a description"
        assert (COMMAND_CONTEXT, english) in CATALOGUES["en"], f"not in the catalogue: {english!r}"
        for language in ("nl", "es"):
            text = command_text(english, language)
            assert text is not None and len(text) <= 100, (language, english)


async def test_the_translator_localises_descriptions_and_choices_but_not_names() -> None:
    tree = await _tree()
    translator = CatalogueTranslator()
    new = tree.get_command("shanghai").get_command("new")  # type: ignore[union-attr]
    assert isinstance(new, app_commands.Command)

    async def translate(text: str, locale: discord.Locale, where: Where, data: Any) -> Any:
        context = TranslationContext(location=where, data=data)
        return await translator.translate(app_commands.locale_str(text), locale, context)

    description = new.description
    dutch = await translate(description, discord.Locale.dutch, Where.command_description, new)
    spanish = await translate(
        description, discord.Locale.latin_american_spanish, Where.command_description, new
    )
    assert dutch == "Open een Shanghai-tafel in dit kanaal; jij neemt de eerste plaats."
    assert spanish is not None and spanish.startswith("Abre una mesa")
    assert await translate("new", discord.Locale.dutch, Where.command_name, new) is None
    assert (
        await translate(description, discord.Locale.british_english, Where.command_description, new)
        is None
    )
    choice = app_commands.Choice(name="1 card", value=1)
    assert (
        await translate("1 card", discord.Locale.spain_spanish, Where.choice_name, choice)
        == "1 carta"
    )


async def test_the_synced_commands_carry_their_localisations(env: Any) -> None:
    """What the bot sent Discord at start-up: Dutch and Spanish descriptions, English names."""
    syncs = [
        r.json for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")
    ]
    assert syncs, "the commands were never synced"
    shanghai = next(c for c in syncs[-1] if c["name"] == "shanghai")
    new = next(o for o in shanghai["options"] if o["name"] == "new")
    assert new["description_localizations"]["nl"].startswith("Open een Shanghai-tafel")
    assert new["description_localizations"]["es-ES"].startswith("Abre una mesa")
    assert new["description_localizations"]["es-419"].startswith("Abre una mesa")
    assert not new.get("name_localizations")
    language = next(o for o in new["options"] if o["name"] == "language")
    assert [c["value"] for c in language["choices"]] == ["en", "nl", "es"]
    penalty = next(o for o in new["options"] if o["name"] == "buy_penalty")
    assert penalty["choices"][0]["name_localizations"]["nl"] == "1 kaart"


# -- the table's language ----------------------------------------------------------------------


async def test_a_new_table_speaks_the_servers_preferred_language(env: Any) -> None:
    guild = env.create_guild(preferred_locale="nl")
    channel = guild.create_text_channel("kaarten")
    anna = guild.add_member(env.create_user("anna"))
    result = await anna.slash(channel, "shanghai new")
    assert result.acknowledged
    table = env.bot.service.for_channel(channel.id)
    assert table.record.options["language"] == "nl"


async def test_the_host_may_choose_the_tables_language(env: Any) -> None:
    guild = env.create_guild(preferred_locale="nl")
    channel = guild.create_text_channel("cartas")
    lucia = guild.add_member(env.create_user("lucia"))
    result = await lucia.slash(channel, "rummy new", language="es")
    assert result.acknowledged
    assert env.bot.service.for_channel(channel.id).record.options["language"] == "es"


async def test_a_server_in_another_language_gets_english_tables(env: Any) -> None:
    guild = env.create_guild(preferred_locale="fr")
    channel = guild.create_text_channel("cartes")
    luc = guild.add_member(env.create_user("luc"))
    assert (await luc.slash(channel, "shanghai new")).acknowledged
    assert env.bot.service.for_channel(channel.id).record.options["language"] == "en"


def _engine_codes() -> set[str]:
    """Every refusal code an engine raise site names (f-string codes expanded)."""
    import re
    from pathlib import Path

    source = "\n".join(p.read_text() for p in Path(engine.errors.__file__).parent.glob("*.py"))
    codes = set(re.findall(r'code="([a-z_.]+)"', source))
    for template in re.findall(r'code=f"([a-z_.{}]+)"', source):
        if "{kind}" in template:
            codes |= {template.replace("{kind}", kind) for kind in ("set", "run")}
        elif template.endswith("contract_meld_size}"):
            stem = template[: template.index("{")]
            codes |= {stem + size for size in ("minimum", "exact")}
        else:
            raise AssertionError(f"a code template the test cannot expand: {template}")
    return codes


def test_every_code_the_engine_raises_has_a_wording() -> None:
    codes = _engine_codes()
    assert len(codes) > 60
    missing = sorted(c for c in codes if (None, f"refusal.{c}") not in CATALOGUES["en"])
    assert missing == []


def test_a_real_engine_refusal_reaches_a_dutch_player_in_dutch() -> None:
    from engine.cards import Card
    from engine.melds import Meld
    from engine.rules import Rules

    with pytest.raises(engine.errors.IllegalMeld) as refused:
        Meld.from_naturals([Card.parse("8H"), Card.parse("9C")], Rules())
    assert refused.value.code == "meld.too_few_cards"
    assert refusal_text(refused.value, "nl") == "Een combinatie heeft minstens 3 kaarten nodig."
    assert refusal_text(refused.value, "en") == "A meld needs at least 3 cards."


async def test_a_refusal_is_in_the_clicking_members_own_language(
    env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = env.create_guild(preferred_locale="nl")
    channel = guild.create_text_channel("kaarten")
    daan = guild.add_member(env.create_user("daan"))
    emma = guild.add_member(env.create_user("emma"))
    sofia = guild.add_member(env.create_user("sofia"))
    speaking(monkeypatch, {daan.id: "nl", emma.id: "en-GB", sofia.id: "es-419"})

    dutch = await daan.slash(channel, "shanghai table")
    english = await emma.slash(channel, "shanghai table")
    spanish = await sofia.slash(channel, "shanghai table")

    simcord.assert_responded(dutch, contains="geen open Shanghai-tafel", ephemeral=True)
    simcord.assert_responded(english, contains="There is no open Shanghai table", ephemeral=True)
    simcord.assert_responded(spanish, contains="ninguna mesa de Shanghai", ephemeral=True)


def test_pictures_are_drawn_in_the_tables_language() -> None:
    from bot.screens import render_score_sheet, render_table
    from bot.screens.samples import NAMES, SHEET_8x10, table_view

    tables = {language: render_table(table_view(4), language=language) for language in LANGUAGES}
    sheets = {language: render_score_sheet(NAMES, SHEET_8x10, language) for language in LANGUAGES}
    assert tables["en"] == render_table(table_view(4))
    assert len(set(tables.values())) == 3
    assert len(set(sheets.values())) == 3


def test_the_rules_read_in_each_language() -> None:
    from bot.screens.text import rules_text
    from engine.rules import Rules

    rules = Rules.preset("standard")
    dutch = rules_text(rules, buy_seconds=8, turn_seconds=90, language="nl")
    spanish = rules_text(rules, buy_seconds=8, turn_seconds=90, language="es")
    assert "1. 2 sets van 3" in dutch and "strafkaart" in dutch
    assert "5. 1 grupo de 3 + 1 escalera de 7" in spanish and "comodines" in spanish


def test_the_storage_fault_reply_is_the_catalogues_english() -> None:
    from bot.ground import storage_faults

    assert t("error.storage", "en") == storage_faults.REPLY
    assert t("error.storage", "nl").startswith("Ik kan nu niets opslaan")


def test_every_code_the_bot_raises_has_a_wording() -> None:
    import re
    from pathlib import Path

    root = Path(bot.ground.errors.__file__).parents[1]
    source = "\n".join(
        p.read_text() for p in root.rglob("*.py") if "i18n" not in p.relative_to(root).parts
    )
    codes = set(re.findall(r'code="([a-z_.]+)"', source))
    assert len(codes) > 10
    worded = {key for _, key in CATALOGUES["en"]}
    # UserError codes are worded as error.<code>; an engine refusal raised by the bot as refusal.*
    missing = sorted(c for c in codes if not {f"error.{c}", f"refusal.{c}"} & worded)
    assert missing == []
