"""The public table message: the lobby (Join / Leave / Start) and the game (My hand).

Custom ids, parsed strictly by one ``DynamicItem`` so the buttons work after a restart:

    sh:join:<table>   sh:leave:<table>   sh:start:<table>   sh:hand:<table>
    sh:history:<table>   (anyone, seated or not: the deal's public moves, privately)
    sh:addeasy:<table>   sh:addnormal:<table>   sh:addexpert:<table>   sh:rmcpu:<table>
        (host: computer seats)
    sh:buy:<table>:<window>     <window> = deal.seat.pile-size.restocks of the upcard on offer
    sh:pass:<table>:<window>    not buying it: the window closes once everyone has decided
    sh:unbuy:<table>:<window>   (on the buyer's private reply) take the request back

Buy and Pass are no longer drawn on the table message (its buttons show to spectators too;
each seated person has them in their hand), but a table message posted before that still
carries them: their clicks keep doing what they did, so nothing breaks mid-game.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.ground.errors import NotHost, UserError
from bot.i18n import Language, interaction_language, t, table_language
from bot.i18n.terms import contract_text
from bot.interactions import answers, guards
from bot.interactions.controls import Control
from bot.interactions.ids import parse_id
from bot.interactions.threads import start_in_thread
from bot.screens.attachments import TABLE_FILE
from bot.screens.hand_text import buy_answer_text
from bot.screens.history_text import history_text
from bot.screens.text import table_text
from bot.service.live import rules_for
from bot.views.hand import open_hand
from bot.views.house_rules import house_rules_panel
from bot.views.replay import replay_button
from bot.views.seeds import seeds_button
from bot.views.table_layout import (
    NO_PINGS,
    game_name,
    heading,
    lobby_blocks,
    lobby_layout,
    plain_layout,
    preset_name,
    public_layout,
    sheet_layout,
)

if TYPE_CHECKING:
    from bot.service import TableService
    from bot.service.table_snapshot import TableSnapshot
    from bot.service.tables import BuyChoice

__all__ = [
    "NO_PINGS",
    "TableButton",
    "lobby_posted",
    "next_deal_row",
    "plain_layout",
    "play_again_row",
    "post_lobby",
    "preset_name",
    "render_table",
    "sheet_layout",
]

TABLE_BUTTON_TEMPLATE = (
    r"sh:(?P<verb>join|leave|start|hand|history|buy|pass|unbuy|addeasy|addnormal|addexpert|rmcpu|house|again|nudge|skip|nextdeal)"
    r":(?P<table>[0-9]{1,19})"
    r"(?::(?P<window>[0-9]{1,3}\.[0-9]{1,2}\.[0-9]{1,4}\.[0-9]{1,3}))?"
)

WINDOW_VERBS = ("buy", "pass", "unbuy")
#: The table message's clicks that take the table's lock and write: answered in time
#: however long the lock or the write takes (``bot.interactions.answers``).
WRITES = frozenset(
    {"join", "leave", "start", "addeasy", "addnormal", "addexpert", "rmcpu", *WINDOW_VERBS}
)


class TableButton(Control[discord.ui.Button[Any]], template=TABLE_BUTTON_TEMPLATE):
    """A button of the public table message."""

    def __init__(
        self,
        verb: str,
        table_id: int,
        window: str | None = None,
        *,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        custom_id = f"sh:{verb}:{table_id}" + (f":{window}" if window else "")
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id, row=row))
        self.verb, self.table_id, self.window = verb, table_id, window

    @classmethod
    def from_match(cls, match: re.Match[str]) -> TableButton:
        window = match["window"]
        if (match["verb"] in WINDOW_VERBS) != (window is not None):
            # A malformed id still gets an answer, from the callback.
            return cls("bad", parse_id(match["table"]))
        return cls(match["verb"], parse_id(match["table"]), window)

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        if self.verb == "again":  # its table has closed: the service checks the channel
            await play_again(interaction, self.table_id)
            return
        guards.table_here(interaction, self.table_id)
        if self.verb not in WRITES:  # My hand answers in time itself; the rest only read
            await table_click(interaction, self.verb, self.table_id, self.window)
            return
        # Its lock (2 s at most) and its write (2 s) could pass Discord's 3 s: deferred
        # by the watchdog if not answered in time, at once if the table is held now.
        fresh = self.verb != "start" and self.verb != "unbuy"  # a new private message
        async with answers.for_click(interaction, self.table_id, fresh=fresh):
            await table_click(interaction, self.verb, self.table_id, self.window)


async def play_again(interaction: discord.Interaction[Any], table_id: int) -> None:
    """**Play again** on a finished game: a new lobby, same rules, same people."""
    service: TableService = interaction.client.service
    assert interaction.guild_id is not None and interaction.channel_id is not None
    table = await service.play_again(
        table_id,
        interaction.guild_id,
        interaction.channel_id,
        interaction.user.id,
        interaction.user.display_name,
    )
    if table.channel_id == interaction.channel_id:
        await post_lobby(interaction, table.id)
        return
    # Clicked in a finished game's thread: the new lobby goes to the thread's channel.
    client = interaction.client
    lobby = service.public(table.id)
    channel = client.get_channel(table.channel_id) or await client.fetch_channel(table.channel_id)
    message = await channel.send(view=render_table(lobby), allowed_mentions=NO_PINGS)
    await lobby_posted(client, lobby, message.id)
    language = interaction_language(interaction)
    await interaction.response.send_message(
        t("thread.again_elsewhere", language, link=message.jump_url), ephemeral=True
    )


async def post_lobby(interaction: discord.Interaction[Any], table_id: int) -> None:
    """Answer ``interaction`` with a new table's lobby message, and make it the table's."""
    client = interaction.client
    lobby = client.service.public(table_id)
    await interaction.response.send_message(view=render_table(lobby), allowed_mentions=NO_PINGS)
    message = await interaction.original_response()
    await lobby_posted(client, lobby, message.id)


async def redraw(interaction: discord.Interaction[Any], layout: discord.ui.LayoutView) -> None:
    """Redraw the clicked public message as ``layout``, in the answer to the click (after a
    deferral, by editing it): its content and embeds are cleared, since a lobby posted by an
    older release has them and a Components V2 message may carry neither."""
    await answers.update(interaction, None, view=layout)


async def lobby_posted(client: Any, lobby: TableSnapshot, message_id: int) -> None:
    """A lobby message was posted: the table and the publisher edit that one from now on."""
    await client.service.set_message(lobby.id, message_id)
    client.publisher.posted(lobby, message_id)


async def table_click(
    interaction: discord.Interaction[Any], verb: str, table_id: int, window: str | None
) -> None:
    service: TableService = interaction.client.service
    user = interaction.user
    language = interaction_language(interaction)
    if verb == "join":
        table = await service.join(table_id, user.id, user.display_name)
        seat = table.seat_of(user.id)
        await answers.show(interaction, t("lobby.joined", language, seat=(seat or 0) + 1))
    elif verb == "leave":
        await service.leave(table_id, user.id)
        await answers.show(interaction, t("lobby.left", language))
    elif verb == "start":
        game = game_name(service.public(table_id))
        thread = await start_in_thread(interaction, service, table_id, game)
        if thread is not None:  # the game is on in a thread of its own (interactions/threads.py)
            moved = service.public(table_id)
            where = t(
                "thread.lobby_moved", table_language(moved.record.options), thread=thread.mention
            )
            await interaction.response.edit_message(
                content=None, embeds=[], view=lobby_layout(moved, hints=False, news=where)
            )
            await interaction.followup.send(
                t("thread.dealt", language, thread=thread.mention), ephemeral=True
            )
            return
        # The game's controls replace the lobby's at once, in the answer to the click itself
        # (an interaction response: no channel call, no wait for the publisher's pace).
        await service.start(table_id, user.id)
        await redraw(interaction, render_table(service.public(table_id)))
        await interaction.followup.send(t("lobby.dealt", language), ephemeral=True)
    elif verb in ("addeasy", "addnormal", "addexpert"):
        level = verb.removeprefix("add")
        table = await service.add_computer(table_id, user.id, level)
        name = table.record.seats[-1].name
        await answers.show(interaction, t("lobby.computer_joined", language, name=name))
    elif verb == "rmcpu":
        await service.remove_computer(table_id, user.id)
        await answers.show(interaction, t("lobby.computer_left", language))
    elif verb == "house":
        await open_house_rules(interaction, service, table_id)
    elif verb == "hand":
        await open_hand(interaction, table_id)
    elif verb == "history":
        await show_history(interaction, service, table_id, language)
    elif verb in WINDOW_VERBS:
        await buy_click(interaction, service, table_id, window, verb)
    elif verb == "nextdeal":
        dealt = await service.next_deal_now(table_id, user.id)
        await answers.show(interaction, t("deal.next_now" if dealt else "deal.already", language))
    elif verb == "nudge":
        target = await service.nudge(table_id, user.id)
        public = service.public(table_id)
        await interaction.response.send_message(  # the one ping, in the table's channel
            t("nudge.ping", table_language(public.record.options), user=target),
            allowed_mentions=discord.AllowedMentions(users=True),
        )
    elif verb == "skip":
        vote = await service.vote_skip(table_id, user.id)
        key = "nudge.skipped" if vote.played else "nudge.vote_counted"
        await interaction.response.send_message(
            t(key, language, votes=vote.votes, needed=vote.needed), ephemeral=True
        )
    else:
        raise UserError("That button is not valid.", code="bad_button")


async def show_history(
    interaction: discord.Interaction[Any],
    service: TableService,
    table_id: int,
    language: Language,
) -> None:
    """The deal's public moves, privately, to whoever asks (a spectator too): the view of a
    spectator, so nothing of the clicker's own hand can slip in."""
    table = service.public(table_id)
    if table.view is None:
        raise UserError("The game hasn't started yet.", code="not_started")
    await interaction.response.send_message(
        history_text(table.view, table.names, language), ephemeral=True
    )


