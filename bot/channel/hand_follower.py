"""The hand follows its player: open hand messages are redrawn when something reaches them.

Each time a player's hand message is drawn in answer to their click, the interaction is kept
(its webhook token may edit that message for 15 minutes). Every change at the table carries
each followed player's ``SeatSnapshot`` (the service builds it under the table's lock for the
players ``watched`` names) and, when its tag differs from what
the message shows (their turn began, a bought or penalty card or a held draw reached them, a
new deal was dealt, the game ended), edits the message through the webhook: no channel call,
and the picture is uploaded again only when the hand itself changed.

A hand never goes quiet without a word. The tokens are saved in the store's meta (at once,
then at most every ``SAVE_SECONDS`` while they change, by a ``tasks.loop``, and at shutdown;
never logged), so after a restart each hand whose token is still young is followed again
through the webhook ``PATCH .../messages/@original``, rebuilt from the application id and the
token. Shortly before a token runs out, the hand's last update says that it has gone to sleep
and that **My hand** wakes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import tasks
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from bot.ground.logs import at_ids
from bot.i18n import DEFAULT_LANGUAGE, Language, interaction_language, resolve_language, t
from bot.interactions.answers import awaiting_answer
from bot.screens.hand_text import dealt_note, ending_text, pause_text
from bot.screens.text import SortMode, cards_text
from bot.service.snapshot import settled
from bot.views.hand import hand_files, picture_key, render_hand
from bot.views.hand_layout import text_layout
from data.store import background_writes
from engine.cards import Card

if TYPE_CHECKING:
    from bot.service import Change, SeatSnapshot

log = logging.getLogger(__name__)

#: Discord lets an interaction's token edit its message for 15 minutes; keep a margin.
TOKEN_SECONDS = 14 * 60
#: The tag of a hand message that shows a deal's recap alone (no hand, no controls).
PAUSED = "paused"
#: How long a click waits for a push already on its way to its hand (one edit's time).
PUSH_WAIT_SECONDS = 1.0
#: When a hand says it has gone to sleep: shortly before its token runs out.
SLEEP_SECONDS = TOKEN_SECONDS - 30
#: The followed hands are saved at once, then at most once per this many seconds.
SAVE_SECONDS = 30.0
#: The store's meta key of the followed hands (their tokens are secrets: never logged).
STORE_KEY = "followed_hands"


@dataclass
class Followed:
    """One player's open hand message and what it shows."""

    #: None: followed again after a restart, through the stored ``token`` alone.
    interaction: discord.Interaction[Any] | None
    sort: SortMode
    tag: str
    #: The cards the message shows (None: not known after a restart; the next push draws all).
    hand: tuple[str, ...] | None
    since: float
    token: str = field(default="", repr=False)
    language: Language = DEFAULT_LANGUAGE
    guild_id: int | None = None
    task: asyncio.Task[None] | None = None
    dirty: bool = False
    #: The newest screen a change brought for this player (a closed table's says so).
    latest: SeatSnapshot | None = None
    #: Clicks on this hand still being answered: their own answer is newer than any push
    #: (a compound play makes several changes in one click, and a push of the first of them
    #: could land after the answer and show a hand that no longer is).
    clicks: int = 0
    #: Its token is about to run out: the next push says so, and it is followed no more.
    asleep: bool = False
    sleeper: asyncio.Task[None] | None = None
    #: The hand message's id, when known (a click on it said; None after My hand, which
    #: answers with a new message, and after a restart).
    message_id: int | None = None
    #: What its picture shows (``picture_key``; None: no picture, or not known).
    picture: Hashable | None = None


