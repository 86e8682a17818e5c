"""The ranked board on both stores: ratings by openskill's own numbers, the minimum of ranked
games, ties, seasons, records, head-to-head, the stats card and removals.

Every expected rating is computed here by calling openskill's Plackett-Luce model directly on
the same games; every record and head-to-head figure is worked out by hand in the comments.
"""

from __future__ import annotations

import asyncio

import pytest
from openskill.models import PlackettLuce

from data import GameKind, ResultRow, Seat, StaleVersion, Store
from data.ranking import MIN_RANKED_GAMES
from data.rating import longest_streak

from .conftest import Backend, FakeClock

GUILD = 1
ANN, BOB, CAT, DAN = 1, 2, 3, 4
NAMES = {ANN: "Ann", BOB: "Bob", CAT: "Cat", DAN: "Dan"}


class Games:
    """Whole games straight to ``finish_game``, one fresh channel each."""

    def __init__(self, store: Store, clock: FakeClock) -> None:
        self.store = store
        self.clock = clock
        self.channel = 1000

    async def play(
        self,
        *totals: tuple[int, int],
        ranked: bool = True,
        game_kind: GameKind = "shanghai",
        guild_id: int = GUILD,
        winner: int | None = None,
        **counts: dict[int, int],
    ) -> int:
        """A game of (user, total) pairs; places by total (ties share), the best one wins
        unless ``winner`` says otherwise; ``counts`` like ``deals_out={ANN: 2}``."""
        self.channel += 1
        self.clock.advance(60)
        lower = game_kind == "shanghai"

        def ahead(a: int, b: int) -> bool:
            return a < b if lower else a > b

        best = min(t for _, t in totals) if lower else max(t for _, t in totals)
        rows = [
            ResultRow(
                user,
                NAMES[user],
                seat,
                total,
                (user == winner) if winner is not None else total == best,
                place=1 + sum(1 for _, other in totals if ahead(other, total)),
                **{name: values.get(user, 0) for name, values in counts.items()},
            )
            for seat, (user, total) in enumerate(totals)
        ]
        seats = [Seat(r.user_id, r.name) for r in rows]
        table = await self.store.create_table(guild_id, self.channel, game_kind, 1, seats, {})
        await self.store.start_game(table.id, seats, "{}", None, None)
        await self.store.finish_game(table.id, 0, "{}", rows, ranked=ranked)
        return table.id


@pytest.fixture
def games(store: Store, clock: FakeClock) -> Games:
    return Games(store, clock)


class Model:
    """openskill's own numbers for the same games, to compare the store's ratings with."""

    def __init__(self) -> None:
        self.model = PlackettLuce()
        self.ratings: dict[int, object] = {}

    def game(self, *users_and_ranks: tuple[int, int]) -> None:
        teams = [[self.ratings.get(u) or self.model.rating()] for u, _ in users_and_ranks]
        rated = self.model.rate(teams, ranks=[float(r) for _, r in users_and_ranks])  # type: ignore[arg-type]
        for (user, _), [rating] in zip(users_and_ranks, rated, strict=True):
            self.ratings[user] = rating

    def ordinal(self, user: int) -> float:
        return float(self.ratings[user].ordinal())  # type: ignore[attr-defined]

    def mu_sigma(self, user: int) -> tuple[float, float]:
        rating = self.ratings[user]
        return float(rating.mu), float(rating.sigma)  # type: ignore[attr-defined]


async def test_casual_games_never_reach_the_board_but_count_in_stats(
    store: Store, games: Games
) -> None:
    for _ in range(MIN_RANKED_GAMES + 2):
        await games.play((ANN, 0), (BOB, 40), ranked=False)
    assert await store.leaderboard(GUILD) == []
    stats = await store.player_stats(GUILD, ANN)
    assert stats is not None and stats.games == MIN_RANKED_GAMES + 2
    card = await store.player_card(GUILD, ANN)
    assert card is not None
    assert (card.ranked_games, card.best_ranked_total, card.rating) == (0, None, None)
    assert [g.ranked for g in card.recent] == [False] * (MIN_RANKED_GAMES + 2)


