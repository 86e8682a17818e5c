"""``tools.contract_bench``: every deal is dealt the one contract asked for, and the figure is
the first seat's deal score against the others', from the deals' own scores."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.events import DealEnded, Event, WentDown
from engine.players.levels import make_strategy
from engine.rules import CONTRACT_LISTS, Rules
from tools.contract_bench import (
    OneContractRules,
    load,
    main,
    play_contract_game,
    summary_lines,
)
from tools.simulate import play_game

EIGHT = CONTRACT_LISTS["list_000"][7]


def _rules(only: int) -> OneContractRules:
    return OneContractRules(**Rules.preset("standard").model_dump(), only=only)


def test_every_deal_asks_the_one_contract_and_its_buy_limit() -> None:
    rules = _rules(8)
    assert [rules.contract_for(deal) for deal in range(1, 11)] == [EIGHT] * 10
    assert {rules.buy_limit_for(deal) for deal in range(1, 11)} == {3}
    assert _rules(10).buy_limit_for(1) == 4
    with pytest.raises(ValueError):
        rules.contract_for(11)


def test_a_game_of_normal_players_goes_down_with_the_contract_in_every_deal() -> None:
    """Three deals of contract 4 (three sets) played out: each go-down is three sets, which
    deals 1-3 of the real list (two sets; a set and a run; two runs) never are."""
    rules = _rules(4).model_copy(update={"num_deals": 3})
    shapes: set[tuple[str, ...]] = set()
    deals: list[int] = []

    def on_event(event: Event) -> None:
        if isinstance(event, WentDown):
            shapes.add(tuple(sorted(meld.kind for meld in event.melds)))
        elif isinstance(event, DealEnded):
            deals.append(event.deal)

    play_game(rules, [make_strategy("normal") for _ in range(4)], 5, on_event=on_event)
    assert deals == [1, 2, 3]
    assert shapes == {("set", "set", "set")}


def test_the_relative_score_is_own_minus_the_others_mean_of_each_counted_deal() -> None:
    rules = _rules(1)
    game = play_contract_game(rules, ["expert", "normal", "normal", "normal"], 2, 9, 8)
    assert len(game.rows) == 8
    expected = sum(row.own - row.others for row in game.rows) / 8
    assert game.relative == pytest.approx(expected)
    # Game 2 of the rotation seats the first name in seat 2, also when every seat is alike.
    assert game.seat == 2
    alike = play_contract_game(rules, ["easy"] * 4, 3, 9, 1)
    assert alike.seat == 1
    for row in game.rows:
        assert not (row.out and row.caught_up)
        assert row.own >= 0 or row.out


def test_records_are_summarised_and_paired_by_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain, variant = tmp_path / "plain.jsonl", tmp_path / "variant.jsonl"
    common = ["--contract", "2", "--games", "2", "--seed", "4", "--seats", "normal,easy,easy,easy"]
    main([*common, "--records", str(plain)])
    main([*common, "--records", str(variant), "--set", "normal.buy_close=-9"])
    assert len(load(str(plain))) == 2
    lines = summary_lines([str(plain), str(variant)])
    assert "paired with the first" in lines[1] and "(2 games)" in lines[1]
    assert "paired" not in lines[0]
    capsys.readouterr()
    main(["--summarise", str(plain)])
    assert "2 games, relative deal score" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main([*common, "--records", str(variant), "--set", "normal.no_such_knob=1"])
    with pytest.raises(SystemExit):
        main(["--contract", "11", "--records", str(variant)])
