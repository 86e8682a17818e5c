"""``python -m bot replay FILE`` prints a record's deals and final scores as the engine replays
them, refuses what is not a record in one line, and a finished table's record is built from
what the store keeps."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot.process.cli import main
from bot.service.results import record_of_table
from data import SqliteStore
from data.records import ResultRow, Seat
from engine import Game, Rules
from engine.actions import Action
from engine.players.random_play import random_step
from engine.record import record_game, write_record


def finished_game(players: list[str], deals: int = 2) -> tuple[Game, list[tuple[int, Action]]]:
    rules = Rules.preset("standard").with_options(num_deals=deals)
    game = Game.new(players, rules, 21, secret=bytes(range(32)))
    rng = random.Random(21)
    actions = []
    while not game.is_over:
        player, action = random_step(game, rng)
        game.apply(player, action)
        actions.append((game.seat_of(player), action))
    return game, actions


def test_replay_prints_each_deal_and_the_final_totals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, actions = finished_game(["ann", "bob", "cy"])
    path = tmp_path / "game.json"
    path.write_text(write_record(record_game(game, actions)), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Shanghai game, 3 seats") and "checkable shuffle" in out[0]
    deals = [line for line in out if line.startswith("Deal ")]
    assert len(deals) == 2
    for number, row in enumerate(game.score_sheet, start=1):
        scores = ", ".join(f"{name} {score}" for name, score in zip(game.players, row, strict=True))
        assert any(line.startswith(f"Deal {number}:") and line.endswith(scores) for line in deals)
    totals = ", ".join(
        f"{name} {total}" for name, total in zip(game.players, game.totals, strict=True)
    )
    assert f"Final totals: {totals}" in out
    assert out[-1] == "Won by " + ", ".join(game.winners)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("not json", "Not JSON"),
        ('{"format": "shanghai-game-record", "version": 7}', "Unknown record version"),
    ],
)
def test_a_bad_file_is_one_line_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, message: str
) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("shanghai: ") and message in lines[0]


def test_a_record_that_does_not_replay_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, actions = finished_game(["ann", "bob"], deals=1)
    data = json.loads(write_record(record_game(game, actions)))
    data["result"]["winners"] = [1 - data["result"]["winners"][0]]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert "the replay ends with totals" in capsys.readouterr().err


async def test_a_finished_table_is_recorded_from_its_stored_rows(tmp_path: Path) -> None:
    users = [401, 402, 403]
    game, actions = finished_game([str(u) for u in users], deals=1)
    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    try:
        seats = [Seat(user, f"u{user}") for user in users]
        table = await store.create_table(1, 2, "shanghai", users[0], seats, {})
        # The stored state only matters at the end: the log and the last state make the record.
        await store.start_game(table.id, seats, "{}", None, None)
        for version, (seat, action) in enumerate(actions[:-1]):
            await store.save_action(
                table.id, version, users[seat], str(action), "{}", None, None, []
            )
        seat, action = actions[-1]
        rows = [
            ResultRow(user, f"u{user}", s, game.totals[s], s in game.winner_seats)
            for s, user in enumerate(users)
        ]
        await store.finish_game(
            table.id,
            len(actions) - 1,
            game.to_json(),
            rows,
            user_id=users[seat],
            action_text=str(action),
        )
        assert await record_of_table(store, table.id) == record_game(game, actions)
        with pytest.raises(ValueError, match="no game"):
            await record_of_table(store, 9999)
    finally:
        await store.close()
