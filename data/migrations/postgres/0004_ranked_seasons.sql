-- 0004: ranked and casual games, seasons, and a skill rating per player and season.
-- The same change as migrations/sqlite/0004_ranked_seasons.sql (see its comments), in
-- PostgreSQL's types.

ALTER TABLE results ADD COLUMN ranked BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE results ADD COLUMN place INTEGER NOT NULL DEFAULT 0 CHECK (place >= 0);
ALTER TABLE results ADD COLUMN season INTEGER NOT NULL DEFAULT 1 CHECK (season >= 1);
ALTER TABLE results ADD COLUMN on_board BOOLEAN NOT NULL DEFAULT TRUE;

-- A person's place: one more than the people of the same game ahead of them (not removed
-- while they were, then the better total): RANK() gives exactly that, ties sharing a place.
WITH placed AS (
    SELECT r.table_id, r.seat,
           RANK() OVER (
               PARTITION BY r.table_id
               ORDER BY COALESCE((t.away -> r.seat ->> 'timeouts')::integer, 0) >= 1000,
                        CASE WHEN r.game_kind = 'shanghai' THEN r.total ELSE -r.total END
           ) AS place
    FROM results AS r JOIN tables AS t ON t.id = r.table_id
    WHERE r.user_id > 0
)
UPDATE results AS r SET place = placed.place
FROM placed
WHERE placed.table_id = r.table_id AND placed.seat = r.seat;

UPDATE results AS r SET ranked = TRUE
WHERE r.user_id > 0
  AND (SELECT COUNT(*) FROM results AS other
       WHERE other.table_id = r.table_id AND other.user_id > 0) >= 2
  AND EXISTS (
    SELECT 1 FROM tables AS t
    WHERE t.id = r.table_id AND t.status = 'finished'
      AND CASE WHEN t.game_kind = 'shanghai'
               THEN COALESCE((t.options -> 'rules' ->> 'num_deals')::integer, 10) >= 10
               ELSE COALESCE((t.options -> 'rules' ->> 'target_points')::integer, 150) >= 150
          END
  );

CREATE TABLE seasons (
    guild_id   BIGINT  NOT NULL,
    number     INTEGER NOT NULL CHECK (number >= 2),
    started_at DOUBLE PRECISION NOT NULL,
    started_by BIGINT  NOT NULL,
    PRIMARY KEY (guild_id, number)
);

CREATE TABLE ratings (
    guild_id   BIGINT  NOT NULL,
    game_kind  TEXT    NOT NULL CHECK (game_kind IN ('shanghai', 'rummy')),
    season     INTEGER NOT NULL CHECK (season >= 1),
    user_id    BIGINT  NOT NULL,
    name       TEXT    NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    ordinal    DOUBLE PRECISION NOT NULL,
    games      INTEGER NOT NULL CHECK (games >= 0),
    wins       INTEGER NOT NULL CHECK (wins >= 0),
    sum_total  BIGINT  NOT NULL,
    best_total INTEGER NOT NULL,
    best_table BIGINT  NOT NULL,
    deals_out  INTEGER NOT NULL CHECK (deals_out >= 0),
    blind_outs INTEGER NOT NULL CHECK (blind_outs >= 0),
    streak     INTEGER NOT NULL CHECK (streak >= 0),
    best_streak INTEGER NOT NULL CHECK (best_streak >= 0),
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game_kind, season, user_id)
);

CREATE INDEX ratings_board ON ratings (guild_id, game_kind, season, ordinal DESC, games DESC, user_id);

INSERT INTO meta (key, value) VALUES ('ratings_rebuild', '0004')
ON CONFLICT (key) DO UPDATE SET value = excluded.value;
