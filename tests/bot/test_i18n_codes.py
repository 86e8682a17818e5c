"""Engine refusals that used to reach Dutch and Spanish players in English (issue 14): the
typed-meld parser, the go-down builder's order of steps and the house rules' validators now
raise a code and parameters, which the bot words in the reader's language."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
import simcord

import engine.errors
from bot.ground.errors import UserError, rules_refusal
from bot.i18n.refusals import refusal_text
from engine.actions import parse_action
from engine.rules import Rules

#: Families whose one wording says all there is (no raise site needs its own code).
SINGLE_MEANING = {"GameOver", "UnknownPlayer"}


def _refusal_classes() -> set[str]:
    found, todo = set(), [engine.errors.IllegalAction]
    while todo:
        cls = todo.pop()
        found.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return found


def test_every_engine_refusal_names_its_code() -> None:
    """A raise without ``code=`` would be worded only by its family, vaguely."""
    families = _refusal_classes() - SINGLE_MEANING
    uncoded = []
    for path in Path(engine.errors.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            call = node.exc if isinstance(node, ast.Raise) else None
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
                continue
            if call.func.id in families and not any(k.arg == "code" for k in call.keywords):
                uncoded.append(f"{path.name}:{getattr(node, 'lineno', 0)} {call.func.id}")
    assert uncoded == []


@pytest.mark.parametrize(
    ("typed", "code", "dutch"),
    [
        ("set: 8H 8X 8C", "parse.card", "'8X' is geen kaart"),
        ("set: 8H JK 8C", "parse.wild_identity", "'JK': zeg voor welke kaart de joker speelt"),
        ("run: 3H JK=4 5H", "parse.run_wild_suit", "'JK=4': een joker in een reeks"),
        ("set: 8H JK=Z 8C", "parse.rank", "'Z' is geen waarde"),
        ("8H 8S 8C", "parse.meld", "'8H 8S 8C': schrijf een combinatie zoals"),
        ("set: 8H 8S 8C with 8C>x@1", "parse.swap", "'8C>x@1': schrijf een ruil"),
        ("set: 8H 8S 8C then 7H>two", "parse.layoff", "'7H>two': schrijf aanleggen"),
    ],
)
def test_typed_melds_are_refused_with_a_code_in_the_readers_language(
    typed: str, code: str, dutch: str
) -> None:
    with pytest.raises(engine.errors.Unreadable) as refused:
        parse_action("down " + typed)
    assert refused.value.code == code
    assert refusal_text(refused.value, "nl").startswith(dutch)
    assert refusal_text(refused.value, "en") != refusal_text(refused.value, "es")


def test_the_melds_form_wraps_the_parsers_reason_in_each_language() -> None:
    try:
        parse_action("down set: 8H 8X 8C")
    except ValueError as error:
        wrapped = UserError("I couldn't read those melds", code="unreadable_melds")
        wrapped.__cause__ = error
    assert refusal_text(wrapped, "es") == (
        "No he podido leer esas combinaciones: '8X' no es una carta: escribe el valor y luego "
        "el palo, como 10H, QS o JK."
    )
    assert refusal_text(wrapped, "en").startswith("I couldn't read those melds: '8X' is not a")


def test_a_wild_with_an_empty_identity_is_unreadable_not_a_crash() -> None:
    with pytest.raises(engine.errors.Unreadable) as refused:
        parse_action("down set: 8H 8S JK=")
    assert refused.value.code == "parse.wild_identity"


def test_the_go_down_builders_order_of_steps_is_coded() -> None:
    source = (Path(engine.errors.__file__).parent / "builder.py").read_text()
    for code in ("step.swaps_first", "step.melds_first", "step.contract_first"):
        assert f'code="{code}"' in source
    error = engine.errors.WrongStep("Lay your melds before laying off", code="step.melds_first")
    assert refusal_text(error, "nl") == "Leg eerst je combinaties uit voordat je aanlegt."


def test_conflicting_house_rules_are_worded_from_the_engines_code() -> None:
    with pytest.raises(ValueError) as refused:
        Rules(game="rummy", players=(2, 6), deuces_wild=True)
    reason = rules_refusal(refused.value)
    assert reason.code == "rules.shanghai_only" and reason.params == {"option": "deuces_wild"}
    wrapped = UserError("That house rule can't be used here", code="house_rule_invalid")
    wrapped.__cause__ = reason
    dutch = refusal_text(wrapped, "nl")
    assert "deuces_wild" not in dutch and "Shanghai-regel" in dutch
    with pytest.raises(ValueError) as too_many:
        Rules(game="rummy", players=(2, 8))
    assert refusal_text(rules_refusal(too_many.value), "es") == (
        "El número de jugadores debe estar entre 2 y 6."
    )


# -- house rules in words ----------------------------------------------------------------------


def test_every_house_rule_and_value_has_a_label_and_a_line() -> None:
    from bot.i18n.catalogue import has_key
    from bot.views.house_rules import GROUPS, choices, option_label, value_text

    for _, options in GROUPS.values():
        for option in options:
            assert has_key(f"house.option.{option}") and has_key(f"house.option.{option}.line")
            for value in choices(option):
                if isinstance(value, str):
                    assert has_key(f"house.value.{option}.{value}"), (option, value)
                for language in ("nl", "es"):
                    label = option_label(option, language)
                    words = f"{label}: {value_text(option, value, language)}"
                    assert "_" not in words and len(words) <= 100, words


def test_a_dutch_summary_of_house_rules_shows_no_identifiers() -> None:
    from bot.views.house_rules import house_rules_text

    rules = Rules.preset("preset_004")
    dutch = house_rules_text(rules, "nl")
    assert "Tweeën zijn joker: aan" in dutch and "Afleggen bij uitgaan: mag niet" in dutch
    for identifier in ("deuces_wild", "forbidden", "final discard", "dealer_left", "list_004"):
        assert identifier not in dutch


def test_a_refusal_without_a_code_is_never_english_at_a_dutch_table() -> None:
    """A plain ``ValueError`` keeps its exact English for English readers only."""
    error = ValueError("Deals are numbered 1 to 10, not 11")
    assert refusal_text(error, "en") == "Deals are numbered 1 to 10, not 11"
    assert refusal_text(error, "nl") == "Dat kan niet."
    assert refusal_text(error, "es") == "Eso no se puede hacer."


# -- the melds form in the player's words ------------------------------------------------------


def test_the_melds_form_shows_and_reads_a_melds_kind_in_the_players_words() -> None:
    from bot.i18n.terms import melds_for_form, melds_from_form
    from engine.melds import Meld

    melds = [Meld.parse("set: 8H 8S JK=8C"), Meld.parse("run: 3H 4H JK=5H 6H")]
    spanish = melds_for_form(melds, "es")
    assert spanish == "grupo: 8H 8S JK=8C | escalera: 3H 4H JK=5H 6H"
    assert melds_for_form(melds, "nl") == "set: 8H 8S JK=8C | reeks: 3H 4H JK=5H 6H"
    action = parse_action("down " + melds_from_form(spanish))
    assert [str(m) for m in action.melds] == [str(m) for m in melds]  # type: ignore[union-attr]
    mixed = melds_from_form(" Grupo: 8H 8S 8C | REEKS: 3H 4H 5H 6H | run: 7C 8C 9C 10C")
    assert [m.kind for m in parse_action("down " + mixed).melds] == ["set", "run", "run"]  # type: ignore[union-attr]
    assert melds_from_form("Trío: 8H 8S 8C | groep: 9H 9S 9C") == "set: 8H 8S 8C |set: 9H 9S 9C"
    assert melds_from_form("stapel: 8H 8S 8C") == "stapel: 8H 8S 8C"  # unknown words stay


def test_numbers_in_the_stats_are_written_as_each_language_writes_them() -> None:
    from bot.cogs.leaderboard import leaderboard_embed
    from bot.i18n import decimal, percent
    from data.records import LeaderboardRow

    assert (decimal(48.25, "en"), decimal(48.25, "nl"), decimal(48.25, "es")) == (
        "48.2",
        "48,2",
        "48,2",
    )
    assert (percent(0.5, "nl"), percent(0.5, "es")) == ("50%", "50\xa0%")  # no break before %
    row = LeaderboardRow(user_id=1, name="anna", games=3, wins=2, average_total=41.5, best_total=5)
    dutch = leaderboard_embed("Shanghai", [row], "nl").description or ""
    assert "2 overwinningen in 3 spellen · gemiddeld 41,5" in dutch
    spanish = leaderboard_embed("Shanghai", [row], "es").description or ""
    assert "2 victorias en 3 partidas · media 41,5" in spanish


async def test_dutch_rules_and_house_rules_both_arrive_whole(
    env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dutch and Spanish say more than English: the house rules follow as a second reply
    rather than cutting the rules short to fit Discord's 2,000 characters."""
    from bot.screens.text import rules_text
    from bot.views.house_rules import house_rules_text

    from .discord_locales import speaking

    guild = env.create_guild(preferred_locale="nl")
    channel = guild.create_text_channel("kaarten")
    daan = guild.add_member(env.create_user("daan"))
    speaking(monkeypatch, {daan.id: "nl"})
    result = await daan.slash(channel, "shanghai rules")
    simcord.assert_responded(result, ephemeral=True)
    rules = Rules.preset("standard")
    text = rules_text(rules, buy_seconds=8, turn_seconds=90, language="nl")
    assert result.response.content.endswith(text)
    assert [f.content for f in result.followups] == [house_rules_text(rules, "nl")]


def test_touching_runs_are_named_by_their_cards_only() -> None:
    """The refusal's parameters hold no English word ("run:") for the Dutch to repeat."""
    from engine.contracts import check_runs_separated
    from engine.melds import Meld

    runs = [Meld.parse("run: 3H 4H 5H 6H"), Meld.parse("run: 7H 8H 9H 10H")]
    with pytest.raises(engine.errors.ContractNotMet) as refused:
        check_runs_separated(runs, Rules())
    assert refused.value.params == {"first": "3H 4H 5H 6H", "second": "7H 8H 9H 10H"}
    assert "run" not in refusal_text(refused.value, "nl")
