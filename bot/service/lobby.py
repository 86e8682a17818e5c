"""The lobby's rules: who may sit, who may change what, and when a game may start.

Each function checks one lobby request against the table as it stands and returns the seats
or options it leads to, or raises the ``UserError`` that says why not; it changes nothing.
``TableService`` writes what they return and tells the listener.
"""

from __future__ import annotations

from typing import Any

from bot.ground.errors import NotHost, UserError, WrongPhase, rules_refusal
from bot.i18n import t, table_language
from bot.service.live import LiveTable, rules_for
from data.records import Seat

COMPUTER_LEVELS = ("easy", "normal", "expert")


def require_lobby(table: LiveTable) -> None:
    if table.game is not None:
        raise WrongPhase("The game has already started.", code="started")


def _require_host(table: LiveTable, user_id: int, what: str, code: str) -> None:
    if user_id != table.record.host_id:
        raise NotHost(what, code=code)


def _require_room(table: LiveTable) -> None:
    rules = rules_for(dict(table.record.options))
    if len(table.record.seats) >= rules.players[1]:
        raise UserError(
            f"The table is full ({rules.players[1]} players).",
            code="table_full",
            count=rules.players[1],
        )


def seats_after_join(table: LiveTable, user_id: int, name: str) -> tuple[Seat, ...]:
    require_lobby(table)
    if table.seat_of(user_id) is not None:
        raise UserError("You already have a seat at this table.", code="already_seated")
    _require_room(table)
    return (*table.record.seats, Seat(user_id, name))


def seats_after_leave(table: LiveTable, user_id: int) -> tuple[Seat, ...]:
    require_lobby(table)
    if table.seat_of(user_id) is None:
        raise UserError("You don't have a seat at this table.", code="no_seat")
    if user_id == table.record.host_id:
        raise UserError(
            "The host can't leave; use `/shanghai end` to close the table.",
            code="host_cannot_leave",
        )
    return tuple(s for s in table.record.seats if s.user_id != user_id)


def seats_with_computer(table: LiveTable, user_id: int, level: str) -> tuple[Seat, ...]:
    """The host seats a computer player of ``level``, named once in the table's language."""
    if level not in COMPUTER_LEVELS:
        raise UserError("Computer players are 'easy', 'normal' or 'expert'.", code="computer_level")
    require_lobby(table)
    _require_host(table, user_id, "add a computer player", "not_host.add_computer")
    _require_room(table)
    taken = {s.user_id for s in table.record.seats}
    # Negative ids: Discord snowflakes are positive, so a computer never collides.
    number = next(n for n in range(1, 100) if -n not in taken)
    language = table_language(table.record.options)
    worded_level = t(f"lobby.level.{level}", language)
    name = t("lobby.computer_name", language, number=number, level=worded_level)
    return (*table.record.seats, Seat(-number, name, is_computer=True, level=level))


def seats_without_computer(table: LiveTable, user_id: int) -> tuple[Seat, ...]:
    """The host removes the last computer seated in the lobby."""
    require_lobby(table)
    _require_host(table, user_id, "remove a computer player", "not_host.remove_computer")
    computers = [s for s in table.record.seats if s.is_computer]
    if not computers:
        raise UserError("There is no computer player at this table.", code="no_computer")
    gone = computers[-1]
    return tuple(s for s in table.record.seats if s is not gone)


def options_with_house_rule(
    table: LiveTable, user_id: int, *, preset: str | None, option: str | None, value: Any
) -> dict[str, Any]:
    """The lobby's options after the host changes the rule set (which resets the options) or
    one option, validated as a whole ``Rules``."""
    require_lobby(table)
    _require_host(table, user_id, "change the house rules", "not_host.house_rules")
    options = dict(table.record.options)
    overrides = dict(options.get("rules") or {})
    if preset is not None:
        options["preset"], overrides = preset, {}
    elif option is not None:
        overrides[option] = value
    options["rules"] = overrides
    try:
        rules = rules_for(options)
    except ValueError as error:
        raise UserError(
            f"That house rule can't be used here: {error}", code="house_rule_invalid"
        ) from rules_refusal(error)
    if rules.game != table.record.game_kind:
        raise UserError("That rule set is for another game.", code="other_game_rules")
    if len(table.record.seats) > rules.players[1]:
        raise UserError(
            f"Too many players are seated for {rules.players[1]} players.",
            code="too_many_seated",
            count=rules.players[1],
        )
    return options


def players_to_start(table: LiveTable, user_id: int) -> list[str]:
    """The engine's player ids once the host may start: enough players seated."""
    require_lobby(table)
    _require_host(table, user_id, "start the game", "not_host.start")
    rules = rules_for(dict(table.record.options))
    low, count = rules.players[0], len(table.record.seats)
    if count < low:
        raise UserError(
            f"This game needs at least {low} players; {count} seated.",
            code="too_few_players",
            low=low,
            count=count,
        )
    return [str(seat.user_id) for seat in table.record.seats]
