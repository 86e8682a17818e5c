-- 0004: ranked and casual games, seasons, and a skill rating per player and season.
--
-- A finished game is *ranked* when at least two people played it, to its full length (ten
-- deals of Shanghai; Rummy to at least its preset's 150 points); otherwise it is *casual*: it
-- stays in the player's history and stats, marked, but never on the board. `place` is a
-- person's place among the people of that game (1 = best, ties share a place; a person who
-- left or was removed ranks last); computers (negative user ids) get place 0 and are never
-- ranked. `season` is the guild's season when the game finished (1 until an admin starts the
-- next, see `seasons`). `on_board` is 0 once an admin removed the member from the board.

ALTER TABLE results ADD COLUMN ranked INTEGER NOT NULL DEFAULT 0 CHECK (ranked IN (0, 1));
ALTER TABLE results ADD COLUMN place INTEGER NOT NULL DEFAULT 0 CHECK (place >= 0);
ALTER TABLE results ADD COLUMN season INTEGER NOT NULL DEFAULT 1 CHECK (season >= 1);
ALTER TABLE results ADD COLUMN on_board INTEGER NOT NULL DEFAULT 1 CHECK (on_board IN (0, 1));

-- Existing results, by the same rule. A person's place: one more than the people of the same
-- game ahead of them (not removed while they were, then the better total).
UPDATE results SET place = 1 + (
    SELECT COUNT(*) FROM results AS other, tables AS t
    WHERE other.table_id = results.table_id AND t.id = results.table_id AND other.user_id > 0
      AND (
        (COALESCE(json_extract(t.away, '$[' || other.seat || '].timeouts'), 0) >= 1000)
            < (COALESCE(json_extract(t.away, '$[' || results.seat || '].timeouts'), 0) >= 1000)
        OR (
          (COALESCE(json_extract(t.away, '$[' || other.seat || '].timeouts'), 0) >= 1000)
              = (COALESCE(json_extract(t.away, '$[' || results.seat || '].timeouts'), 0) >= 1000)
          AND CASE WHEN results.game_kind = 'shanghai' THEN other.total < results.total
                   ELSE other.total > results.total END
        )
      )
)
WHERE user_id > 0;

UPDATE results SET ranked = 1
WHERE user_id > 0
  AND (SELECT COUNT(*) FROM results AS other
       WHERE other.table_id = results.table_id AND other.user_id > 0) >= 2
  AND EXISTS (
    SELECT 1 FROM tables AS t
    WHERE t.id = results.table_id AND t.status = 'finished'
      AND CASE WHEN t.game_kind = 'shanghai'
               THEN COALESCE(json_extract(t.options, '$.rules.num_deals'), 10) >= 10
               ELSE COALESCE(json_extract(t.options, '$.rules.target_points'), 150) >= 150 END
  );

-- The seasons an admin started; season 1 is every guild's first and has no row.
CREATE TABLE seasons (
    guild_id   INTEGER NOT NULL,
    number     INTEGER NOT NULL CHECK (number >= 2),
    started_at REAL    NOT NULL,
    started_by INTEGER NOT NULL,
    PRIMARY KEY (guild_id, number)
) WITHOUT ROWID;

-- One player's rating in one guild, game and season (openskill's Plackett-Luce mu and sigma;
-- ordinal = mu - 3 sigma, what the board shows), with the ranked games' counts beside it so
-- the board and the server's records read this table alone (a row per player and season, not
-- every result): wins, totals, the best game and its table, deals gone out, blind outs, and
-- the win streak (now, and the season's longest). Updated in the transaction that stores a
-- ranked game.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game_kind  TEXT    NOT NULL CHECK (game_kind IN ('shanghai', 'rummy')),
    season     INTEGER NOT NULL CHECK (season >= 1),
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    ordinal    REAL    NOT NULL,
    games      INTEGER NOT NULL CHECK (games >= 0),
    wins       INTEGER NOT NULL CHECK (wins >= 0),
    sum_total  INTEGER NOT NULL,
    best_total INTEGER NOT NULL,
    best_table INTEGER NOT NULL,
    deals_out  INTEGER NOT NULL CHECK (deals_out >= 0),
    blind_outs INTEGER NOT NULL CHECK (blind_outs >= 0),
    streak     INTEGER NOT NULL CHECK (streak >= 0),
    best_streak INTEGER NOT NULL CHECK (best_streak >= 0),
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, game_kind, season, user_id)
) WITHOUT ROWID;

-- The board: one guild, game and season, in the order it is shown (no sort, ten rows read).
CREATE INDEX ratings_board ON ratings (guild_id, game_kind, season, ordinal DESC, games DESC, user_id);

-- Head-to-head joins the results of one table (the primary key starts with table_id).

-- The ratings of the games above are replayed by the store when it next opens (Python: the
-- rating model is openskill's), then this marker is deleted.
INSERT INTO meta (key, value) VALUES ('ratings_rebuild', '0004')
ON CONFLICT (key) DO UPDATE SET value = excluded.value;