async def test_ratings_move_by_openskills_plackett_luce(store: Store, games: Games) -> None:
    model = Model()
    # Game 1: Ann 100, Bob 200, Cat 300 -> ranks 1, 2, 3.
    await games.play((ANN, 100), (BOB, 200), (CAT, 300))
    model.game((ANN, 1), (BOB, 2), (CAT, 3))
    # Game 2: Cat 50 wins, Ann and Bob tie on 120 -> ranks 2, 2, 1 (a tie is a draw).
    await games.play((ANN, 120), (BOB, 120), (CAT, 50))
    model.game((ANN, 2), (BOB, 2), (CAT, 1))
    # Game 3: Bob 80, Ann 90 (Cat absent) -> ranks 1, 2.
    await games.play((BOB, 80), (ANN, 90))
    model.game((BOB, 1), (ANN, 2))
    # Ann and Bob have 3 ranked games, Cat 2: only the first two are listed.
    board = await store.leaderboard(GUILD)
    assert MIN_RANKED_GAMES == 3
    expected = sorted((ANN, BOB), key=model.ordinal, reverse=True)
    assert [row.user_id for row in board] == expected
    for row in board:
        assert row.rating == pytest.approx(model.ordinal(row.user_id))
        assert (row.mu, row.sigma) == pytest.approx(model.mu_sigma(row.user_id))
    ann = next(row for row in board if row.user_id == ANN)
    # Ann: 100 (win), 120, 90 -> 3 games, 1 win, average 310/3, best (lowest) 90.
    assert (ann.games, ann.wins, ann.best_total) == (3, 1, 90)
    assert ann.average_total == pytest.approx(310 / 3)
    # A tie moves both players alike: after game 2 alone they would be equal.
    tie = Model()
    tie.game((ANN, 2), (BOB, 2), (CAT, 1))
    assert tie.mu_sigma(ANN) == tie.mu_sigma(BOB)
    # Cat's third game puts Cat on the board too.
    await games.play((CAT, 10), (DAN, 20))
    model.game((CAT, 1), (DAN, 2))
    listed = {row.user_id: row.rating for row in await store.leaderboard(GUILD)}
    assert set(listed) == {ANN, BOB, CAT}
    assert listed[CAT] == pytest.approx(model.ordinal(CAT))


async def test_seasons_start_afresh_and_old_boards_stay(store: Store, games: Games) -> None:
    for _ in range(MIN_RANKED_GAMES):
        await games.play((ANN, 10), (BOB, 50))
    first = await store.leaderboard(GUILD)
    assert [row.user_id for row in first] == [ANN, BOB]
    assert await store.current_season(GUILD) == 1
    assert await store.start_season(GUILD, ANN) == 2
    assert await store.current_season(GUILD) == 2
    assert await store.current_season(2) == 1  # another guild keeps its own seasons
    assert await store.leaderboard(GUILD) == []  # the new season starts empty
    assert await store.leaderboard(GUILD, season=1) == first  # the old one is unchanged
    # In season 2, Bob wins three times; the ratings start from the model's default again.
    model = Model()
    for _ in range(MIN_RANKED_GAMES):
        await games.play((ANN, 60), (BOB, 20))
        model.game((BOB, 1), (ANN, 2))
    second = await store.leaderboard(GUILD)
    assert [row.user_id for row in second] == [BOB, ANN]
    assert second[0].rating == pytest.approx(model.ordinal(BOB))
    assert await store.leaderboard(GUILD, season=1) == first
    # Nothing was deleted: every result is still in the player's history.
    stats = await store.player_stats(GUILD, ANN)
    assert stats is not None and stats.games == 2 * MIN_RANKED_GAMES
    assert await store.start_season(GUILD, BOB) == 3