async def open_house_rules(
    interaction: discord.Interaction[Any], service: TableService, table_id: int
) -> None:
    """The host's private *House rules* panel (``views/house_rules.py``)."""
    table = service.public(table_id)
    if interaction.user.id != table.record.host_id:
        raise NotHost("change the house rules", code="not_host.house_rules")
    if table.view is not None:
        raise UserError("The game has already started.", code="started")
    content, ui = house_rules_panel(table, interaction_language(interaction))
    await interaction.response.send_message(content, view=ui, ephemeral=True)


async def buy_click(
    interaction: discord.Interaction[Any],
    service: TableService,
    table_id: int,
    window: str | None,
    verb: str = "buy",
) -> None:
    """Buy, Pass, or take a buy request back, for the upcard of this window only: the same
    service call as the hand's buttons, worded the same way."""
    language = interaction_language(interaction)
    choice: BuyChoice = "buy" if verb == "buy" else "pass" if verb == "pass" else "unbuy"
    snap = await service.decide_buy(table_id, interaction.user.id, choice, window=window or "")
    if snap.refusal is not None:
        raise snap.refusal
    text = buy_answer_text(snap, choice, language)
    if verb == "unbuy":
        await answers.update(interaction, text, view=None)
        return
    ui = discord.ui.View(timeout=None)
    if verb == "buy":
        take_back = t("buy.take_back", language)
        ui.add_item(TableButton("unbuy", table_id, window, label=take_back))
    await answers.show(interaction, text, view=ui)


