"""Arrange helpers shared by the simcord tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import discord
import simcord


@contextmanager
def patient(env: simcord.Env, seconds: float) -> Iterator[None]:
    """Give one heavy step (several tables opening at once, each drawing its pictures in a
    worker thread) ``seconds`` of real time to settle on a loaded machine. A module's short
    settle timeout stays in force around it: its sleeps longer than that timeout stay virtual."""
    before = env.settle_timeout
    env.settle_timeout = max(before, seconds)
    try:
        yield
    finally:
        env.settle_timeout = before


@dataclass
class World:
    env: simcord.Env
    guild: Any
    channel: Any
    players: list[Any]
    table_message: discord.Message | None = None

    @property
    def service(self) -> Any:
        return self.env.bot.service

    @property
    def table(self) -> Any:
        return self.service.for_channel(self.channel.id)

    def message(self) -> discord.Message:
        """The current table message, as the channel shows it now."""
        table = self.table
        message_id = table.record.message_id if table is not None else self.table_message.id
        for message in self.channel.history():
            if message.id == message_id:
                return message
        raise AssertionError("table message not found")

    def player(self, user_id: int) -> Any:
        return next(p for p in self.players if p.id == user_id)

    def current(self) -> Any:
        game = self.table.game
        return self.player(int(game.current_player))


def _tree(message: Any) -> list[Any]:
    """Every component of a message, nested ones included (a Components V2 layout nests its
    buttons in action rows inside containers and sections; a classic message has rows)."""
    out: list[Any] = []

    def walk(items: Any) -> None:
        for item in items or ():
            out.append(item)
            if isinstance(item, dict):
                walk(item.get("components"))
                if isinstance(item.get("accessory"), dict):
                    walk([item["accessory"]])
            else:
                walk(getattr(item, "children", None) or getattr(item, "components", None))
                accessory = getattr(item, "accessory", None)
                if accessory is not None:
                    walk([accessory])

    walk(message.components)
    return out


def _items(message: Any) -> list[Any]:
    """The interactive components (buttons and selects) of a message, in reading order."""
    return [item for item in _tree(message) if _get(item, "custom_id") or _get(item, "url")]


def component_count(message: Any) -> int:
    """How many components a message holds as Discord counts them (at most 40): nested ones
    included."""
    return len(_tree(message))


def controls(message: Any) -> list[dict[str, Any]]:
    """The buttons and selects of a message as payload dicts, nested ones included."""
    return [item if isinstance(item, dict) else item.to_dict() for item in _items(message)]


def text_of(message: Any) -> str:
    """Everything a message says in words, in reading order: its content, its embeds' titles,
    descriptions and fields, and the text displays of a Components V2 layout."""
    parts: list[str] = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{field.name}\n{field.value}" for field in embed.fields]
        if embed.footer and embed.footer.text:
            parts.append(embed.footer.text)
    for item in _tree(message):
        kind = _get(item, "type")
        if kind == 10 or getattr(kind, "value", None) == 10:
            parts.append(_get(item, "content") or "")
    return "\n".join(part for part in parts if part)


def layout_text(view: discord.ui.LayoutView) -> str:
    """The words of a Components V2 layout before it is sent: its text displays, in order."""
    texts = [c.content for c in view.walk_children() if isinstance(c, discord.ui.TextDisplay)]
    return "\n".join(texts)


def heading_of(message: Any) -> str:
    """A public message's title: its embed's title, or the Markdown heading (``### ...``)
    that opens a text display of its Components V2 layout ("" if it has none)."""
    for embed in message.embeds:
        if embed.title:
            return str(embed.title)
    for item in _tree(message):
        kind = _get(item, "type")
        if kind == 10 or getattr(kind, "value", None) == 10:
            first = (_get(item, "content") or "").split("\n", 1)[0]
            if first.startswith("#"):
                return first.lstrip("#").strip()
    return ""


def container_text(message: Any) -> str:
    """The words inside a Components V2 message's containers: a table message's own text,
    without what happened above it. ``message`` may be a layout's ``to_components()``."""
    components = message if isinstance(message, list) else message.components
    boxes = [c for c in components if _get(c, "type") in (17, discord.ComponentType.container)]
    return text_of(SimpleNamespace(content="", embeds=[], components=boxes))


def gallery_urls(message: Any) -> list[str]:
    """The picture URLs of a Components V2 message's media galleries, in reading order."""
    urls: list[str] = []
    for item in _tree(message):
        kind = _get(item, "type")
        if kind == 12 or getattr(kind, "value", None) == 12:
            for entry in _get(item, "items") or ():
                media = _get(entry, "media")
                urls.append(str(_get(media, "url")))
    return urls


def gallery_alts(message: Any) -> list[str]:
    """The alt texts of a Components V2 message's pictures: what the picture says in words."""
    alts: list[str] = []
    for item in _tree(message):
        kind = _get(item, "type")
        if kind == 12 or getattr(kind, "value", None) == 12:
            alts += [str(_get(entry, "description") or "") for entry in _get(item, "items") or ()]
    return alts


def is_layout(message: Any) -> bool:
    """Whether ``message`` is a Components V2 layout (the flag set, no content, no embeds)."""
    flags = message.flags if isinstance(message.flags, int) else message.flags.value
    return bool(flags & (1 << 15)) and not message.content and not message.embeds


def _get(item: Any, name: str) -> Any:
    return item.get(name) if isinstance(item, dict) else getattr(item, name, None)


def button_labels(message: Any) -> list[str]:
    """Labels of the buttons of a discord.Message or a simcord ResponseMessage."""
    return [label for item in _items(message) if (label := _get(item, "label"))]


def custom_ids(message: Any) -> list[str]:
    return [cid for item in _items(message) if (cid := _get(item, "custom_id"))]


async def open_table(env: simcord.Env, count: int, **options: Any) -> World:
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    names = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"][:count]
    players = [guild.add_member(env.create_user(name)) for name in names]
    result = await players[0].slash(channel, "shanghai new", **options)
    assert result.acknowledged and not result.ephemeral
    world = World(env, guild, channel, players, result.response.message)
    for player in players[1:]:
        joined = await player.click(world.message(), label="Join")
        assert joined.acknowledged and joined.ephemeral
    return world


async def start(world: World) -> None:
    result = await world.players[0].click(world.message(), label="Start")
    assert result.acknowledged
    assert world.table.game is not None


async def open_hand(world: World, player: Any) -> simcord.InteractionResult:
    result = await player.click(world.message(), label="My hand")
    assert result.acknowledged and result.ephemeral
    return result


def discard_id(message: Any) -> str:
    """The custom id of the hand's discard select (a hand may show other selects beside it,
    such as "Lay down these melds, then discard…")."""
    return next(cid for cid in custom_ids(message) if ":discard" in cid)


async def draw_and_discard(world: World, player: Any) -> simcord.InteractionResult:
    """``player`` opens **My hand**, draws from the stock and throws the card drawn, as a
    person plays a plain turn: the hand, whose message now shows the turn played."""
    hand = await open_hand(world, player)
    await player.click(hand.response, label="Draw from stock")
    card = world.table.game.hand_of(str(player.id))[-1]
    await player.select(hand.response, [str(card)], custom_id=discard_id(hand.response))
    return hand


def buy_label(message: Any) -> str:
    """The label of the Buy button on ``message`` (a hand message: "Buy 7♥")."""
    return next(label for label in button_labels(message) if label.startswith("Buy "))


async def decide_in_hand(
    world: World, player: Any, choice: str = "buy"
) -> tuple[simcord.InteractionResult, simcord.InteractionResult]:
    """``player`` opens **My hand** and presses Buy (or Pass) there, as a person would now
    that the table message carries neither: the hand, and the click's result."""
    hand = await open_hand(world, player)
    label = buy_label(hand.response) if choice == "buy" else "Pass"
    return hand, await player.click(hand.response, label=label)


def window_tag(world: World) -> str:
    """The running buy window's tag, as the ``sh:buy:<table>:<window>`` ids carry it."""
    from bot.service.buy_window import window_tag as tag_of

    table = world.table
    return tag_of(table.game, table.view(None))  # type: ignore[no-any-return]


async def old_table_click(
    world: World, player: Any, verb: str, window: str | None = None
) -> simcord.InteractionResult:
    """``player`` clicks Buy / Pass (``verb``) on a table message drawn before those buttons
    left it, for ``window`` (the one running now by default): the click a channel message
    posted before an upgrade can still send."""
    from .test_forged_controls import forge

    custom_id = f"sh:{verb}:{world.table.id}:{window or window_tag(world)}"
    return await forge(player, world.message(), custom_id)


def stand_in_table(message_id: int = 5, channel_id: int = 9) -> SimpleNamespace:
    """A publisher's table snapshot with nothing in play: open, nobody asked about a card, no
    relaxed turn untold; for tests of the channel side that need no game."""
    record = SimpleNamespace(message_id=message_id, seats=(), host_id=1, options={})
    return SimpleNamespace(
        channel_id=channel_id,
        record=record,
        names=[],
        view=None,
        playing=False,
        closed=False,
        asked=(),
        untold_turn=None,
    )