async def test_server_records_by_hand(store: Store, games: Games) -> None:
    # Ranked games, in order (W = won):
    #   1: Ann 30 W, Bob 90          Ann deals out 3, blind 1; Bob deals out 1
    #   2: Ann 40 W, Bob 60          Ann deals out 2
    #   3: Bob 20 W, Ann 70          Bob deals out 4, blind 2
    #   4: Bob 25 W, Cat 80
    #   5: Bob 35 W, Ann 45
    # A casual game Cat 0 must not count, nor another guild's.
    await games.play((ANN, 30), (BOB, 90), deals_out={ANN: 3, BOB: 1}, blind_outs={ANN: 1})
    await games.play((ANN, 40), (BOB, 60), deals_out={ANN: 2})
    best = await games.play((BOB, 20), (ANN, 70), deals_out={BOB: 4}, blind_outs={BOB: 2})
    await games.play((BOB, 25), (CAT, 80))
    await games.play((BOB, 35), (ANN, 45))
    await games.play((CAT, 0), (ANN, 5), ranked=False, deals_out={CAT: 10})
    await games.play((DAN, 0), (CAT, 5), guild_id=2, deals_out={DAN: 10})
    records = {r.kind: r for r in await store.server_records(GUILD)}
    # Most wins: Bob 3 (games 3-5), Ann 2. Best game: Bob's 20 in game 3. Longest streak:
    # Bob 3 (games 3, 4, 5), Ann 2 (games 1, 2). Deals out: Ann 5, Bob 5 -> the lower id, Ann.
    # Blind outs: Bob 2, Ann 1.
    assert (records["wins"].user_id, records["wins"].value) == (BOB, 3)
    assert (records["best_game"].user_id, records["best_game"].value) == (BOB, 20)
    assert records["best_game"].table_id == best
    assert (records["win_streak"].user_id, records["win_streak"].value) == (BOB, 3)
    assert (records["zero_deals"].user_id, records["zero_deals"].value) == (ANN, 5)
    assert (records["blind_outs"].user_id, records["blind_outs"].value) == (BOB, 2)
    assert records["wins"].name == "Bob"
    assert await store.server_records(GUILD, "rummy") == []


async def test_head_to_head_by_hand(store: Store, games: Games) -> None:
    # Ann against Bob: game 1 Ann ahead (10 < 50), game 2 Bob ahead, game 3 level (both 30),
    # game 4 casual, Ann ahead; game 5 without Bob. Ann's totals 10, 70, 30, 5 -> average
    # 115/4; Bob's 50, 20, 30, 40 -> 140/4.
    await games.play((ANN, 10), (BOB, 50))
    await games.play((ANN, 70), (BOB, 20), (CAT, 90))
    await games.play((ANN, 30), (BOB, 30))
    await games.play((ANN, 5), (BOB, 40), ranked=False)
    await games.play((ANN, 0), (CAT, 40))
    h2h = await store.head_to_head(GUILD, ANN, BOB)
    assert (h2h.games, h2h.ranked_games, h2h.ahead, h2h.behind, h2h.level) == (4, 3, 2, 1, 1)
    assert h2h.average_total == pytest.approx(115 / 4)
    assert h2h.other_average_total == pytest.approx(140 / 4)
    mirrored = await store.head_to_head(GUILD, BOB, ANN)
    assert (mirrored.ahead, mirrored.behind) == (1, 2)
    nobody = await store.head_to_head(GUILD, BOB, DAN)
    assert (nobody.games, nobody.average_total) == (0, None)


async def test_player_card_by_hand(store: Store, games: Games) -> None:
    # Ann: ranked W 40, ranked W 30, casual W 0 (one deal), ranked 80, ranked W 35, ranked W 45
    # -> 6 games, 4 ranked wins + 1 casual; ranked streak 2 (games 1-2; 5-6 is also 2); the
    # casual 0 is no best game: best ranked 30.
    await games.play((ANN, 40), (BOB, 60))
    await games.play((ANN, 30), (BOB, 60))
    await games.play((ANN, 0), (BOB, 9), ranked=False)
    await games.play((ANN, 80), (BOB, 60))
    await games.play((ANN, 35), (BOB, 60))
    await games.play((ANN, 45), (BOB, 60))
    card = await store.player_card(GUILD, ANN)
    assert card is not None
    assert (card.stats.games, card.stats.wins, card.ranked_games) == (6, 5, 5)
    assert (card.best_ranked_total, card.longest_win_streak) == (30, 2)
    assert [g.total for g in card.recent] == [40, 30, 0, 80, 35, 45]  # oldest first
    assert [g.ranked for g in card.recent] == [True, True, False, True, True, True]
    assert card.season == 1 and card.board_games == 5
    [row] = [r for r in await store.leaderboard(GUILD) if r.user_id == ANN]
    assert card.rating == pytest.approx(row.rating)
    assert await store.player_card(GUILD, DAN) is None


