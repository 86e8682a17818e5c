"""Engine refusals that used to reach Dutch and Spanish players in English (issue 14): the
typed-meld parser, the go-down builder's order of steps and the house rules' validators now
raise a code and parameters, which the bot words in the reader's language."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine.errors
from bot.errors import UserError, rules_refusal
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