# -- drawing the message ----------------------------------------------------------------------


def play_again_row(table_id: int, language: Language) -> list[discord.ui.Item[Any]]:
    """**Play again**, **Replay** and **Shuffle seeds** under the final standings, so the next
    game, the game just played step by step, and the seeds that check its deals are one click
    from where its result is read."""
    return [
        TableButton("again", table_id, label=t("button.play_again", language)),
        replay_button(table_id, language),
        seeds_button(table_id, language),
    ]


def next_deal_row(table_id: int, language: Language) -> list[discord.ui.Item[Any]]:
    """**Next deal now** under a deal's recap: the host may end the breath between deals."""
    return [TableButton("nextdeal", table_id, label=t("button.next_deal", language))]


#: Discord's limit on a picture's alt text in a media gallery.
ALT_LIMIT = 1024


def render_table(
    table: TableSnapshot, *, news: str = "", picture: str | None = None
) -> discord.ui.LayoutView:
    """The public table message drawn from ``table``'s snapshot, in the table's language:
    ``news`` on top (what happened, a ping), and ``picture``, the alt text of the attached
    table picture (``TABLE_FILE``) the layout shows; None draws none (nothing is attached)."""
    language = table_language(table.record.options)
    shown = None if picture is None else (TABLE_FILE, picture)

    def button(verb: str, key: str, **kwargs: Any) -> TableButton:
        return TableButton(verb, table.id, label=t(key, language), **kwargs)

    view = table.view
    if view is None:
        if table.closed:
            title = heading(t("lobby.title_closed", language, game=game_name(table)))
            return public_layout([title + "\n" + t("lobby.ended", language)], news=news)
        rules_low = _min_players(table)
        start_style = (
            discord.ButtonStyle.primary
            if len(table.record.seats) >= rules_low
            else discord.ButtonStyle.secondary
        )
        seats: list[discord.ui.Item[Any]] = [
            button("join", "button.join", style=discord.ButtonStyle.success),
            button("leave", "button.leave"),
            button("start", "button.start", style=start_style),
        ]
        computers: list[discord.ui.Item[Any]] = [
            button("addeasy", "button.add_easy"),
            button("addnormal", "button.add_normal"),
            button("addexpert", "button.add_expert"),
        ]
        if any(seat.is_computer for seat in table.record.seats):
            computers.append(button("rmcpu", "button.remove_computer"))
        rows = [seats, computers]
        if table.record.game_kind != "rummy":
            rows.append([button("house", "button.house_rules")])
        return public_layout(lobby_blocks(table), news=news, rows=rows)
    names = table.names
    if view.is_over or (table.closed and not view.is_over):
        # The game's end is told once, by the final recap under this message (the sheet, the
        # standings, Play again, Replay and the seeds): this message keeps one line of it.
        key = "table.title_over" if view.is_over else "lobby.title_closed"
        title = heading(t(key, language, game=game_name(table)))
        over = table_text(view, names, away=table.away_seats, language=language, seats=False)
        if view.is_over:
            over += "\n" + t("table.recap_below", language)
        return public_layout([f"{title}\n{over}"], news=news)
    description = table_text(
        view,
        names,
        # The window's end stays in the text after it passed ("closed 3 seconds ago", drawn
        # by Discord), so closing it needs no edit.
        buy_deadline=table.window_ends if view.upcard_live else None,
        turn_deadline=table.turn_deadline,
        away=table.away_seats,
        language=language,
        heading=False,
        # The picture shows the seats and the melds (its alt text says them): said once.
        seats=shown is None,
    )
    if shown is not None:  # the seats and melds in words, for those who cannot see the picture
        blocks = table_text(view, names, away=table.away_seats, language=language).split("\n\n")
        words = discord.utils.remove_markdown(" · ".join(blocks[1:]).replace("\n", " · "))
        shown = (shown[0], f"{shown[1]}: {words}"[:ALT_LIMIT])
    title = t(
        "table.title",
        language,
        deal=view.deal,
        deals=view.rules.num_deals,
        contract=contract_text(view.contract, language),
    )
    if view.rules.game == "rummy":
        title = t("table.title_rummy", language, deal=view.deal)
    # No Buy / Pass here: a channel message's buttons show to everyone, spectators too. The
    # text says what is on offer and until when; each seated person buys from their hand.
    controls: list[list[discord.ui.Item[Any]]] = [
        [
            button("hand", "button.my_hand", style=discord.ButtonStyle.primary),
            button("history", "button.history"),
        ],
        [
            button("nudge", "button.nudge"),  # for an absent player
            button("skip", "button.skip"),
        ],
    ]
    return public_layout(
        paragraphs(heading(title), description), news=news, picture=shown, rows=controls
    )


def paragraphs(title: str, text: str) -> list[str]:
    """``text``'s paragraphs as the layout's blocks, ``title`` opening the first: on a phone a
    thin line between the turn and the seats reads faster than a blank line."""
    parts = [part for part in text.split("\n\n") if part.strip()] or [""]
    return [f"{title}\n{parts[0]}", *parts[1:]]


def _min_players(table: TableSnapshot) -> int:
    return rules_for(dict(table.record.options)).players[0]