def test_longest_streak() -> None:
    assert longest_streak([]) == 0
    assert longest_streak([True, True, False, True, True, True, False]) == 3
    assert longest_streak([False, False]) == 0


async def test_removing_a_member_from_the_board(store: Store, games: Games) -> None:
    for _ in range(MIN_RANKED_GAMES):
        await games.play((ANN, 10), (BOB, 50), (CAT, 70))
    await games.play((ANN, 0), (BOB, 5), ranked=False)
    await store.start_season(GUILD, DAN)
    await games.play((ANN, 10), (BOB, 50))
    before = {r.user_id: r.rating for r in await store.leaderboard(GUILD, season=1)}
    entries = await store.board_entries(GUILD, ANN)
    # Ann: 3 + 1 ranked games (seasons 1 and 2) and 1 casual.
    assert (entries.results, entries.ranked_games, entries.seasons) == (5, 4, (1, 2))
    removed = await store.remove_from_board(GUILD, ANN)
    assert removed == entries
    after = {r.user_id: r.rating for r in await store.leaderboard(GUILD, season=1)}
    assert ANN not in after
    assert after == {BOB: before[BOB], CAT: before[CAT]}  # the others' ratings stay
    records = {r.kind: r.user_id for r in await store.server_records(GUILD)}
    assert ANN not in records.values()
    assert (await store.board_entries(GUILD, ANN)).results == 0
    assert (await store.remove_from_board(GUILD, ANN)).results == 0
    # Her history stays, and a game she plays later counts again, from a fresh rating.
    stats = await store.player_stats(GUILD, ANN)
    assert stats is not None and stats.games == 5
    await games.play((ANN, 10), (BOB, 50))
    assert (await store.board_entries(GUILD, ANN)).results == 1


async def test_the_rating_and_results_are_one_transaction(
    store: Store, games: Games, backend: Backend
) -> None:
    # A game refused by the version check writes neither results nor ratings.
    rows = [
        ResultRow(ANN, "Ann", 0, 10, True, place=1),
        ResultRow(BOB, "Bob", 1, 20, False, place=2),
    ]
    seats = [Seat(ANN, "Ann"), Seat(BOB, "Bob")]
    table = await store.create_table(GUILD, 77, "shanghai", 1, seats, {})
    await store.start_game(table.id, seats, "{}", None, None)
    with pytest.raises(StaleVersion):
        await store.finish_game(table.id, 5, "{}", rows, ranked=True)
    assert await backend.fetch("SELECT COUNT(*) FROM ratings") == [(0,)]
    await store.finish_game(table.id, 0, "{}", rows, ranked=True)
    assert await backend.fetch("SELECT COUNT(*) FROM ratings") == [(2,)]
    stored = await store.table_results(table.id)
    assert [(r.user_id, r.place) for r in stored] == [(ANN, 1), (BOB, 2)]
    assert stored == rows


async def test_two_games_finishing_at_once_both_count(store: Store, games: Games) -> None:
    # Ann beats Bob at two tables that finish together: each rating update must start from
    # the other's result, so both players end with two games and the model applied twice.
    seats = [Seat(ANN, "Ann"), Seat(BOB, "Bob")]
    rows = [
        ResultRow(ANN, "Ann", 0, 10, True, place=1),
        ResultRow(BOB, "Bob", 1, 20, False, place=2),
    ]
    tables = []
    for channel in (501, 502):
        table = await store.create_table(GUILD, channel, "shanghai", 1, seats, {})
        await store.start_game(table.id, seats, "{}", None, None)
        tables.append(table.id)
    await asyncio.gather(*(store.finish_game(t, 0, "{}", rows, ranked=True) for t in tables))
    model = Model()
    model.game((ANN, 1), (BOB, 2))
    model.game((ANN, 1), (BOB, 2))
    await games.play((ANN, 10), (BOB, 20))  # a third, to reach the board
    model.game((ANN, 1), (BOB, 2))
    board = {row.user_id: row for row in await store.leaderboard(GUILD)}
    assert (board[ANN].games, board[BOB].games) == (3, 3)
    assert board[ANN].rating == pytest.approx(model.ordinal(ANN))
    assert board[BOB].rating == pytest.approx(model.ordinal(BOB))