class HandFollower:
    """Open hand messages by (table, player), redrawn after the changes that concern them."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.followed: dict[tuple[int, int], Followed] = {}
        self.pushes = 0
        self._saver: asyncio.Task[None] | None = None
        self._unsaved = False
        #: When the followed hands were last written (``_now``; 0: never).
        self._saved_at = 0.0
        #: The hands a push is sending a new picture to right now.
        self._uploading: set[tuple[int, int]] = set()

    def _now(self) -> float:
        return discord.utils.utcnow().timestamp()

    def shown(
        self,
        interaction: discord.Interaction[Any],
        snap: SeatSnapshot,
        sort: SortMode,
        *,
        message_id: int | None = None,
        picture: Hashable | None = None,
    ) -> None:
        """``interaction`` just drew ``snap`` (on the message ``message_id``, when known, with
        the picture ``picture``): follow that message from now on."""
        key = (snap.table_id, snap.user_id)
        old = self.followed.get(key)
        hand = tuple(sorted(str(c) for c in snap.view.hand or ()))
        tag = snap.tag
        if snap.paused_until is not None:  # a recap alone: the next deal is drawn in full
            tag, hand = PAUSED, ()
        followed = Followed(
            interaction,
            sort,
            tag,
            hand,
            self._now(),
            token=interaction.token,
            language=interaction_language(interaction),
            guild_id=interaction.guild_id,
            latest=snap,
            message_id=message_id,
            picture=picture if snap.paused_until is None else None,
        )
        if old is not None:
            followed.clicks = old.clicks
            if old.sleeper is not None:
                old.sleeper.cancel()
        if old is not None and old.task is not None and not old.task.done():
            followed.task, followed.dirty = old.task, old.dirty
        self.followed[key] = followed
        self._sleep_later(key, followed)
        self._save_soon()

    def forget(self, table_id: int, user_id: int) -> None:
        """Stop following this player's hand (they left the game: their message says so)."""
        self._drop((table_id, user_id))

    def _drop(self, key: tuple[int, int], followed: Followed | None = None) -> None:
        """Follow ``key`` no more (only if it is still ``followed``, when given)."""
        current = self.followed.get(key)
        if current is None or (followed is not None and current is not followed):
            return
        del self.followed[key]
        if current.sleeper is not None and current.sleeper is not asyncio.current_task():
            current.sleeper.cancel()
        self._save_soon()

    def placed(self, interaction: discord.Interaction[Any], user_id: int, message_id: int) -> None:
        """``interaction`` answered with the new message ``message_id`` (My hand): a click on
        it keeps its picture when it shows the same."""
        for (_, user), followed in self.followed.items():
            if user == user_id and followed.interaction is interaction:
                followed.message_id = message_id

    def pictureless(self, table_id: int, user_id: int) -> None:
        """This player's hand message now shows no picture (a question in its place): the
        next push sends the picture again, as after a restart."""
        followed = self.followed.get((table_id, user_id))
        if followed is not None:
            followed.hand = followed.picture = None

    def shows(self, table_id: int, user_id: int, message_id: int, picture: Hashable) -> bool:
        """Whether ``message_id`` is this player's followed hand message and its picture is
        ``picture`` already: a click's answer there then keeps the attachment it has. Not
        while a push is sending a new picture to it (a push that keeps it is harmless)."""
        followed = self.followed.get((table_id, user_id))
        return (
            followed is not None
            and followed.message_id == message_id
            and followed.picture is not None
            and followed.picture == picture
            and (table_id, user_id) not in self._uploading
        )

    def follows(self, table_id: int, user_id: int) -> bool:
        """Whether this player's open hand can still be updated for them (a live token)."""
        followed = self.followed.get((table_id, user_id))
        return followed is not None and self._now() - followed.since <= TOKEN_SECONDS

    def watched(self, table_id: int) -> list[int]:
        """The players of ``table_id`` whose open hands can still be updated."""
        return [user for (table, user) in self.followed if table == table_id]

    def table_changed(self, change: Change) -> None:
        table = change.table
        for (table_id, user_id), followed in list(self.followed.items()):
            if table_id != table.id:
                continue
            if self._now() - followed.since > TOKEN_SECONDS:
                self._drop((table_id, user_id))
                continue
            snap = change.seats.get(user_id)
            if snap is None:
                continue  # nothing of theirs can have changed
            followed.latest = snap
            followed.dirty = True
            self._kick(table_id, user_id)

    async def answering(self, table_id: int, user_id: int) -> None:
        """A click on this player's hand is being handled: no push until its answer is out
        (``answered``), and a push already on its way lands first."""
        followed = self.followed.get((table_id, user_id))
        if followed is None:
            return
        followed.clicks += 1
        task = followed.task
        if task is not None and not task.done() and task is not asyncio.current_task():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(task), PUSH_WAIT_SECONDS)

    def answered(self, table_id: int, user_id: int, *, click: bool = False) -> None:
        """The message's own answer went out (``click``: the answer to a click that called
        ``answering``): push whatever changed meanwhile."""
        followed = self.followed.get((table_id, user_id))
        if click and followed is not None and followed.clicks > 0:
            followed.clicks -= 1
        self._kick(table_id, user_id)

    def _kick(self, table_id: int, user_id: int) -> None:
        followed = self.followed.get((table_id, user_id))
        if followed is None or not followed.dirty:
            return
        if followed.task is None or followed.task.done():
            followed.task = asyncio.get_running_loop().create_task(
                self._push(table_id, user_id), name=f"shanghai-hand-{table_id}-{user_id}"
            )

    async def _push(self, table_id: int, user_id: int) -> None:
        key = (table_id, user_id)
        while True:
            followed = self.followed.get(key)
            if followed is None or not followed.dirty:
                return
            answer = followed.interaction
            if (answer is not None and awaiting_answer(answer)) or followed.clicks:
                return  # its own answer is on the way; ``answered`` looks again after it
            followed.dirty = False
            language = followed.language  # the player's own language
            snap = followed.latest
            try:
                if snap is None:
                    return
                if snap.tag == followed.tag and not followed.asleep:
                    continue
                if snap.paused_until is not None and not snap.over:  # the recap alone
                    recap = text_layout(pause_text(snap, language))
                    await self._edit(followed, content=None, view=recap, attachments=[])
                    followed.tag, followed.hand, followed.picture = PAUSED, (), None
                    continue
                hand = tuple(sorted(str(c) for c in snap.view.hand or ()))
                note = None
                shown = hand if followed.hand is None else followed.hand  # None: unknown
                gained = Counter(hand) - Counter(shown)
                if followed.tag == PAUSED:
                    note = dealt_note(snap, language)
                elif gained and snap.gained == ():
                    cards = sorted((Card.parse(c) for c in gained.elements()), key=Card.sort_key)
                    note = t("hand.you_got", language, cards=cards_text(cards))
                if snap.over or snap.removed:
                    # The game is over, or the bot plays this seat for good (they left, were
                    # removed, or left the server): say so once, and follow no more.
                    self._drop(key, followed)
                    text = (
                        ending_text(snap, language) if snap.over else t("hand.seat_gone", language)
                    )
                    await self._edit(followed, content=None, view=text_layout(text), attachments=[])
                    return
                if followed.asleep:
                    note = "\n".join(x for x in (note, t("hand.asleep", language)) if x)
                if snap.later is not None:  # its legal plays, computed off the event loop
                    snap = await settled(snap)
                    if self.followed.get(key) is not followed:
                        continue  # the message's own answer was drawn meanwhile: it is newer
                ui = render_hand(snap, followed.sort, note=note, language=language)
                if hand != followed.hand:
                    self._uploading.add(key)
                    try:
                        files = await hand_files(snap, followed.sort, language=language)
                        await self._edit(followed, content=None, view=ui, attachments=files)
                    finally:
                        self._uploading.discard(key)
                    followed.picture = picture_key(snap, followed.sort, language=language)
                else:  # the layout names the picture the message has: not sent again
                    await self._edit(followed, content=None, view=ui)
                followed.tag, followed.hand = snap.tag, hand
                self.pushes += 1
                if followed.asleep:  # its last update: the token runs out now
                    self._drop(key, followed)
                    return
            except (discord.HTTPException, ValueError):
                where = at_ids(followed.guild_id, table_id)
                log.info("%s: could not follow a hand; it waits for My hand", where)
                self._drop(key, followed)
                return

    async def _edit(self, followed: Followed, **fields: Any) -> None:
        """Edit the hand message: through its interaction, or after a restart through the
        interaction's webhook rebuilt from the application id and the stored token."""
        if followed.interaction is not None:
            await followed.interaction.edit_original_response(**fields)
            return
        app_id = self.bot.application_id
        hook = discord.Webhook.partial(app_id, followed.token, client=self.bot)
        with handle_message_parameters(**fields) as params:
            await async_context.get().edit_original_interaction_response(
                app_id,
                followed.token,
                session=hook.session,
                proxy=hook.proxy,
                proxy_auth=hook.proxy_auth,
                payload=params.payload,
                multipart=params.multipart,
                files=params.files,
            )

    # -- sleep: the last update before the token runs out -----------------------------------------

    def _sleep_later(self, key: tuple[int, int], followed: Followed) -> None:
        """Arm the update that says this hand has gone to sleep, shortly before its token ends."""
        delay = followed.since + SLEEP_SECONDS - self._now()
        followed.sleeper = asyncio.get_running_loop().create_task(
            self._fall_asleep(key, followed, delay), name=f"shanghai-hand-sleep-{key[0]}"
        )

    async def _fall_asleep(self, key: tuple[int, int], followed: Followed, delay: float) -> None:
        await asyncio.sleep(max(delay, 0.0))
        if self.followed.get(key) is not followed:
            return  # a newer click follows this hand now, with a token of its own
        if followed.latest is None:  # revived, and its table never came back: nothing to draw
            self._drop(key, followed)
            return
        followed.asleep = followed.dirty = True
        self._kick(*key)

    # -- the tokens kept across a restart ---------------------------------------------------------

    def _save_soon(self) -> None:
        """Save the followed hands now if the last save is ``SAVE_SECONDS`` old, else by the
        periodic flush (``_flush``): a burst of clicks is one write, not one each."""
        self._unsaved = True
        if not self._flush.is_running():
            self._flush.start()
        if self._saver is not None and not self._saver.done():
            return  # the write in flight is followed by one more (``_save``)
        if self._now() - self._saved_at >= SAVE_SECONDS:
            self._saver = asyncio.get_running_loop().create_task(
                self._save(), name="shanghai-hands-save"
            )

    @tasks.loop(seconds=SAVE_SECONDS)
    async def _flush(self) -> None:
        """What changed since the last save, written at most ``SAVE_SECONDS`` later."""
        if self._unsaved and (self._saver is None or self._saver.done()):
            await self._save()

    async def _save(self) -> None:
        """Write the followed hands until what is written is what is followed (the clicks
        during one write make one more write)."""
        while self._unsaved:
            self._unsaved = False
            self._saved_at = self._now()
            await self._write()

    async def save(self) -> None:
        """Write what changed since the last save, and stop the periodic flush (shutdown)."""
        self._flush.cancel()
        if self._saver is not None and not self._saver.done():
            with contextlib.suppress(Exception):
                await self._saver
        if self._unsaved:
            await self._save()

    async def _write(self) -> None:
        """Write the followed hands that still have time."""
        store = getattr(self.bot, "store", None)
        if store is None:
            return
        now = self._now()
        rows = [
            {
                "table": table_id,
                "user": user_id,
                "token": f.token,
                "since": f.since,
                "sort": f.sort,
                "tag": f.tag,
                "language": f.language,
                "guild": f.guild_id,
            }
            for (table_id, user_id), f in self.followed.items()
            if f.token and not f.asleep and now - f.since < SLEEP_SECONDS
        ]
        try:
            with background_writes():
                await store.set_meta(STORE_KEY, json.dumps(rows))
        except Exception as error:  # the hands are followed still; a restart forgets them
            log.info("could not save the followed hands (%s)", type(error).__name__)

    async def revive(self, store: Any) -> None:
        """Follow again the hands saved before a restart whose tokens are still young: the
        restored tables' first change redraws them if what they show is out of date."""
        try:
            rows = json.loads(await store.get_meta(STORE_KEY) or "[]")
        except Exception as error:
            log.info("could not read the followed hands (%s)", type(error).__name__)
            return
        now = self._now()
        for row in rows if isinstance(rows, list) else []:
            try:
                key = (int(row["table"]), int(row["user"]))
                since = float(row["since"])
                followed = Followed(
                    None,
                    "r" if row.get("sort") == "r" else "s",
                    str(row["tag"]),
                    None,
                    since,
                    token=str(row["token"]),
                    language=resolve_language(row.get("language")),
                    guild_id=None if row.get("guild") is None else int(row["guild"]),
                )
            except (KeyError, TypeError, ValueError):
                continue
            if now - since < SLEEP_SECONDS and key not in self.followed:
                self.followed[key] = followed
                self._sleep_later(key, followed)
